import { readFileSync, statSync, writeFileSync } from 'node:fs'
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
import { readJson, readMeta } from '../run-folder.js'

/** Source files larger than this are not embedded in the report. */
const MAX_SOURCE_BYTES = 1024 * 1024

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
 * `dyno report` all end here.
 * @param {string} folder
 * @param {import('../analyze/cpuprofile.js').CpuProfile} [profile] the folder's profile, when the caller has it already
 */
export function renderFlameFolder (folder, profile = /** @type {any} */ (readJson(folder, FILES.profile))) {
  const meta = readMeta(folder)
  const why = whyNotProfile(profile)
  if (why) throw usageError('DYNO_BAD_PROFILE', `${join(folder, FILES.profile)} is not a CPU profile: ${why}`)
  const data = buildFlameData(profile, {
    title: meta.title ?? 'CPU profile',
    cwd: meta.cwd ?? dirname(folder),
    meta: {
      startedAt: meta.startedAt,
      node: meta.node ?? null,
      v8: meta.v8 ?? null,
      exit: meta.end ? { how: meta.end.how, code: meta.end.code ?? null, signal: meta.end.signal ?? null } : null,
      load: meta.load ? loadSummary(meta.load) : null
    },
    tierInfo: readTierInfo(folder),
    readSource,
    scripts: readScripts(folder)
  })
  writeFileSync(join(folder, FILES.pprof), toPprof(data))
  writeFileSync(join(folder, FILES.collapsed), toCollapsed(data))
  writeFileSync(join(folder, FILES.html), renderFlameHtml(data))
  return { data, meta, hot: hotFunctions(data, 10), html: join(folder, FILES.html) }
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
  return { tiers, inlined: new Set() }
}

/**
 * `functions.json`: where each function of the profiled scripts starts and
 * ends, with the scripts' text, for giving inlined functions their samples.
 * @param {string} folder
 */
function readScripts (folder) {
  /** @type {Map<string, import('../analyze/inlined.js').ScriptExtents>} */
  const scripts = new Map()
  let raw
  try {
    raw = JSON.parse(readFileSync(join(folder, FILES.functions), 'utf8'))
  } catch {
    return scripts
  }
  for (const { url, functions } of raw) {
    const path = urlToPath(url)
    const text = path && readSource(path)
    if (text) scripts.set(url, scriptExtents(text, functions))
  }
  return scripts
}

/** @param {string} path */
function readSource (path) {
  try {
    if (statSync(path).size > MAX_SOURCE_BYTES) return null
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}
