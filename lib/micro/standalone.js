import { resolve } from 'node:path'
import { main } from '../cli/main.js'

/**
 * `node bench.js`: a benchmark file that ends with `await run()` runs itself
 * as `dyno micro bench.js` would, with the flags given after it
 * (`node bench.js --quick --json`).
 * @param {{ quick?: boolean, json?: boolean }} options
 */
export async function runFromBenchmarkFile (options) {
  const file = resolve(process.argv[1])
  const flags = process.argv.slice(2)
  if (options.quick && !flags.includes('--quick')) flags.push('--quick')
  if (options.json && !flags.includes('--json')) flags.push('--json')
  const code = await main(['micro', ...flags, file])
  process.exitCode = code
  return code
}
