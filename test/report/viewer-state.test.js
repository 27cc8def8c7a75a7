/**
 * The viewer's state module and the flamegraph's actions are modules with no
 * DOM: they run here as the page runs them.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { flameActions, flameState } from '../../viewer/flame/actions.js'
import { createStore, memoize } from '../../viewer/shared/state.js'

/** A store of two fields, and a log of what its views drew. */
function counterStore () {
  const store = createStore({ count: 0, label: '' }, {
    /** @param {{ count: number }} state @param {number} by */
    add: (state, by) => ({ count: state.count + by }),
    /** @param {unknown} state @param {string} label */
    name: (state, label) => ({ label }),
    nothing: () => null
  })
  /** @type {string[]} */
  const drawn = []
  store.view(['count'], (/** @type {any} */ state) => drawn.push(`count ${state.count}`))
  store.view(['count', 'label'], (/** @type {any} */ state) => drawn.push(`both ${state.count} ${state.label}`))
  return { store, drawn }
}

test('start draws every view once; an action draws the views of the fields it set, in order', () => {
  const { store, drawn } = counterStore()
  assert.deepEqual(drawn, [])
  store.start()
  assert.deepEqual(drawn.splice(0), ['count 0', 'both 0 '])
  store.actions.add(2)
  assert.deepEqual(drawn.splice(0), ['count 2', 'both 2 '])
  store.actions.name('x')
  assert.deepEqual(drawn.splice(0), ['both 2 x'], 'the count view does not watch the label')
  store.actions.nothing()
  assert.deepEqual(drawn, [], 'an action that sets nothing draws nothing')
})

test('the state is replaced by each action, never changed in place', () => {
  const { store } = counterStore()
  const before = store.state
  store.actions.add(1)
  assert.deepEqual(before, { count: 0, label: '' })
  assert.deepEqual(store.state, { count: 1, label: '' })
})

test('an action taken while a view draws is drawn after the views of the first', () => {
  const { store, drawn } = counterStore()
  store.view(['count'], (/** @type {any} */ state) => { if (state.count === 1) store.actions.name('one') })
  store.actions.add(1)
  assert.deepEqual(drawn, ['count 1', 'both 1 ', 'both 1 one'])
})

test('memoize computes again only when an input is not the same', () => {
  let runs = 0
  const sum = memoize((/** @type {number[]} */ list, /** @type {number} */ extra) => { runs++; return list.reduce((a, b) => a + b, extra) })
  const list = [1, 2, 3]
  assert.equal(sum(list, 0), 6)
  assert.equal(sum(list, 0), 6)
  assert.equal(runs, 1)
  assert.equal(sum([1, 2, 3], 0), 6)
  assert.equal(sum([1, 2, 3], 1), 7)
  assert.equal(runs, 3, 'a new array is a new input, though equal')
})

test('the flamegraph\'s actions: filters, highlight, focus and the view', () => {
  const store = createStore(flameState('dark'), flameActions)
  const { actions } = store
  // A profile of several processes starts merged: their frames hidden.
  assert.deepEqual(store.state.hidden, ['processes'])
  actions.filter('processes', true)
  actions.filter('deps', false)
  actions.filter('gc', false)
  actions.filter('deps', false)
  assert.deepEqual(store.state.hidden, ['gc', 'deps'])
  actions.filter('gc', true)
  assert.deepEqual(store.state.hidden, ['deps'])

  actions.highlight('optimized')
  actions.highlight('unoptimized')
  assert.equal(store.state.highlight, 'unoptimized')
  actions.highlight('unoptimized')
  assert.equal(store.state.highlight, '', 'a second press turns it off')

  actions.focus([10, 14], 7)
  assert.deepEqual([store.state.zoom, store.state.selected], [[10, 14], 7])
  actions.focus([], -1)
  assert.deepEqual([store.state.zoom, store.state.selected], [[], 7], 'the root zooms out and keeps the function shown')
  actions.zoom([10])
  actions.invert(true)
  assert.deepEqual([store.state.inverted, store.state.zoom], [true, []], 'another view starts from its root')
  actions.toggleTheme()
  assert.equal(store.state.theme, 'light')
})
