/**
 * The pieces of dyno compare --load that decide, on recorded figures: the
 * order of the rounds, the turns two running apps take, and the paired
 * comparison of each metric.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compareLoadRounds } from '../../../lib/kinds/compare/load-rounds.js'
import { PairRound, roundOrder, roundPlan } from '../../../lib/kinds/compare/pair-round.js'
import { ratioText } from '../../../lib/report/comparison-table.js'
import { renderLoadComparison } from '../../../lib/kinds/compare/load-terminal.js'
import { createStyle } from '../../../lib/report/style.js'

test('rounds alternate which version goes first', () => {
  assert.deepEqual([0, 1, 2].map(roundOrder), [['before', 'after'], ['after', 'before'], ['before', 'after']])
})

/**
 * Two sides at a PairRound, each load answering at the rate `rate(side, step)` gives; the steps each took.
 * @param {PairRound} pair
 * @param {(side: string, step: number) => number} rate
 */
async function takeSteps (pair, rate) {
  /** @type {string[][]} */
  const steps = []
  /** @type {string[]} each load as it started, with the loads that ran at that moment */
  const started = []
  let running = 0
  const side = async (/** @type {'before' | 'after'} */ name) => {
    for (let step = 0; ; step++) {
      const load = await pair.turn(name)
      if (!load) return
      running++
      const size = load.duration ?? `${load.amount} requests`
      ;(steps[step] ??= []).push(`${name} ${size}`)
      started.push(`${name} ${size}${running > 1 ? ' together' : ''}`)
      // The two finish in either order.
      await new Promise((resolve) => setTimeout(resolve, name === 'before' ? step % 3 : 1))
      running--
      pair.done(name, /** @type {any} */ ({ duration: 1, requests: { completed: rate(name, step) } }), 5)
    }
  }
  await Promise.all([side('after'), side('before')])
  return Object.assign(steps, { started })
}

test('a pair warms up at the same time until both rates settle, then takes the load that counts at the same time', async () => {
  const plan = roundPlan({ url: 'http://127.0.0.1:$PORT/', duration: 2 })
  assert.equal(plan.warmUp.duration, 0.25)
  assert.equal(plan.warmUpLoads, 8)
  // before settles at its third warm-up (100, 200, 205), after at its second (300, 310).
  const rates = { before: [100, 200, 205], after: [300, 310] }
  const pair = new PairRound(['after', 'before'], plan, null)
  const steps = await takeSteps(pair, (side, step) => rates[/** @type {'before' | 'after'} */ (side)][step] ?? 1000)
  assert.deepEqual(steps.map((step) => [...step].sort()), [
    ['after 0.25', 'before 0.25'], ['after 0.25', 'before 0.25'], ['after 0.25', 'before 0.25'], ['after 2', 'before 2']
  ])
  assert.equal(pair.counted.before.load?.requests.completed, 1000)
  assert.equal(pair.counted.after.cpuMs, 5)
})

test('two versions whose rates are more than 1.5x apart once warm are loaded one at a time, and stay so', async () => {
  const pair = new PairRound(['after', 'before'], roundPlan({ url: 'http://127.0.0.1:$PORT/', duration: 0.5 }), null)
  const steps = await takeSteps(pair, (side) => (side === 'before' ? 100 : 1000))
  assert.equal(pair.mode, 'alone')
  // Two warm-ups together (both settled, 10x apart), then the loads that count, one at a time.
  assert.deepEqual(steps.started, ['after 0.25', 'before 0.25 together', 'after 0.25', 'before 0.25 together', 'after 0.5', 'before 0.5'])
  const next = new PairRound(['before', 'after'], roundPlan({ url: 'http://127.0.0.1:$PORT/', duration: 0.5 }), 'alone')
  assert.deepEqual((await takeSteps(next, () => 100)).started, ['before 0.25', 'after 0.25', 'before 0.25', 'after 0.25', 'before 0.5', 'after 0.5'])
})

test('a warm-up that never settles ends when it has lasted as long as the load that counts', async () => {
  const pair = new PairRound(['before', 'after'], roundPlan({ url: 'http://127.0.0.1:$PORT/', duration: 1 }), null)
  const steps = await takeSteps(pair, (_side, step) => (step % 2 ? 100 : 300))
  assert.deepEqual(steps.map((s) => s.length), [2, 2, 2, 2, 2])
  assert.deepEqual([...steps[4]].sort(), ['after 1', 'before 1'])
})

test('a load of a number of requests warms up with a tenth of them, one version at a time', async () => {
  const plan = roundPlan({ url: 'http://127.0.0.1:$PORT/', amount: 500 })
  assert.equal(plan.warmUp.amount, 50)
  // Sharing the CPU, the cheaper version would finish first and leave the other the CPU alone.
  const pair = new PairRound(['before', 'after'], plan, null)
  assert.equal(pair.mode, 'alone')
  assert.deepEqual((await takeSteps(pair, () => 100)).started, ['before 50 requests', 'after 50 requests', 'before 50 requests', 'after 50 requests', 'before 500 requests', 'after 500 requests'])
})

test('closing a pair releases the side that waits', async () => {
  const plan = roundPlan({ url: 'http://127.0.0.1:$PORT/', duration: 1 })
  const pair = new PairRound(['before', 'after'], plan, null)
  const waiting = pair.turn('after')
  pair.close()
  assert.equal(await waiting, null)
  assert.equal(await pair.turn('before'), null)
})

/** @param {number} rps @param {number} p50 @param {number} p99 */
const figures = (rps, p50, p99) => ({ requestsPerSecond: rps, p50, p99, cpuPerRequest: null, completed: rps, errors: 0, non2xx: 1 })

test('each metric is compared round by round; lower latency is faster', () => {
  // The machine drifts from round to round; the after version keeps 20% more throughput within each.
  const drift = [1, 0.8, 1.1, 0.9, 1.05, 0.85]
  const rounds = drift.map((d, i) => ({
    order: /** @type {import('../../../lib/kinds/compare/pair-round.js').Side[]} */ (i % 2 ? ['after', 'before'] : ['before', 'after']),
    before: figures(1000 * d, 10 / d, 40 / d),
    after: figures(1200 * d * (1 + (i % 3) / 100), 8 / d, 40 / d * (1 + (i % 2) / 50))
  }))
  const { comparisons, totals } = compareLoadRounds(rounds)
  const [requests, p50, p99] = comparisons
  assert.equal(requests.name, 'requests')
  assert.equal(requests.verdict, 'faster')
  assert.ok(requests.low > 1.15 && requests.high < 1.25)
  assert.equal(p50.verdict, 'faster')
  assert.ok(p50.ratio < 1)
  assert.equal(p99.verdict, 'indistinguishable')
  assert.deepEqual(totals.before, { completed: rounds.reduce((s, r) => s + r.before.completed, 0), errors: 0, non2xx: 6 })
})

test('a side that answered nothing in any round: no comparison, no ratio, no verdict; the terminal says which side', () => {
  const rounds = [1, 2].map(() => ({ order: /** @type {('before' | 'after')[]} */ (['before', 'after']), before: figures(900, 2, 9), after: { ...figures(0, 0, 0), completed: 0 } }))
  const { comparisons, totals } = compareLoadRounds(rounds)
  assert.deepEqual(comparisons, [])
  assert.equal(totals.after.completed, 0)
  const result = /** @type {any} */ ({ versions: { before: { label: 'before', command: ['node', 'a.js'], commit: null }, after: { label: 'after', command: ['node', 'b.js'], commit: null } }, settings: { fresh: false, rounds: 2 }, comparisons, totals, rounds, flame: null })
  const text = renderLoadComparison(result, { style: createStyle({ isTTY: false }) })
  assert.match(text, /0 of 2 rounds compared/)
  assert.match(text, /No round could be compared: after answered no request; no ratio, no verdict\./)
  assert.doesNotMatch(text, /1\.00x|indistinguishable/)
})

test('the before and after columns are geometric means of the rounds, so that their quotient is the ratio beside them', () => {
  const rounds = [[9821, 9000], [12000, 8000], [7000, 9200]].map(([b, a]) => ({ order: /** @type {('before' | 'after')[]} */ (['before', 'after']), before: figures(b, 2, 9), after: figures(a, 2, 9) }))
  const [requests] = compareLoadRounds(rounds).comparisons
  assert.ok(Math.abs(requests.after / requests.before - requests.ratio) < 1e-9, `${requests.after} / ${requests.before} against ${requests.ratio}`)
})

test('a ratio whose interval has no end is printed without one, never as (0.00x–∞) or (∞–∞)', () => {
  assert.equal(ratioText({ ratio: 0.99, low: Infinity, high: Infinity }), '0.99x (no interval)')
  assert.equal(ratioText({ ratio: 1.2, low: 0, high: Infinity }, 'faster'), '1.20x faster (no interval)')
  assert.equal(ratioText({ ratio: 1.2, low: 1.1, high: 1.3 }), '1.20x (1.10x–1.30x)')
})
