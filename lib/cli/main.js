import { readFileSync } from 'node:fs'
import { DynoError, internalError } from '../errors.js'
import { commands } from './commands.js'
import { helpText } from './flags.js'
import { processIO } from './io.js'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

function mainHelp () {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2
  return [
    'Usage: dyno <command> [flags]',
    '',
    'dyno runs the Node.js optimization loop: baseline under load, find the hot code,',
    'fix it, and prove the fix with statistics.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run dyno help <command> (or dyno <command> --help) for its flags.',
    ''
  ].join('\n')
}

/**
 * Runs the CLI and returns the exit code.
 * @param {string[]} argv the arguments after `dyno`
 * @param {import('./io.js').IO} [io]
 */
export async function main (argv, io = processIO()) {
  if (argv[0] === 'help' && argv.length > 1) return main([argv[1], '--help'], io)
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(mainHelp())
    return name === undefined ? 2 : 0
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${pkg.version}\n`)
    return 0
  }
  const entry = commands.find((c) => c.name === name)
  if (!entry) {
    io.stderr.write(`dyno: unknown command "${name}"; the commands are ${commands.map((c) => c.name).join(', ')} (dyno --help)\n`)
    return 2
  }
  try {
    const { command, helpFor, run } = await entry.cli()
    const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest
    if (own.includes('--help') || own.includes('-h')) {
      io.stdout.write(helpText(helpFor?.(own) ?? command))
      return 0
    }
    return await run(rest, io)
  } catch (err) {
    if (err instanceof DynoError) {
      io.stderr.write(`dyno ${name}: ${err.message}\n`)
      return err.exitCode
    }
    // Not a mistake of the user's nor a failure of the target: say it is ours.
    const bug = internalError(err)
    io.stderr.write(`dyno ${name}: ${bug.message}\n${err instanceof Error ? err.stack : ''}\n`)
    return bug.exitCode
  }
}
