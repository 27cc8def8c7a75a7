import { TIERS as V8_TIERS } from '../v8/tiers.js'

/**
 * FlameData: what a flamegraph report shows, derived from a CPU profile.
 * It is the contract between the analysis (lib/analyze) and the browser
 * code of the report (viewer/), and is embedded as JSON in flamegraph.html.
 *
 * Columnar: one array per field, indexed by frame or node, so that a profile
 * of hundreds of thousands of nodes stays compact and quick to parse.
 *
 * @typedef {object} FlameData
 * @property {1} schemaVersion
 * @property {FlameMeta} meta
 * @property {string[]} strings interned strings; frames refer to them by index
 * @property {FlameFrames} frames distinct functions (name + file + line + column)
 * @property {FlameNodes} nodes the merged call tree in preorder; node 0 is the root
 * @property {Record<string, FlameSource>} sources the app's own files, by `frames.file` string index
 * @property {FlameDiffNodes} [diff] when the report compares two versions (flame-diff-data.js): the
 *   before side, against the after side's tree in `nodes`
 */

/**
 * @typedef {object} FlameDiffNodes
 * @property {number[]} before per node: the self time per request, in ms, the same stack took before
 * @property {{ before: number, after: number }} requests answered while profiled, per side
 * @property {{ before: number, after: number, change: number }} total CPU time per request, ms
 * @property {FunctionChange[]} functions every function of either side, biggest change first
 */

/**
 * A function's self CPU time per request in two versions (flame-diff.js).
 * @typedef {object} FunctionChange
 * @property {string} name
 * @property {string} location file:line, or '' for native code
 * @property {string} category see CATEGORIES
 * @property {number} before self CPU time per request before, ms
 * @property {number} after self CPU time per request after, ms
 * @property {number} change after − before, ms per request
 */

/**
 * @typedef {object} FlameMeta
 * @property {string} title usually the profiled command
 * @property {string} startedAt ISO time
 * @property {number} durationMs
 * @property {number} samples samples in the tree (idle excluded)
 * @property {number} idleSamples samples where the app was waiting (not in the tree)
 * @property {number} [agentSamples] samples in dyno's own agent code (not in the tree)
 * @property {number} intervalUs mean time between samples
 * @property {string | null} node Node.js version of the profiled process, when known
 * @property {string | null} v8
 * @property {boolean} tiersKnown whether `frames.tier` holds what V8 reported
 * @property {{ how: string, code: number | null, signal: string | null } | null} exit how the app ended
 * @property {FlameLoad | null} [load] the load that ran while profiling, when dyno ran one (optional)
 * @property {string[]} [warnings] what the report could not do, and why (a file of the run folder is missing)
 * @property {{ label: string, samples: number }[]} [units] the processes and threads profiled, when several were: each stands as a frame of category `unit` above its calls
 * @property {'samples' | 'bytes' | 'ms per request'} [unit] what the counts in `nodes` are: CPU samples (by default), bytes
 *   allocated (an allocation profile), or CPU time per request (a differential of two versions)
 */

/**
 * @typedef {object} FlameLoad
 * @property {number} average requests per second
 * @property {number} p50 latency in ms
 * @property {number} p99 latency in ms
 * @property {number} errors requests that failed (timeouts, resets, ...)
 * @property {number} non2xx responses with a status outside 2xx
 */

/**
 * @typedef {object} FlameFrames
 * @property {number[]} name string index of the function name ('(anonymous)' when V8 gave none)
 * @property {number[]} file string index of the file path or URL, -1 when there is none
 * @property {number[]} line 1-based line of the function, 0 when unknown
 * @property {number[]} column 1-based column, 0 when unknown
 * @property {number[]} category see CATEGORIES
 * @property {number[]} tier see TIERS (the function's tier at the end of the run)
 */

/**
 * @typedef {object} FlameNodes
 * @property {number[]} frame frame index; the root's is -1
 * @property {number[]} parent parent node index; the root's is -1
 * @property {number[]} self samples with this node on top of the stack
 * @property {number[]} total samples with this node on the stack (self + descendants)
 * @property {number[]} inlined 1 when V8 ran this call inlined into its caller's optimized code
 */

/**
 * @typedef {object} FlameSource
 * @property {string} text the file's source as it was when profiled
 * @property {Record<string, number>} lines 1-based line number -> samples on that line
 */

/**
 * Index = `frames.category` value. The report's page gets this table from
 * here (lib/kinds/flame/html.js); nothing copies it.
 */
export const CATEGORIES = /** @type {const} */ (['app', 'deps', 'core', 'native', 'gc', 'program', 'unit'])

/** Index = `frames.tier` value: V8's tiers, after 0 for a tier not known. */
export const TIERS = /** @type {const} */ (['unknown', ...V8_TIERS])
