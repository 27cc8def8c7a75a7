import { relative, isAbsolute } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where the code of a snapshot's closures lives: a closure's script (from
 * its shared function info), the line a variable is declared on (from the
 * script's file, when it is on this machine), and paths as the user knows
 * them (relative to the app's folder).
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s
 * @param {{ cwd: string, readSource: (path: string) => string | null }} options
 */
export function snapshotSources (s, { cwd, readSource }) {
  /** @type {Map<string, string[] | null>} */
  const files = new Map()
  return {
    /** @param {number} closure @returns {string | null} */
    scriptOf (closure) {
      const shared = s.findEdge(closure, s.edges.internal, 'shared')
      if (shared === -1) return null
      const info = s.edgeTo[shared]
      for (const name of ['script', 'script_or_debug_info']) {
        const e = s.findEdge(info, s.edges.internal, name)
        if (e === -1) continue
        const target = s.edgeTo[e]
        // Under coverage or a debugger, the function carries debug info, and the script is behind it.
        return s.name(target) === 'system / DebugInfo' ? scriptBehind(s, target, info) : s.name(target) || null
      }
      return null
    },
    /** @param {string} url @param {string} variable @returns {number | null} 1-based line */
    declaration (url, variable) {
      const path = urlToPath(url)
      if (!path) return null
      let lines = files.get(path)
      if (lines === undefined) {
        const text = readSource(path)
        files.set(path, (lines = text === null ? null : text.split('\n')))
      }
      if (!lines) return null
      const name = variable.replace(/[$]/g, '\\$')
      const declared = new RegExp(`\\b(?:const|let|var|class|function\\*?)\\s+${name}\\b`)
      const index = lines.findIndex((line) => declared.test(line))
      return index === -1 ? null : index + 1
    },
    /** @param {string} url */
    shortUrl (url) {
      const path = urlToPath(url)
      if (!path) return url
      const rel = relative(cwd, path)
      return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path
    }
  }
}

/**
 * The script a DebugInfo holds: of what it points to, other than the
 * function itself, the one named like a script.
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s
 * @param {number} debugInfo @param {number} info the function's shared info
 */
function scriptBehind (s, debugInfo, info) {
  for (let e = s.firstEdge[debugInfo]; e < s.firstEdge[debugInfo + 1]; e++) {
    const to = s.edgeTo[e]
    const name = s.name(to)
    if (to !== info && /^(?:file:|node:|\/|[A-Za-z]:\\)/.test(name)) return name
  }
  return null
}

/** @param {string} url @returns {string | null} */
function urlToPath (url) {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url)
    } catch {
      return null
    }
  }
  return isAbsolute(url) ? url : null
}
