#!/usr/bin/env node
/**
 * `npm run build:viewer`, which `npm pack` runs (prepack): bundles each
 * report's browser code into viewer/dist/, which the package ships, since
 * dyno installed from npm has no esbuild (a devDependency) to bundle it.
 * A git clone needs no such step: see lib/report/viewer-bundle.js.
 */
import { relative } from 'node:path'
import { writeViewerBundles } from '../lib/report/viewer-bundle.js'

for (const file of writeViewerBundles()) process.stdout.write(`${relative(process.cwd(), file)}\n`)
