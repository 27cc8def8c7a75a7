/**
 * The tiers a called function runs in, from the least to the most
 * optimized: the one list of their names. The status reader names them
 * (optimization-status.js), and the flame report numbers them from here
 * (lib/cpu-profile/flame-data.js). No imports: the report's browser code is
 * type-checked against it too.
 */
export const TIERS = /** @type {const} */ (['interpreted', 'baseline', 'maglev', 'turbofan'])
