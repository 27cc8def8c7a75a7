'use strict'
/**
 * An inspector session from the agent's worker thread to the app's main
 * thread (no port is opened), with promises. V8 hands such a session's
 * messages to the main thread between two JavaScript instructions, so the
 * worker is answered even while the app's event loop is blocked.
 */
const inspector = require('node:inspector')

class InspectorSession {
  constructor () {
    this.session = new inspector.Session()
    this.session.connectToMainThread()
  }

  /**
   * @param {string} method
   * @param {object} [params]
   * @returns {Promise<any>}
   */
  post (method, params) {
    return new Promise((resolve, reject) => {
      this.session.post(method, params, (err, result) => err ? reject(err) : resolve(result))
    })
  }

  /** At exit, so that Node does not wait for a "debugger" to go away. */
  disconnect () {
    try {
      this.session.disconnect()
    } catch {}
  }
}

/**
 * @typedef {object} SyncSession a session on the thread itself: calls answer before they return
 * @property {(method: string, params?: object) => any} post
 * @property {() => void} disconnect
 */

module.exports = { InspectorSession }
