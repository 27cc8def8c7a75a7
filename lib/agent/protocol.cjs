'use strict'
/**
 * The messages between dyno and its agents, and between the agent's threads.
 * Types only: each side checks `type` before it reads anything else.
 *
 * Over the Unix socket, agent to dyno:
 * @typedef {{ type: 'hello', pid: number, ppid: number }
 *   | { type: 'listening', pid: number, port: number, address: string, family: string }
 *   | { type: 'stopped', pid: number }
 *   | { type: 'data', collector: string, pid: number, [field: string]: unknown }} AgentMessage
 *
 * Over the Unix socket, dyno to agent:
 * @typedef {{ type: 'stop' }
 *   | { type: 'command', collector: string, id: number, command: unknown }} DynoMessage
 *   command: dyno asks one collector for something (a heap snapshot); the reply is a 'data' message with `reply: id`
 *
 * From the app's main thread to the agent's worker thread:
 * @typedef {{ type: 'listening', address: { port: number, address: string, family: string } }
 *   | { type: 'uncaught', uncaught: { name: string, message: string } }
 *   | { type: 'exit', code: number }
 *   | { type: 'detach' }
 *   | { type: 'collector', collector: string, message: unknown }} MainMessage
 *   detach: an attached agent is to end as on dyno's stop, and take itself out (attach.cjs's detach())
 *
 * From the agent's worker thread to the app's main thread, only when attached:
 * @typedef {{ type: 'detached' }} WorkerMessage
 *   detached: observing has ended (on 'detach', dyno's stop or a dropped line) and dyno was told:
 *   the main thread takes the agent out and ends the worker
 *
 * On a process's BroadcastChannel, between its agent worker and the agents in its worker threads:
 * @typedef {{ type: 'stop' }
 *   | { type: 'thread-hello', threadId: number }
 *   | { type: 'thread-stopped', threadId: number }} ThreadMessage
 */

module.exports = {}
