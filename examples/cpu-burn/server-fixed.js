// server.js with its hot spot fixed: the primes do not change between
// requests, so they are computed once, at start, and every answer reuses them.
import http from 'node:http'

function computePrimes (limit) {
  const primes = []
  for (let n = 2; primes.length < limit; n++) {
    let prime = true
    for (let d = 2; d * d <= n; d++) {
      if (n % d === 0) {
        prime = false
        break
      }
    }
    if (prime) primes.push(n)
  }
  return primes
}

const primes = computePrimes(20000)
const answer = `the 20000th prime is ${primes[primes.length - 1]}\n`

const server = http.createServer((req, res) => {
  res.end(answer)
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
