import assert from 'node:assert/strict'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { Job } from 'kubernetes-models/batch/v1'
import { ConfigMap } from 'kubernetes-models/v1'
import { parseAllDocuments } from 'yaml'
import { kubernetesYaml } from '../../../lib/kinds/load/kubernetes-yaml.js'
import { FILES_DIR, escapeArg, isLocalHost, kubernetesManifests } from '../../../lib/kinds/load/kubernetes.js'
import { runDyno } from '../../helpers/cli.js'
import { startHttpServer } from '../../helpers/servers.js'

/** Made for a Service the pods reach; never loaded from here. */
const TARGET = 'http://load-target.default.svc:8080/'

const NOW = Date.parse('2026-11-26T10:00:00.250Z')

/** @param {Partial<import('../../../lib/kinds/load/kubernetes.js').KubernetesPlan>} [plan] */
function manifests (plan = {}) {
  return kubernetesManifests({ generators: 3, url: TARGET, flags: ['--connections', '30', '--duration', '20'], files: [], image: 'dyno:0.1.0', now: NOW, durationS: 20, timeoutS: 10, workers: 0, ...plan })
}

/** @param {string} text YAML documents */
function parseYaml (text) {
  const docs = parseAllDocuments(text)
  assert.ok(Array.isArray(docs), 'YAML documents')
  for (const doc of docs) assert.deepEqual(doc.errors, [])
  return docs.map((doc) => doc.toJS())
}

/**
 * What the kubelet makes of a word of args: `$(VAR)` becomes the variable's
 * value when the container declares it, `$$` becomes `$`.
 * @param {string} word @param {Record<string, string>} env
 */
function expand (word, env) {
  return word.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, name) => name === undefined ? '$' : env[name] ?? all)
}

test('the manifests validate against the Kubernetes API schema: a plain load, one with a requests and a body file, one in a namespace', () => {
  const plain = manifests()
  new Job(plain.job).validate()
  assert.equal(plain.configMap, null)
  assert.equal(plain.name, 'dyno-load-1126-100000')
  assert.equal(plain.startAt, '2026-11-26T10:01:01.000Z', 'a whole second, a minute after')
  const spec = plain.job.spec
  assert.deepEqual([spec.completionMode, spec.completions, spec.parallelism, spec.backoffLimit, spec.template.spec.restartPolicy], ['Indexed', 3, 3, 0, 'Never'])
  assert.ok(spec.ttlSecondsAfterFinished >= 3600)
  const container = spec.template.spec.containers[0]
  assert.equal(container.name, 'dyno')
  assert.deepEqual(container.args, ['load', '--segment', '$(JOB_COMPLETION_INDEX)/3', '--start-at', '2026-11-26T10:01:01.000Z', '--json', '--connections', '30', '--duration', '20', TARGET])
  assert.deepEqual(container.env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }])
  assert.equal(container.resources.requests.cpu, '1')
  assert.equal(plain.job.metadata.labels['app.kubernetes.io/name'], 'dyno')
  assert.equal(plain.job.metadata.namespace, undefined)
  assert.equal(plain.waitS, 61 + 20 + 10 + 60)

  const withFiles = manifests({
    files: [
      { flag: 'requests', file: 'scenario/requests.json', content: Buffer.from('[{"path":"/a"}]') },
      { flag: 'input', file: 'body.bin', content: Buffer.from([0xff, 0x00, 0x80]) }
    ],
    namespace: 'perf',
    workers: 2
  })
  new Job(withFiles.job).validate()
  assert.ok(withFiles.configMap)
  new ConfigMap(withFiles.configMap).validate()
  assert.deepEqual(withFiles.configMap.data, { 'requests.json': '[{"path":"/a"}]' })
  assert.deepEqual(withFiles.configMap.binaryData, { 'input.bin': Buffer.from([0xff, 0x00, 0x80]).toString('base64') })
  const pod = withFiles.job.spec.template.spec
  assert.deepEqual(pod.volumes, [{ name: 'files', configMap: { name: withFiles.configMap.metadata.name } }])
  assert.deepEqual(pod.containers[0].volumeMounts, [{ name: 'files', mountPath: FILES_DIR, readOnly: true }])
  assert.deepEqual(pod.containers[0].args.slice(-5), ['--requests', `${FILES_DIR}/requests.json`, '--input', `${FILES_DIR}/input.bin`, TARGET])
  assert.equal(pod.containers[0].resources.requests.cpu, '2', 'a core for each load thread')
  assert.deepEqual([withFiles.job.metadata.namespace, withFiles.configMap.metadata.namespace], ['perf', 'perf'])

  // Parsed back, the YAML is the objects.
  assert.deepEqual(parseYaml(kubernetesYaml(plain)), [plain.job])
  assert.deepEqual(parseYaml(kubernetesYaml(withFiles)), [withFiles.configMap, withFiles.job])
})

test('a $ of the user\'s reaches the pod as it was: Kubernetes expands $(VAR) in args, so each is doubled', () => {
  const words = ['x-a: $(HOME)', '$$', '$x', 'cost $5 ($(', 'plain']
  const { job } = manifests({ flags: words.flatMap((w) => ['--header', w]) })
  const args = job.spec.template.spec.containers[0].args.map((/** @type {string} */ word) => expand(word, { JOB_COMPLETION_INDEX: '2', HOME: '/root' }))
  assert.deepEqual(args.slice(0, 3), ['load', '--segment', '2/3'])
  assert.deepEqual(args.filter((/** @type {string} */ _, /** @type {number} */ i) => args[i - 1] === '--header'), words)
  assert.equal(expand(escapeArg('$(JOB_COMPLETION_INDEX)'), { JOB_COMPLETION_INDEX: '1' }), '$(JOB_COMPLETION_INDEX)')
})

test('what the pods would load from is refused when it is this machine', () => {
  for (const host of ['127.0.0.1', '127.3.2.1', 'localhost', 'api.localhost', '[::1]', '0.0.0.0']) assert.ok(isLocalHost(host), host)
  for (const host of ['load-target.default.svc', '10.0.0.7', 'example.com', '[fd00::1]']) assert.ok(!isLocalHost(host), host)
})

test('the pods\' command lines, run here as three processes, make the load the merge adds up', async (t) => {
  let posted = 0
  let withBody = 0
  const server = await startHttpServer((req, res) => {
    let body = ''
    req.setEncoding('utf8').on('data', (d) => { body += d }).on('end', () => {
      if (req.method === 'POST') posted++
      if (req.method === 'POST' && body === '{"hello":"pods"}\n') withBody++
      res.end('ok')
    })
  })
  const dir = await mkdtemp(join(tmpdir(), 'dyno-kubernetes-'))
  t.after(async () => { await server.close(); await rm(dir, { recursive: true, force: true }) })
  await writeFile(join(dir, 'requests.json'), JSON.stringify([{ path: '/a' }, { path: '/b', method: 'POST' }]))
  await writeFile(join(dir, 'body.json'), '{"hello":"pods"}\n')
  // A common start a little ahead, as the manifests carry it; the user's --start-at wins over the default minute.
  const startAt = new Date(Date.now() + 4000).toISOString()
  const made = await runDyno(['load', '--kubernetes', '3', '-a', '900', '-c', '6', '--requests', 'requests.json', '-i', 'body.json', '--start-at', startAt, '--out', 'load.yaml', TARGET], { cwd: dir })
  assert.equal(made.code, 0, made.stderr)
  assert.match(made.stdout, /kubectl apply -f load\.yaml/)
  const [configMap, job] = parseYaml(await readFile(join(dir, 'load.yaml'), 'utf8'))
  new ConfigMap(configMap).validate()
  new Job(job).validate()
  const name = job.metadata.name
  assert.match(made.stdout, new RegExp(`kubectl wait --for=condition=complete job/${name} --timeout=\\d+s`))
  assert.ok(made.stdout.includes('kubectl logs "$pod" > "$' + '{pod#pod/}.json"'), made.stdout)
  assert.match(made.stdout, new RegExp(`dyno merge ${name}-\\*\\.json`))
  assert.match(made.stdout, new RegExp(startAt.replace(/\./g, '\\.')))

  // The ConfigMap as the pod's volume, here a folder.
  const mounted = join(dir, 'mounted')
  await mkdir(mounted)
  for (const [key, text] of Object.entries(configMap.data)) await writeFile(join(mounted, key), String(text))
  const [container] = job.spec.template.spec.containers
  const origin = new URL(server.url).origin
  const podArgs = (/** @type {number} */ index) => container.args.map((/** @type {string} */ word) => {
    const arg = expand(word, { JOB_COMPLETION_INDEX: String(index) })
    if (arg.startsWith(`${FILES_DIR}/`)) return join(mounted, arg.slice(FILES_DIR.length + 1))
    if (arg.startsWith(new URL(TARGET).origin)) return origin + new URL(arg).pathname
    return arg
  })
  const runs = await Promise.all([0, 1, 2].map((i) => runDyno(podArgs(i), { cwd: dir })))
  const logs = []
  for (const [i, run] of runs.entries()) {
    assert.equal(run.code, 0, run.stderr)
    const log = join(dir, `${name}-${i}-abcde.json`)
    await writeFile(log, run.stderr + run.stdout)
    logs.push(log)
  }
  const merged = await runDyno(['merge', '--json', ...logs])
  assert.equal(merged.code, 0, merged.stderr)
  const doc = JSON.parse(merged.stdout)
  assert.equal(doc.generators.length, 3)
  assert.equal(doc.requests.completed, 900)
  assert.equal(server.stats.requests, 900)
  assert.ok(posted > 300, `${posted} of 900 posted: the requests file's second request`)
  assert.equal(withBody, posted, 'each post carries the body file')
  // That the merged latency is of the order of one generator's making the same load alone depends
  // on the machine (three generators share its cores): test/timing/merge.test.js.
  assert.ok(doc.latency.percentiles['50'] > 0)
})

test('what --kubernetes cannot make is refused in one line, exit 2', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'dyno-kubernetes-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'big.txt'), Buffer.alloc(1024 * 1024 + 1, 'a'))
  const cases = [
    [['--kubernetes', '0', TARGET], /--kubernetes must be at least 1, not 0/],
    [['--kubernetes', '2.5', TARGET], /--kubernetes takes a whole number, not "2\.5"/],
    [['--kubernetes', 'three', TARGET], /--kubernetes takes a whole number, not "three"/],
    [['--kubernetes', '1001', TARGET], /--kubernetes must be at most 1000/],
    [['--kubernetes', '3', '--segment', '0/3', TARGET], /--kubernetes gives each pod its --segment/],
    [['--kubernetes', '4', '-c', '3', TARGET], /segment 3\/4 has nothing to do: 4 generators share -c 3 connections/],
    [['--kubernetes', '4', '-c', '8', '-a', '3', TARGET], /segment 3\/4 has nothing to do: 4 generators share -a 3 requests/],
    [['--kubernetes', '3', 'http://127.0.0.1:3000/'], /http:\/\/127\.0\.0\.1:3000\/ is this machine, and from a pod it would be the pod itself: give the address/],
    [['--kubernetes', '3', 'http://localhost:3000/'], /is this machine/],
    [['--kubernetes', '3', 'http://[::1]:3000/'], /is this machine/],
    [['--image', 'dyno:1', TARGET], /--image goes with --kubernetes <n>/],
    [['--namespace', 'perf', TARGET], /--namespace goes with --kubernetes <n>/],
    [['--out', 'load.yaml', TARGET], /--out goes with --kubernetes <n>/],
    [['--kubernetes', '2', '--namespace', 'Perf_Tests', TARGET], /--namespace "Perf_Tests" is not a Kubernetes namespace/],
    [['--kubernetes', '2', '-i', 'big.txt', TARGET], /the --input file big\.txt is 1025 KiB, over the 1024 KiB a ConfigMap holds/],
    [['--kubernetes', '2', '--out', join('no-such-folder', 'load.yaml'), TARGET], /cannot write the manifests to no-such-folder\/load\.yaml/]
  ]
  for (const [args, message] of /** @type {[string[], RegExp][]} */ (cases)) {
    const run = await runDyno(['load', ...args], { cwd: dir })
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`)
    assert.match(run.stderr, message)
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr)
    assert.equal(run.stdout, '')
  }
  const flame = await runDyno(['flame', '--load', '--kubernetes 2 http://127.0.0.1:$PORT/', '--', process.execPath, '-e', '0'], { cwd: dir })
  assert.equal(flame.code, 2, flame.stderr)
  assert.match(flame.stderr, /--kubernetes writes Kubernetes manifests: run dyno load --kubernetes on its own, not as --load/)
})
