import assert from 'node:assert/strict'
import { test } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { Profile } from 'pprof-format'
import { buildFlameData } from '../../lib/cpu-profile/build-flame-data.js'
import { toCollapsed } from '../../lib/cpu-profile/collapsed.js'
import { whyNotProfile } from '../../lib/cpu-profile/cpuprofile.js'
import { toPprof } from '../../lib/cpu-profile/pprof.js'

const agentUrl = (/** @type {string} */ file) => new URL(`../../lib/${file}`, import.meta.url).href
/** @param {string} functionName @param {string} url */
const frame = (functionName, url = '') => ({ functionName, scriptId: url ? '4' : '0', url, lineNumber: url ? 3 : -1, columnNumber: url ? 2 : -1 })

// The shape of a real profile's start: Node loads the agent (--require) as a
// preload module; its code and what it calls take a few samples.
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 8, 10] },
    { id: 2, callFrame: frame('loadPreloadModules', 'node:internal/process/pre_execution'), children: [3] },
    { id: 3, callFrame: frame('Module._load', 'node:internal/modules/cjs/loader'), children: [4] },
    { id: 4, callFrame: frame('', agentUrl('agent/agent.cjs')), children: [5] },
    { id: 5, callFrame: frame('startAgent', agentUrl('agent/session.cjs')), children: [6, 7] },
    { id: 6, callFrame: frame('mkdirSync', 'node:fs') },
    { id: 7, callFrame: frame('createOptimizationStatusReader', agentUrl('v8/optimization-status.js')) },
    { id: 8, callFrame: frame('main', 'file:///app/main.js'), children: [9] },
    { id: 9, callFrame: frame('work', 'file:///app/main.js') },
    { id: 10, callFrame: frame('(idle)') }
  ],
  startTime: 0,
  endTime: 9000,
  samples: [5, 6, 7, 9, 9, 9, 8, 10, 10],
  timeDeltas: Array(9).fill(1000)
}

test('dyno\'s agent code is left out of the report and every export, with its callers that did nothing else', () => {
  const { data, detail } = buildFlameData(profile, { title: 't', cwd: '/app' })
  assert.equal(data.meta.samples, 4)
  assert.equal(data.meta.idleSamples, 2)
  assert.equal(data.meta.agentSamples, 3)
  const names = data.nodes.frame.slice(1).map((f) => data.strings[data.frames.name[f]])
  assert.deepEqual(names, ['main', 'work'])
  assert.equal(toCollapsed(data), 'main main.js:4 1\nmain main.js:4;work main.js:4 3\n')
  const pprof = Profile.decode(gunzipSync(toPprof(data, detail)))
  assert.deepEqual(pprof.function.map((f) => pprof.stringTable.strings[Number(f.name)]).sort(), ['main', 'work'])
})

test('a profile whose samples point at nodes it does not have is malformed, not idle', () => {
  const stray = { ...profile, samples: [5, 99, 9, 98] }
  assert.equal(whyNotProfile(stray), '2 of its 4 samples point at nodes it does not have (the first at node 99)')
  assert.equal(whyNotProfile({ ...profile, timeDeltas: 'soon' }), '"timeDeltas" is not an array of numbers')
  assert.equal(whyNotProfile(profile), null)
})
