// The agent brought into a process that is already running (lib/agent/attach.cjs),
// and taken out again. The fixture is a plain HTTP server started without
// the agent; it evaluates, on its main thread, the very expression dyno
// sends through the inspector, so these tests are about the agent alone.
// A ChannelServer stands in for dyno's end of the agent's line.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import readline from 'node:readline'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { ChannelServer } from '../../lib/observe/channel-server.js'
import { waitFor, waitForOutput } from '../helpers/wait.js'

const ATTACH = fileURLToPath(new URL('../../lib/agent/attach.cjs', import.meta.url))
const APP = fileURLToPath(new URL('../fixtures/apps/attachable-server.cjs', import.meta.url))
const TRACER_UNDONE = fileURLToPath(new URL('../fixtures/apps/tracer-undone.cjs', import.meta.url))

/**
 * What dyno evaluates in the process (lib/observe/attached-app.js).
 * @param {object} options
 */
const attachExpression = (options) => `process.getBuiltinModule('node:module').createRequire(${JSON.stringify(ATTACH)})(${JSON.stringify(ATTACH)}).attach(${JSON.stringify(options)})`
const detachExpression = `process.getBuiltinModule('node:module').createRequire(${JSON.stringify(ATTACH)})(${JSON.stringify(ATTACH)}).detach()`

/**
 * Starts the fixture: no agent, no dyno environment. --expose-internals lets
 * it say whether a GC observer is on.
 * @param {import('node:test').TestContext} t
 * @param {Record<string, string>} [env]
 */
async function startApp (t, env = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DYNO_') && name !== 'NODE_OPTIONS'))
  const child = spawn(process.execPath, ['--expose-internals', APP], { env: { ...clean, PORT: '0', ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  const port = Number((await waitForOutput(child.stdout, /port (\d+)\n/, { what: 'the app listening' }))[1])
  /** @type {Map<number, (reply: any) => void>} */
  const waiting = new Map()
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith('{')) return
    const reply = JSON.parse(line)
    waiting.get(reply.id)?.(reply)
  })
  let nextId = 1
  /** @param {object} request @returns {Promise<any>} */
  const ask = async (request) => {
    const id = nextId++
    /** @type {any} */
    let reply = null
    waiting.set(id, (r) => { reply = r })
    child.stdin.write(JSON.stringify({ id, ...request }) + '\n')
    await waitFor(() => reply, { what: `the app's answer to ${JSON.stringify(request).slice(0, 80)}`, intervalMs: 10 })
    waiting.delete(id)
    if (reply.error) throw new Error(`the app: ${reply.error}\n${stderr}`)
    return reply.value
  }
  return {
    child,
    port,
    /** @param {string} expression */
    evaluate: (expression) => ask({ eval: expression }),
    state: () => ask({ state: true }),
    end: () => ask({ end: true }),
    stderr: () => stderr
  }
}

/** @param {import('node:test').TestContext} t */
async function startChannel (t) {
  const channel = new ChannelServer()
  await channel.listen()
  /** @type {any[]} */
  const messages = []
  for (const type of ['hello', 'listening', 'stopped', 'data']) channel.on(type, (message) => messages.push({ ...message, type }))
  t.after(() => channel.close())
  /**
   * @param {(message: any) => boolean} match
   * @param {string} what
   */
  const message = (match, what) => waitFor(() => messages.find(match), { what })
  return { channel, messages, message }
}

/** @param {import('node:test').TestContext} t */
function runDir (t) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-attach-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * @param {string} dir the run folder
 * @param {number} pid
 * @param {string} name `<pid>.<name>`
 */
const rawFile = (dir, pid, name) => join(dir, 'raw', `${pid}.${name}`)

/**
 * A request, on a connection of its own that the server closes.
 * @param {number} port
 * @returns {Promise<{ status: number | undefined, body: string }>}
 */
function get (port) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/', agent: false, headers: { connection: 'close' } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode, body }))
    }).on('error', reject)
  })
}

/**
 * Waits until the app shows what it showed before the agent came, then
 * asserts it (so a difference that stays is reported field by field).
 * @param {{ state: () => Promise<any> }} app
 * @param {any} before
 */
async function assertAsBefore (app, before) {
  /** @type {any} */
  let now = null
  try {
    await waitFor(async () => {
      now = await app.state()
      return JSON.stringify(now) === JSON.stringify(before)
    }, { what: 'the app as it was before the agent came', intervalMs: 200, timeoutMs: 20_000 })
  } catch {}
  assert.deepEqual(now, before)
}

/**
 * @param {string} dir @param {number} pid
 * @returns {Promise<{ how: string, code: number | null }>}
 */
async function endOf (dir, pid) {
  const file = rawFile(dir, pid, 'end.json')
  await waitFor(() => existsSync(file), { what: 'end.json' })
  return JSON.parse(readFileSync(file, 'utf8'))
}

/**
 * The heap snapshots written, as [n, label], each with its file.
 * @param {string} dir @param {number} pid
 */
function snapshots (dir, pid) {
  const file = rawFile(dir, pid, 'heap.snapshots.jsonl')
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line)).map((/** @type {any} */ s) => {
    assert.ok(existsSync(join(dir, 'raw', s.file)), `${s.file} is missing`)
    return [s.n, s.label]
  })
}

test('an agent brought into a running server reports its open servers, observes, and on stop leaves the process as it found it', async (t) => {
  const socketPath = join(tmpdir(), `dyno-attach-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`)
  t.after(() => rmSync(socketPath, { force: true }))
  const app = await startApp(t, { UNIX_SOCKET: socketPath })
  const pid = /** @type {number} */ (app.child.pid)
  const before = await app.state()
  assert.equal(before.workers, 0)
  assert.equal(before.asyncIdInThen, 0, 'the fixture has async hooks on before the agent came')
  assert.notEqual(before.timers, null, 'the fixture counts no timers')

  const { channel, messages, message } = await startChannel(t)
  const dir = runDir(t)
  const collectors = { doctor: {}, cpu: {}, heap: { sampling: true }, async: {} }
  const answer = await app.evaluate(attachExpression({ runDir: dir, socketPath: channel.path, collectors }))
  assert.deepEqual(answer, { ok: true, pid })

  await message((m) => m.type === 'hello' && m.pid === pid, 'the hello')
  const tcp = await message((m) => m.type === 'listening' && m.port === app.port, 'the listening message of the open TCP port')
  assert.equal(messages[0].type, 'hello', 'the hello comes first: it names the process')
  assert.deepEqual({ address: tcp.address, family: tcp.family }, { address: '127.0.0.1', family: 'IPv4' })
  await message((m) => m.type === 'listening' && m.family === 'unix' && m.path === socketPath, 'the listening message of the open unix socket')
  assert.equal(JSON.parse(readFileSync(rawFile(dir, pid, 'listening.json'), 'utf8')).port, app.port)
  assert.equal(JSON.parse(readFileSync(rawFile(dir, pid, 'process.json'), 'utf8')).attached, true)

  // A second agent is refused while this one is in.
  const again = await app.evaluate(attachExpression({ runDir: dir, socketPath: channel.path, collectors }))
  assert.equal(again.ok, false)
  assert.match(again.why, /already/)

  for (let i = 0; i < 30; i++) assert.equal((await get(app.port)).body, 'ok')
  await message((m) => m.type === 'data' && m.collector === 'doctor' && m.pid === pid, 'a live summary from doctor')
  await waitFor(() => existsSync(rawFile(dir, pid, 'doctor.jsonl')), { what: 'doctor.jsonl' })
  await waitFor(() => existsSync(rawFile(dir, pid, 'async.jsonl')) && readFileSync(rawFile(dir, pid, 'async.jsonl'), 'utf8').includes('"type":"request"'), { what: 'a traced request in async.jsonl' })

  // The agent is in: what the test compares below does show it.
  const during = await app.state()
  assert.equal(during.workers, 1)
  assert.ok(during.symbols.includes('Symbol(dyno.agent)'), during.symbols.join(' '))
  assert.ok(during.symbols.includes('Symbol(dyno.openRequests)'), during.symbols.join(' '))
  assert.ok(during.listeners.exit > before.listeners.exit)
  assert.equal(during.subscribed.requestStart, true)
  assert.equal(during.subscribed.listen, true)
  if (before.gcObserved !== null) assert.equal(during.gcObserved, true)
  if (before.timers !== null) assert.ok(during.timers > before.timers)
  assert.ok(during.modules.length > before.modules.length)

  channel.broadcastStop()
  await message((m) => m.type === 'stopped' && m.pid === pid, 'the stopped message')
  const end = await endOf(dir, pid)
  assert.equal(end.how, 'detached')
  const files = readdirSync(join(dir, 'raw'))
  for (const name of ['doctor.jsonl', 'cpu.0.cpuprofile', 'cpu.functions.json', 'heap.heapprofile', 'async.jsonl']) {
    assert.ok(files.includes(`${pid}.${name}`), `${name} is missing: ${files.join(' ')}`)
  }

  await assertAsBefore(app, before)
  assert.equal((await get(app.port)).body, 'ok', 'the app answers after the agent left')

  // A second dyno run on the same process.
  const second = await startChannel(t)
  const dir2 = runDir(t)
  assert.deepEqual(await app.evaluate(attachExpression({ runDir: dir2, socketPath: second.channel.path, collectors })), { ok: true, pid })
  await second.message((m) => m.type === 'hello' && m.pid === pid, 'the second hello')
  await second.message((m) => m.type === 'listening' && m.port === app.port, 'the second listening message')
  assert.equal((await get(app.port)).body, 'ok')
  second.channel.broadcastStop()
  await second.message((m) => m.type === 'stopped' && m.pid === pid, 'the second stopped message')
  assert.equal((await endOf(dir2, pid)).how, 'detached')
  assert.ok(existsSync(rawFile(dir2, pid, 'cpu.0.cpuprofile')))
  await assertAsBefore(app, before)
  assert.equal(app.child.exitCode, null, 'the app is still running')
})

test('dyno\'s line dropping takes the agent out too', async (t) => {
  const app = await startApp(t)
  const pid = /** @type {number} */ (app.child.pid)
  const before = await app.state()
  const { channel, message } = await startChannel(t)
  const dir = runDir(t)
  assert.deepEqual(await app.evaluate(attachExpression({ runDir: dir, socketPath: channel.path, collectors: { doctor: {}, cpu: {}, async: {} } })), { ok: true, pid })
  await message((m) => m.type === 'hello' && m.pid === pid, 'the hello')
  assert.equal((await app.state()).workers, 1)
  // A server the app opens now is heard of too, as with --require.
  const port = await app.evaluate("new Promise((resolve) => { const s = process.getBuiltinModule('node:net').createServer(); s.listen(0, '127.0.0.1', () => { const port = s.address().port; s.close(() => resolve(port)) }) })")
  await message((m) => m.type === 'listening' && m.port === port, 'the listening message of a server opened after attach')

  // dyno died: its end of the line closes without a stop.
  channel.close()
  assert.equal((await endOf(dir, pid)).how, 'channel-closed')
  await assertAsBefore(app, before)
  assert.equal((await get(app.port)).body, 'ok')
})

test('the main thread can take the agent out, and an app that ends while it is in ends as with --require', async (t) => {
  const app = await startApp(t)
  const pid = /** @type {number} */ (app.child.pid)
  const before = await app.state()
  assert.deepEqual(await app.evaluate(detachExpression), { ok: false, why: 'dyno\'s agent is not in this process' })

  const first = await startChannel(t)
  const dir = runDir(t)
  // Without a load, heap's snapshots come as observing starts and ends.
  const collectors = { doctor: {}, cpu: {}, heap: { atStart: true, atEnd: true } }
  assert.deepEqual(await app.evaluate(attachExpression({ runDir: dir, socketPath: first.channel.path, collectors })), { ok: true, pid })
  await first.message((m) => m.type === 'hello' && m.pid === pid, 'the hello')
  assert.deepEqual(await app.evaluate(detachExpression), { ok: true, pid })
  await first.message((m) => m.type === 'stopped' && m.pid === pid, 'the stopped message')
  assert.equal((await endOf(dir, pid)).how, 'detached')
  assert.deepEqual(snapshots(dir, pid), [[0, 'start'], [1, 'end']])
  await assertAsBefore(app, before)

  // In again; then the app ends by itself (its servers and stdin closed): the agent holds nothing open.
  const second = await startChannel(t)
  const dir2 = runDir(t)
  assert.deepEqual(await app.evaluate(attachExpression({ runDir: dir2, socketPath: second.channel.path, collectors })), { ok: true, pid })
  await second.message((m) => m.type === 'hello' && m.pid === pid, 'the second hello')
  await app.evaluate('process.exitCode = 3')
  await app.end()
  assert.equal(await waitFor(() => app.child.exitCode, { what: 'the app ending by itself' }), 3)
  const end = await endOf(dir2, pid)
  assert.deepEqual({ how: end.how, code: end.code }, { how: 'exit', code: 3 })
  assert.ok(existsSync(rawFile(dir2, pid, 'doctor.jsonl')))
  assert.ok(existsSync(rawFile(dir2, pid, 'cpu.0.cpuprofile')))
  // A joined process that exits is not held up for a heap snapshot: it may be a production one shutting down.
  assert.deepEqual(snapshots(dir2, pid), [[0, 'start']])
  assert.equal(app.stderr(), '')
})

test('attach refuses what it cannot use, and leaves nothing behind', async (t) => {
  const app = await startApp(t)
  const before = await app.state()
  const relative = await app.evaluate(attachExpression({ runDir: 'relative/dir', socketPath: null, collectors: {} }))
  assert.equal(relative.ok, false)
  assert.match(relative.why, /absolute/)
  // A run folder that cannot be made: the agent is taken out at once.
  const blocked = join(runDir(t), 'a-file')
  writeFileSync(blocked, '')
  const failed = await app.evaluate(attachExpression({ runDir: blocked, socketPath: null, collectors: { doctor: {} } }))
  assert.equal(failed.ok, false)
  await assertAsBefore(app, before)
  // No dyno on the line's other end: the agent takes itself out.
  const dir = runDir(t)
  const nowhere = join(dir, 'nobody-listens.sock')
  assert.equal((await app.evaluate(attachExpression({ runDir: dir, socketPath: nowhere, collectors: { doctor: {} } }))).ok, true)
  assert.equal((await endOf(dir, /** @type {number} */ (app.child.pid))).how, 'channel-closed')
  await assertAsBefore(app, before)
})

test('taken out with a traced request in flight, the async tracer turns its hooks off and unpatches socket writes', () => {
  const run = spawnSync(process.execPath, [TRACER_UNDONE], { encoding: 'utf8', timeout: 60_000 })
  assert.equal(run.status, 0, run.stderr)
  const { before, during, after } = JSON.parse(run.stdout)
  assert.deepEqual(before, { hooks: false, patched: false, subscribed: false, closeListeners: null })
  assert.deepEqual({ ...during, closeListeners: null }, { hooks: true, patched: true, subscribed: true, closeListeners: null })
  assert.deepEqual(after, { hooks: false, patched: false, subscribed: false, closeListeners: during.closeListeners - 1 })
})
