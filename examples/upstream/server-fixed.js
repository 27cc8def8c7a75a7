// server.js fixed: the three calls go out together and are awaited with
// Promise.all, so a request takes one call's time, not three.
// PORT picks the port (3000 by default; 0 for any free one); UPSTREAM_URL the
// service (without it, the example starts service.js itself).
import Fastify from 'fastify'
import { startUpstream } from './upstream.js'

const app = Fastify()
let upstream = null
let base = ''
// The first requests may come before the service has started.
app.addHook('onRequest', async () => {
  base ||= await upstream
})

app.get('/', async () => {
  const [user, orders, recommendations] = await Promise.all([
    fetch(`${base}/users/1`).then((res) => res.json()),
    fetch(`${base}/orders?user=1`).then((res) => res.json()),
    fetch(`${base}/recommendations?user=1`).then((res) => res.json())
  ])
  return { user, orders, recommendations }
})

await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' })
console.log(`listening on http://127.0.0.1:${app.server.address().port}/`)
upstream = startUpstream()
