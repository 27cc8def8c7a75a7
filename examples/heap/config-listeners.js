// A server that leaks through an event emitter: every request subscribes to
// 'config-changed' to hear about new settings, and never unsubscribes, so
// each request's context lives as long as the bus.
// PORT picks the port (3000 by default; 0 for any free one).
import { EventEmitter } from 'node:events'
import http from 'node:http'

const bus = new EventEmitter()
bus.setMaxListeners(0)

class RequestContext {
  constructor (req) {
    this.url = req.url
    this.startedAt = Date.now()
    this.settings = { locale: 'en', theme: 'dark' }
  }
}

const server = http.createServer((req, res) => {
  const context = new RequestContext(req)
  bus.on('config-changed', (settings) => { context.settings = settings })
  res.end(`hello from ${context.url}\n`)
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
