// mapLimited(items, fn, limit): like Promise.all(items.map(fn)), with at
// most `limit` calls of fn in flight at once (what the p-map package does).
// Results keep the order of the items; the first rejection rejects.
export async function mapLimited (items, fn, limit) {
  const results = new Array(items.length)
  let next = 0
  async function work () {
    while (next < items.length) {
      const index = next++
      results[index] = await fn(items[index], index)
    }
  }
  const workers = []
  for (let i = 0; i < Math.min(limit, items.length); i++) workers.push(work())
  await Promise.all(workers)
  return results
}
