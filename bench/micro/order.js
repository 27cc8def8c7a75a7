// One helper fed numbers by one case and strings by the other; ORDER=reversed swaps them.
import { bench, keep } from '../../lib/micro/api.js'
import { combine, numbers, strings } from './functions.js'

const cases = {
  numbers: () => bench('numbers', (xs) => { for (let i = 1; i < xs.length; i++) keep(combine(xs[i - 1], xs[i])) }, { setup: numbers }),
  strings: () => bench('strings', (xs) => { for (let i = 1; i < xs.length; i++) keep(combine(xs[i - 1], xs[i])) }, { setup: strings })
}
for (const name of process.env.ORDER === 'reversed' ? ['strings', 'numbers'] : ['numbers', 'strings']) cases[name]()
