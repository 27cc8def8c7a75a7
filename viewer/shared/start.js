/* Starts a page's report, or says why it cannot. Each report's main.js calls it with its startReport. */

/**
 * Runs `startReport` and hands what it returns (the report's own API, as
 * `{ dynoFlame }`) to scripts and tests on `window`; marks the page ready,
 * or shows why the report cannot be shown.
 * @param {() => object} startReport
 */
export function startPage (startReport) {
  try {
    Object.assign(window, startReport())
    performance.mark('dyno:drawn')
    document.body.dataset.ready = 'true'
  } catch (error) {
    const notice = /** @type {HTMLElement} */ (document.getElementById('notice'))
    notice.textContent = 'This report cannot be shown: ' + (error instanceof Error ? error.message : String(error))
    notice.hidden = false
    document.body.dataset.ready = 'error'
  }
}
