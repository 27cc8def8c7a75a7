// Stand-ins for what a handler waits on: a user service, an orders
// database, a recommendation engine, an item store. Each answers after a
// fixed time, as a remote call would, so what dyno async finds can be
// checked against known waits.
//
// The chain is the 2 s / 5 s / 8 s of the classic bubbleprof demo, scaled
// down 100 times (20 / 50 / 80 ms) so that a load run stays short; the
// ratios, and so the findings, are the same.
'use strict'

const WAIT_MS = { user: 20, orders: 50, recommendations: 80, item: 20, query: 20 }

/** @param {number} ms @param {unknown} value */
function wait (ms, value) {
  return new Promise((resolve) => setTimeout(resolve, ms, value))
}

const readUser = (id) => wait(WAIT_MS.user, { id, name: `user ${id}` })
const readOrders = (id) => wait(WAIT_MS.orders, [{ user: id, total: 42 }])
const readRecommendations = (id) => wait(WAIT_MS.recommendations, [{ user: id, sku: 'A-1' }])
const readItem = (id) => wait(WAIT_MS.item, { id, price: id * 3 })

/**
 * A database with `size` connections: a query takes WAIT_MS.query on a free
 * connection, and waits in line for one when all are busy.
 * @param {number} size
 */
function createPool (size) {
  let busy = 0
  const waiting = []
  function next () {
    if (busy >= size || waiting.length === 0) return
    busy++
    const { id, resolve } = waiting.shift()
    setTimeout(() => {
      busy--
      resolve({ id, rows: [id] })
      next()
    }, WAIT_MS.query)
  }
  return {
    size,
    query (id) {
      return new Promise((resolve) => {
        waiting.push({ id, resolve })
        next()
      })
    }
  }
}

module.exports = { WAIT_MS, readUser, readOrders, readRecommendations, readItem, createPool }
