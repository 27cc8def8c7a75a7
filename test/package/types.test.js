import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')

test('TypeScript users get the API\'s types from the JSDoc', (t) => {
  // Inside the package, so that the types' own imports (hdr-histogram-js) resolve as they would when installed.
  const dir = mkdtempSync(join(root, 'test', '.types-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const built = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.types.json'), '--outDir', join(dir, 'types')], { encoding: 'utf8' })
  assert.equal(built.status, 0, built.stdout + built.stderr)
  // A consumer: right use compiles, wrong use is caught (@ts-expect-error fails the build if it is not).
  writeFileSync(join(dir, 'consumer.ts'), `
    import { load, DynoError, type LoadResult, type LoadProgress } from './types/index.js'
    import { bench, run } from './types/micro/api.js'

    const controller = new AbortController()
    const result: Promise<LoadResult> = load({
      url: 'http://127.0.0.1:3000/',
      connections: 10,
      signal: controller.signal,
      onProgress: (p: LoadProgress) => console.log(p.elapsed, p.responses)
    })
    result.then((r) => console.log(r.requests.average, r.latency.percentiles['99'], r.errors.timeout))
    console.log(DynoError)
    bench('noop', () => {})
    void run

    // @ts-expect-error connections is a number
    load({ url: 'http://127.0.0.1:3000/', connections: 'ten' })
    // @ts-expect-error url is required
    load({ connections: 1 })
  `)
  const checked = spawnSync(process.execPath, [tsc, '--ignoreConfig', '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), join(dir, 'consumer.ts')], { encoding: 'utf8', cwd: dir })
  assert.equal(checked.status, 0, checked.stdout + checked.stderr)
})
