import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { agentCodeTest } from '../../cpu-profile/agent-code.js'
import { urlToPath } from '../../cpu-profile/categorize.js'
import { dynoError } from '../../errors.js'
import { FILES, renderFolder } from './folder.js'
import { busySamples, collectorFileOf, mergedProfile } from '../../cpu-profile/profile-files.js'
import { observeRun } from '../../commands/observed-run.js'

/**
 * @typedef {import('../../commands/observed-run.js').ObservingOptions & { samplingIntervalUs: number }} FlameOptions
 * @typedef {import('../../observe/processes.js').ProcessRecord} ProcessRecord
 * @typedef {import('../../cpu-profile/cpuprofile.js').CpuProfile} CpuProfile
 *
 * @typedef {object} FlameResult
 * @property {string} folder
 * @property {import('../../run-folder.js').RunMeta} meta
 * @property {ReturnType<typeof renderFolder> | null} rendered null when the app wrote no profile
 * @property {{ label: string, samples: number }[]} units the processes and threads profiled
 * @property {import('../../errors.js').DynoError | null} failure
 */

/**
 * `dyno flame`: the CPU profile of every process and thread of the app,
 * while the load (or the --on-port command, or nothing) runs, rendered as a
 * flamegraph report and the standard profile formats. A failing app still
 * gets its report from what was collected.
 * @param {FlameOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: FlameResult, exitCode: number }>}
 */
export async function runFlame (options, io) {
  const run = await observeRun('flame', options, io, {
    collectors: { cpu: { samplingIntervalUs: options.samplingIntervalUs } },
    busy: busySamples,
    options: { samplingIntervalUs: options.samplingIntervalUs }
  })
  const units = profiledUnits(run.observed.processes, run.chosen)
  const base = { folder: run.folder, meta: run.meta, units: units.map(({ label, busy }) => ({ label, samples: busy })) }
  if (units.length === 0) {
    // Killed before its first chunk: the run folder keeps what there is.
    const failure = run.failure ?? dynoError('DYNO_NO_PROFILE', { how: run.end.how })
    return { result: { ...base, rendered: null, failure }, exitCode: run.failure ? run.exitCode : 1 }
  }
  // The observed process's profile is the one DevTools opens; the others sit beside it.
  writeFileSync(join(run.folder, FILES.profile), JSON.stringify(units[0].profile))
  if (units.length > 1) {
    mkdirSync(join(run.folder, 'profiles'))
    const listed = units.map(({ record, label, profile }) => {
      const file = join('profiles', `${record.unit}.cpuprofile`)
      writeFileSync(join(run.folder, file), JSON.stringify(profile))
      return { label, file, pid: record.pid, threadId: record.threadId }
    })
    writeFileSync(join(run.folder, FILES.units), JSON.stringify(listed, null, 2) + '\n')
  }
  gatherFiles(units.map((u) => u.record), run.folder)
  const rendered = renderFolder(run.folder, units.length > 1 ? units : units[0].profile)
  return { result: { ...base, rendered, failure: run.failure }, exitCode: run.exitCode }
}

/**
 * Every process and thread that spent CPU time, the observed process first,
 * each with its merged profile and a name a user recognises.
 * @param {ProcessRecord[]} records
 * @param {ProcessRecord} chosen
 */
function profiledUnits (records, chosen) {
  const units = []
  for (const record of records) {
    const profile = mergedProfile(record)
    if (profile.nodes.length === 0) continue
    const busy = busySamples(record, profile)
    if (busy === 0 && record !== chosen) continue
    units.push({ record, profile, busy, label: unitLabel(record, profile) })
  }
  return units.sort((a, b) => Number(b.record === chosen) - Number(a.record === chosen) || b.busy - a.busy)
}

/**
 * "pid 4312 · server.js" for a process, "pid 4312 thread 2 · stretch-worker.js"
 * for a worker thread (named by the first script it ran).
 * @param {ProcessRecord} record
 * @param {CpuProfile} profile
 */
function unitLabel (record, profile) {
  if (record.threadId === 0) {
    const script = record.info?.argv?.[1]
    return `pid ${record.pid} · ${script ? basename(script) : 'node'}`
  }
  const isAgent = agentCodeTest()
  const first = profile.nodes.find((n) => n.callFrame.url.startsWith('file:') && !isAgent(n.callFrame.url))
  const path = first ? urlToPath(first.callFrame.url) : null
  return `pid ${record.pid} thread ${record.threadId} · ${path ? basename(path) : 'worker'}`
}

/**
 * The files the analysis reads beside the profiles, from every unit:
 * function extents, tiers and source maps, each list joined into one.
 * @param {ProcessRecord[]} records
 * @param {string} folder
 */
function gatherFiles (records, folder) {
  for (const [suffix, name, listOf] of /** @type {const} */ ([['functions.json', FILES.functions, null], ['tiers.json', FILES.tiers, 'tiers'], ['sourcemaps.json', FILES.sourceMaps, null]])) {
    const files = records.map((r) => collectorFileOf(r, suffix)).filter((f) => f !== null)
    if (files.length === 1) copyFileSync(/** @type {string} */ (files[0]), join(folder, name))
    if (files.length < 2) continue
    const joined = files.flatMap((file) => {
      try {
        const value = JSON.parse(readFileSync(/** @type {string} */ (file), 'utf8'))
        return (listOf ? value[listOf] : value) ?? []
      } catch {
        return []
      }
    })
    writeFileSync(join(folder, name), JSON.stringify(listOf ? { [listOf]: joined } : joined))
  }
}
