// A real 10% difference: "more" does 11 rounds of the work "less" does in 10.
import { bench } from '../../lib/micro/api.js'
import { work, numbers } from './functions.js'

bench('less', (xs) => work(xs, 10), { setup: numbers })
bench('more', (xs) => work(xs, 11), { setup: numbers })
