import neostandard from 'neostandard'
import globals from 'globals'

export default [
  ...neostandard({ ignores: ['node_modules/**', '.dyno/**', 'scratch/**', 'tools/node-lines/**', 'tools/bench-peers/**', 'coverage/**', 'types/**', 'test/.types-*/**', 'test/fixtures/micro/syntax-error.js', 'test/fixtures/esbuild/server.js'] }),
  {
    // The reports' browser code: ES modules that esbuild bundles into one script per report.
    files: ['viewer/**/*.js'],
    languageOptions: { globals: { ...globals.browser } }
  }
]
