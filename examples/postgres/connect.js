// The database the examples of this folder use: DATABASE_URL when it is set
// (the tests start one PostgreSQL for all their runs), else a PostgreSQL of
// the example's own, started here in a temporary folder and stopped when the
// app ends, so that `node server.js` runs with no set-up.
import pg from 'pg'
import { startDatabase } from './database.js'

/**
 * @param {{ max?: number }} [options] the pool's size: PG_POOL_MAX, or 10
 * @returns {Promise<pg.Pool>}
 */
export async function connect ({ max = Number(process.env.PG_POOL_MAX) || 10 } = {}) {
  let url = process.env.DATABASE_URL
  if (!url) {
    const starting = startDatabase()
    // Stopped while the database starts, too: it is stopped and removed all the same.
    const stop = () => starting.then((database) => database.stop(), () => {}).finally(() => process.exit(0))
    process.once('SIGTERM', stop)
    process.once('SIGINT', stop)
    url = (await starting).url
  }
  const pool = new pg.Pool({ connectionString: url, max })
  // An idle connection the server closes (it is shutting down) must not end the app, as pg's docs advise.
  pool.on('error', () => {})
  return pool
}
