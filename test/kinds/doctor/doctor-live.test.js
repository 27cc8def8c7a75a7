import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createLiveView, sparkline } from '../../../lib/kinds/doctor/live.js'
import { createStyle } from '../../../lib/report/style.js'

/** A terminal that keeps what is written to it. */
function fakeTerminal () {
  const written = /** @type {string[]} */ ([])
  const stream = /** @type {NodeJS.WriteStream} */ (/** @type {unknown} */ ({ isTTY: true, columns: 100, write: (/** @type {string} */ text) => { written.push(text); return true } }))
  return { stream, written }
}

const summary = (/** @type {Record<string, unknown>} */ over = {}) => ({ collector: 'doctor', pid: 42, t: 0, delayMax: 3, elu: 0.5, cpu: 0.6, heapUsed: 8e6, rss: 60e6, rps: 900, blocked: false, ...over })

test('the live view draws loop delay, loop busy, CPU, heap and rss, and redraws in place', () => {
  const { stream, written } = fakeTerminal()
  const live = createLiveView(stream, createStyle({ isTTY: false }))
  live.loadProgress({ elapsed: 3, duration: 10, responses: 2700, errors: 0, amount: Infinity, lastSecond: 900 })
  live.update(summary())
  const first = written[0]
  assert.ok(!first.startsWith('\u001b[6A'), 'the first frame moves nowhere')
  assert.match(first, /dyno doctor · pid 42 · load 3 s of 10 s, 900 req\/s\n/)
  assert.match(first, /loop delay +\S+ +max 3 ms\n/)
  assert.match(first, /loop busy +\S+ +50%\n/)
  assert.match(first, /CPU +\S+ +60%\n/)
  assert.match(first, /heap used +\S+ +8 MB\n/)
  assert.match(first, /rss +\S+ +60 MB\n$/)
  live.update(summary({ delayMax: 212, blocked: true }))
  assert.ok(written[1].startsWith('\u001b[6A'), 'the next frame goes back up over the last one')
  assert.match(written[1], /loop delay +\S{2} +max 212 ms \(stuck\)/)
  live.done()
  assert.equal(written[2], '\u001b[6A' + '\u001b[2K\n'.repeat(6) + '\u001b[6A', 'done takes the view off the screen')
})

test('a sparkline scales to its largest value, or to the top given', () => {
  assert.equal(sparkline([0, 1, 2, 4]), '▁▃▅█')
  assert.equal(sparkline([0, 0.5, 1], 1), '▁▅█')
})
