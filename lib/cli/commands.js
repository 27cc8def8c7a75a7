/**
 * The command surface. Each command's module is loaded only when it runs.
 * @type {{ name: string, summary: string, load: () => Promise<{ command: import('./flags.js').Command, run: (argv: string[], io: import('./io.js').IO) => Promise<number> }> }[]}
 */
export const commands = [
  { name: 'load', summary: 'HTTP load: closed model (connections, pipelining) or open model (constant rate)', load: () => import('./load.js') }
]
