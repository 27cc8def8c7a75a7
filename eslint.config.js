import neostandard from 'neostandard'

export default [
  ...neostandard({ ignores: ['node_modules/**', '.dyno/**', 'scratch/**', 'test/node-lines/**', 'coverage/**', 'test/fixtures/micro/syntax-error.js'] })
]
