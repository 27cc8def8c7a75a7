import { styleText } from 'node:util'

/**
 * Colours only on a terminal, and never when NO_COLOR is set.
 * @param {NodeJS.WriteStream | { isTTY?: boolean }} stream
 */
export function createStyle (stream) {
  const on = stream.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb'
  /** @param {Parameters<typeof styleText>[0]} format */
  const paint = (format) => (/** @type {string} */ text) => on ? styleText(format, text) : text
  return {
    on,
    bold: paint('bold'),
    dim: paint('dim'),
    red: paint('red'),
    yellow: paint('yellow'),
    green: paint('green'),
    cyan: paint('cyan')
  }
}

/** @typedef {ReturnType<typeof createStyle>} Style */
