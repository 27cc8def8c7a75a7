/**
 * dyno's programmatic API. Types come from the JSDoc (`npm run build:types`
 * writes them to types/ for TypeScript users; npm pack does it too).
 *
 * @typedef {import('./load/options.js').LoadOptions} LoadOptions
 * @typedef {import('./load/options.js').LoadProgress} LoadProgress
 * @typedef {import('./load/summary.js').LoadResult} LoadResult
 */
export { load } from './load/run.js'
export { DynoError } from './errors.js'
