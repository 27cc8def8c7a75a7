/* The dark and light themes: the page's colours come from the theme's CSS custom properties. */

/** @typedef {'dark' | 'light'} ThemeName */

/** @returns {ThemeName} the reader's system preference */
export function preferredTheme () {
  return window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark'
}

/** For a report whose state has a `theme`. */
export const themeActions = {
  /** @param {{ theme: ThemeName }} state @returns {{ theme: ThemeName }} */
  toggleTheme: (state) => ({ theme: state.theme === 'dark' ? 'light' : 'dark' })
}

/**
 * Applies a theme to the page; the button offers the other one. Returns a
 * reader of the theme's CSS custom properties, for what a canvas draws.
 * @param {ThemeName} name
 * @param {HTMLElement} button
 * @returns {(property: string) => string}
 */
export function applyTheme (name, button) {
  document.body.className = 'theme-' + name
  button.textContent = name === 'dark' ? 'Light theme' : 'Dark theme'
  const css = getComputedStyle(document.body)
  return (property) => css.getPropertyValue(property).trim()
}
