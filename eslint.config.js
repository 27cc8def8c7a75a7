import neostandard from 'neostandard'
import globals from 'globals'

export default [
  ...neostandard({ ignores: ['node_modules/**', '.dyno/**', 'scratch/**', 'tools/node-lines/**', 'tools/bench-peers/**', 'coverage/**', 'types/**', 'test/.types-*/**', 'test/fixtures/micro/syntax-error.js', 'test/fixtures/esbuild/server.js'] }),
  {
    // The report's browser code: classic scripts inlined in order into one page.
    files: ['viewer/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } }
  }
]
