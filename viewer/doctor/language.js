/*
 * uPlot formats numbers in the browser's language, read once as its module
 * loads. A browser started under LANG=C reports a tag Intl refuses
 * ("en-US@posix"), which would stop the report: imported before uPlot
 * (charts.js), this gives the page's navigator a language Intl accepts.
 */

/** @param {string} language */
function usableLanguage (language) {
  try {
    return new Intl.NumberFormat(language).resolvedOptions().locale
  } catch {
    return 'en-US'
  }
}

const language = usableLanguage(navigator.language)
if (language !== navigator.language) Object.defineProperty(navigator, 'language', { value: language, configurable: true })
