/**
 * The kinds of run dyno makes, one line each. The CLI lists them as its
 * commands, and `dyno report` renders a run folder by the kind its
 * meta.json names. A kind's code lives in lib/kinds/<name>/: `cli.js`
 * (flags in, text out), `command.js` (options and io in, result out), its
 * analysis and its renderers, and, for a kind that writes run folders,
 * `folder.js` (the folder's files, how they are rendered again, and what the
 * terminal shows of them).
 *
 * @typedef {object} CliModule
 * @property {import('./cli/flags.js').Command} command
 * @property {(argv: string[]) => import('./cli/flags.js').Command} [helpFor] a subcommand's own declaration for --help
 * @property {(argv: string[], io: import('./cli/io.js').IO) => Promise<number>} run
 *
 * @typedef {object} FolderModule
 * @property {Readonly<Record<string, string>>} FILES the files the kind writes into a run folder
 * @property {(folder: string) => unknown} renderFolder reads the raw data and writes the reports again
 * @property {(rendered: any, meta: import('./run-folder.js').RunMeta, style: import('./report/style.js').Style) => string} summarize
 *
 * @typedef {object} Kind
 * @property {string} name the command, and the kind in a run folder's meta.json
 * @property {string} summary one line of `dyno --help`
 * @property {() => Promise<CliModule>} cli
 * @property {(() => Promise<FolderModule>) | null} folder null for a kind that writes no run folder
 */

/** @type {Kind[]} */
export const KINDS = [
  { name: 'load', summary: 'HTTP load on a server, with latency, throughput and errors: closed model (connections, pipelining) or open model (constant rate)', cli: () => import('./kinds/load/cli.js'), folder: null },
  { name: 'flame', summary: 'CPU flamegraph of an app, under load (--load, --on-port) or until it exits; --view renders a saved .cpuprofile', cli: () => import('./kinds/flame/cli.js'), folder: () => import('./kinds/flame/folder.js') },
  { name: 'doctor', summary: 'what kind of performance problem an app has under load (blocked loop, GC, memory growth, I/O wait), with the evidence and the next command', cli: () => import('./kinds/doctor/cli.js'), folder: () => import('./kinds/doctor/folder.js') },
  { name: 'heap', summary: 'what grows in the heap of an app under load, and what holds it; with --sampling, what allocates; heap diff compares saved snapshots', cli: () => import('./kinds/heap/cli.js'), folder: () => import('./kinds/heap/folder.js') },
  { name: 'async', summary: 'where an app\'s requests wait under load: serial awaits, awaits in loops, unbounded fan-outs', cli: () => import('./kinds/async/cli.js'), folder: () => import('./kinds/async/folder.js') },
  { name: 'micro', summary: 'micro-benchmarks: each case in fresh processes, compared with a significance test, with V8 optimization status', cli: () => import('./kinds/micro/cli.js'), folder: null },
  { name: 'compare', summary: 'is b faster, slower, or indistinguishable from a? Two versions of a server under load (--load), or two saved results of dyno micro or dyno load (--json)', cli: () => import('./kinds/compare/cli.js'), folder: () => import('./kinds/compare/folder.js') },
  { name: 'merge', summary: 'one result from the --json results of many generators that made one load together (dyno load --segment)', cli: () => import('./kinds/merge/cli.js'), folder: null }
]

/** @param {string} name */
export function findKind (name) {
  return KINDS.find((kind) => kind.name === name)
}
