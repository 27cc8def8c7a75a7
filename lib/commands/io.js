/**
 * What every command in lib/commands/ is given besides its options, and how
 * it tells the CLI what happens while it runs. Commands print nothing: the
 * CLI turns events and results into text.
 *
 * @typedef {object} CommandIO
 * @property {string} cwd
 * @property {NodeJS.ProcessEnv} env
 * @property {AbortSignal} [signal] ends the run early, keeping what was measured; its reason names the signal ('SIGINT', 'SIGTERM', …)
 * @property {AbortSignal} [urgent] a second interrupt: the app is killed at once instead of given its grace to end
 * @property {(event: CommandEvent) => void} [onEvent]
 *
 * A 'status' event says what a long step is doing (a heap snapshot, an analysis).
 * @typedef {{ type: 'load-start', options: import('../load/options.js').LoadOptions }
 *   | { type: 'load-progress', progress: import('../load/options.js').LoadProgress }
 *   | { type: 'load-end' }
 *   | { type: 'warning', message: string }
 *   | { type: 'notice', message: string }
 *   | { type: 'status', message: string }
 *   | { type: 'agent-data', data: { collector: string, pid: number, [key: string]: unknown } }
 *   | { type: 'micro-round', progress: import('../micro/runner.js').Progress }
 *   | { type: 'micro-file', report: import('../micro/runner.js').FileReport }
 *   | { type: 'checkout', ref: string, commit: string }
 *   | { type: 'compare-round', side: 'before' | 'after', label: string, round: number, rounds: number | null, figures: import('../stats/comparison.js').RoundFigures }
 *   | { type: 'compare-progress', started: number, compared: number, rounds: number | null, elapsedMs: number, maxTimeMs: number, precision: number,
 *       requests: { ratio: number, low: number, high: number } | null }} CommandEvent
 */

/** Exit codes of a run stopped by a signal, as shells report them (128 + the signal's number). */
const SIGNAL_EXIT = /** @type {Record<string, number>} */ ({ SIGHUP: 129, SIGINT: 130, SIGTERM: 143 })

/** @param {string} signal */
export function signalExitCode (signal) {
  return SIGNAL_EXIT[signal] ?? 130
}

/**
 * The hooks of the observe step, as events for the CLI.
 * @param {CommandIO} io
 * @returns {import('../observe/observe.js').ObserveHooks}
 */
export function observeHooks (io) {
  const emit = io.onEvent
  if (!emit) return {}
  return {
    onLoadStart: (options) => emit({ type: 'load-start', options }),
    onLoadProgress: (progress) => emit({ type: 'load-progress', progress }),
    onLoadEnd: () => emit({ type: 'load-end' }),
    onWarning: (message) => emit({ type: 'warning', message }),
    onNotice: (message) => emit({ type: 'notice', message }),
    onAgentData: (data) => emit({ type: 'agent-data', data })
  }
}
