import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { buildFlameData } from '../analyze/build-flame-data.js'
import { toCollapsed } from '../analyze/collapsed.js'
import { frameKey, whyNotProfile } from '../analyze/cpuprofile.js'
import { urlToPath } from '../analyze/categorize.js'
import { scriptExtents } from '../analyze/inlined.js'
import { hotFunctions } from '../analyze/hot-functions.js'
import { toPprof } from '../analyze/pprof.js'
import { TIERS } from '../analyze/flame-data.js'
import { usageError } from '../errors.js'
import { renderFlameHtml } from '../report/flame-html.js'
import { readProcesses } from '../observe/processes.js'
import { readJson, readMeta } from '../run-folder.js'
import { functionsFile, tiersFile } from './flame-profile.js'
import { readSource } from './read-source.js'

export const FILES = {
  meta: 'meta.json',
  profile: 'profile.cpuprofile',
  tiers: 'tiers.json',
  functions: 'functions.json',
  pprof: 'profile.pb.gz',
  collapsed: 'profile.folded',
  html: 'flamegraph.html'
}

/**
 * Renders everything derived from a flame run folder's profile: pprof,
 * collapsed stacks and the HTML report. `dyno flame`, `dyno flame --view` and
 * `dyno report` all end here. `warnings` says what the report could not do
 * because a file of the folder is missing; the report's header says it too.
 * @param {string} folder
 * @param {import('../analyze/cpuprofile.js').CpuProfile} [profile] the folder's profile, when the caller has it already
 */
export function renderFlameFolder (folder, profile = /** @type {any} */ (readJson(folder, FILES.profile))) {
  const meta = readMeta(folder)
  const why = whyNotProfile(profile)
  if (why) throw usageError('DYNO_BAD_PROFILE', `${join(folder, FILES.profile)} is not a CPU profile: ${why}`)
  const tierInfo = readTierInfo(folder)
  const functions = readFunctions(folder)
  const scripts = scriptsOf(functions ?? [])
  // A profile from elsewhere (--view) never had these files; a flame run's folder did.
  const warnings = meta.source ? [] : missingInputs(folder, meta, { tierInfo, functions, scripts })
  const { data, detail } = buildFlameData(profile, {
    title: meta.title ?? 'CPU profile',
    cwd: meta.cwd ?? dirname(folder),
    meta: {
      startedAt: meta.startedAt,
      node: meta.node ?? null,
      v8: meta.v8 ?? null,
      exit: meta.end ? { how: meta.end.how, code: meta.end.code ?? null, signal: meta.end.signal ?? null } : null,
      load: meta.load ? loadSummary(meta.load) : null,
      warnings
    },
    tierInfo,
    readSource,
    scripts
  })
  writeFileSync(join(folder, FILES.pprof), toPprof(data, detail))
  writeFileSync(join(folder, FILES.collapsed), toCollapsed(data))
  writeFileSync(join(folder, FILES.html), renderFlameHtml(data))
  return { data, meta, hot: hotFunctions(data, 10), html: join(folder, FILES.html), warnings }
}

const INLINED_STAY = 'samples of inlined functions stay with the function they were inlined into'

/**
 * What the report lacks for want of the files the agent wrote, in words.
 * Not what the agent never wrote (an app that calls process.exit leaves no
 * time to read tiers): raw/ shows that, as long as it is there.
 * @param {string} folder
 * @param {import('../run-folder.js').RunMeta} meta
 * @param {{ tierInfo: object | null, functions: unknown[] | null, scripts: Map<string, unknown> }} inputs
 */
function missingInputs (folder, meta, { tierInfo, functions, scripts }) {
  const observed = readProcesses(folder).find((p) => p.pid === meta.process?.pid && p.threadId === 0)
  const agentWrote = (/** @type {(p: import('../observe/processes.js').ProcessRecord) => string | null} */ file) => !observed || file(observed) !== null
  const warnings = []
  if (functions === null && agentWrote(functionsFile)) warnings.push(`${FILES.functions} is missing from the run folder: ${INLINED_STAY}`)
  else if (functions !== null && functions.length > 0 && scripts.size === 0) warnings.push(`none of the profiled scripts can be read any more: ${INLINED_STAY}`)
  if (tierInfo === null && agentWrote(tiersFile)) warnings.push(`${FILES.tiers} is missing from the run folder: the optimization tiers are unknown`)
  return warnings
}

/**
 * @param {import('../load/summary.js').LoadResult} result
 */
export function loadSummary (result) {
  return {
    average: result.requests.average,
    p50: result.latency.percentiles['50'],
    p99: result.latency.percentiles['99'],
    errors: result.errors.total,
    non2xx: result.non2xx
  }
}

/**
 * `tiers.json`: the tier V8 ran each hot function in when profiling ended.
 * @param {string} folder
 * @returns {import('../analyze/build-flame-data.js').TierInfo | null}
 */
function readTierInfo (folder) {
  let raw
  try {
    raw = JSON.parse(readFileSync(join(folder, FILES.tiers), 'utf8'))
  } catch {
    return null
  }
  const tiers = new Map()
  for (const { frame, tier } of raw.tiers ?? []) {
    const index = TIERS.indexOf(tier)
    if (index > 0) tiers.set(frameKey(frame), index)
  }
  return { tiers }
}

/**
 * `functions.json`: where each function of the profiled scripts starts and
 * ends, as the agent wrote it; null when it is missing or unreadable.
 * @param {string} folder
 * @returns {{ url: string, functions: [string, number, number][] }[] | null}
 */
function readFunctions (folder) {
  try {
    const raw = JSON.parse(readFileSync(join(folder, FILES.functions), 'utf8'))
    return Array.isArray(raw) ? raw : null
  } catch {
    return null
  }
}

/**
 * The function extents with the scripts' text as it is on disk, by URL, for
 * giving inlined functions their samples.
 * @param {{ url: string, functions: [string, number, number][] }[]} functions
 */
function scriptsOf (functions) {
  /** @type {Map<string, import('../analyze/inlined.js').ScriptExtents>} */
  const scripts = new Map()
  for (const { url, functions: extents } of functions) {
    if (typeof url !== 'string' || !Array.isArray(extents)) continue
    const path = urlToPath(url)
    const text = path && readSource(path)
    if (text) scripts.set(url, scriptExtents(text, extents))
  }
  return scripts
}
