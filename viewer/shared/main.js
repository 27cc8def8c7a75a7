/* Starts the report, or says why it cannot. */
/* global startReport */

try {
  window.dynoFlame = startReport()
  performance.mark('dyno:drawn')
  document.body.dataset.ready = 'true'
} catch (error) {
  const notice = document.getElementById('notice')
  notice.textContent = 'This report cannot be shown: ' + (error && error.message)
  notice.hidden = false
  document.body.dataset.ready = 'error'
}
