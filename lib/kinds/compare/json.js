/**
 * `dyno compare --load --json`, and the compare.json a run folder keeps: the
 * result, with its failure as the message it printed.
 * @param {import('./types.js').CompareLoadResult} result
 */
export function compareLoadJson (result) {
  return { ...result, failure: result.failure?.message ?? null }
}
