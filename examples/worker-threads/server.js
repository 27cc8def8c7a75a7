// A server that hands its CPU work to worker threads, one job per request,
// so its own event loop stays free. PORT picks the port (3000 by default; 0
// for any free one).
import http from 'node:http'
import { Worker } from 'node:worker_threads'

const THREADS = Number(process.env.THREADS ?? 2)
const pool = Array.from({ length: THREADS }, () => new Worker(new URL('./stretch-worker.js', import.meta.url)))
const waiting = new Map()
let nextJob = 0
for (const worker of pool) {
  worker.on('message', ({ job, key }) => {
    waiting.get(job)?.(key)
    waiting.delete(job)
  })
}

function stretch (password) {
  const job = nextJob++
  return new Promise((resolve) => {
    waiting.set(job, resolve)
    pool[job % pool.length].postMessage({ job, password })
  })
}

const server = http.createServer(async (req, res) => {
  res.end(`${await stretch(req.url ?? '/')}\n`)
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
