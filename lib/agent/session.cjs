'use strict'
/**
 * One profiling session inside the app: starts the profiler, writes the
 * profile in chunks as it goes (so a crash loses at most one chunk), tells
 * dyno when the app listens, and writes the last chunk when dyno asks or
 * when the process exits, whichever comes first.
 *
 * Files, in `<runDir>/raw/`: `<pid>.process.json` (who this process is),
 * `<pid>.<n>.cpuprofile` (the chunks), `<pid>.listening.json`, `<pid>.end.json`
 * (how profiling ended).
 */
const fs = require('node:fs')
const path = require('node:path')
const { Profiler } = require('./profiler.cjs')
const { connectChannel } = require('./channel.cjs')
const { onListening } = require('./listening.cjs')
const { collectTiers, prepareTierReader } = require('./tiers.cjs')

/** The longest a chunk of profile grows before it is written. */
const MAX_CHUNK_MS = 60_000

/** The most functions whose optimization tier is looked up at the end. */
const MAX_TIER_FRAMES = 400

/**
 * @param {{ runDir: string, socketPath: string | null, samplingIntervalUs: number, chunkMs: number }} options
 */
function startAgent (options) {
  const dir = path.join(options.runDir, 'raw')
  fs.mkdirSync(dir, { recursive: true })
  const pid = process.pid
  const file = (/** @type {string} */ name) => path.join(dir, `${pid}.${name}`)
  const writeJson = (/** @type {string} */ name, /** @type {unknown} */ value) => fs.writeFileSync(file(name), JSON.stringify(value))

  writeJson('process.json', {
    pid,
    ppid: process.ppid,
    argv: process.argv,
    execArgv: process.execArgv,
    cwd: process.cwd(),
    node: process.versions.node,
    v8: process.versions.v8,
    startedAt: new Date().toISOString()
  })

  const profiler = new Profiler(options.samplingIntervalUs)
  profiler.start()
  prepareTierReader()
  let chunk = 0
  let ended = false
  /** @type {{ name: string, message: string } | null} */
  let uncaught = null

  /** Script URLs the profile has seen, for the function ranges written at the end. */
  const profiledUrls = new Set()
  /** JavaScript frames the profile has seen, with their samples, for the tiers written at the end. */
  const profiledFrames = new Map()
  const writeChunk = (/** @type {{ nodes: { callFrame: import('./tiers.cjs').CallFrame, hitCount?: number }[] }} */ profile) => {
    for (const node of profile.nodes) {
      const cf = node.callFrame
      profiledUrls.add(cf.url)
      if (!cf.url) continue
      const key = `${cf.scriptId}:${cf.lineNumber}:${cf.columnNumber}`
      const seen = profiledFrames.get(key)
      if (seen) seen.hits += node.hitCount || 0
      else profiledFrames.set(key, { frame: cf, hits: node.hitCount || 0 })
    }
    fs.writeFileSync(file(`${chunk++}.cpuprofile`), JSON.stringify(profile))
  }

  // The first chunks are short, so an early crash loses little; later ones
  // grow to a minute, because each rotation briefly stops the app to hand
  // over its profile, and dyno merges fewer chunks.
  let chunkMs = options.chunkMs
  /** @type {NodeJS.Timeout} */
  let rotation
  const scheduleRotation = () => {
    rotation = setTimeout(() => {
      if (ended) return
      writeChunk(profiler.rotate())
      chunkMs = Math.min(chunkMs * 2, MAX_CHUNK_MS)
      scheduleRotation()
    }, chunkMs)
    rotation.unref()
  }
  scheduleRotation()

  /**
   * @param {string} how 'stopped' (dyno asked), 'exit', 'channel-closed'
   * @param {number | null} code
   */
  const end = (how, code) => {
    if (ended) return
    ended = true
    clearTimeout(rotation)
    writeChunk(profiler.stop())
    writeJson('end.json', { how, code, uncaught, at: new Date().toISOString() })
    try {
      writeJson('functions.json', profiler.functionRanges(profiledUrls))
    } catch {}
    try {
      const hottest = [...profiledFrames.values()].sort((a, b) => b.hits - a.hits).slice(0, MAX_TIER_FRAMES).map((f) => f.frame)
      const tiers = collectTiers(profiler, hottest)
      if (tiers) writeJson('tiers.json', { tiers })
    } catch {}
  }

  process.on('uncaughtExceptionMonitor', (err) => {
    const e = /** @type {Error} */ (err)
    uncaught = { name: String(e && e.name), message: String(e && e.message) }
  })
  process.on('exit', (code) => end('exit', code))

  /** @type {ReturnType<typeof connectChannel> | null} */
  const channel = options.socketPath
    ? connectChannel(options.socketPath, {
      onStop: () => {
        end('stopped', null)
        channel?.send({ type: 'stopped', pid })
      },
      onClose: () => end('channel-closed', null)
    })
    : null
  channel?.send({ type: 'hello', pid, ppid: process.ppid, argv: process.argv })

  onListening((address) => {
    writeJson('listening.json', address)
    channel?.send({ type: 'listening', pid, ...address })
  })
}

module.exports = { startAgent }
