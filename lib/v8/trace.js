/**
 * What V8 says about its optimizing compilers, parsed from the output of
 * --trace-opt, --trace-deopt and --trace-turbo-inlining (stdout) and from
 * the V8 log written by --log-deopt, which alone carries the source location
 * of each deoptimization. The formats differ between V8 versions, and
 * concurrent compiler threads interleave their lines, so every line is
 * matched on its own against the shapes each Node line prints, and what
 * matches nothing is skipped.
 *
 * @typedef {object} Optimization
 * @property {string} name function name ('' when anonymous)
 * @property {string} tier 'turbofan', 'maglev', ...
 * @property {boolean} osr on-stack replacement of a running loop
 *
 * @typedef {object} SourceLocation
 * @property {string} file a file:// URL or path as V8 names it ('unknown' for code without a script)
 * @property {number} line
 * @property {number} column
 *
 * @typedef {object} Deopt
 * @property {string} name the optimized function thrown away ('' when unknown)
 * @property {string} reason
 * @property {string} kind 'deopt-eager', 'deopt-lazy', ...
 * @property {SourceLocation | null} location where in the source the code's assumption failed
 *
 * @typedef {object} Inlining
 * @property {string} callee
 * @property {string} caller
 *
 * @typedef {object} V8Activity
 * @property {Optimization[]} optimizations
 * @property {Deopt[]} deopts
 * @property {Inlining[]} inlinings
 */

const FUNCTION = String.raw`<JSFunction ?([^(>]*?) ?\(sfi = [^)]*\)>`
const COMPLETED = new RegExp(String.raw`^\[completed (compiling|optimizing) 0x[0-9a-f]+ ${FUNCTION}(?: \(target ([A-Z_]+)\))?( OSR)?`)
// V8 9.x and later.
const BAILOUT = new RegExp(String.raw`^\[bailout \(kind: ([^,]+), reason: (.*?)\): begin\. deoptimizing 0x[0-9a-f]+ ${FUNCTION}`)
// Older V8: the reason follows on a ";;; deoptimize at" line.
const OLD_DEOPT = /^\[deoptimizing \(DEOPT (\w+)\): begin 0x[0-9a-f]+ <JSFunction ?([^ (>]*)/
const OLD_REASON = /^\s*;;; deoptimize at <?([^>,]*)>?, (.*)$/
const INLINING = /^Inlining 0x[0-9a-f]+ \{0x[0-9a-f]+ <SharedFunctionInfo ?([^>]*)>\} into 0x[0-9a-f]+ \{0x[0-9a-f]+ <SharedFunctionInfo ?([^>]*)>\}/

/** TURBOFAN_JS (V8 12+), TURBOFAN, MAGLEV → turbofan, maglev @param {string | undefined} target */
function tierName (target) {
  if (!target) return 'turbofan'
  return target.replace(/_JS$/, '').toLowerCase()
}

/**
 * @param {string} text stdout of a process run with the trace flags
 * @returns {{ optimizations: Optimization[], bailouts: { name: string, reason: string, kind: string }[], inlinings: Inlining[] }}
 */
export function parseTrace (text) {
  /** @type {Record<'compiling' | 'optimizing', Optimization[]>} */
  const completed = { compiling: [], optimizing: [] }
  /** @type {{ name: string, reason: string, kind: string }[]} */
  const bailouts = []
  /** @type {Inlining[]} */
  const inlinings = []
  for (const line of text.split('\n')) {
    let m
    if ((m = COMPLETED.exec(line))) {
      completed[/** @type {'compiling' | 'optimizing'} */ (m[1])].push({ name: m[2], tier: tierName(m[3]), osr: m[4] !== undefined })
    } else if ((m = BAILOUT.exec(line))) {
      bailouts.push({ kind: m[1], reason: m[2], name: m[3] })
    } else if ((m = OLD_DEOPT.exec(line))) {
      bailouts.push({ kind: `deopt-${m[1]}`, reason: '', name: m[2] })
    } else if ((m = OLD_REASON.exec(line)) && bailouts.length > 0 && bailouts[bailouts.length - 1].reason === '') {
      bailouts[bailouts.length - 1].reason = m[2]
    } else if ((m = INLINING.exec(line))) {
      inlinings.push({ callee: m[1], caller: m[2] })
    }
  }
  // Node 20 prints both "completed compiling" and "completed optimizing" for one Turbofan job, and
  // Maglev jobs only the first; older V8 only the second. Count one of them.
  const optimizations = completed.compiling.length > 0 ? completed.compiling : completed.optimizing
  return { optimizations, bailouts, inlinings }
}

/**
 * The `code-deopt` events of a V8 log:
 * `code-deopt,<time>,<size>,<code>,<inlining id>,<offset>,<kind>,<file:line:column>,<reason>`.
 * @param {string} log
 * @returns {{ kind: string, reason: string, location: SourceLocation | null }[]}
 */
export function parseDeoptLog (log) {
  const events = []
  for (const line of log.split('\n')) {
    if (!line.startsWith('code-deopt,')) continue
    const fields = line.split(',')
    if (fields.length < 9) continue
    const rest = fields.slice(7).join(',')
    // `<file:line:column>`, or for inlined code `<inner> inlined at <outer>`: the inner place is where it failed.
    const m = /^<([^>]*?):(\d+):(\d+)>(?: inlined at <[^>]*>)*,(.*)$/.exec(rest)
    events.push({
      kind: fields[6],
      reason: unescapeLog(m ? m[4] : fields.slice(8).join(',')),
      location: m ? { file: unescapeLog(m[1]), line: Number(m[2]), column: Number(m[3]) } : null
    })
  }
  return events
}

/** The V8 log writes commas and other specials as \xHH. @param {string} text */
function unescapeLog (text) {
  return text.replace(/\\x([0-9a-fA-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))
}

/**
 * One process's V8 activity: each deoptimization with its function name
 * (from the trace) and its source location (from the log). The two list the
 * same events in the same order; when they disagree, names are left out
 * rather than guessed.
 * @param {{ trace: string, log: string }} output
 * @returns {V8Activity}
 */
export function v8Activity ({ trace, log }) {
  const { optimizations, bailouts, inlinings } = parseTrace(trace)
  const logged = parseDeoptLog(log)
  const paired = logged.length === bailouts.length && logged.every((e, i) => e.reason === bailouts[i].reason)
  /** @type {Deopt[]} */
  const deopts = logged.length > 0
    ? logged.map((e, i) => ({ name: paired ? bailouts[i].name : '', reason: e.reason, kind: e.kind, location: e.location }))
    : bailouts.map((b) => ({ ...b, location: null }))
  return { optimizations, deopts, inlinings }
}
