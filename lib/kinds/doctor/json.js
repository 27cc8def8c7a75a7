/**
 * The `dyno doctor --json` document: the diagnoses, the window under load
 * and the figures of each signal over it. The full series stay in the run
 * folder (`doctor.jsonl`).
 */

export const DOCTOR_SCHEMA_VERSION = 1

/**
 * @param {import('../../run-folder.js').RunMeta} meta
 * @param {import('./analyze.js').DoctorAnalysis} analysis
 * @param {{ folder: string, report: string }} where
 */
export function doctorDocument (meta, analysis, where) {
  const window = analysis.window
  return {
    schemaVersion: DOCTOR_SCHEMA_VERSION,
    kind: 'doctor',
    command: meta.target?.argv ?? null,
    node: meta.node,
    startedAt: meta.startedAt,
    folder: where.folder,
    report: where.report,
    samples: 'doctor.jsonl',
    process: meta.process ? { pid: meta.process.pid, port: meta.process.listening?.port ?? null, sharing: meta.process.sharing ?? 1 } : null,
    diagnoses: analysis.diagnoses.map((d) => ({ kind: d.kind, title: d.title, evidence: d.evidence, unless: d.unless, next: d.next, figures: d.figures })),
    note: analysis.note,
    window: window ? { startMs: window.startMs, endMs: window.endMs, seconds: (window.endMs - window.startMs) / 1000, source: window.source } : null,
    summary: analysis.summary,
    end: meta.end
  }
}
