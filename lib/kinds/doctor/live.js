/**
 * The live view of `dyno doctor` on a terminal: loop delay, loop
 * utilization, CPU, heap and rss as they go, each a line with a sparkline of
 * the last values, redrawn in place. Only on a TTY; the CLI does not create it
 * otherwise.
 */
import { bytes } from '../../format.js'

const BLOCKS = '▁▂▃▄▅▆▇█'
const HISTORY = 40

/**
 * @param {NodeJS.WriteStream} stream a TTY
 * @param {import('../../report/style.js').Style} style
 */
export function createLiveView (stream, style) {
  /** @type {Record<string, number[]>} */
  const history = { delay: [], elu: [], cpu: [], heap: [], rss: [] }
  /** @type {any} */
  let last = null
  /** @type {import('../../load/options.js').LoadProgress | null} */
  let progress = null
  let drawn = 0

  function draw () {
    if (!last) return
    const width = Math.max(10, Math.min(HISTORY, (stream.columns ?? 80) - 40))
    const lines = [
      style.bold(`dyno doctor · pid ${last.pid}`) + (progress ? style.dim(` · load ${Math.round(progress.elapsed)} s${Number.isFinite(progress.duration) ? ` of ${progress.duration} s` : ''}, ${progress.lastSecond.toLocaleString('en-US')} req/s`) : ''),
      row('loop delay', history.delay, width, `max ${Math.round(last.delayMax)} ms${last.blocked ? ' (stuck)' : ''}`),
      row('loop busy', history.elu, width, `${Math.round(last.elu * 100)}%`, 1),
      row('CPU', history.cpu, width, `${Math.round(last.cpu * 100)}%`, 1),
      row('heap used', history.heap, width, last.heapUsed === null ? '-' : bytes(last.heapUsed)),
      row('rss', history.rss, width, bytes(last.rss))
    ]
    let text = drawn > 0 ? `\x1b[${drawn}A` : ''
    for (const line of lines) text += `\x1b[2K${line}\n`
    stream.write(text)
    drawn = lines.length
  }

  return {
    /** @param {any} data a summary the doctor collector sent */
    update (data) {
      last = data
      push(history.delay, data.delayMax)
      push(history.elu, data.elu)
      push(history.cpu, data.cpu)
      if (data.heapUsed !== null) push(history.heap, data.heapUsed)
      push(history.rss, data.rss)
      draw()
    },
    /** @param {import('../../load/options.js').LoadProgress} p */
    loadProgress (p) {
      progress = p
    },
    /** Takes the view off the screen. */
    done () {
      if (drawn === 0) return
      stream.write(`\x1b[${drawn}A` + '\x1b[2K\n'.repeat(drawn) + `\x1b[${drawn}A`)
      drawn = 0
    }
  }
}

/** @param {number[]} values @param {number} value */
function push (values, value) {
  values.push(value)
  if (values.length > HISTORY) values.shift()
}

/**
 * @param {string} label @param {number[]} values @param {number} width @param {string} now
 * @param {number} [top] the value of a full block; the largest shown when not given
 */
function row (label, values, width, now, top) {
  return `${label.padEnd(10)} ${sparkline(values.slice(-width), top).padEnd(width)} ${now}`
}

/**
 * @param {number[]} values
 * @param {number} [top]
 */
export function sparkline (values, top) {
  const max = top ?? Math.max(...values, 1e-9)
  return values.map((v) => BLOCKS[Math.max(0, Math.min(BLOCKS.length - 1, Math.round((v / max) * (BLOCKS.length - 1))))]).join('')
}
