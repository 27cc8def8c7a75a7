import { cpus } from 'node:os'
import { relative } from 'node:path'

/**
 * The document `dyno micro --json` prints and `--save` stores: every sample
 * of every process, and the summary, under a schemaVersion.
 */

// 2: per-process figures from the median of slices, geometric means, round-by-round comparisons;
// each process records its round, its slices and the CPU it sampled on.
export const MICRO_SCHEMA_VERSION = 2
export const MICRO_KIND = 'dyno-micro'

/**
 * @param {import('./runner.js').FileReport[]} files
 * @param {import('./runner.js').MicroSettings} settings
 * @param {{ startedAt: Date, cwd: string, node: string, v8: string }} meta
 */
export function microResult (files, settings, meta) {
  return {
    schemaVersion: MICRO_SCHEMA_VERSION,
    kind: MICRO_KIND,
    startedAt: meta.startedAt.toISOString(),
    node: meta.node,
    v8: meta.v8,
    machine: { platform: process.platform, arch: process.arch, cpus: cpus().length, cpu: cpus()[0]?.model ?? '' },
    settings: { rounds: settings.rounds, warmupMs: settings.warmupMs, timeMs: settings.timeMs, sliceMs: settings.sliceMs, sampleMs: settings.sampleMs, timeoutMs: settings.timeoutMs },
    files: files.map((f) => ({ ...f, file: relative(meta.cwd, f.file) || f.file }))
  }
}

/** @typedef {ReturnType<typeof microResult>} MicroResult */
