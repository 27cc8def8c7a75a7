/**
 * The timing tier (see scripts/test.js): the CPU differential of two
 * versions profiled here and now. On a quiet machine a tenth of the work
 * shows as a tenth of the time; on a busy one, another process's time lands
 * on whatever the next sample finds. The default suite reads profiles
 * recorded on a quiet machine (test/kinds/compare/flame-diff.test.js).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { diffProfiles } from '../../lib/kinds/compare/flame-diff.js'
import { recordTwoVersions } from '../helpers/two-versions.js'

test('the function that does a tenth of the work per request shows less than half the time, and the total drops', () => {
  const diff = diffProfiles(recordTwoVersions())
  const burn = diff.functions.find((f) => f.name === 'burn')
  assert.ok(burn, 'burn is in the differential')
  assert.equal(diff.functions[0].name, 'burn', JSON.stringify(diff.functions.slice(0, 3)))
  assert.ok(burn.after / burn.before < 0.5, `burn went from ${burn.before} to ${burn.after} ms per request`)
  assert.ok(diff.total.after < diff.total.before, `CPU per request went from ${diff.total.before} to ${diff.total.after} ms`)
})
