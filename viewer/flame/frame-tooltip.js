/* What the tooltip says about a frame of the flamegraph: which function, where, and how much time. */
import { fineMs } from '../../lib/format.js'
import { formatLocation, formatShare } from '../shared/format.js'
import { TIER_NAMES, amountText } from './profile.js'
/** @import { Profile } from './profile.js' */
/** @import { FunctionStats } from './stats.js' */
/** @import { Tree } from './tree-builder.js' */

const KIND_NAMES = ['app code', 'dependency (node_modules)', 'Node.js core', 'native / V8 builtin', 'garbage collection', 'V8 (program)']

/**
 * @param {Profile} profile
 * @param {Tree} tree
 * @param {number} i the node under the pointer
 * @param {boolean} inverted whether `tree` is the inverted one
 * @param {FunctionStats} stats
 * @returns {{ title: string, where: string, rows: [string, string][] }}
 */
export function describeFrame (profile, tree, i, inverted, stats) {
  const all = tree.total[0]
  const amount = amountText(profile.meta)
  const samples = (/** @type {number} */ n) => formatShare(n, all) + ' (' + amount(n) + ')'
  if (i === 0) return { title: 'all of it', where: '', rows: [['in all', amount(all)]] }
  const { frames } = profile
  const f = tree.frame[i]
  const where = formatLocation(frames.file[f], frames.line[f], frames.column[f])
  /** @type {[string, string][]} */
  const rows = []
  if (inverted) {
    rows.push([tree.depth[i] === 1 ? 'top of stack' : 'with these callers', samples(tree.total[i])])
  } else {
    rows.push(['on stack', samples(tree.total[i])], ['top of stack', samples(tree.self[i])])
  }
  rows.push(['function, all calls', 'self ' + formatShare(stats.self[f], all) + ', total ' + formatShare(stats.total[f], all)])
  rows.push(['kind', KIND_NAMES[frames.category[f]] || 'unknown'])
  const tier = frames.tier[f]
  rows.push(['tier', profile.meta.tiersKnown === false ? 'unknown: this Node did not report tiers' : tier ? TIER_NAMES[tier] + (tier >= 3 ? ' (optimized)' : ' (not optimized)') : 'unknown'])
  if (tree.inlined[i]) rows.push(['inlined', 'yes, into its caller\'s optimized code'])
  const before = inverted ? tree.beforeTotal : tree.before
  if (before) {
    const after = inverted ? tree.total[i] : tree.self[i]
    const change = after - before[i]
    rows.unshift([inverted ? 'before → after' : 'self, before → after', fineMs(before[i]) + ' → ' + fineMs(after) + ' per request (' + (change < 0 ? '\u2212' : '+') + fineMs(Math.abs(change)) + ')'])
  }
  return { title: frames.name[f], where, rows }
}
