import { readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { SourceMapper } from './source-maps.js'

/** Scripts larger than this are not searched for a source map comment. */
const MAX_SCRIPT_BYTES = 16 * 1024 * 1024
/** The most scripts read from disk in search of a map. */
const MAX_SCRIPTS = 2000

/**
 * The source maps of a flame run's scripts: those the agent found in Node
 * (`sourcemaps.json`: tsx, --enable-source-maps), and, for the other scripts
 * on disk, the map their `sourceMappingURL` comment names (tsc --sourceMap,
 * esbuild), inline or in a file beside them. A map that is named but cannot be
 * read is a warning; the report then shows that script's generated code.
 * @param {string} folder the run folder
 * @param {Iterable<string>} urls the profiled scripts
 * @param {string} cwd for the warnings' paths
 */
export function loadSourceMaps (folder, urls, cwd) {
  /** @type {Map<string, import('./source-maps.js').ScriptSourceMap>} */
  const maps = new Map()
  /** @type {string[]} */
  const warnings = []
  for (const { url, map, generated } of readCollected(folder)) maps.set(url, { map, generated })
  let read = 0
  for (const url of urls) {
    if (maps.has(url) || !url.startsWith('file:') || read >= MAX_SCRIPTS) continue
    read++
    const found = mapOnDisk(url)
    if (found === null) continue
    if ('problem' in found) warnings.push(`${shown(url, cwd)}: ${found.problem}; the report shows its generated code`)
    else maps.set(url, found)
  }
  const mapper = new SourceMapper(maps)
  for (const url of mapper.broken) warnings.push(`${shown(url, cwd)}: its source map is not a valid map; the report shows its generated code`)
  return { mapper, warnings }
}

/** @param {string} folder @returns {{ url: string, map: object, generated: string | null }[]} */
function readCollected (folder) {
  try {
    const raw = JSON.parse(readFileSync(join(folder, 'sourcemaps.json'), 'utf8'))
    return Array.isArray(raw) ? raw.filter((m) => m && typeof m.url === 'string' && m.map && typeof m.map === 'object') : []
  } catch {
    return []
  }
}

/**
 * The map a script's last `sourceMappingURL` comment names; null when it
 * names none.
 * @param {string} url
 * @returns {{ map: object, mapUrl: string } | { problem: string } | null}
 */
function mapOnDisk (url) {
  let path
  let text
  try {
    path = fileURLToPath(url)
    if (statSync(path).size > MAX_SCRIPT_BYTES) return null
    text = readFileSync(path, 'utf8')
  } catch {
    return null
  }
  const comment = /\/[/*][#@] sourceMappingURL=([^\s'"*]+)\s*(?:\*\/)?\s*$/.exec(text.slice(-64 * 1024).trimEnd())
  if (!comment) return null
  const target = comment[1]
  const inline = /^data:application\/json[^,]*?(;base64)?,(.*)$/.exec(target)
  try {
    if (inline) {
      const json = inline[1] ? Buffer.from(inline[2], 'base64').toString('utf8') : decodeURIComponent(inline[2])
      return { map: JSON.parse(json), mapUrl: url }
    }
    const mapPath = join(dirname(path), decodeURIComponent(target))
    return { map: JSON.parse(readFileSync(mapPath, 'utf8')), mapUrl: pathToFileURL(mapPath).href }
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code
    return { problem: code === 'ENOENT' ? `its source map ${target} is missing` : `its source map ${inline ? '(inline)' : target} cannot be read (${/** @type {Error} */ (err).message})` }
  }
}

/** @param {string} url @param {string} cwd */
function shown (url, cwd) {
  try {
    return relative(cwd, fileURLToPath(url)) || url
  } catch {
    return url
  }
}
