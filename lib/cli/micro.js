import { mkdir, stat, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { usageError } from '../errors.js'
import { microResult } from '../micro/result.js'
import { runFile } from '../micro/runner.js'
import { renderMicroFile } from '../report/micro-terminal.js'
import { createStyle } from '../report/style.js'
import { parseFlags } from './flags.js'

/** What --quick changes, unless the flag itself is given. */
// Warm-up stays: a case measured before V8 has tiered it up is measured wrong, not roughly.
const QUICK = { rounds: 10, time: 0.03 }

/** @type {import('./flags.js').Command} */
export const command = {
  name: 'micro',
  usage: 'dyno micro [flags] <file...>',
  summary: 'Micro-benchmarks: each case in fresh processes, compared with a significance test, with V8 optimization status.',
  details: [
    'A benchmark file declares cases with bench(name, fn) from dyno/micro. Each case runs in its own',
    'processes, one per round; the processes of a round take their samples side by side, in',
    'alternating slices. ± and the comparisons treat the process as the unit of replication',
    '(per-round ratios to the fastest case, Student\'s t-test on their logs, 95% intervals).'
  ].join('\n'),
  flags: [
    { name: 'rounds', short: 'r', type: 'integer', min: 2, default: 20, placeholder: 'n', description: 'rounds, each with a fresh process per case' },
    { name: 'warmup', type: 'duration', default: 0.1, placeholder: 'seconds', description: 'warm-up in each process before sampling, in CPU time (0.1, 100ms)' },
    { name: 'time', short: 't', type: 'duration', default: 0.05, placeholder: 'seconds', description: 'sampling time in each process, in slices of 10 ms' },
    { name: 'quick', short: 'q', type: 'boolean', description: `less precision, less time: ${QUICK.rounds} rounds, ${QUICK.time * 1000} ms sampling per process` },
    { name: 'timeout', type: 'duration', default: 20, placeholder: 'seconds', description: 'stop a case\'s process that takes longer than this to answer: load and warm up, or one slice (a case that never settles)' },
    { name: 'json', short: 'j', type: 'boolean', description: 'print one JSON document with every sample instead of the report' },
    { name: 'save', short: 's', type: 'string', placeholder: 'name', description: 'also store the JSON document as .dyno/micro/<name>.json, for dyno compare' }
  ],
  examples: [
    'dyno micro examples/micro/divide-by-and-sum.js',
    'dyno micro --quick bench/*.bench.js',
    'dyno micro --save before bench.js && dyno micro --save after bench.js',
    'dyno compare .dyno/micro/before.json .dyno/micro/after.json'
  ]
}

/**
 * @param {string[]} argv
 * @param {import('./io.js').IO} io
 */
export async function run (argv, io) {
  const { values, positionals, given } = parseFlags(command, argv)
  if (positionals.length === 0) throw usageError('DYNO_NO_FILE', 'no benchmark file given; pass one like examples/micro/divide-by-and-sum.js')
  if (values.save !== undefined && !/^[\w.-]+$/.test(values.save)) {
    throw usageError('DYNO_BAD_FLAG', `--save takes a plain name (letters, digits, . _ -), not "${values.save}"`)
  }
  const files = []
  for (const p of positionals) files.push(await benchmarkFile(p, io.cwd))
  if (values.quick) {
    for (const [flag, value] of Object.entries(QUICK)) if (!given.has(flag)) values[flag] = value
  }
  /** @type {import('../micro/runner.js').MicroSettings} */
  const settings = {
    rounds: values.rounds,
    warmupMs: values.warmup * 1000,
    timeMs: values.time * 1000,
    sliceMs: 10,
    sampleMs: 1,
    timeoutMs: values.timeout * 1000
  }
  const style = createStyle(io.stdout)
  const showProgress = !values.json && io.stderr.isTTY === true
  const controller = new AbortController()
  const stopListening = io.onInterrupt(() => controller.abort())
  const startedAt = new Date()
  const reports = []
  try {
    for (const file of files) {
      const report = await runFile(file, settings, {
        signal: controller.signal,
        onProgress: showProgress ? (p) => io.stderr.write(`\r\x1b[2K${relative(io.cwd, p.file)}: round ${p.round + 1}/${p.rounds}${p.group ? ` · ${p.group}` : ''}`) : undefined
      })
      if (showProgress) io.stderr.write('\r\x1b[2K')
      reports.push(report)
      if (!values.json) io.stdout.write(renderMicroFile(report, { style, cwd: io.cwd }) + '\n')
    }
  } finally {
    stopListening()
  }

  const result = microResult(reports, settings, { startedAt, cwd: io.cwd, node: process.version, v8: process.versions.v8 })
  if (values.json) io.stdout.write(JSON.stringify(result, null, 2) + '\n')
  if (values.save !== undefined) {
    const dir = join(io.cwd, '.dyno', 'micro')
    await mkdir(dir, { recursive: true })
    const path = join(dir, `${values.save}.json`)
    await writeFile(path, JSON.stringify(result) + '\n')
    io.stderr.write(`saved to ${relative(io.cwd, path)}\n`)
  }

  const failures = []
  for (const r of reports) {
    const name = relative(io.cwd, r.file)
    if (r.error) failures.push(`${name}: could not run the file (${r.error.stage}): ${r.error.message}`)
    for (const g of r.groups) {
      for (const c of g.cases) {
        if (c.error) failures.push(`${name}: case "${g.name ? `${g.name} › ` : ''}${c.name}" failed (${c.error.stage}): ${c.error.message}`)
      }
    }
  }
  for (const line of failures) io.stderr.write(`dyno micro: ${line}\n`)
  if (controller.signal.aborted) return 130
  return failures.length > 0 ? 1 : 0
}

/**
 * @param {string} path @param {string} cwd
 */
async function benchmarkFile (path, cwd) {
  const file = resolve(cwd, path)
  const info = await stat(file).catch(() => null)
  if (!info) throw usageError('DYNO_BAD_FILE', `cannot read the benchmark file ${path}: no such file`)
  if (!info.isFile()) throw usageError('DYNO_BAD_FILE', `${path} is not a file; pass benchmark files, not folders`)
  return file
}
