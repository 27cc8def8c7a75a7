// An express app that renders a pug template. Outside production, express
// does not cache views, so pug compiles the template again on every request:
// compare `dyno flame` of this app with and without NODE_ENV=production.
// Its dependencies are its own: npm ci --prefix examples/template
import express from 'express'
import { fileURLToPath } from 'node:url'

const app = express()
app.set('views', fileURLToPath(new URL('./views', import.meta.url)))
app.set('view engine', 'pug')

app.get('/hello', (req, res) => {
  res.render('hello', { title: 'dyno', items: ['baseline', 'profile', 'fix', 'verify'] })
})

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/hello (NODE_ENV=${process.env.NODE_ENV ?? 'development'})`)
})
