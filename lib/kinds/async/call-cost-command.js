/**
 * What a call of an async function that returns without awaiting costs, its
 * caller awaiting it, against a plain function's call: measured on this
 * machine and this Node when dyno async ends, for the unneeded-async
 * findings' cost per request. About 20 ms.
 */

const CALLS = 20_000
const ROUNDS = 7

/** @param {number} x */
async function asyncIdentity (x) {
  return x
}

/** @param {number} x */
function identity (x) {
  return x
}

/** @param {boolean} awaited @returns {Promise<number>} ns for CALLS calls */
async function timeCalls (awaited) {
  let sum = 0
  const started = process.hrtime.bigint()
  if (awaited) {
    for (let i = 0; i < CALLS; i++) sum += await asyncIdentity(i)
  } else {
    for (let i = 0; i < CALLS; i++) sum += identity(i)
  }
  const ns = Number(process.hrtime.bigint() - started)
  // The sum is used, so that neither loop can be dropped.
  return sum === -1 ? 0 : ns
}

/** @returns {Promise<number>} ns a call, the median of ROUNDS rounds after one to warm up */
export async function measureAsyncCallNs () {
  await timeCalls(true)
  await timeCalls(false)
  const each = []
  for (let round = 0; round < ROUNDS; round++) each.push(Math.max(0, (await timeCalls(true)) - (await timeCalls(false))) / CALLS)
  each.sort((a, b) => a - b)
  return Math.round(each[ROUNDS >> 1] * 10) / 10
}
