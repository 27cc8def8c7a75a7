import { fileURLToPath } from 'node:url'
import { CATEGORIES } from './flame-data.js'

/**
 * Which part of the program a frame belongs to, by its URL.
 * Categories are indexes into CATEGORIES of flame-data.js.
 */

export const APP = CATEGORIES.indexOf('app')
export const DEPENDENCY = CATEGORIES.indexOf('deps')
export const CORE = CATEGORIES.indexOf('core')
export const NATIVE = CATEGORIES.indexOf('native')
export const GC = CATEGORIES.indexOf('gc')
export const PROGRAM = CATEGORIES.indexOf('program')
/** The frames that stand for a process or thread of the app, in a profile of several. */
export const UNIT = CATEGORIES.indexOf('unit')

/**
 * @param {{ functionName: string, url: string }} frame
 */
export function categorize (frame) {
  const url = frame.url
  if (url === '') {
    if (frame.functionName === '(garbage collector)') return GC
    if (frame.functionName === '(program)') return PROGRAM
    return NATIVE
  }
  if (url.startsWith('node:') || !/[/\\]/.test(url)) return CORE
  if (/[/\\]node_modules[/\\]/.test(url)) return DEPENDENCY
  if (url.startsWith('wasm:')) return NATIVE
  return APP
}

/**
 * A file path for a frame's URL, or null when it is not a local file.
 * @param {string} url
 */
export function urlToPath (url) {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url)
    } catch {
      return null
    }
  }
  return url.startsWith('/') ? url : null
}
