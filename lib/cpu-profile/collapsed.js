/** @typedef {import('./flame-data.js').FlameData} FlameData */

/**
 * Collapsed stacks ("folded"), as flamegraph.pl and speedscope read them:
 * one line per distinct stack, frames root first separated by `;`, then the
 * sample count. A frame reads `name file:line`; `;` and line breaks in names
 * would break the format and become spaces.
 * @param {FlameData} data
 * @returns {string}
 */
export function toCollapsed (data) {
  const { frames, nodes, strings } = data
  const labels = frames.name.map((name, i) => {
    const file = frames.file[i] >= 0 ? ` ${strings[frames.file[i]]}:${frames.line[i]}` : ''
    return `${strings[name]}${file}`.replace(/[;\r\n]/g, ' ')
  })
  /** @type {string[]} */
  const lines = []
  /** @type {string[]} path labels of the current node, by depth */
  const path = []
  const depth = new Int32Array(nodes.frame.length)
  for (let i = 1; i < nodes.frame.length; i++) {
    depth[i] = depth[nodes.parent[i]] + 1
    path[depth[i] - 1] = labels[nodes.frame[i]]
    if (nodes.self[i] > 0) lines.push(`${path.slice(0, depth[i]).join(';')} ${nodes.self[i]}`)
  }
  return lines.length ? lines.join('\n') + '\n' : ''
}
