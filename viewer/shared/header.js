/* The summary at the top: what was profiled, when, for how long, and how it ended. */
/* exported renderHeader */
/* global formatCount, formatDate, formatDuration */

function exitText (exit) {
  if (!exit) return 'unknown'
  let text = String(exit.how)
  if (exit.code !== null && exit.code !== undefined) text += ' (code ' + exit.code + ')'
  if (exit.signal) text += ' (' + exit.signal + ')'
  return text
}

function loadText (load) {
  const ms = (value) => (value >= 10 ? value.toFixed(1) : value.toFixed(2)) + ' ms'
  return formatCount(load.average) + ' req/s, latency p50 ' + ms(load.p50) + ', p99 ' + ms(load.p99) +
    ', ' + formatCount(load.errors) + ' errors, ' + formatCount(load.non2xx) + ' non-2xx'
}

function renderHeader (meta, title, facts) {
  document.title = meta.title + ' · dyno flame'
  title.textContent = meta.title
  const rows = [
    ['started', formatDate(meta.startedAt)],
    ['duration', formatDuration(meta.durationMs)],
    ['samples', formatCount(meta.samples) + (meta.idleSamples ? ' (+ ' + formatCount(meta.idleSamples) + ' idle)' : '')],
    ['interval', meta.intervalUs ? (meta.intervalUs / 1000).toFixed(2) + ' ms' : 'unknown'],
    ['Node.js', (meta.node || 'unknown') + (meta.v8 ? ' (V8 ' + meta.v8 + ')' : '')],
    ['app', exitText(meta.exit)]
  ]
  if (meta.load) rows.push(['load', loadText(meta.load)])
  facts.replaceChildren(...rows.map(([term, value]) => {
    const row = document.createElement('div')
    const dt = document.createElement('dt')
    const dd = document.createElement('dd')
    dt.textContent = term
    dd.textContent = value
    row.append(dt, dd)
    return row
  }))
}
