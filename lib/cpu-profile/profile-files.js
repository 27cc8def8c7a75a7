import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { ProfileMerger } from './cpuprofile.js'
import { collectorFile } from '../observe/processes.js'

/**
 * What the CPU collector wrote for one process (see
 * lib/agent/collectors/cpu.cjs): its profile chunks, merged, and the files
 * the analysis reads beside the profile.
 */

/**
 * The process's chunk files, in order.
 * @param {import('../observe/processes.js').ProcessRecord} process
 */
export function profileChunks (process) {
  return (process.files.cpu ?? [])
    .map((file) => ({ file, n: /^\d+(?:-\d+)?\.cpu\.(\d+)\.cpuprofile$/.exec(basename(file))?.[1] }))
    .filter((c) => c.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n))
    .map((c) => c.file)
}

/**
 * The chunks of one process merged into one profile. A chunk cut short by a
 * crash (unreadable JSON) is skipped; the others are kept.
 * @param {import('../observe/processes.js').ProcessRecord} process
 */
export function mergedProfile (process) {
  const merger = new ProfileMerger()
  for (const file of profileChunks(process)) {
    let chunk
    try {
      chunk = JSON.parse(readFileSync(file, 'utf8'))
    } catch {
      continue
    }
    merger.add(chunk)
  }
  return merger.result()
}

/**
 * Samples that were not idle: the measure of a busy process, to choose one
 * when none listened.
 * @param {import('../observe/processes.js').ProcessRecord} process
 * @param {import('./cpuprofile.js').CpuProfile} [profile] its merged profile, when the caller has it
 */
export function busySamples (process, profile = mergedProfile(process)) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(root)').map((n) => n.id))
  return (profile.samples ?? []).filter((id) => !idle.has(id)).length
}

/**
 * A file the CPU collector wrote for the process, by what follows `cpu.`.
 * @param {import('../observe/processes.js').ProcessRecord} process
 * @param {string} suffix
 */
export function collectorFileOf (process, suffix) {
  return collectorFile(process, 'cpu', suffix)
}

/** @param {import('../observe/processes.js').ProcessRecord} process */
export function functionsFile (process) {
  return collectorFileOf(process, 'functions.json')
}

/** @param {import('../observe/processes.js').ProcessRecord} process */
export function tiersFile (process) {
  return collectorFileOf(process, 'tiers.json')
}
