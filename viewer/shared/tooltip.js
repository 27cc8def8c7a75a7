/* A tooltip by the pointer: a title, where it is from, and rows of label and value. */

/** @param {HTMLElement} element */
export function createTooltip (element) {
  /** @param {string} className @param {string} text */
  function line (className, text) {
    const div = document.createElement('div')
    div.className = className
    div.textContent = text
    element.append(div)
  }

  /**
   * Shows the tooltip by the pointer, on the side where it fits. Every text is shown as text.
   * @param {number} clientX
   * @param {number} clientY
   * @param {{ title: string, where: string, rows: [string, string][] }} content
   */
  function show (clientX, clientY, { title, where, rows }) {
    element.replaceChildren()
    line('fn', title)
    if (where) line('where', where)
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

  return { show, hide }
}
