import { TraceMap, decodedMappings, originalPositionFor, sourceContentFor } from '@jridgewell/trace-mapping'

/**
 * Maps the positions of a profile, in the JavaScript that ran, back to the
 * source that was written (TypeScript run through tsx or compiled by tsc, a
 * bundle), through the scripts' source maps. Pure: the maps come in parsed.
 *
 * @typedef {import('./cpuprofile.js').CallFrame} CallFrame
 * @typedef {{ map: object, mapUrl?: string, generated?: string | null }} ScriptSourceMap
 *   a script's map, the URL its sources are relative to, and the script's text as it ran when not on disk
 */
export class SourceMapper {
  /** @param {Map<string, ScriptSourceMap>} maps by the URL of the script that ran */
  constructor (maps) {
    /** @type {Map<string, TraceMap>} */
    this.traces = new Map()
    /** @type {Map<string, string>} */
    this.generated = new Map()
    /** @type {string[]} scripts whose map could not be read, for a warning */
    this.broken = []
    for (const [url, { map, mapUrl, generated }] of maps) {
      try {
        this.traces.set(url, new TraceMap(/** @type {any} */ (map), mapUrl ?? url))
        if (generated) this.generated.set(url, generated)
      } catch {
        this.broken.push(url)
      }
    }
    /** @type {Map<string, CallFrame>} frames already mapped, by their key in the script */
    this.frames = new Map()
  }

  get size () {
    return this.traces.size
  }

  /**
   * The frame as written: its original file, line, column and name; the frame
   * itself when its script has no map, or the map says nothing of it.
   * @param {CallFrame} cf
   * @returns {CallFrame}
   */
  frame (cf) {
    const trace = this.traces.get(cf.url)
    if (!trace || cf.lineNumber < 0) return cf
    const key = `${cf.url}\u0000${cf.lineNumber}\u0000${cf.columnNumber}\u0000${cf.functionName}`
    let mapped = this.frames.get(key)
    if (mapped) return mapped
    const at = originalPositionFor(trace, { line: cf.lineNumber + 1, column: Math.max(0, cf.columnNumber) })
    mapped = at.source === null
      ? cf
      : { ...cf, url: at.source, lineNumber: at.line - 1, columnNumber: at.column, functionName: cf.functionName || at.name || '' }
    this.frames.set(key, mapped)
    return mapped
  }

  /**
   * Sampled lines of a script (1-based, as V8's positionTicks) as lines of
   * its source: each generated line goes where its first mapping points.
   * @template {{ line: number, ticks: number }} T
   * @param {string} url the script that ran
   * @param {T[] | undefined} lines
   * @returns {T[] | undefined}
   */
  lines (url, lines) {
    const trace = this.traces.get(url)
    if (!trace || !lines) return lines
    const mappings = decodedMappings(trace)
    return lines.map((entry) => {
      const segment = mappings[entry.line - 1]?.find((s) => s.length >= 4)
      return segment && segment.length >= 4 ? { ...entry, line: /** @type {number} */ (segment[2]) + 1 } : entry
    })
  }

  /**
   * The text of a script as it ran, when it was compiled in memory (tsx).
   * @param {string} url
   */
  generatedText (url) {
    return this.generated.get(url) ?? null
  }

  /**
   * A source's text as the map carries it (sourcesContent), for a source
   * that is not on disk.
   * @param {string} sourceUrl
   */
  sourceContent (sourceUrl) {
    for (const trace of this.traces.values()) {
      const text = sourceContentFor(trace, sourceUrl)
      if (text !== null) return text
    }
    return null
  }
}
