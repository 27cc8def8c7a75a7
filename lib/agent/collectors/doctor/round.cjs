'use strict'

/** `n` rounded to `digits` decimals. @param {number} n @param {number} digits */
const round = (n, digits) => Math.round(n * 10 ** digits) / 10 ** digits

module.exports = { round }
