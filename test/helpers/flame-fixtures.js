/**
 * Small FlameData with numbers known by heart, for exact assertions.
 *
 * 100 samples:
 *   main                     app  turbofan    self 5   total 90
 *     handleRequest          app  maglev      self 10  total 60
 *       parse                deps turbofan    self 30  (inlined)
 *       walk                 app  interpreted self 5   total 20
 *         walk                                self 10  total 15
 *           walk                              self 5
 *     writeHead              core baseline    self 5   total 25
 *       writev               native           self 20
 *   (garbage collector)      gc               self 10
 */
import { flameDataFromTree } from './flame-builder.js'

export const SERVER_FILE = '/srv/shop/server.js'
export const TREE_FILE = '/srv/shop/tree.js'

const serverSource = [
  'function main () {',
  '  return handleRequest()',
  '}',
  '',
  '',
  '',
  '',
  '',
  '',
  'function handleRequest (req) {',
  '  const body = parse(req.body)',
  '  return walk(body)',
  '}'
].join('\n')

const treeSource = [
  'export function walk (node) {',
  '  let sum = node.value',
  '  for (const child of node.children) sum += walk(child)',
  '  return sum',
  '}'
].join('\n')

/** @param {Partial<import('../../lib/cpu-profile/flame-data.js').FlameMeta>} [meta] */
export function shopProfile (meta = {}) {
  const walk = { name: 'walk', file: TREE_FILE, line: 1, column: 8, category: /** @type {const} */ ('app'), tier: /** @type {const} */ ('interpreted') }
  return flameDataFromTree([
    {
      name: 'main',
      file: SERVER_FILE,
      line: 1,
      column: 1,
      tier: 'turbofan',
      self: 5,
      children: [
        {
          name: 'handleRequest',
          file: SERVER_FILE,
          line: 10,
          column: 1,
          tier: 'maglev',
          self: 10,
          children: [
            { name: 'parse', file: '/srv/shop/node_modules/fast-json/index.js', line: 3, column: 15, category: 'deps', tier: 'turbofan', self: 30, inlined: true },
            { ...walk, self: 5, children: [{ ...walk, self: 10, children: [{ ...walk, self: 5 }] }] }
          ]
        },
        {
          name: 'writeHead',
          file: 'node:_http_server',
          line: 300,
          column: 40,
          category: 'core',
          tier: 'baseline',
          self: 5,
          children: [{ name: 'writev', category: 'native', self: 20 }]
        }
      ]
    },
    { name: '(garbage collector)', category: 'gc', self: 10 }
  ], {
    meta: {
      title: 'node server.js',
      durationMs: 65_400,
      node: 'v22.14.0',
      exit: { how: 'exited', code: 0, signal: null },
      load: { average: 12_345.6, p50: 3.2, p99: 17.8, errors: 2, non2xx: 12 },
      ...meta
    },
    sources: [
      { file: SERVER_FILE, text: serverSource, lines: { 1: 2, 2: 3, 10: 1, 11: 6, 12: 3 } },
      { file: TREE_FILE, text: treeSource, lines: { 2: 4, 3: 14, 4: 2 } }
    ]
  })
}

/** Strings a hostile or unlucky program could hand the report. */
export const HOSTILE = {
  script: '<script>window.__pwned = "script"</script>',
  closeScript: '</script><script>window.__pwned = "close"</script>',
  img: '"><img src=x onerror="window.__pwned = \'img\'">',
  comment: '<!-- <script>window.__pwned = "comment"</script>',
  separators: 'line\u2028para\u2029end',
  file: '/srv/<img src=x onerror=alert(1)>/"quoted".js'
}

/** FlameData whose names, paths, source and title carry HTML and script. */
export function hostileProfile () {
  const file = HOSTILE.file
  return flameDataFromTree([
    {
      name: HOSTILE.script,
      file,
      line: 1,
      column: 1,
      self: 10,
      children: [
        { name: HOSTILE.closeScript, file, line: 2, column: 1, self: 20 },
        { name: HOSTILE.img, file, line: 3, column: 1, self: 30 },
        { name: HOSTILE.comment, file, line: 4, column: 1, self: 25, children: [{ name: HOSTILE.separators, file, line: 5, column: 1, self: 15 }] }
      ]
    }
  ], {
    meta: { title: `node ${HOSTILE.closeScript}`, node: HOSTILE.img, exit: { how: HOSTILE.script, code: null, signal: HOSTILE.comment } },
    sources: [{
      file,
      text: [HOSTILE.script, HOSTILE.closeScript, HOSTILE.img, HOSTILE.comment, HOSTILE.separators].join('\n'),
      lines: { 1: 10, 2: 20, 3: 30, 4: 25, 5: 15 }
    }]
  })
}
