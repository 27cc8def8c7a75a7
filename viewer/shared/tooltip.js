/* The tooltip over the flamegraph: which function, where, and how much time. */
/* exported createTooltip */
/* global formatCount, formatShare, formatLocation, TIER_NAMES */

const KIND_NAMES = ['app code', 'dependency (node_modules)', 'Node.js core', 'native / V8 builtin', 'garbage collection', 'V8 (program)']

function createTooltip (element) {
  function line (parent, className, text) {
    const div = document.createElement('div')
    div.className = className
    div.textContent = text
    parent.append(div)
  }

  /** rows: [label, value] pairs; title and where are plain strings */
  function show (clientX, clientY, title, where, rows) {
    element.replaceChildren()
    line(element, 'fn', title)
    if (where) line(element, 'where', where)
    const table = document.createElement('table')
    for (const [label, value] of rows) {
      const tr = table.insertRow()
      tr.insertCell().textContent = label
      tr.insertCell().textContent = value
    }
    element.append(table)
    element.hidden = false
    const { width, height } = element.getBoundingClientRect()
    const left = clientX + 14 + width > window.innerWidth ? clientX - 14 - width : clientX + 14
    const top = clientY + 16 + height > window.innerHeight ? clientY - 12 - height : clientY + 16
    element.style.left = Math.max(0, left) + 'px'
    element.style.top = Math.max(0, top) + 'px'
  }

  function hide () {
    element.hidden = true
  }

  /** what to say about node `i` of `tree` */
  function describe (profile, tree, i, inverted, stats) {
    const all = tree.total[0]
    const samples = (n) => formatShare(n, all) + ' (' + formatCount(n) + ' samples)'
    if (i === 0) return { title: 'all samples', where: '', rows: [['samples', formatCount(all)]] }
    const { frames } = profile
    const f = tree.frame[i]
    const where = formatLocation(frames.file[f], frames.line[f], frames.column[f])
    const rows = []
    if (inverted) {
      rows.push([tree.depth[i] === 1 ? 'top of stack' : 'with these callers', samples(tree.total[i])])
    } else {
      rows.push(['on stack', samples(tree.total[i])], ['top of stack', samples(tree.self[i])])
    }
    rows.push(['function, all calls', 'self ' + formatShare(stats.self[f], all) + ', total ' + formatShare(stats.total[f], all)])
    rows.push(['kind', KIND_NAMES[frames.category[f]] || 'unknown'])
    const tier = frames.tier[f]
    rows.push(['tier', profile.meta.tiersKnown === false ? 'unknown: this Node did not report tiers' : tier ? TIER_NAMES[tier] + (tier >= 3 ? ' (optimized)' : ' (not optimized)') : 'unknown'])
    if (tree.inlined[i]) rows.push(['inlined', 'yes, into its caller\'s optimized code'])
    return { title: frames.name[f], where, rows }
  }

  return { show, hide, describe }
}
