import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildFlameData } from '../../cpu-profile/build-flame-data.js'
import { toCollapsed } from '../../cpu-profile/collapsed.js'
import { frameKey, whyNotProfile } from '../../cpu-profile/cpuprofile.js'
import { urlToPath } from '../../cpu-profile/categorize.js'
import { scriptExtents } from '../../cpu-profile/inlined.js'
import { hotFunctions } from '../../cpu-profile/hot-functions.js'
import { toPprof } from '../../cpu-profile/pprof.js'
import { TIERS } from '../../cpu-profile/flame-data.js'
import { dynoError } from '../../errors.js'
import { renderFlameHtml } from './html.js'
import { readProcesses } from '../../observe/processes.js'
import { readJson, readMeta } from '../../run-folder.js'
import { functionsFile, tiersFile } from '../../cpu-profile/profile-files.js'
import { loadSourceMaps } from '../../cpu-profile/load-source-maps.js'
import { readSource } from '../../commands/read-source.js'
import { renderFlameSummary } from './terminal.js'
import { runFacts } from '../../report/run-facts.js'

export const FILES = {
  meta: 'meta.json',
  profile: 'profile.cpuprofile',
  units: 'units.json',
  sourceMaps: 'sourcemaps.json',
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
 * @param {import('../../cpu-profile/cpuprofile.js').CpuProfile | import('../../cpu-profile/build-flame-data.js').ProfileUnit[]} [profiles]
 *   the folder's profile (or one per process and thread), when the caller has them already
 */
export function renderFolder (folder, profiles = readProfiles(folder)) {
  const meta = readMeta(folder)
  const units = Array.isArray(profiles) ? profiles : [{ label: '', profile: profiles }]
  for (const { label, profile } of units) {
    const why = whyNotProfile(profile)
    if (why) throw label ? dynoError('DYNO_BAD_PROFILE.ofUnit', { unit: label, why }) : dynoError('DYNO_BAD_PROFILE.inFolder', { profile: join(folder, FILES.profile), why })
  }
  const tierInfo = readTierInfo(folder)
  const functions = readFunctions(folder)
  const sourceMaps = loadSourceMaps(folder, profiledUrls(units), meta.cwd)
  const mapper = sourceMaps.mapper.size > 0 ? sourceMaps.mapper : null
  const scripts = scriptsOf(functions ?? [], mapper)
  // A profile from elsewhere (--view) never had these files; a flame run's folder did.
  const warnings = [...(meta.source ? [] : missingInputs(folder, meta, { tierInfo, functions, scripts })), ...sourceMaps.warnings]
  const { data, detail } = buildFlameData(profiles, {
    title: meta.title ?? 'CPU profile',
    cwd: meta.cwd ?? dirname(folder),
    meta: { ...runFacts(meta), warnings },
    tierInfo,
    readSource: (path) => readSource(path) ?? mapper?.sourceContent(pathToFileURL(path).href) ?? null,
    scripts,
    mapper
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
 * @param {import('../../run-folder.js').RunMeta} meta
 * @param {{ tierInfo: object | null, functions: unknown[] | null, scripts: Map<string, unknown> }} inputs
 */
function missingInputs (folder, meta, { tierInfo, functions, scripts }) {
  const observed = readProcesses(folder).find((p) => p.pid === meta.process?.pid && p.threadId === 0)
  const agentWrote = (/** @type {(p: import('../../observe/processes.js').ProcessRecord) => string | null} */ file) => !observed || file(observed) !== null
  const warnings = []
  if (functions === null && agentWrote(functionsFile)) warnings.push(`${FILES.functions} is missing from the run folder: ${INLINED_STAY}`)
  else if (functions !== null && functions.length > 0 && scripts.size === 0) warnings.push(`none of the profiled scripts can be read any more: ${INLINED_STAY}`)
  if (tierInfo === null && agentWrote(tiersFile)) warnings.push(`${FILES.tiers} is missing from the run folder: the optimization tiers are unknown`)
  return warnings
}

/**
 * `tiers.json`: the tier V8 ran each hot function in when profiling ended.
 * @param {string} folder
 * @returns {import('../../cpu-profile/build-flame-data.js').TierInfo | null}
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
 * The function extents with the scripts' text as it ran, by URL, for giving
 * inlined functions their samples: from disk, or, for a script compiled in
 * memory (tsx), as the agent kept it.
 * @param {{ url: string, functions: [string, number, number][] }[]} functions
 * @param {import('../../cpu-profile/source-maps.js').SourceMapper | null} mapper
 */
function scriptsOf (functions, mapper) {
  /** @type {Map<string, import('../../cpu-profile/inlined.js').ScriptExtents>} */
  const scripts = new Map()
  for (const { url, functions: extents } of functions) {
    if (typeof url !== 'string' || !Array.isArray(extents) || scripts.has(url)) continue
    const path = urlToPath(url)
    const text = mapper?.generatedText(url) ?? (path && readSource(path))
    if (text) scripts.set(url, scriptExtents(text, extents))
  }
  return scripts
}

/**
 * The folder's profiles: one per process and thread when the run profiled
 * several (units.json lists them), else its one profile.
 * @param {string} folder
 * @returns {import('../../cpu-profile/cpuprofile.js').CpuProfile | import('../../cpu-profile/build-flame-data.js').ProfileUnit[]}
 */
function readProfiles (folder) {
  if (!existsSync(join(folder, FILES.units))) return /** @type {any} */ (readJson(folder, FILES.profile))
  const units = /** @type {{ label: string, file: string }[]} */ (readJson(folder, FILES.units))
  if (!Array.isArray(units)) throw dynoError('DYNO_BAD_RUN_FOLDER.notProfileList', { path: join(folder, FILES.units) })
  return units.map(({ label, file }) => ({ label: String(label), profile: /** @type {any} */ (readJson(folder, String(file))) }))
}

/**
 * @param {import('../../cpu-profile/build-flame-data.js').ProfileUnit[]} units
 * @returns {Set<string>}
 */
function profiledUrls (units) {
  const urls = new Set()
  for (const { profile } of units) for (const node of profile.nodes) urls.add(node.callFrame.url)
  return urls
}

/**
 * What the terminal shows of a run folder rendered again (`dyno report`).
 * @param {Awaited<ReturnType<typeof renderFolder>>} rendered
 * @param {import('../../run-folder.js').RunMeta} meta
 * @param {import('../../report/style.js').Style} style
 */
export function summarize (rendered, meta, style) {
  return renderFlameSummary(rendered, meta.end, style)
}
