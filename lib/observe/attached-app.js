import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { DynoError, dynoError } from '../errors.js'
import { App } from './app.js'
import { splitWords } from './command.js'
import { openInspector } from './attach/inspector.js'
import { inspectorFlags } from './attach/node-flags.js'
import { checkTarget } from './attach/target.js'
import { isAlive, nodeChildren } from './attach/proc.js'

const ATTACH = fileURLToPath(new URL('../agent/attach.cjs', import.meta.url))
/** How long the process's main thread may take to run dyno's expression, and its agent to say hello. */
const ANSWER_TIMEOUT_MS = 10_000
/** How long an agent that is on its way out (the run before just ended) may take to leave. */
const LEAVING_WAIT_MS = 2000
/** An app that listens has said where by the time its agent is up: this is only for the messages in flight. */
const LISTENING_WAIT_MS = 3000

/**
 * A Node.js process that was running before dyno came (`--pid`): dyno opens
 * its inspector, brings the agent in with the collectors asked for, closes
 * the inspector again, and at the end has the agent take itself out. The
 * process is never stopped or signalled otherwise. The same interface as App,
 * so that observe() runs either.
 */
export class AttachedApp extends App {
  /**
   * @param {object} options
   * @param {number} options.pid
   * @param {boolean} options.useOpenInspector an inspector someone else opened may be used (and stays open)
   * @param {string} options.runDir
   * @param {Record<string, object>} options.collectors
   * @param {(message: string) => void} [options.onNotice] what dyno did to the process, in one line
   * @param {(message: string) => void} [options.onWarning]
   */
  constructor (options) {
    super({ command: [`--pid ${options.pid}`], cwd: '', env: {}, runDir: options.runDir, collectors: options.collectors })
    this.pid = options.pid
    this.attachOptions = options
    /** How dyno reached the process, for the run's meta.json. @type {{ inspector: string, openedByDyno: boolean, openMs: number } | null} */
    this.attached = null
    this.watching = true
  }

  async start () {
    const { pid, runDir, collectors, useOpenInspector, onNotice, onWarning } = this.attachOptions
    const facts = checkTarget(pid)
    const flags = inspectorFlags(facts.argv, splitWords(facts.nodeOptions ?? ''))
    if (flags.forbids) throw dynoError('DYNO_PID_FORBIDDEN.flag', { pid, flag: flags.forbids })
    await this.channel.listen()
    const hello = new Promise((resolve) => this.channel.once('hello', resolve))
    let inspector
    try {
      inspector = await openInspector(pid, flags, { useOpen: useOpenInspector })
    } catch (err) {
      this.channel.close()
      throw err
    }
    let openMs = 0
    try {
      const version = await inspector.evaluate("typeof process.getBuiltinModule === 'function' ? process.version : 'old:' + process.version", ANSWER_TIMEOUT_MS)
      if (String(version).startsWith('old:')) throw dynoError('DYNO_PID_OLD_NODE', { pid, version: String(version).slice(4) })
      const expression = `process.getBuiltinModule('node:module').createRequire(${JSON.stringify(ATTACH)})(${JSON.stringify(ATTACH)}).attach(${JSON.stringify({ runDir, socketPath: this.channel.path, collectors })})`
      let reply = /** @type {{ ok: boolean, why?: string, present?: boolean } | undefined} */ (await inspector.evaluate(expression, ANSWER_TIMEOUT_MS))
      // The agent of a run that just ended takes itself out a few milliseconds after it said so.
      for (const until = Date.now() + LEAVING_WAIT_MS; reply?.present && Date.now() < until;) {
        await sleep(50)
        reply = /** @type {{ ok: boolean, why?: string, present?: boolean } | undefined} */ (await inspector.evaluate(expression, ANSWER_TIMEOUT_MS))
      }
      if (reply?.present) throw dynoError('DYNO_PID_OBSERVED', { pid })
      if (!reply?.ok) throw dynoError('DYNO_PID_AGENT_FAILED', { pid, why: reply?.why ?? 'no answer' })
    } catch (err) {
      await inspector.close()
      this.channel.close()
      throw err instanceof DynoError ? err : dynoError('DYNO_PID_AGENT_FAILED', { pid, why: /** @type {Error} */ (err).message })
    }
    // The inspector closes once the agent is up and said so, so that the close never meets the
    // agent's thread connecting its own inspector session.
    this.exited = this.watchExit()
    const giveUp = new AbortController()
    const answered = await Promise.race([
      hello.then(() => true),
      sleep(ANSWER_TIMEOUT_MS, false, { signal: giveUp.signal }).catch(() => false),
      this.exited.then(() => false)
    ])
    // The timer would hold dyno's own exit for its whole length.
    giveUp.abort()
    const alive = answered || isAlive(pid)
    // An agent that never said hello is told to leave, whenever its thread comes up.
    if (!answered && alive) await inspector.evaluate(`process.getBuiltinModule('node:module').createRequire(${JSON.stringify(ATTACH)})(${JSON.stringify(ATTACH)}).detach()`, ANSWER_TIMEOUT_MS).catch(() => {})
    const closing = await inspector.close()
    openMs = closing.openMs
    const where = `${inspector.host.includes(':') ? `[${inspector.host}]` : inspector.host}:${inspector.port}`
    if (!answered) {
      this.watching = false
      this.channel.close()
      if (closing.stillOpen) onWarning?.(stillOpen(pid, where))
      throw alive ? dynoError('DYNO_PID_NO_ANSWER', { pid, seconds: ANSWER_TIMEOUT_MS / 1000 }) : dynoError('DYNO_PID_EXITED', { pid })
    }
    this.attached = { inspector: where, openedByDyno: inspector.openedByDyno, openMs: Math.round(openMs) }
    if (closing.stillOpen) onWarning?.(stillOpen(pid, where))
    else {
      onNotice?.(inspector.openedByDyno
        ? `opened the inspector of pid ${pid} on ${where} to bring the agent in, and closed it ${Math.round(openMs)} ms later`
        : `brought the agent into pid ${pid} through the inspector already open on ${where}, and left that open`)
    }
  }

  /**
   * Resolves when the process is gone. Not dyno's child, so its exit code is
   * what its agent wrote, if it wrote one.
   * @returns {Promise<import('./app.js').ProcessExit>}
   */
  async watchExit () {
    while (this.watching && isAlive(this.pid)) await sleep(100)
    this.exit = { code: null, signal: null }
    return this.exit
  }

  /**
   * @param {number} timeoutMs
   * @param {'tcp' | 'unix'} [kind]
   */
  async waitForListening (timeoutMs, kind = 'tcp') {
    try {
      return await super.waitForListening(Math.min(timeoutMs, LISTENING_WAIT_MS), kind)
    } catch (err) {
      if (err instanceof DynoError && err.code === 'DYNO_LISTEN_TIMEOUT') {
        const children = nodeChildren(this.pid)
        const what = { pid: this.pid, kind: kind === 'unix' ? 'unix socket' : 'TCP port', children: children.join(', ') }
        throw dynoError(children.length > 0 ? 'DYNO_PID_NOT_LISTENING.children' : 'DYNO_PID_NOT_LISTENING.nothing', what)
      }
      if (err instanceof DynoError && err.code === 'DYNO_TARGET_EXITED') throw dynoError('DYNO_PID_EXITED', { pid: this.pid })
      throw err
    }
  }

  /**
   * Asks the agent to end its collectors, write, and take itself out of the
   * process. The process goes on. An agent that has not finished within
   * `agentTimeoutMs` (the process's loop is held) or by a second Ctrl-C
   * (`urgent`) is left to finish and leave on its own: dyno stops waiting.
   * @param {{ agentTimeoutMs?: number, urgent?: AbortSignal }} [options]
   */
  async stop ({ agentTimeoutMs = 10_000, urgent } = {}) {
    if (this.channel.broadcastStop() > 0) {
      const finished = await new Promise((resolve) => {
        const timer = setTimeout(resolve, agentTimeoutMs, false)
        const done = (/** @type {boolean} */ stopped) => {
          clearTimeout(timer)
          urgent?.removeEventListener('abort', hurried)
          resolve(stopped)
        }
        const hurried = () => done(false)
        urgent?.addEventListener('abort', hurried, { once: true })
        this.channel.once('stopped', () => done(true))
        this.exited?.then(() => done(false))
      })
      // dyno ended the observing; the agent leaves once the loop lets it.
      if (!finished && isAlive(this.pid)) this.stoppedByDyno = true
    }
    this.channel.close()
    this.watching = false
    this.exit ??= { code: null, signal: null }
    return this.exit
  }

  alive () {
    return isAlive(this.pid) ? [this.pid] : []
  }

  agentStarted () {
    return true
  }

  /** Never: the process is not dyno's to stop. */
  signal () {}
  killOnExit = () => {}
}

/**
 * @param {number} pid
 * @param {string} where the inspector's host:port
 */
function stillOpen (pid, where) {
  return `opened the inspector of pid ${pid} on ${where} to bring the agent in; it is still open, as the app's event loop has not turned to close it: it closes on the loop's next turn (or restart the app)`
}
