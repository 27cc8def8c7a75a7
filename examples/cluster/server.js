// A cluster: the primary forks two workers, which share one port and do the
// work. PORT picks it (3000 by default; 0 for any free one, shared by both).
import cluster from 'node:cluster'
import http from 'node:http'

const WORKERS = Number(process.env.WORKERS ?? 2)

function checksum (text) {
  let hash = 0
  for (let round = 0; round < 2000; round++) {
    for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0
  }
  return hash
}

if (cluster.isPrimary) {
  for (let i = 0; i < WORKERS; i++) cluster.fork()
  // A worker that dies takes the cluster down with it, rather than serve on with fewer.
  cluster.on('exit', (worker, code, signal) => {
    if (!signal && code !== 0) process.exit(code)
  })
} else {
  const server = http.createServer((req, res) => {
    res.end(`worker ${process.pid}: ${checksum(req.url ?? '/')}\n`)
  })
  server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
    console.log(`worker ${process.pid} listening on http://127.0.0.1:${server.address().port}/`)
  })
}
