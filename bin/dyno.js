#!/usr/bin/env node
// Checked before anything else loads: an older Node would fail on an import
// with a message that says nothing of the version.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 20 || (major === 20 && minor < 16)) {
  process.stderr.write(`dyno needs Node.js 20.16 or later (this is ${process.versions.node}); install a newer Node.js, e.g. the current LTS\n`)
  process.exit(2)
}
const { main } = await import('../lib/cli/main.js')
process.exitCode = await main(process.argv.slice(2))
