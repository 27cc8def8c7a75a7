// An express API over PostgreSQL, as the cookbook's recipe has it: the
// average of every data point, computed in JavaScript on each request from
// 20,000 rows that the pg driver reads and parses (see server-fixed.js).
// GET /items reads ten points one query at a time, awaiting each in a loop.
// PORT picks the port (3000 by default; 0 for any free one); DATABASE_URL the
// database (without it, the example starts a PostgreSQL of its own); PG_POOL_MAX
// the pool's size (10).
import express from 'express'
import { connect } from './connect.js'

const pool = await connect()
const app = express()

app.get('/', async (req, res) => {
  const { rows } = await pool.query('SELECT value FROM points')
  const average = rows.reduce((sum, row) => sum + row.value, 0) / rows.length
  res.json({ average })
})

app.get('/items', async (req, res) => {
  const { rows: ids } = await pool.query('SELECT id FROM points ORDER BY id LIMIT 10')
  const items = []
  for (const { id } of ids) {
    const { rows } = await pool.query('SELECT id, value FROM points WHERE id = $1', [id])
    items.push(rows[0])
  }
  res.json(items)
})

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
