/**
 * The shapes of `dyno compare --load`'s result, shared by its command, its
 * folder and its renderers.
 *
 * @typedef {object} Version how to start one side
 * @property {string} label what the reports call it: the ref, 'working tree', 'a', 'b'
 * @property {string[]} command
 * @property {string} cwd
 * @property {string | null} commit with --against, the ref's commit
 *
 * @typedef {object} CompareLoadResult what --json prints
 * @property {number} schemaVersion
 * @property {'load'} kind
 * @property {string} folder
 * @property {{ before: Omit<Version, 'cwd'>, after: Omit<Version, 'cwd'> }} versions
 * @property {{ url: string, rounds: number | null, precision: number, maxTimeMs: number, failIfSlower: number | null, fresh: boolean, mode: import('./pair-round.js').Mode | null, cpus: { apps: string, load: string } | null }} settings
 *   rounds: a fixed count, or null: until the answer was known; mode: how warm rounds loaded the two (at the same
 *   time, or one at a time); cpus: where the apps and the load ran, when pinned
 * @property {ReturnType<typeof import('./load-rounds.js').compareLoadRounds>['comparisons']} comparisons
 * @property {ReturnType<typeof import('./load-rounds.js').compareLoadRounds>['totals']} totals
 * @property {import('./load-rounds.js').Round[]} rounds the rounds both sides completed
 * @property {import('./stopping.js').StopReason | null} stopped why the rounds ended (null: a side failed, or the run was stopped)
 * @property {number} elapsedMs
 * @property {ReturnType<typeof import('../../stats/comparison.js').slowerGate> | null} gate with --fail-if-slower, its verdict on requests per second
 * @property {{ diff: import('./flame-diff.js').FlameDiff, html: string } | null} flame with --flame: each
 *   function's CPU time per request before and after, and the differential flamegraph's path
 * @property {string | null} interrupted
 * @property {import('../../errors.js').DynoError | null} failure
 */
