// A/A: two byte-identical functions. Any "difference" is a false positive.
import { bench } from '../../lib/micro/api.js'
import { sumA, sumB, numbers } from './functions.js'

bench('a', sumA, { setup: numbers })
bench('b', sumB, { setup: numbers })
