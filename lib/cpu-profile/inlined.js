/**
 * Gives inlined functions their samples back.
 *
 * When V8 inlines a hot function G into its caller F, some V8 lines (Node 20
 * and 24 among them) report G's samples in F's frame: the CPU profile then
 * blames F, as 0x and clinic do. The samples still carry their source line
 * (`positionTicks`), and those lines lie in G's body, not F's. With the
 * extent of every function (from V8's coverage data) each line can be
 * handed to the function it belongs to.
 *
 * A line only says "line 10", not in which file. A line is moved to G when G
 * is a function of F's own file that owns the line (a closure of F, or a
 * function of the same module), or else when G is a callee of F seen
 * elsewhere in the profile whose file has that line in G's body. Otherwise
 * the line stays with F.
 */

/**
 * @typedef {object} FunctionExtent
 * @property {string} name
 * @property {number} start character offset in the script
 * @property {number} end
 * @property {number} startLine 1-based
 * @property {number} endLine
 */

/**
 * @typedef {object} ScriptExtents
 * @property {FunctionExtent[]} functions
 * @property {number[]} lineStarts offset of each line's first character
 * @property {string} text
 */

/**
 * @param {string} text
 * @param {[string, number, number][]} functions name, start and end offsets, as the agent writes them
 * @returns {ScriptExtents}
 */
export function scriptExtents (text, functions) {
  const lineStarts = [0]
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1)
  const lineOf = (/** @type {number} */ offset) => {
    let lo = 0
    let hi = lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (lineStarts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
  return {
    text,
    lineStarts,
    functions: functions
      .filter(([, start, end]) => end > start && end <= text.length + 1)
      .map(([name, start, end]) => ({ name, start, end, startLine: lineOf(start), endLine: lineOf(Math.max(start, end - 1)) }))
  }
}

/**
 * The innermost function whose extent covers the code on `line` (ignoring
 * leading and trailing blanks), or null.
 * @param {ScriptExtents} script
 * @param {number} line 1-based
 */
export function ownerOfLine (script, line) {
  if (line < 1 || line > script.lineStarts.length) return null
  let from = script.lineStarts[line - 1]
  let to = line < script.lineStarts.length ? script.lineStarts[line] - 1 : script.text.length
  while (from < to && /\s/.test(script.text[from])) from++
  while (to > from && /\s/.test(script.text[to - 1])) to--
  /** @type {FunctionExtent | null} */
  let best = null
  for (const fn of script.functions) {
    if (fn.start <= from && fn.end >= to && (best === null || fn.end - fn.start < best.end - best.start)) best = fn
  }
  return best
}

/**
 * The innermost function containing a position.
 * @param {ScriptExtents} script
 * @param {number} line 1-based
 * @param {number} column 1-based
 */
export function functionAt (script, line, column) {
  if (line < 1 || line > script.lineStarts.length) return null
  const offset = script.lineStarts[line - 1] + column - 1
  /** @type {FunctionExtent | null} */
  let best = null
  for (const fn of script.functions) {
    if (fn.start <= offset && offset < fn.end && (best === null || fn.end - fn.start < best.end - best.start)) best = fn
  }
  return best
}

/**
 * @typedef {object} Placed
 * @property {string} url
 * @property {FunctionExtent} fn
 */

/**
 * Decides, for each sampled line of a frame, which function it belongs to.
 * @param {object} frame
 * @param {string} frame.url
 * @param {number} frame.line 1-based start of the frame's function
 * @param {number} frame.column 1-based
 * @param {{ line: number, ticks: number }[]} ticks
 * @param {Map<string, ScriptExtents>} scripts by URL
 * @param {{ url: string, line: number, column: number }[]} callees functions seen called from this frame
 * @returns {{ line: number, ticks: number, to: Placed | null }[]} `to` null: the line is the frame's own
 */
export function placeTicks (frame, ticks, scripts, callees) {
  const own = scripts.get(frame.url)
  const self = own ? functionAt(own, frame.line, frame.column) : null
  /** @type {Placed[]} */
  const calleeExtents = []
  for (const callee of callees) {
    const script = scripts.get(callee.url)
    const fn = script && functionAt(script, callee.line, callee.column)
    if (fn) calleeExtents.push({ url: callee.url, fn })
  }
  return ticks.map(({ line, ticks: n }) => {
    const owner = own ? ownerOfLine(own, line) : null
    if (owner && self && owner === self) return { line, ticks: n, to: null }
    if (owner && self) {
      const nested = owner.start >= self.start && owner.end <= self.end
      const called = calleeExtents.some((c) => c.url === frame.url && c.fn === owner)
      if (nested || called) return { line, ticks: n, to: { url: frame.url, fn: owner } }
    }
    // A line outside the frame's own code: a callee from another file whose body holds it.
    const elsewhere = calleeExtents
      .filter((c) => c.url !== frame.url && c.fn.startLine <= line && line <= c.fn.endLine)
      .sort((a, b) => (a.fn.end - a.fn.start) - (b.fn.end - b.fn.start))
    if (elsewhere.length > 0) return { line, ticks: n, to: elsewhere[0] }
    if (owner && self && (line < self.startLine || line > self.endLine)) return { line, ticks: n, to: { url: frame.url, fn: owner } }
    return { line, ticks: n, to: null }
  })
}
