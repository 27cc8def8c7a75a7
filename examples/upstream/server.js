// A fastify dashboard that calls another service with fetch: the user, then
// their orders, then recommendations, each awaited before the next is asked
// for, though none needs another's answer (see server-fixed.js).
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
  const user = await (await fetch(`${base}/users/1`)).json()
  const orders = await (await fetch(`${base}/orders?user=1`)).json()
  const recommendations = await (await fetch(`${base}/recommendations?user=1`)).json()
  return { user, orders, recommendations }
})

await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' })
console.log(`listening on http://127.0.0.1:${app.server.address().port}/`)
upstream = startUpstream()
