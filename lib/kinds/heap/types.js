/** The shapes of a heap run's results, shared by its command, its folder and its renderers. */

/**
 * What a heap run folder records in meta.json's options, for the report to
 * be rendered again.
 * @typedef {object} HeapRunOptions
 * @property {boolean} sampling
 * @property {string[]} snapshots the snapshots, oldest first (relative to the folder, or absolute)
 * @property {SnapshotTiming[]} timings how long each snapshot paused the app
 * @property {string | null} heapprofile the sampling heap profile, relative to the folder
 *
 * @typedef {object} SnapshotTiming
 * @property {string} label
 * @property {number} gcMs the full GC before it
 * @property {number} ms the GC and the snapshot: how long the app was paused
 * @property {number} bytes
 * @property {number} [inFlight] requests still at work when it was taken, though dyno waited for them to end
 */

/**
 * @typedef {object} AllocationsRendered the allocation flamegraph of a --sampling run
 * @property {import('../../cpu-profile/flame-data.js').FlameData} data
 * @property {string} html the report's path
 * @property {{ name: string, location: string, category: string, bytes: number, percent: number }[]} top where most bytes were allocated
 * @property {number} bytes
 *
 * @typedef {{ kind: 'snapshots', meta: import('../../run-folder.js').RunMeta, analysis: import('./analyze.js').HeapAnalysis, timings: SnapshotTiming[], html: string }} SnapshotsRendered
 * @typedef {{ kind: 'sampling', meta: import('../../run-folder.js').RunMeta, allocations: AllocationsRendered }} SamplingRendered
 * @typedef {SnapshotsRendered | SamplingRendered} HeapRendered what a heap run folder rendered gives
 */
