/**
 * FlameData's `sources`: the text of each app file the samples fell in,
 * with the samples each of its lines took, for the report's source panel.
 * @param {import('./call-tree.js').CallTree} tree
 * @param {import('./frame-table.js').FrameTable} frames
 * @param {(path: string) => string | null} readSource the text of an app file, or null
 * @returns {Record<string, import('./flame-data.js').FlameSource>} by `frames.file` string index
 */
export function appSources (tree, frames, readSource) {
  /** @type {Map<number, { path: string, lines: Map<number, number> }>} by file string index */
  const files = new Map()
  for (const [node, lines] of tree.lines) {
    const frame = tree.nodes.frame[node]
    const path = frames.appPaths[frame]
    if (path === null) continue
    const file = frames.columns.file[frame]
    let seen = files.get(file)
    if (!seen) files.set(file, (seen = { path, lines: new Map() }))
    for (const [line, ticks] of lines) seen.lines.set(line, (seen.lines.get(line) ?? 0) + ticks)
  }
  /** @type {Record<string, import('./flame-data.js').FlameSource>} */
  const sources = {}
  for (const [file, { path, lines }] of files) {
    const text = readSource(path)
    if (text === null) continue
    sources[String(file)] = { text, lines: Object.fromEntries([...lines].sort((a, b) => a[0] - b[0])) }
  }
  return sources
}
