import { fileURLToPath } from 'node:url'

/**
 * Which part of the program a frame belongs to, by its URL.
 * Categories are indexes into CATEGORIES of flame-data.js.
 */

export const APP = 0
export const DEPENDENCY = 1
export const CORE = 2
export const NATIVE = 3
export const GC = 4
export const PROGRAM = 5

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
