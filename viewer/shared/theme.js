/* The dark and light themes: the page's colours come from the theme's CSS custom properties. */
/* exported preferredTheme, themeActions, applyTheme */

/** @typedef {'dark' | 'light'} ThemeName */

/** @returns {ThemeName} the reader's system preference */
function preferredTheme () {
  return window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark'
}

/** For a report whose state has a `theme`. */
const themeActions = {
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
function applyTheme (name, button) {
  document.body.className = 'theme-' + name
  button.textContent = name === 'dark' ? 'Light theme' : 'Dark theme'
  const css = getComputedStyle(document.body)
  return (property) => css.getPropertyValue(property).trim()
}
