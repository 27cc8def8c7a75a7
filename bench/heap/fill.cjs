'use strict'
/**
 * Builds a heap of about the given number of records and writes a heap
 * snapshot of it: `node fill.cjs <records> <out.heapsnapshot>`. Each record
 * is what a server keeps per session: a class instance, a plain object,
 * strings, an array, a Map entry and a closure, so the snapshot has the mix
 * of node and edge kinds real apps have.
 */
const v8 = require('node:v8')

class Session {
  constructor (id, user) {
    this.id = id
    this.user = user
    this.createdAt = Date.now()
    this.items = []
  }
}

const sessions = new Map()
const handlers = []
const records = Number(process.argv[2])
for (let i = 0; i < records; i++) {
  const user = { name: `user-${i}`, email: `user${i}@example.test`, roles: ['reader'] }
  const session = new Session(i, user)
  session.items.push({ sku: i % 977, quantity: i % 7 })
  sessions.set(`session-${i}`, session)
  handlers.push(() => session.id)
}
// Held from the global object, as an app keeps its state.
globalThis.heapFill = { sessions, handlers }
v8.writeHeapSnapshot(process.argv[3])
