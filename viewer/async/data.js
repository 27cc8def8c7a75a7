/* The async report's embedded data, and how its places read. */

/**
 * @typedef {{ fn: string, file: string, shown: string, line: number, column: number }} SiteFrame
 * @typedef {{ id: number, frames: SiteFrame[], app: boolean }} Site
 * @typedef {{ file: string, line: number, column: number, fn: string }} SourceLocation
 * @typedef {{ kind: string, location: SourceLocation, where: string, words: string[], perRequestMs: number, savingMs: number, requests: number }} Finding
 * @typedef {{ id: number, type: string, kind: string, site: number, start: number, end: number, resumed: number, await: boolean, settled: boolean, critical: boolean }} Bar
 * @typedef {{ id: number, type: string, kind: string, site: number, awaitedAt: number, start: number, end: number }} PathStep
 * @typedef {{ id: number, method: string, path: string, status: number | null, how: string, durationMs: number, ops: number, steps: PathStep[], bars: Bar[] }} RequestView
 * @typedef {{ site: number, kind: string, count: number, requests: number, totalWaitMs: number, meanWaitMs: number, maxWaitMs: number, unsettled: number }} CallSiteGroup
 * @typedef {object} Analysis
 * @property {{ requests: number, finished: number, traced: number, sample: number }} counts
 * @property {{ total: number, finished: number, open: number, aborted: number, analyzed: number }} traced
 * @property {boolean} tooFew fewer traced requests finished than it takes to judge
 * @property {{ medianMs: number, maxMs: number } | null} latency
 * @property {Finding[]} findings
 * @property {RequestView | null} typical
 * @property {RequestView | null} slowest
 * @property {CallSiteGroup[]} callSites
 * @property {Site[]} sites
 * @typedef {object} AsyncReportData
 * @property {{ title: string, startedAt: string, finishedAt: string | null, node: string | null, cwd: string, exit: { how: string, code: number | null, signal: string | null } | null, load: any }} meta
 * @property {Analysis} analysis
 * @property {Record<string, string>} sources the app's files, by path
 */

/** @param {string} text */
export function readAsyncData (text) {
  const data = /** @type {AsyncReportData} */ (JSON.parse(text))
  /** @type {Map<number, Site>} */
  const sites = new Map(data.analysis.sites.map((s) => [s.id, s]))
  return { ...data, sites }
}

/**
 * `file:line (function)` of a site's innermost frame.
 * @param {Site | undefined} site
 */
export function siteText (site) {
  const frame = site && site.frames[0]
  if (!frame) return '(made by Node.js)'
  // An anonymous callback is named by the function it is written in.
  const named = site.frames.find((f) => f.fn)
  return frame.shown + ':' + frame.line + (named ? ' (' + named.fn + ')' : '')
}
