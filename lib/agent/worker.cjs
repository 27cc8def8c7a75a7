'use strict'
/**
 * The agent's worker thread: it profiles the main thread, writes the profile
 * in chunks as it goes (a crash loses at most the last chunk), talks to dyno,
 * and writes the last chunk when dyno asks or the process exits. Working
 * from here, it is heard even while the app's event loop is blocked.
 *
 * Files, in `<runDir>/raw/`: `<pid>.<n>.cpuprofile` (the chunks),
 * `<pid>.end.json` (how profiling ended), `<pid>.functions.json` (function
 * extents) and `<pid>.tiers.json` (optimization tiers).
 */
const fs = require('node:fs')
const path = require('node:path')
const { parentPort, workerData } = require('node:worker_threads')
const { Profiler } = require('./profiler.cjs')
const { connectChannel } = require('./channel.cjs')
const { collectTiers } = require('./tiers.cjs')

/** The longest a chunk of profile grows before it is written. */
const MAX_CHUNK_MS = 60_000
/** The most functions whose optimization tier is looked up at the end. */
const MAX_TIER_FRAMES = 400

const { dir, pid, flags, socketPath, samplingIntervalUs } = workerData
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)

/** @param {string} name @param {string} text */
function write (name, text) {
  try {
    fs.writeFileSync(path.join(dir, `${pid}.${name}`), text)
    return true
  } catch {
    // The run folder went away: nothing more to write into.
    return false
  }
}

const profiler = new Profiler()
let chunk = 0
let ended = false
/** @type {{ name: string, message: string } | null} */
let uncaught = null
/** Script URLs the profile has seen, for the function extents written at the end. */
const profiledUrls = new Set()
/** JavaScript frames the profile has seen, with their samples, for the tiers written at the end. */
const profiledFrames = new Map()

/** @param {{ nodes: { callFrame: import('./tiers.cjs').CallFrame, hitCount?: number }[] }} profile */
function writeChunk (profile) {
  for (const node of profile.nodes) {
    const cf = node.callFrame
    profiledUrls.add(cf.url)
    if (!cf.url) continue
    const key = `${cf.scriptId}:${cf.lineNumber}:${cf.columnNumber}`
    const seen = profiledFrames.get(key)
    if (seen) seen.hits += node.hitCount || 0
    else profiledFrames.set(key, { frame: cf, hits: node.hitCount || 0 })
  }
  return write(`${chunk++}.cpuprofile`, JSON.stringify(profile))
}

// The first chunks are short, so an early crash loses little; later ones
// grow to a minute, because each hand-over pauses the main thread while V8
// serializes the profile, and dyno merges fewer chunks.
let chunkMs = workerData.chunkMs
/** @type {NodeJS.Timeout | undefined} */
let rotation
function scheduleRotation () {
  rotation = setTimeout(async () => {
    if (ended) return
    try {
      if (!writeChunk(await profiler.rotate())) return end('folder-gone', null)
    } catch {
      return
    }
    chunkMs = Math.min(chunkMs * 2, MAX_CHUNK_MS)
    scheduleRotation()
  }, chunkMs)
}

/**
 * The last chunk and what goes with it. Once only.
 * @param {string} how 'stopped' (dyno asked), 'exit', 'channel-closed', 'folder-gone'
 * @param {number | null} code
 */
async function end (how, code) {
  if (ended) return
  ended = true
  clearTimeout(rotation)
  try {
    writeChunk(await profiler.stop())
  } catch {}
  write('end.json', JSON.stringify({ how, code, uncaught, at: new Date().toISOString() }))
  try {
    write('functions.json', JSON.stringify(await profiler.functionRanges(profiledUrls)))
  } catch {}
  try {
    const hottest = [...profiledFrames.values()].sort((a, b) => b.hits - a.hits).slice(0, MAX_TIER_FRAMES).map((f) => f.frame)
    const tiers = await collectTiers(profiler, hottest)
    if (tiers) write('tiers.json', JSON.stringify({ tiers }))
  } catch {}
}

/** @param {number} index */
function raise (index) {
  Atomics.store(flags, index, 1)
}

/** @type {ReturnType<typeof connectChannel> | null} */
const channel = socketPath
  ? connectChannel(socketPath, {
    onStop: () => end('stopped', null).then(() => channel?.send({ type: 'stopped', pid })),
    onClose: () => { end('channel-closed', null) }
  })
  : null

port.on('message', (message) => {
  if (message.type === 'listening') channel?.send({ type: 'listening', pid, ...message.address })
  else if (message.type === 'uncaught') uncaught = message.uncaught
  else if (message.type === 'exit') end('exit', message.code).finally(() => raise(1))
})

profiler.start(samplingIntervalUs)
  .then(() => {
    channel?.send({ type: 'hello', pid, ppid: process.ppid })
    scheduleRotation()
  })
  .catch(() => { ended = true })
  .finally(() => raise(0))
