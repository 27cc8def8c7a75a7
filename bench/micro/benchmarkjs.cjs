// The same suites in benchmark.js, one isolate for all cases, as its users run them.
// SUITE=aa|ten|order, ORDER=reversed. Prints one JSON line: ops/sec per case and "Fastest is".
// benchmark.js is one of the peers installed in tools/bench-peers (npm ci --prefix tools/bench-peers).
const Benchmark = require(require('node:path').join(__dirname, '../../tools/bench-peers/node_modules/benchmark'))
const suite = new Benchmark.Suite()

async function main () {
  const f = await import('./functions.js')
  let sink
  const nums = f.numbers()
  const strs = f.strings()
  const suites = {
    aa: [['a', () => { sink = f.sumA(nums) }], ['b', () => { sink = f.sumB(nums) }]],
    ten: [['less', () => { sink = f.work(nums, 10) }], ['more', () => { sink = f.work(nums, 11) }]],
    order: [['numbers', () => { for (let i = 1; i < nums.length; i++) sink = f.combine(nums[i - 1], nums[i]) }],
      ['strings', () => { for (let i = 1; i < strs.length; i++) sink = f.combine(strs[i - 1], strs[i]) }]]
  }
  const defs = suites[process.env.SUITE]
  if (process.env.ORDER === 'reversed') defs.reverse()
  for (const [name, fn] of defs) suite.add(name, fn)
  suite.on('complete', function () {
    const ops = {}
    for (let i = 0; i < this.length; i++) ops[this[i].name] = this[i].hz
    console.log(JSON.stringify({ ops, fastest: this.filter('fastest').map('name'), sink: typeof sink }))
  })
  suite.run()
}
main()
