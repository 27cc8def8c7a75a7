// A server whose handler spends its time in one CPU-bound function,
// `computePrimes`: the flamegraph should name it, not the handler.
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

const server = http.createServer((req, res) => {
  const primes = computePrimes(20000)
  res.end(`the 20000th prime is ${primes[primes.length - 1]}\n`)
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
