import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { dynoError } from '../errors.js'
import { ChannelServer } from './channel-server.js'
import { resolveProgram } from './command.js'
import { liveProcessesOfRun } from './run-processes.js'

const AGENT = fileURLToPath(new URL('../agent/agent.cjs', import.meta.url))
/** After this long waiting for the app to end, dyno says it is waiting. */
const WAITING_NOTICE_MS = 1000
/** How much longer than --listen-timeout a command may take to start its first agent before it is called not Node.js: on a busy machine node itself starts slowly. */
const AGENT_GRACE_MS = 10_000

/** @param {number} ms */
function formatSeconds (ms) {
  return `${Math.round(ms / 100) / 10} s`
}

/**
 * The user's app, started with dyno's agent inside every Node.js process of
 * it. It runs in its own process group, so that Ctrl-C reaches dyno first and
 * dyno decides the order: stop the collectors, then stop the app.
 *
 * @typedef {{ pid: number, ppid: number }} AgentHello
 * Where a process of the app listens: a TCP port, or a unix socket (`path`, absolute, with no port).
 * @typedef {{ pid: number, port: number | null, address: string | null, family: string, path?: string }} AgentListening
 * @typedef {{ code: number | null, signal: NodeJS.Signals | null }} ProcessExit
 */
export class App {
  /**
   * @param {object} options
   * @param {string[]} options.command
   * @param {string} options.cwd
   * @param {NodeJS.ProcessEnv} options.env
   * @param {string} options.runDir
   * @param {Record<string, object>} options.collectors what each collector is asked, by name
   * @param {boolean} [options.outputToStderr] the app writes to dyno's stderr only, leaving its stdout to dyno (--json)
   */
  constructor (options) {
    this.options = options
    this.channel = new ChannelServer()
    /** @type {AgentHello[]} */
    this.agents = []
    /** The first TCP port the app listened on. @type {AgentListening | null} */
    this.listening = null
    /** @type {ProcessExit | null} */
    this.exit = null
    /** @type {Promise<ProcessExit> | null} */
    this.exited = null
    /** @type {import('node:child_process').ChildProcess | null} */
    this.child = null
    this.stoppedByDyno = false
    /** The app did not end on SIGTERM and was killed. */
    this.killed = false
    this.channel.on('hello', (message) => this.agents.push(message))
    /** Every place the app listened, in order. @type {AgentListening[]} */
    this.listenings = []
    this.channel.on('listening', (message) => {
      if (message.port !== null) this.listening ??= message
      this.listenings.push(message)
    })
  }

  async start () {
    const { command, cwd, env, runDir, collectors } = this.options
    resolveProgram(command[0], cwd, env)
    await this.channel.listen()
    const nodeOptions = [env.NODE_OPTIONS, `--require "${AGENT.replace(/(["\\])/g, '\\$1')}"`].filter(Boolean).join(' ')
    const child = spawn(command[0], command.slice(1), {
      cwd,
      env: {
        ...env,
        NODE_OPTIONS: nodeOptions,
        DYNO_RUN_DIR: runDir,
        DYNO_AGENT_SOCKET: this.channel.path,
        DYNO_COLLECTORS: JSON.stringify(collectors)
      },
      // A terminal stays dyno's (the app runs in a group of its own, which may
      // not read it); piped input goes to the app.
      stdio: [process.stdin.isTTY ? 'ignore' : 'inherit', this.options.outputToStderr ? 2 : 'inherit', 'inherit'],
      detached: true
    })
    this.child = child
    process.on('exit', this.killOnExit)
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal }
        resolve(this.exit)
      })
    })
    // A spawn failure (a file that is not a program after all) arrives as an event.
    try {
      await once(child, 'spawn')
    } catch (err) {
      this.channel.close()
      throw dynoError('DYNO_COMMAND_FAILED', { program: command[0], why: /** @type {Error} */ (err).message })
    }
  }

  /**
   * Resolves with the first TCP port, or unix socket, a process of the app listens on.
   * @param {number} timeoutMs
   * @param {'tcp' | 'unix'} [kind]
   * @returns {Promise<AgentListening>}
   */
  async waitForListening (timeoutMs, kind = 'tcp') {
    const found = () => this.listenings.find((l) => kind === 'unix' ? l.path !== undefined : l.port !== null)
    if (found()) return /** @type {AgentListening} */ (found())
    /** @type {() => void} */
    let onListening = () => {}
    const listening = new Promise((resolve) => {
      onListening = () => { if (found()) resolve(/** @type {AgentListening} */ (found())) }
      this.channel.on('listening', onListening)
    })
    let timer
    const race = { settled: false }
    const timeout = new Promise((resolve, reject) => {
      timer = setTimeout(async () => {
        for (const until = Date.now() + AGENT_GRACE_MS; !this.agentStarted() && !race.settled && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 25))
        reject(!this.agentStarted() ? notNode(this.options.command) : dynoError('DYNO_LISTEN_TIMEOUT', { seconds: timeoutMs / 1000 }))
      }, timeoutMs)
    })
    const exited = /** @type {Promise<ProcessExit>} */ (this.exited).then(async (exit) => {
      // A launcher may end before the server it started listens: the app lives while any process of the run does.
      while (!race.settled && !found() && this.anyAlive()) await new Promise((resolve) => setTimeout(resolve, 25))
      if (found()) return /** @type {AgentListening} */ (found())
      throw !this.agentStarted() ? notNode(this.options.command) : dynoError('DYNO_TARGET_EXITED', { how: describeExit(exit) })
    })
    try {
      return await Promise.race([listening, timeout, exited])
    } finally {
      race.settled = true
      clearTimeout(timer)
      this.channel.off('listening', onListening)
    }
  }

  /**
   * Asks every agent still running to end its collectors and write, waits
   * for them, then stops what is left of the app: SIGTERM to its process
   * group, SIGKILL later, and the same to any process of the run that left
   * the group (a daemon that called setsid). Returns once none is left, so
   * that every agent has finished writing. The group may outlive its first
   * process (a launcher that starts the server and exits), so it is the
   * group that is watched, not the process dyno started.
   * A second Ctrl-C (`urgent`) ends the wait: the app is killed at once.
   * @param {{ agentTimeoutMs?: number, exitTimeoutMs?: number, urgent?: AbortSignal, onWaiting?: (message: string) => void }} [options]
   */
  async stop ({ agentTimeoutMs = 10_000, exitTimeoutMs = 5000, urgent, onWaiting } = {}) {
    const waiting = this.channel.broadcastStop()
    if (waiting > 0) {
      let answered = 0
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, agentTimeoutMs)
        const done = () => { clearTimeout(timer); resolve(undefined) }
        this.channel.on('stopped', () => { if (++answered >= waiting) done() })
        this.untilGone(agentTimeoutMs).then(done)
      })
    }
    if (this.anyAlive()) {
      this.stoppedByDyno = true
      this.signal('SIGTERM')
      // Say so when the app takes its time: dyno is not stuck, and can be hurried.
      const saying = setTimeout(() => onWaiting?.(`waiting up to ${formatSeconds(exitTimeoutMs)} for the app to end after SIGTERM (--stop-grace); Ctrl-C again kills it now`), WAITING_NOTICE_MS)
      const gone = await this.untilGone(exitTimeoutMs, urgent)
      clearTimeout(saying)
      if (!gone) {
        if (urgent?.aborted) onWaiting?.(`killed the app (SIGKILL) on a second ${urgent.reason ?? 'SIGINT'}`)
        this.killed = true
        this.signal('SIGKILL')
        await this.untilGone(2000)
      }
    }
    await this.exited
    this.channel.close()
    process.off('exit', this.killOnExit)
    return /** @type {ProcessExit} */ (this.exit)
  }

  /**
   * Whether the agent started in some process of the app: it said hello, or,
   * on a machine too busy for that yet, it made the run folder's raw/ (the
   * first thing it does, before the app's first line).
   */
  agentStarted () {
    return this.agents.length > 0 || existsSync(join(this.options.runDir, 'raw'))
  }

  /**
   * Resolves when the process `pid` of the app goes away.
   * @param {number} pid
   */
  disconnected (pid) {
    return new Promise((resolve) => {
      const onGone = (/** @type {{ pid: number }} */ message) => {
        if (message.pid !== pid) return
        this.channel.off('disconnected', onGone)
        resolve(undefined)
      }
      this.channel.on('disconnected', onGone)
    })
  }

  /** The processes of the app that live: its group, and any that left it. */
  alive () {
    return this.child ? liveProcessesOfRun(this.options.runDir, this.child.pid) : []
  }

  anyAlive () {
    return this.alive().length > 0
  }

  /**
   * @param {number} ms
   * @param {AbortSignal} [urgent] gives up waiting at once
   * @returns {Promise<boolean>} false when a process is still there after `ms`
   */
  async untilGone (ms, urgent) {
    const until = Date.now() + ms
    while (this.anyAlive()) {
      if (Date.now() > until || urgent?.aborted) return false
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    return true
  }

  /** @param {NodeJS.Signals} signal */
  signal (signal) {
    for (const pid of this.alive()) {
      try {
        process.kill(pid, signal)
      } catch {}
    }
  }

  /** If dyno itself goes down, the app does not stay behind. */
  killOnExit = () => this.signal('SIGTERM')
}

/** @param {string[]} command */
export function notNode (command) {
  return dynoError('DYNO_NOT_NODE', { command: command.join(' ') })
}

/** @param {ProcessExit} exit */
export function describeExit (exit) {
  if (exit.signal) return `was killed by ${exit.signal}`
  return `exited with code ${exit.code}`
}
