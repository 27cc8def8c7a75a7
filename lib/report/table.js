/**
 * Box-drawn tables, shaped like autocannon's, so its users read them at a glance.
 * @param {string[][]} rows the first row is the header
 * @param {{ bold?: (text: string) => string }} [style]
 */
export function table (rows, style = {}) {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => String(row[col] ?? '').length)))
  /** @param {string} left @param {string} mid @param {string} right */
  const rule = (left, mid, right) => left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right
  /** @param {string[]} row @param {boolean} header */
  const line = (row, header) => '│' + row.map((cell, col) => {
    const text = ` ${String(cell ?? '').padEnd(widths[col])} `
    return header && style.bold ? style.bold(text) : text
  }).join('│') + '│'
  const out = [rule('┌', '┬', '┐'), line(rows[0], true)]
  for (let i = 1; i < rows.length; i++) {
    out.push(rule('├', '┼', '┤'), line(rows[i], false))
  }
  out.push(rule('└', '┴', '┘'))
  return out.join('\n')
}
