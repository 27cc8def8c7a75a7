// A worker thread that stretches passwords into keys: the hot function,
// `stretchKey`, runs here, not on the server's thread.
import { parentPort } from 'node:worker_threads'

function stretchKey (password) {
  let key = 0x811c9dc5
  for (let round = 0; round < 20000; round++) {
    for (let i = 0; i < password.length; i++) key = Math.imul(key ^ password.charCodeAt(i), 0x01000193) >>> 0
  }
  return key.toString(16)
}

parentPort.on('message', ({ job, password }) => {
  parentPort.postMessage({ job, key: stretchKey(password) })
})
