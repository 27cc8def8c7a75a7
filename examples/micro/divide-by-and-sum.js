// Three versions of one hot function, each measured in its own processes.
//   npx dyno micro examples/micro/divide-by-and-sum.js
//   node examples/micro/divide-by-and-sum.js        (the same, without the CLI)
import { bench, run } from 'dyno/micro'
import { divideByAndSum as slow } from './slow.js'
import { divideByAndSum as noCollections } from './no-collections.js'
import { divideByAndSum as noTryCatch } from './no-try-catch.js'

// Built outside the timed code, once per process.
const numbers = () => Array.from({ length: 1000 }, (_, i) => Math.random() * i)

bench('slow', (array) => slow(12, array), { setup: numbers, inspect: slow })
bench('no-collections', (array) => noCollections(12, array), { setup: numbers, inspect: noCollections })
bench('no-try-catch', (array) => noTryCatch(12, array), { setup: numbers, inspect: noTryCatch })

await run()
