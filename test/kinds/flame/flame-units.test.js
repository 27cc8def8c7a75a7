import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildFlameData } from '../../../lib/cpu-profile/build-flame-data.js'
import { renderFlameHtml } from '../../../lib/kinds/flame/html.js'
import { reportFile, reportViewerForTests } from '../../helpers/browser.js'

const viewer = reportViewerForTests({ width: 1280, height: 900 })

/**
 * A profile of one process: `handle` calls `work`, which takes `self` samples.
 * @param {number} self
 */
function processProfile (self) {
  const frame = (/** @type {string} */ functionName, /** @type {number} */ line) => ({ functionName, scriptId: '3', url: 'file:///srv/app/server.js', lineNumber: line, columnNumber: 0 })
  return {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, children: [2] },
      { id: 2, callFrame: frame('handle', 1), children: [3] },
      { id: 3, callFrame: frame('work', 5), children: [] }
    ],
    startTime: 0,
    endTime: self * 1000,
    samples: Array(self).fill(3),
    timeDeltas: Array(self).fill(1000)
  }
}

test('several processes: merged at first, split by process on demand, each one to zoom into', () => {
  const { data } = buildFlameData([{ label: 'pid 11 · server.js', profile: processProfile(30) }, { label: 'pid 12 · server.js', profile: processProfile(10) }], { title: 'cluster', cwd: '/srv/app' })
  assert.deepEqual(data.meta.units, [{ label: 'pid 11 · server.js', samples: 30 }, { label: 'pid 12 · server.js', samples: 10 }])
  return viewer.check(reportFile(renderFlameHtml(data)), async (page) => {
    const api = (/** @type {string} */ name) => page.evaluate((name) => /** @type {any} */ (window).dynoFlame.nodesNamed(name).length, name)
    assert.equal(await page.isVisible('#filter-processes'), true)
    // Merged: one `work`, with every sample.
    assert.equal(await api('work'), 1)
    assert.equal(await api('pid 11 · server.js'), 0)
    await page.check('#filter-processes input')
    assert.equal(await api('work'), 2)
    assert.equal(await api('pid 11 · server.js'), 1)
    assert.equal(await api('pid 12 · server.js'), 1)
  })
})

test('one process: no process filter to offer', () => {
  const { data } = buildFlameData(processProfile(5), { title: 'one', cwd: '/srv/app' })
  assert.equal(data.meta.units, undefined)
  return viewer.check(reportFile(renderFlameHtml(data)), async (page) => {
    assert.equal(await page.isVisible('#filter-processes'), false)
  })
})
