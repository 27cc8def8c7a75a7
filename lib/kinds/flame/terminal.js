import { pathToFileURL } from 'node:url'
import { decimal } from '../../format.js'

/**
 * The end of a flame run on the terminal: the hottest functions by self
 * time, how the app ended, and where the report is.
 * @param {{ hot: import('../../cpu-profile/hot-functions.js').HotFunction[], html: string, data: import('../../cpu-profile/flame-data.js').FlameData, warnings?: string[] }} rendered
 * @param {{ how: string } | null} exit
 * @param {import('../../report/style.js').Style} style
 */
export function renderFlameSummary (rendered, exit, style) {
  const run = { ...rendered, samples: rendered.data.meta.samples, tiersKnown: rendered.data.meta.tiersKnown }
  const out = []
  if (run.samples === 0) {
    out.push('No CPU samples: the app was idle the whole time.')
  } else {
    out.push(style.bold('Hottest functions (self time)'))
    const rows = run.hot.map((f) => [
      `${decimal(f.selfPercent, 1)}%`,
      `${decimal(f.selfMs, 0)} ms`,
      f.name + (run.tiersKnown && f.tier !== 'unknown' ? ` [${f.tier}]` : ''),
      f.location || `(${f.category})`
    ])
    const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length)))
    for (const r of rows) out.push(`  ${r[0].padStart(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2].padEnd(widths[2])}  ${style.dim(r[3])}`)
  }
  const units = run.data.meta.units
  if (units) {
    const threads = units.filter((u) => / thread \d+ · /.test(u.label)).length
    const processes = units.length - threads
    const total = units.reduce((sum, u) => sum + u.samples, 0) || 1
    out.push('', `Profiled ${processes} process${processes === 1 ? '' : 'es'}${threads ? ` and ${threads} thread${threads === 1 ? '' : 's'}` : ''}, merged above; the report splits them ("by process"):`)
    for (const u of units) out.push(`  ${decimal((u.samples / total) * 100, 1).padStart(5)}%  ${u.label}`)
  }
  if (exit) out.push('', `The app ${exit.how}.`)
  if (run.warnings?.length) out.push('', ...run.warnings.map((w) => style.yellow(`Warning: ${w}`)))
  out.push('', `Report: ${pathToFileURL(run.html).href}`)
  return out.join('\n') + '\n'
}
