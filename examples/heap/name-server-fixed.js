// The name server without its leak: `names` keeps one counter per base name,
// so it stops growing once every name has been given out once.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import { randomName } from './names.js'

const names = {}

function createName () {
  const name = randomName()
  names[name] = (names[name] ?? 0) + 1
  return name + names[name]
}

const server = http.createServer((req, res) => {
  res.end(`Your unique name is: ${createName()}\n`)
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
