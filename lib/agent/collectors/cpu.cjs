'use strict'
/**
 * The CPU collector (`dyno flame`): the V8 CPU profiler on the main thread,
 * from its first line, written in chunks as it goes (a crash loses at most
 * the last chunk). At the end: the function extents and optimization tiers
 * that the analysis needs.
 *
 * Files: `<pid>.cpu.<n>.cpuprofile` (the chunks), `<pid>.cpu.functions.json`
 * (function extents), `<pid>.cpu.tiers.json` (optimization tiers) and
 * `<pid>.cpu.sourcemaps.json` (the source maps Node held for the scripts).
 */
const { Profiler, functionExtents } = require('../profiler.cjs')
const { collectSourceMaps, collectSourceMapsSync } = require('../source-maps.cjs')
const { collectTiers, prepareTierReader } = require('../tiers.cjs')

/** The longest a chunk of profile grows before it is written. */
const MAX_CHUNK_MS = 60_000
/** The most functions whose optimization tier is looked up at the end. */
const MAX_TIER_FRAMES = 400

/** @param {import('../collectors.cjs').MainContext} context */
function main (context) {
  prepareTierReader(context.installed)
}

/** @param {import('../collectors.cjs').WorkerContext} context */
function worker (context) {
  const samplingIntervalUs = Number(context.options.samplingIntervalUs) || 1000
  const profiler = new Profiler(context.session())
  let chunk = 0
  let ended = false
  /** Script URLs the profile has seen, for the function extents written at the end. */
  const profiledUrls = new Set()
  /** @type {Map<string, string>} script ids by URL, for the source maps written at the end */
  const scriptIds = new Map()
  /** JavaScript frames the profile has seen, with their samples, for the tiers written at the end. */
  const profiledFrames = new Map()

  /** @param {{ nodes: { callFrame: import('../tiers.cjs').CallFrame, hitCount?: number }[] }} profile */
  function writeChunk (profile) {
    for (const node of profile.nodes) {
      const cf = node.callFrame
      profiledUrls.add(cf.url)
      if (!cf.url) continue
      scriptIds.set(cf.url, cf.scriptId)
      const key = `${cf.scriptId}:${cf.lineNumber}:${cf.columnNumber}`
      const seen = profiledFrames.get(key)
      if (seen) seen.hits += node.hitCount || 0
      else profiledFrames.set(key, { frame: cf, hits: node.hitCount || 0 })
    }
    return context.write(`${chunk++}.cpuprofile`, JSON.stringify(profile))
  }

  // The first chunks are short, so an early crash loses little; later ones
  // grow to a minute, because each hand-over pauses the main thread while V8
  // serializes the profile, and dyno merges fewer chunks.
  let chunkMs = Number(context.options.chunkMs) || 10_000
  /** @type {NodeJS.Timeout | undefined} */
  let rotation
  function scheduleRotation () {
    rotation = setTimeout(async () => {
      if (ended) return
      try {
        if (!writeChunk(await profiler.rotate())) {
          ended = true
          return
        }
      } catch {
        return
      }
      chunkMs = Math.min(chunkMs * 2, MAX_CHUNK_MS)
      scheduleRotation()
    }, chunkMs)
  }

  const ready = profiler.start(samplingIntervalUs).then(scheduleRotation, () => { ended = true })

  return {
    ready,
    async end () {
      if (ended) return
      ended = true
      clearTimeout(rotation)
      try {
        writeChunk(await profiler.stop())
      } catch {}
      try {
        context.write('functions.json', JSON.stringify(await profiler.functionRanges(profiledUrls)))
      } catch {}
      try {
        const maps = await collectSourceMaps(profiler, scriptIds)
        if (maps.length > 0) context.write('sourcemaps.json', JSON.stringify(maps))
      } catch {}
      try {
        const hottest = [...profiledFrames.values()].sort((a, b) => b.hits - a.hits).slice(0, MAX_TIER_FRAMES).map((f) => f.frame)
        const tiers = await collectTiers(profiler, hottest)
        if (tiers) context.write('tiers.json', JSON.stringify({ tiers }))
      } catch {}
    }
  }
}

/**
 * A worker thread of the app, profiled from inside: the calls on its own
 * session answer at once, so the last chunk is written at the thread's exit.
 * @param {import('../collectors.cjs').ThreadContext} context
 */
function thread (context) {
  const session = context.session()
  const urls = new Set()
  /** @type {Map<string, string>} */
  const scriptIds = new Map()
  let chunk = 0
  let chunkMs = Number(context.options.chunkMs) || 10_000
  /** @param {{ nodes: { callFrame: { url: string, scriptId: string } }[] }} profile */
  const writeChunk = (profile) => {
    for (const { callFrame } of profile.nodes) {
      urls.add(callFrame.url)
      if (callFrame.url) scriptIds.set(callFrame.url, callFrame.scriptId)
    }
    return context.write(`${chunk++}.cpuprofile`, JSON.stringify(profile))
  }
  session.post('Profiler.enable')
  session.post('Profiler.setSamplingInterval', { interval: Number(context.options.samplingIntervalUs) || 1000 })
  session.post('Profiler.start')
  // Chunks while the thread's loop turns; a thread busy for good writes at its end.
  /** @type {NodeJS.Timeout} */
  let rotation
  const rotate = () => {
    writeChunk(session.post('Profiler.stop').profile)
    session.post('Profiler.start')
    chunkMs = Math.min(chunkMs * 2, MAX_CHUNK_MS)
    rotation = setTimeout(rotate, chunkMs).unref()
  }
  rotation = setTimeout(rotate, chunkMs).unref()
  return {
    end () {
      clearTimeout(rotation)
      writeChunk(session.post('Profiler.stop').profile)
      const { result } = session.post('Profiler.getBestEffortCoverage')
      context.write('functions.json', JSON.stringify(functionExtents(result, urls)))
      try {
        const maps = collectSourceMapsSync(session, scriptIds)
        if (maps.length > 0) context.write('sourcemaps.json', JSON.stringify(maps))
      } catch {}
    }
  }
}

module.exports = { main, worker, thread }
