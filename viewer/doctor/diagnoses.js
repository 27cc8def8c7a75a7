/* The diagnoses at the top of the doctor report: kind, what was found, the evidence, what would have made it not hold, and the command to run next. */

/**
 * @typedef {{ kind: string, title: string, evidence: string, unless: string, next: string }} DoctorDiagnosis
 */

/**
 * @param {HTMLElement} container
 * @param {DoctorDiagnosis[]} diagnoses
 * @param {string | null} note why there is none
 */
export function renderDiagnoses (container, diagnoses, note) {
  /** @param {string} tag @param {string} className @param {string} text */
  const element = (tag, className, text) => {
    const el = document.createElement(tag)
    el.className = className
    el.textContent = text
    return el
  }
  if (diagnoses.length === 0) {
    container.replaceChildren(element('p', 'diagnosis none', 'No diagnosis: ' + (note || 'no samples') + '.'))
    return
  }
  container.replaceChildren(...diagnoses.map((d) => {
    const box = document.createElement('article')
    box.className = 'diagnosis kind-' + (d.kind === 'healthy' ? 'healthy' : 'problem')
    box.dataset.kind = d.kind
    const heading = document.createElement('h2')
    heading.append(element('span', 'kind', d.kind), element('span', 'title', d.title))
    const next = document.createElement('p')
    next.className = 'next'
    next.append(element('span', 'muted', 'Next: '), element('code', '', d.next))
    box.append(heading, element('p', 'evidence', d.evidence + '.'), element('p', 'unless muted', 'It would not hold if ' + d.unless + '.'), next)
    return box
  }))
}
