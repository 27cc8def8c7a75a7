import { fileURLToPath } from 'node:url'
import { urlToPath } from './categorize.js'

/**
 * dyno's own code inside the profiled app: the agent (lib/agent/) and the
 * V8 status reader it loads there (lib/v8/). What it costs is dyno's, not
 * the app's, so the report and the exports leave its samples out.
 */
const FOLDERS = ['../agent/', '../v8/'].map((folder) => fileURLToPath(new URL(folder, import.meta.url)))

/**
 * Whether a frame's script is dyno's agent code, with the answer kept per
 * URL: a profile has a few hundred scripts and hundreds of thousands of nodes.
 */
export function agentCodeTest () {
  /** @type {Map<string, boolean>} */
  const known = new Map()
  return (/** @type {string} */ url) => {
    let is = known.get(url)
    if (is === undefined) {
      const path = urlToPath(url)
      is = path !== null && FOLDERS.some((folder) => path.startsWith(folder))
      known.set(url, is)
    }
    return is
  }
}
