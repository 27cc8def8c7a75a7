/* Leaks and retainer paths as lists, one step a line. */
import { signedBytes } from '../../lib/format.js'
import { formatSigned } from './format.js'

/**
 * @typedef {{ edge: string, name: string, to: string, toName: string, id: number, location: string | null }} PathStep
 * @typedef {{ constructor: string, countDelta: number, retainedDelta: number, holder: string, location: string | null, held: number, path: PathStep[], alsoGrowing: { name: string, countDelta: number }[] }} Leak
 */

/** The line the terminal prints for a leak. @param {Leak} leak */
export function leakText (leak) {
  return '`' + leak.constructor + '` ' + formatSigned(leak.countDelta) + ' objects (' + signedBytes(leak.retainedDelta) +
    ' retained) held by ' + leak.holder + (leak.location ? ' (' + leak.location + ')' : '')
}

/** @param {PathStep} step */
function edgeText (step) {
  if (step.edge === 'element' || step.edge === 'hidden') return '[' + step.name + ']'
  if (step.edge === 'context') return 'variable ' + step.name
  if (step.edge === 'internal') return '(' + step.name + ')'
  if (step.edge === 'shortcut') return '(root)'
  return '.' + step.name
}

/**
 * A path from the roots to an object, from its first named step.
 * @param {PathStep[]} steps
 */
export function pathList (steps) {
  const list = document.createElement('ol')
  list.className = 'path'
  const start = Math.max(0, steps.findIndex((s) => s.edge === 'context' || s.edge === 'property') - 1)
  for (const step of steps.slice(start)) {
    const item = document.createElement('li')
    const edge = document.createElement('span')
    edge.className = 'edge'
    edge.textContent = edgeText(step)
    const node = document.createElement('span')
    node.className = 'node'
    node.textContent = ' → ' + step.to + (step.toName && step.to !== '(string)' ? ' ' + step.toName : '') + ' @' + step.id
    item.append(edge, node)
    if (step.location) {
      const where = document.createElement('span')
      where.className = 'where'
      where.textContent = ' (' + step.location + ')'
      item.append(where)
    }
    list.append(item)
  }
  return list
}

/**
 * @param {HTMLElement} container
 * @param {Leak[]} leaks
 * @param {number} snapshots how many were compared
 */
export function renderLeaks (container, leaks, snapshots) {
  if (leaks.length === 0) {
    const none = document.createElement('p')
    none.className = 'good'
    none.textContent = 'No leak: nothing grew by more than noise' + (snapshots > 2 ? ' in every round.' : '.')
    container.replaceChildren(none)
    return
  }
  container.replaceChildren(...leaks.map((leak) => {
    const block = document.createElement('div')
    block.className = 'leak'
    const line = document.createElement('div')
    line.className = 'leak-line'
    line.textContent = leakText(leak)
    block.append(line, pathList(leak.path))
    if (leak.alsoGrowing.length > 0) {
      const also = document.createElement('div')
      also.className = 'leak-also'
      also.textContent = 'held with it: ' + leak.alsoGrowing.map((g) => g.name + ' ' + formatSigned(g.countDelta)).join(', ')
      block.append(also)
    }
    return block
  }))
}
