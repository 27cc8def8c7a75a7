/**
 * The line that says which process of a cluster a report shows, when more
 * than one listened on the port the load went to.
 * @param {import('../run-folder.js').RunMeta} meta
 * @returns {string | null}
 */
export function sharedPortLine (meta) {
  const observed = meta.process
  if (!observed?.sharing || observed.sharing < 2 || !observed.listening) return null
  return `${observed.sharing} processes listened on port ${observed.listening.port} (a cluster): this is pid ${observed.pid}, the busiest of them; the others' data are in the run folder's raw/.`
}
