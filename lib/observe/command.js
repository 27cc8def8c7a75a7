import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join, resolve } from 'node:path'
import { dynoError } from '../errors.js'

/**
 * Finds the program a command would run, so that a typo gets one clear line
 * before anything starts.
 * @param {string} program first word of the command
 * @param {string} cwd
 * @param {NodeJS.ProcessEnv} env
 * @returns {string} its path
 */
export function resolveProgram (program, cwd, env) {
  const candidates = program.includes('/') || isAbsolute(program)
    ? [resolve(cwd, program)]
    : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, program))
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {}
  }
  throw dynoError('DYNO_COMMAND_NOT_FOUND', { program })
}

/**
 * Splits a command line the way a POSIX shell splits words: quotes and
 * backslashes, no expansion. For flags given as one string (`--load '-c 10 URL'`).
 * @param {string} text
 * @returns {string[]}
 */
export function splitWords (text) {
  /** @type {string[]} */
  const words = []
  let word = ''
  let inWord = false
  /** @type {string | null} */
  let quote = null
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quote) {
      if (c === quote) quote = null
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i]
      else word += c
    } else if (c === '"' || c === "'") {
      quote = c
      inWord = true
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i]
      inWord = true
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += c
      inWord = true
    }
  }
  if (quote) throw dynoError('DYNO_BAD_FLAG.unclosedQuote', { quote, text })
  if (inWord) words.push(word)
  return words
}
