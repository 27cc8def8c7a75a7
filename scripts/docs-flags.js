#!/usr/bin/env node
/**
 * The flag tables of docs/<command>.md, written from the commands'
 * declarations (each command's `command.flags`, lib/cli/flags.js), so that
 * the docs say what `dyno <command> --help` says. A table sits between two
 * marker comments, which this script keeps:
 *
 *   <!-- flags:flame -->
 *   …the table, rewritten…
 *   <!-- /flags -->
 *
 * `<!-- flags:heap diff -->` takes a subcommand's own declaration (the one
 * its --help shows). test/docs/docs.test.js fails when a table differs from
 * what this script writes.
 *
 *   npm run docs            rewrite the tables in docs/*.md
 *   npm run docs -- --check say which tables differ, change nothing (exit 1 if any)
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { commands } from '../lib/cli/commands.js'

const root = fileURLToPath(new URL('..', import.meta.url))
export const DOCS_DIR = join(root, 'docs')

/** A marked table: the markers each on a line of their own (one named in a sentence is no marker). */
const MARKER = /^<!-- flags:([a-z-]+(?: [a-z-]+)?) -->\n([\s\S]*?)^<!-- \/flags -->$/gm

/**
 * The declaration a marker names: a command, or `<command> <subcommand>`.
 * @param {string} name
 * @returns {Promise<import('../lib/cli/flags.js').Command>}
 */
export async function declaration (name) {
  const [main, sub] = name.split(' ')
  const entry = commands.find((c) => c.name === main)
  if (!entry) throw new Error(`<!-- flags:${name} --> names no command; the commands are ${commands.map((c) => c.name).join(', ')}`)
  const module = await entry.cli()
  if (sub === undefined) return module.command
  const declared = module.helpFor?.([sub])
  if (!declared || declared.name !== name) throw new Error(`<!-- flags:${name} --> names no subcommand of dyno ${main}`)
  return declared
}

/**
 * A cell's text: Markdown tables split on `|`, even inside code.
 * @param {string} text
 */
function cell (text) {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

/**
 * Prose as Markdown shows it: `<name>` would be taken for an HTML tag.
 * @param {string} text
 */
function prose (text) {
  return cell(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'))
}

/**
 * The Markdown table of a command's flags, from its declaration.
 * @param {import('../lib/cli/flags.js').Command} command
 */
export function flagTable (command) {
  if (command.flags.length === 0) return `\`dyno ${command.name}\` takes no flags besides \`-h, --help\`.\n`
  const rows = command.flags.map((flag) => {
    const names = `${flag.short ? `-${flag.short}, ` : ''}--${flag.name}`
    const usage = flag.type === 'boolean' ? names : `${names} <${flag.placeholder ?? flag.type}>`
    let byDefault = ''
    if (flag.type === 'boolean') byDefault = flag.default === true ? `on (\`--no-${flag.name}\` turns it off)` : ''
    else if (flag.default !== undefined) byDefault = `\`${flag.default}\``
    const description = flag.description + (flag.multiple ? ' (repeatable)' : '')
    return `| \`${cell(usage)}\` | ${cell(byDefault)} | ${prose(description)} |`
  })
  return ['| flag | default | |', '|---|---|---|', ...rows, ''].join('\n')
}

/**
 * The text with every marked table written afresh.
 * @param {string} text a Markdown file
 */
export async function withTables (text) {
  let out = ''
  let last = 0
  for (const match of text.matchAll(MARKER)) {
    const at = /** @type {number} */ (match.index)
    out += text.slice(last, at) + `<!-- flags:${match[1]} -->\n${flagTable(await declaration(match[1]))}<!-- /flags -->`
    last = at + match[0].length
  }
  return out + text.slice(last)
}

/**
 * The names the flag markers of a text give, in order.
 * @param {string} text
 */
export function markers (text) {
  return [...text.matchAll(MARKER)].map((m) => m[1])
}

/** The Markdown files of docs/, as paths. */
export function docsFiles () {
  return readdirSync(DOCS_DIR).filter((name) => name.endsWith('.md')).sort().map((name) => join(DOCS_DIR, name))
}

/**
 * Rewrites (or, with `check`, only compares) the tables of every docs file;
 * returns the files whose tables differed.
 * @param {{ check?: boolean }} [options]
 */
export async function updateDocs ({ check = false } = {}) {
  const changed = []
  for (const file of docsFiles()) {
    const text = readFileSync(file, 'utf8')
    const opened = (text.match(/^<!-- flags:/gm) ?? []).length
    if (opened !== markers(text).length) throw new Error(`${relative(root, file)}: a <!-- flags:… --> marker has no <!-- /flags --> after it`)
    const next = await withTables(text)
    if (next === text) continue
    changed.push(file)
    if (!check) writeFileSync(file, next)
  }
  return changed
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const check = process.argv.includes('--check')
  const changed = await updateDocs({ check })
  for (const file of changed) process.stdout.write(`${relative(root, file)}: ${check ? 'a flag table differs from the declarations (npm run docs rewrites it)' : 'flag tables rewritten'}\n`)
  if (changed.length === 0) process.stdout.write('the flag tables of docs/ match the declarations\n')
  if (check && changed.length > 0) process.exitCode = 1
}
