// A server that gives every visitor a unique Star Wars name. It leaks: to
// make names unique it keeps every name it ever gave out, one key per
// request, and the `names` object grows until the process runs out of memory.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import { randomName } from './names.js'

const names = {}

function createName () {
  let name = randomName()
  if (names[name]) name += names[name]++
  names[name] = 1
  return name
}

const server = http.createServer((req, res) => {
  res.end(`Your unique name is: ${createName()}\n`)
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
