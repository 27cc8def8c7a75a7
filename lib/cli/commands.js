/**
 * The command surface. Each command's module is loaded only when it runs.
 * A module may name a subcommand's own declaration for --help (`dyno heap diff --help`).
 * @type {{ name: string, summary: string, load: () => Promise<{ command: import('./flags.js').Command, helpFor?: (argv: string[]) => import('./flags.js').Command, run: (argv: string[], io: import('./io.js').IO) => Promise<number> }> }[]}
 */
export const commands = [
  { name: 'load', summary: 'HTTP load: closed model (connections, pipelining) or open model (constant rate)', load: () => import('./load.js') },
  { name: 'flame', summary: 'CPU flamegraph of an app, under load: dyno flame --load \'<load flags>\' -- node app.js', load: () => import('./flame.js') },
  { name: 'doctor', summary: 'what kind of problem an app has under load, with the evidence and the next command: dyno doctor --load \'<load flags>\' -- node app.js', load: () => import('./doctor.js') },
  { name: 'heap', summary: 'what grows in the heap under load, and what holds it: dyno heap --load \'<load flags>\' -- node app.js', load: () => import('./heap.js') },
  { name: 'async', summary: 'where requests wait: serial awaits, awaits in loops, unbounded fan-outs: dyno async --load \'<load flags>\' -- node app.js', load: () => import('./async.js') },
  { name: 'micro', summary: 'micro-benchmarks, each case in fresh processes, with significance and V8 optimization status', load: () => import('./micro.js') },
  { name: 'compare', summary: 'is b faster, slower, or indistinguishable from a? (two --json results of dyno micro or dyno load)', load: () => import('./compare.js') },
  { name: 'report', summary: 'render the report of a run folder again', load: () => import('./report.js') }
]
