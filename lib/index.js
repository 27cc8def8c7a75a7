/**
 * dyno's programmatic API.
 */
export { load } from './load/run.js'
export { DynoError } from './errors.js'
