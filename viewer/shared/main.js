/* Starts the page's report, or says why it cannot. The report's last script defines startReport. */
/* global startReport */

try {
  // What the report offers scripts and tests, under its own name (window.dynoFlame).
  Object.assign(window, startReport())
  performance.mark('dyno:drawn')
  document.body.dataset.ready = 'true'
} catch (error) {
  const notice = /** @type {HTMLElement} */ (document.getElementById('notice'))
  notice.textContent = 'This report cannot be shown: ' + (error instanceof Error ? error.message : String(error))
  notice.hidden = false
  document.body.dataset.ready = 'error'
}
