import assert from 'node:assert/strict'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { commands } from '../../lib/cli/commands.js'
import { DOCS_DIR, docsFiles, flagTable, markers, withTables } from '../../scripts/docs-flags.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const README = join(root, 'README.md')
const MAX_README_LINES = 200

/** The Markdown files whose links must lead somewhere. */
const linked = () => [README, join(root, 'CONTRIBUTING.md'), ...docsFiles()]

/**
 * The text outside fenced code blocks and code spans, where `[a](b)` is
 * not a link; lines keep their place.
 * @param {string} text
 */
function prose (text) {
  let fenced = false
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      return ''
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '')
  }).join('\n')
}

/**
 * Every link of a Markdown text whose target is in the repository: inline
 * links and images, and reference definitions. Web addresses are left out.
 * @param {string} text
 * @returns {{ target: string, line: number }[]}
 */
function relativeLinks (text) {
  const found = []
  const lines = prose(text).split('\n')
  for (let i = 0; i < lines.length; i++) {
    const targets = [
      ...[...lines[i].matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
      ...[...lines[i].matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1])
    ]
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
      found.push({ target, line: i + 1 })
    }
  }
  return found
}

/**
 * The anchors GitHub gives a Markdown file's headings: the heading's text,
 * lower case, without punctuation, spaces as hyphens; a repeated one gets
 * -1, -2, ….
 * @param {string} text
 */
function headingAnchors (text) {
  const anchors = new Set()
  /** @type {Map<string, number>} */
  const seen = new Map()
  let fenced = false
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const m = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (!m) continue
    const words = m[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '')
    const slug = words.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    anchors.add(n === 0 ? slug : `${slug}-${n}`)
  }
  return anchors
}

test('every flag table in docs/ is what `npm run docs` writes from the command declarations', async () => {
  for (const file of docsFiles()) {
    const text = readFileSync(file, 'utf8')
    assert.equal(await withTables(text), text, `a flag table of ${relative(root, file)} differs from the declarations: run npm run docs`)
  }
})

test('every command has its page, docs/<command>.md, with its flag table, and the README links to it', () => {
  const readme = readFileSync(README, 'utf8')
  for (const { name } of commands) {
    const page = join(DOCS_DIR, `${name}.md`)
    assert.ok(existsSync(page), `dyno ${name} has no page: write docs/${name}.md`)
    assert.ok(markers(readFileSync(page, 'utf8')).includes(name), `docs/${name}.md has no <!-- flags:${name} --> … <!-- /flags --> table`)
    assert.ok(relativeLinks(readme).some(({ target }) => target.split('#')[0] === `docs/${name}.md`), `README.md does not link to docs/${name}.md`)
  }
})

test('every relative link in README.md, CONTRIBUTING.md and docs/ leads to a file that exists, and to a heading of it', () => {
  const problems = []
  let count = 0
  for (const file of linked()) {
    const from = relative(root, file)
    for (const { target, line } of relativeLinks(readFileSync(file, 'utf8'))) {
      count++
      const [path, anchor] = decodeURIComponent(target).split('#')
      const to = path === '' ? file : join(dirname(file), path)
      if (!existsSync(to)) {
        problems.push(`${from}:${line}: ${target} (no such file)`)
        continue
      }
      if (anchor && to.endsWith('.md') && statSync(to).isFile() && !headingAnchors(readFileSync(to, 'utf8')).has(anchor)) {
        problems.push(`${from}:${line}: ${target} (no heading #${anchor} in ${relative(root, to)})`)
      }
    }
  }
  assert.ok(count > 20, 'the docs were read, links and all')
  assert.deepEqual(problems, [])
})

test(`README.md stays at most ${MAX_README_LINES} lines: the details go to docs/`, () => {
  const text = readFileSync(README, 'utf8')
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  assert.ok(lines <= MAX_README_LINES, `README.md has ${lines} lines; move details to docs/`)
})

test('a flag table: every flag with its value, default and description, safe in a Markdown table', () => {
  const table = flagTable({
    name: 'probe',
    usage: 'dyno probe',
    summary: '',
    flags: [
      { name: 'count', short: 'c', type: 'integer', default: 10, placeholder: 'n', description: 'how many' },
      { name: 'file', type: 'string', placeholder: 'a.js|b.json', description: 'written to .dyno/<name>.json | elsewhere' },
      { name: 'header', short: 'H', type: 'string', multiple: true, description: 'a header' },
      { name: 'progress', type: 'boolean', default: true, description: 'a bar' },
      { name: 'json', type: 'boolean', description: 'JSON' }
    ]
  })
  assert.equal(table, [
    '| flag | default | |',
    '|---|---|---|',
    '| `-c, --count <n>` | `10` | how many |',
    '| `--file <a.js\\|b.json>` |  | written to .dyno/&lt;name&gt;.json \\| elsewhere |',
    '| `-H, --header <string>` |  | a header (repeatable) |',
    '| `--progress` | on (`--no-progress` turns it off) | a bar |',
    '| `--json` |  | JSON |',
    ''
  ].join('\n'))
  assert.match(flagTable({ name: 'bare', usage: '', summary: '', flags: [] }), /takes no flags/)
})

test('the link and heading readers see what GitHub renders', () => {
  const text = [
    '# Title',
    'See [a](docs/a.md#how-it-works), ![img](pic.png "title") and [web](https://example.com).',
    '`[not](a-link.md)` and',
    '```',
    '[nor](this.md)',
    '```',
    '[ref]: ../other.md',
    '## How it works',
    '## A server: `dyno compare --load`',
    '## How it works'
  ].join('\n')
  assert.deepEqual(relativeLinks(text), [
    { target: 'docs/a.md#how-it-works', line: 2 },
    { target: 'pic.png', line: 2 },
    { target: '../other.md', line: 7 }
  ])
  assert.deepEqual([...headingAnchors(text)], ['title', 'how-it-works', 'a-server-dyno-compare---load', 'how-it-works-1'])
})
