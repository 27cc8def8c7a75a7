/* The source panel: the frames of a call site, and the app's file at the selected frame's line. */
/** @import { Site, SiteFrame } from './data.js' */

const MAX_SOURCE_LINES = 20_000

/**
 * @param {{ title: HTMLElement, note: HTMLElement, stack: HTMLElement, lines: HTMLElement }} elements
 * @param {Record<string, string>} sources
 */
export function createSourcePanel (elements, sources) {
  /** @param {SiteFrame} frame */
  function showFrame (frame) {
    elements.title.textContent = (frame.fn || '(anonymous)') + ' · ' + frame.shown + ':' + frame.line
    const text = sources[frame.file]
    elements.lines.replaceChildren()
    if (text === undefined) {
      elements.note.textContent = frame.file.startsWith('node:')
        ? 'Node.js made this operation inside its own code.'
        : 'Only the app\'s own files are embedded in the report; this file is not one of them.'
      return
    }
    const lines = text.split(/\r\n|\r|\n/)
    elements.note.textContent = lines.length > MAX_SOURCE_LINES ? 'The first ' + MAX_SOURCE_LINES + ' lines.' : ''
    const rows = lines.slice(0, MAX_SOURCE_LINES).map((line, i) => {
      const row = document.createElement('div')
      row.className = 'source-line'
      const no = document.createElement('span')
      no.className = 'no'
      no.textContent = String(i + 1)
      const code = document.createElement('code')
      code.textContent = line
      row.append(no, code)
      return row
    })
    elements.lines.append(...rows)
    const current = rows[frame.line - 1]
    if (current) {
      current.classList.add('current')
      elements.lines.scrollTop = Math.max(0, current.offsetTop - 4 * current.offsetHeight)
    }
  }

  /**
   * Shows a site: its frames, innermost first, each a button; the innermost's line.
   * @param {Site | undefined} site
   */
  function show (site) {
    elements.stack.replaceChildren()
    if (!site || site.frames.length === 0) {
      elements.title.textContent = 'Source'
      elements.note.textContent = 'Node.js made this operation; there is no line of the app\'s to show.'
      elements.lines.replaceChildren()
      return
    }
    const buttons = site.frames.map((frame) => {
      const item = document.createElement('li')
      const button = document.createElement('button')
      button.type = 'button'
      button.textContent = (frame.fn || '(anonymous)') + ' ' + frame.shown + ':' + frame.line
      button.addEventListener('click', () => {
        for (const b of buttons) b.removeAttribute('aria-current')
        button.setAttribute('aria-current', 'true')
        showFrame(frame)
      })
      item.append(button)
      elements.stack.append(item)
      return button
    })
    buttons[0].setAttribute('aria-current', 'true')
    showFrame(site.frames[0])
  }

  return { show, showFrame }
}
