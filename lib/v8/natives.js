import v8 from 'node:v8'

/**
 * V8's natives syntax (`%GetOptimizationStatus(fn)` and friends) without
 * running the whole process under --allow-natives-syntax: the flag is turned
 * on only while a helper is compiled, then off again, so the application's
 * own code never parses with it. Dependency-free: the profiler agent loads
 * this inside profiled apps.
 */

const alreadyOn = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]
  .some((arg) => arg === '--allow-natives-syntax' || arg === '--allow_natives_syntax')

/**
 * @template T
 * @param {() => T} compile
 * @returns {T}
 */
function withNativesSyntax (compile) {
  if (alreadyOn) return compile()
  v8.setFlagsFromString('--allow-natives-syntax')
  try {
    return compile()
  } finally {
    v8.setFlagsFromString('--no-allow-natives-syntax')
  }
}

/**
 * A function of one argument whose body uses natives syntax, e.g.
 * `return %GetOptimizationStatus(fn)`; null when this V8 has no such runtime
 * function. V8 may flush the helper's bytecode when it sits unused, and
 * recompiling it without the flag is a SyntaxError: then it is compiled again
 * under the flag.
 * @param {string} body uses the parameter `fn`
 * @returns {((fn?: unknown) => any) | null}
 */
export function nativeHelper (body) {
  const compile = () => withNativesSyntax(() => {
    // eslint-disable-next-line no-new-func -- natives syntax parses only in code compiled while the flag is on
    const helper = /** @type {(fn?: unknown) => any} */ (new Function('fn', body))
    return helper
  })
  /** @type {(fn?: unknown) => any} */
  let helper
  try {
    helper = compile()
  } catch {
    return null
  }
  return (fn) => {
    try {
      return helper(fn)
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err
      helper = compile()
      return withNativesSyntax(() => helper(fn))
    }
  }
}
