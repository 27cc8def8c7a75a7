/** The shapes of dyno micro's results, shared by its command and its renderers. */

/**
 * @typedef {object} MicroOptions
 * @property {string[]} files benchmark files, relative to io.cwd or absolute
 * @property {import('../../micro/runner.js').MicroSettings} settings
 * @property {string | null} save a plain name: add the run to .dyno/micro/<name>.json
 *
 * @typedef {object} Failure
 * @property {string} file relative to cwd
 * @property {string | null} case `group › name`; null when the file itself failed
 * @property {string} stage
 * @property {string} code a DYNO_BENCH_* code: what kind of failure
 * @property {string} message
 *
 * @typedef {object} MicroOutcome
 * @property {import('../../micro/result.js').MicroResult} document what --json prints
 * @property {import('../../micro/runner.js').FileReport[]} reports
 * @property {{ path: string, run: number } | null} saved where the run was added, and its number under that name
 * @property {Failure[]} failures
 */

/**
 * @typedef {object} AgainstOptions
 * @property {string[]} files
 * @property {import('../../micro/runner.js').MicroSettings} settings
 * @property {string} against a git ref: branch, tag, commit
 * @property {number | null} [failIfSlower] the regression gate's percent: exit code 3 when a case is slower than that
 *
 * @typedef {object} AgainstResult what --json prints
 * @property {number} schemaVersion
 * @property {'dyno-micro-against'} kind
 * @property {{ ref: string, commit: string }} before
 * @property {{ tree: string }} after
 * @property {string} startedAt
 * @property {string} node
 * @property {import('../../micro/runner.js').MicroSettings} settings
 * @property {import('./versions.js').VersionEntry[]} comparisons
 * @property {(Omit<import('../../micro/versions.js').VersionsReport, 'file'> & { file: string })[]} files every process of both versions
 * @property {Failure[]} failures
 * @property {ReturnType<typeof import('../../stats/comparison.js').slowerGate> | null} gate with --fail-if-slower, its verdict
 */
