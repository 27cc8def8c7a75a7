import { CATEGORIES, TIERS } from './flame-data.js'

/** @typedef {import('./flame-data.js').FlameData} FlameData */

/**
 * @typedef {object} HotFunction
 * @property {string} name
 * @property {string} location file:line, or '' for native code
 * @property {string} category
 * @property {string} tier
 * @property {number} selfSamples
 * @property {number} selfMs
 * @property {number} selfPercent of all samples in the tree
 */

/**
 * The functions that spent the most time at the top of the stack.
 * @param {FlameData} data
 * @param {number} count
 * @returns {HotFunction[]}
 */
export function hotFunctions (data, count) {
  const { frames, nodes, strings, meta } = data
  const self = new Float64Array(frames.name.length)
  for (let i = 1; i < nodes.frame.length; i++) self[nodes.frame[i]] += nodes.self[i]
  const total = meta.samples || 1
  const msPerSample = meta.intervalUs / 1000
  return [...self.keys()]
    .filter((f) => self[f] > 0)
    .sort((a, b) => self[b] - self[a])
    .slice(0, count)
    .map((f) => ({
      name: strings[frames.name[f]],
      location: frames.file[f] >= 0 ? `${strings[frames.file[f]]}:${frames.line[f]}` : '',
      category: CATEGORIES[frames.category[f]],
      tier: TIERS[frames.tier[f]],
      selfSamples: self[f],
      selfMs: self[f] * msPerSample,
      selfPercent: (100 * self[f]) / total
    }))
}
