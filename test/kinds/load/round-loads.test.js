import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../../lib/index.js'
import { renderRoundLoads } from '../../../lib/kinds/load/terminal.js'
import { createStyle } from '../../../lib/report/style.js'
import { startHttpServer } from '../../helpers/servers.js'

test('the loads of a run are headed by their round only when there were several', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  t.after(server.close)
  const once = () => load({ url: server.url, connections: 1, amount: 5 })
  const style = createStyle({ isTTY: false })
  const one = renderRoundLoads([await once()], style)
  assert.match(one, /5 requests in/)
  assert.doesNotMatch(one, /Round/)
  const two = renderRoundLoads([await once(), await once()], style)
  assert.match(two, /^Round 1\n[^]*\nRound 2\n/)
  assert.equal(renderRoundLoads([], style), '')
})
