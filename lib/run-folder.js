import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { dynoError, fileProblem } from './errors.js'

/**
 * One run, one folder: `.dyno/<time>-<kind>/` holds the raw data in
 * standard formats and `meta.json`, so any report can be rendered again
 * (`dyno report <folder>` dispatches on `kind`).
 *
 * @typedef {string} RunKind the name of a kind in lib/kinds.js that writes run folders
 *
 * @typedef {object} RunMeta what every run folder's meta.json holds
 * @property {2} schemaVersion
 * @property {RunKind} kind the command that wrote the folder
 * @property {string} title what the reports call the run: the command, or the file viewed
 * @property {{ argv: string[], cwd: string, pid?: number } | null} target the command observed (null for a file viewed); with `pid`,
 *   a process that ran before dyno came, and the command line it runs
 * @property {string | null} source the file rendered, for a run that observed nothing (`flame --view`)
 * @property {string} cwd where paths in the data are relative to
 * @property {string | null} node the observed process's Node.js version
 * @property {string | null} v8
 * @property {string} startedAt ISO time
 * @property {string} finishedAt
 * @property {Record<string, unknown>} options the command's own options that shaped the data
 * @property {import('./load/summary.js').LoadResult | null} load the load dyno ran, if it ran one
 * @property {{ startMs: number, endMs: number } | null} loadWindow when the load ran, epoch ms (the agents' clock)
 * @property {{ command: string, code: number | null, signal: string | null, failed: boolean } | null} onPort
 * @property {{ pid: number, argv: string[] | null, listening: { port: number, address: string } | null, sharing?: number } | null} process the process observed;
 *   sharing: how many processes listened on its port (a cluster's primary and workers), when more than one did
 * @property {number} processes how many Node.js processes of the app the agent was in
 * @property {number} threads how many worker threads of theirs it observed
 * @property {import('./observe/app-end.js').AppEnd | null} end how the app ended (null for a file viewed)
 * @property {{ pid: number, inspector: string, openedByDyno: boolean, openMs: number }} [attached] how dyno joined a process that
 *   ran already: through its inspector at `inspector`, opened by dyno (and closed after `openMs`) or open already
 */

export const META = 'meta.json'

/**
 * Creates a new run folder. The folders above it are made one by one, so a
 * place that cannot hold folders (a file, /proc, /dev/null) is refused in
 * one line (a recursive mkdir spins forever on procfs).
 * @param {string} base the folder runs go in (`.dyno` by default)
 * @param {RunKind} kind
 * @param {Date} [now]
 */
export function createRunFolder (base, kind, now = new Date()) {
  const stamp = now.toISOString().replace(/\.\d+Z$/, '').replace(/:/g, '-')
  makeFolders(resolve(base), base)
  for (let n = 1; ; n++) {
    const folder = resolve(base, `${stamp}-${kind}${n > 1 ? `-${n}` : ''}`)
    try {
      mkdirSync(folder)
      return folder
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw cannotWrite(base, err)
    }
  }
}

/**
 * @param {string} path absolute
 * @param {string} asGiven for messages
 */
function makeFolders (path, asGiven) {
  let stat
  try {
    stat = statSync(path)
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'ENOENT') throw cannotWrite(asGiven, err)
  }
  if (stat) {
    if (!stat.isDirectory()) throw dynoError('DYNO_BAD_OUT.notFolder', { out: asGiven })
    return
  }
  const parent = dirname(path)
  if (parent !== path) makeFolders(parent, asGiven)
  try {
    mkdirSync(path)
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw cannotWrite(asGiven, err)
  }
}

/** @param {string} base @param {unknown} err */
function cannotWrite (base, err) {
  const e = /** @type {NodeJS.ErrnoException} */ (err)
  return dynoError('DYNO_BAD_OUT.notWritable', { out: base, why: e.code ?? e.message })
}

/**
 * The meta.json of a run that observed nothing: a file (or files) from
 * elsewhere, rendered as that kind of run's would be.
 * @param {RunKind} kind
 * @param {{ title: string, source: string, cwd: string, options: Record<string, unknown> }} run
 * @returns {RunMeta}
 */
export function fileRunMeta (kind, run) {
  const now = new Date().toISOString()
  return {
    schemaVersion: 2,
    kind,
    title: run.title,
    target: null,
    source: run.source,
    cwd: run.cwd,
    node: null,
    v8: null,
    startedAt: now,
    finishedAt: now,
    options: run.options,
    load: null,
    loadWindow: null,
    onPort: null,
    process: null,
    processes: 0,
    threads: 0,
    end: null
  }
}

/** @param {string} folder @param {string} name @param {unknown} value */
export function writeJson (folder, name, value) {
  writeFileSync(join(folder, name), JSON.stringify(value, null, 2) + '\n')
}

/** @param {string} folder @param {RunMeta} meta */
export function writeMeta (folder, meta) {
  writeJson(folder, META, meta)
}

/**
 * A folder's meta.json as RunMeta; folders written before schema 2 (flame
 * only, with `command` for `kind` and `exit` for `end`) are read too.
 * @param {string} folder
 * @returns {RunMeta}
 */
export function readMeta (folder) {
  const meta = /** @type {any} */ (readJson(folder, META))
  if (!meta || typeof meta !== 'object') throw dynoError('DYNO_BAD_RUN_FOLDER.notMeta', { path: join(folder, META) })
  if (meta.schemaVersion === 1) {
    return {
      schemaVersion: 2,
      kind: meta.command,
      title: meta.title ?? 'run',
      target: meta.target ? { argv: meta.target.command, cwd: meta.target.cwd } : null,
      source: meta.view ?? null,
      cwd: meta.cwd ?? folder,
      node: meta.node ?? null,
      v8: meta.v8 ?? null,
      startedAt: meta.startedAt,
      finishedAt: meta.finishedAt ?? meta.startedAt,
      options: meta.options ?? {},
      load: meta.load ?? null,
      loadWindow: null,
      onPort: meta.onPort ? { command: meta.onPort.command, code: meta.onPort.code, signal: null, failed: false } : null,
      process: meta.process ?? null,
      processes: meta.process ? 1 : 0,
      threads: 0,
      end: meta.exit ?? null
    }
  }
  if (typeof meta.kind !== 'string') throw dynoError('DYNO_BAD_RUN_FOLDER.noKind', { path: join(folder, META), folder })
  return meta
}

/**
 * @param {string} folder @param {string} name
 * @returns {unknown}
 */
export function readJson (folder, name) {
  const path = join(folder, name)
  let text
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code
    throw code === 'ENOENT' || code === 'ENOTDIR'
      ? dynoError('DYNO_BAD_RUN_FOLDER.missing', { path, folder })
      : dynoError('DYNO_BAD_RUN_FOLDER.unreadable', { path, why: fileProblem(err) })
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw dynoError('DYNO_BAD_RUN_FOLDER.notJson', { path, why: /** @type {Error} */ (err).message })
  }
}
