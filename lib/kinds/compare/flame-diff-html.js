/**
 * The differential flamegraph: the flamegraph report's page and viewer,
 * given FlameData that carries a before side (`data.diff`, see
 * lib/kinds/compare/flame-diff-data.js). The viewer then colours each frame by
 * how its time per request changed, and lists every function's change.
 */
import { renderFlameHtml } from '../flame/html.js'

/**
 * @param {import('../../cpu-profile/flame-data.js').FlameData} data from flameDiffData
 * @returns {string} the whole HTML report
 */
export function renderFlameDiffHtml (data) {
  if (!data.diff) throw new TypeError('renderFlameDiffHtml needs FlameData with a before side (flameDiffData makes it)')
  return renderFlameHtml(data)
}
