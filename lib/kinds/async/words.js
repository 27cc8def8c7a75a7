import { isAbsolute, relative } from 'node:path'
import { siteLocation } from './analyze.js'
import { decimal } from '../../format.js'

/**
 * What dyno async says about a finding and a wait, in words: shared by the
 * terminal summary and the HTML report (which shows these sentences as text).
 */

/**
 * @typedef {object} Places names places as the user knows them: paths relative to the app's folder
 * @property {(l: import('./analyze.js').Location) => string} location `file:line`
 * @property {(id: number) => string} site `file:line (function)`
 * @property {(id: number) => boolean} isApp whether the site is in the app's own code
 */

/**
 * @param {import('./analyze.js').AsyncAnalysis} analysis
 * @param {string} cwd
 * @returns {Places}
 */
export function placeNamer (analysis, cwd) {
  const sites = new Map(analysis.sites.map((s) => [s.id, s]))
  const location = (/** @type {import('./analyze.js').Location} */ l) => l.file ? `${relativeFile(l.file, cwd)}:${l.line}` : '(unknown place)'
  return {
    location,
    isApp: (id) => sites.get(id)?.app === true,
    site: (id) => {
      const site = sites.get(id)
      // An anonymous callback is named by the function it is written in.
      const named = site?.frames.find((f) => f.fn)
      return named ? `${location(siteLocation(site))} (${named.fn})` : location(siteLocation(site))
    }
  }
}

/** @param {string} file @param {string} cwd a path under cwd as relative, any other as it is */
export function relativeFile (file, cwd) {
  if (!isAbsolute(file)) return file
  const rel = relative(cwd, file)
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file
}

/**
 * The two sentences under a finding's heading: what happens, and what to do.
 * @param {import('./analyze.js').AsyncFinding} finding
 * @param {Places} places
 * @returns {[string, string]}
 */
export function explainFinding (finding, places) {
  const fn = finding.location.fn || 'An anonymous function'
  if (finding.kind === 'serial-awaits') {
    const d = /** @type {import('./analyze.js').SerialDetail} */ (finding.detail)
    const each = d.awaits.map((a) => `${ms(a.ms)} (line ${a.location.line}${a.waitedOn ? `, ${a.waitedOn}` : ''})`).join(', ')
    return d.callbacks
      ? [
          `${fn} waits for ${d.awaits.length} operations one after another, each started in the callback of the one before: ${each}.`,
          `Started together (Promise.all, or callbacks that count down), they would take the longest, ${ms(d.longestMs)}. Whether they are independent is your call.`
        ]
      : [
          `${fn} awaits ${d.awaits.length} operations one after another, each started once the one before had settled: ${each}.`,
          `Started together and awaited with Promise.all, they would take the longest, ${ms(d.longestMs)}. Whether they are independent is your call.`
        ]
  }
  if (finding.kind === 'unneeded-async') {
    const d = /** @type {import('./analyze.js').UnneededDetail} */ (finding.detail)
    const each = d.eachUs > 0 ? ` (${decimal(d.eachUs * 1000, 0)} ns a call on this machine)` : ''
    return [
      `${finding.location.fn || 'This function'} is declared async but ${d.awaitsAtHand ? 'awaits only values already at hand' : 'returns without awaiting'}, ${decimal(d.calls, 0)} times a request: each call makes and settles a promise, and the await of it waits a turn${each}.`,
      `Drop async${d.awaitsAtHand ? ' and its awaits' : ''} and return the value, and the await where it is called.`
    ]
  }
  if (finding.kind === 'await-in-loop') {
    const d = /** @type {import('./analyze.js').LoopDetail} */ (finding.detail)
    return [
      `${fn} ${d.callbacks ? 'waits for' : 'awaits'} ${d.waitedOn ? `${d.waitedOn} ` : ''}here ${decimal(d.count, 0)} times in a row${d.callbacks ? ', each started in the callback of the one before' : ''}, ${ms(d.eachMs)} each, ${ms(d.totalMs)} in all.`,
      `With Promise.all: ~${ms(d.allMs)}; ${d.limit} at a time (p-map style): ~${ms(d.limitedMs)}.`
    ]
  }
  const d = /** @type {import('./analyze.js').FanOutDetail} */ (finding.detail)
  const atOnce = decimal(Math.max(1, d.atOnce), 0)
  return [
    `${decimal(d.count, 0)} operations made at once (${d.waitedOn ? `${d.waitedOn}, ` : ''}${places.location(d.madeAt)}) wait in line: the first ${ms(d.firstMs)}, the last ${ms(d.lastMs)}; about ${atOnce} are served at a time.`,
    `Running them ${atOnce} at a time keeps other requests from waiting behind them; fewer, batched operations save the wait.`
  ]
}

/** @param {number} value `8.3 ms`, `83 ms`; under a tenth of a millisecond, `42 µs` */
export function ms (value) {
  if (value > 0 && value < 0.1) return `${decimal(value * 1000, 0)} µs`
  return `${decimal(value, value >= 100 ? 0 : 1)} ms`
}
