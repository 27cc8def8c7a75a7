import { count, seconds } from '../format.js'

/**
 * A one-line progress bar on a terminal, redrawn in place. Write nothing
 * else to the stream until `done()`.
 * @param {NodeJS.WriteStream} stream
 */
export function createProgressBar (stream) {
  let drawn = false
  return {
    /** @param {import('../load/options.js').LoadProgress} p */
    update (p) {
      const byAmount = Number.isFinite(p.amount) && !Number.isFinite(p.duration)
      const fraction = byAmount ? p.responses / p.amount : p.elapsed / p.duration
      const width = 30
      const filled = Math.max(0, Math.min(width, Math.round(fraction * width)))
      const where = byAmount
        ? `${count(p.responses)}/${count(p.amount)}`
        : `${seconds(Math.round(p.elapsed))}/${seconds(p.duration)}`
      const errors = p.errors > 0 ? ` · ${count(p.errors)} errors` : ''
      stream.write(`\r\x1b[2K[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${where} · ${count(p.lastSecond)} req/s${errors}`)
      drawn = true
    },
    done () {
      if (drawn) stream.write('\r\x1b[2K')
      drawn = false
    }
  }
}
