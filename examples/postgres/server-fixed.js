// server.js fixed: PostgreSQL computes the average and sends one row, and
// /items reads its ten points with one query.
// PORT picks the port (3000 by default; 0 for any free one); DATABASE_URL the
// database (without it, the example starts a PostgreSQL of its own).
import express from 'express'
import { connect } from './connect.js'

const pool = await connect()
const app = express()

app.get('/', async (req, res) => {
  const { rows } = await pool.query('SELECT avg(value) AS average FROM points')
  res.json({ average: rows[0].average })
})

app.get('/items', async (req, res) => {
  const { rows } = await pool.query('SELECT id, value FROM points ORDER BY id LIMIT 10')
  res.json(rows)
})

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
