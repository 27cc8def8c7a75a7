/**
 * Which Chromium the report tests and the report benchmark drive, first found
 * of: the one `DYNO_CHROMIUM` names, the system's (`/usr/bin/chromium`, as
 * Debian installs it), the one inside the `@sparticuz/chromium` npm package
 * (a devDependency: its binary ships in the registry tarball, brotli
 * compressed). None is downloaded.
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { createBrotliDecompress } from 'node:zlib'

const SYSTEM_CHROMIUM = '/usr/bin/chromium'
const PACKAGE = '@sparticuz/chromium'

/** @returns {Promise<string>} the path of a Chromium executable */
export async function chromiumPath () {
  const named = process.env.DYNO_CHROMIUM
  if (named) {
    if (!existsSync(named)) throw new Error(`DYNO_CHROMIUM is ${named}, which does not exist: name a Chromium executable, or unset it`)
    return named
  }
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM
  return packagedChromium()
}

/**
 * Unpacks the package's Chromium once per package version, into
 * node_modules/.cache (so `npm ci` clears it with the package). It is written
 * to a temporary name and renamed, so test files starting side by side never
 * run a half-written binary.
 */
async function packagedChromium () {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`No Chromium for the report tests: ${PACKAGE} has one for linux-x64 only; set DYNO_CHROMIUM to a Chromium or Chrome executable`)
  }
  let entry
  try {
    entry = fileURLToPath(import.meta.resolve(PACKAGE))
  } catch {
    throw new Error(`No Chromium for the report tests: ${SYSTEM_CHROMIUM} is missing and so is ${PACKAGE}; run npm ci, or set DYNO_CHROMIUM`)
  }
  // The package's folder: where the resolved entry point's path names it.
  const folder = join('node_modules', ...PACKAGE.split('/'))
  const packageDir = entry.slice(0, entry.lastIndexOf(folder) + folder.length)
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'))
  const dir = join(packageDir, '..', '..', '.cache', 'dyno', `chromium-${version}`)
  const executable = join(dir, 'chromium')
  if (existsSync(executable)) return executable
  mkdirSync(dir, { recursive: true })
  const partial = `${executable}.${process.pid}.partial`
  try {
    await pipeline(createReadStream(join(packageDir, 'bin', 'chromium.br')), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }))
    renameSync(partial, executable)
  } finally {
    rmSync(partial, { force: true })
  }
  return executable
}
