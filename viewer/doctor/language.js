/*
 * uPlot formats numbers in the browser's language, read once as it loads. A
 * browser started under LANG=C reports a tag Intl refuses ("en-US@posix"),
 * which would stop the report: uPlot, inlined after this, sees this
 * `navigator` instead, whose language Intl accepts.
 */
/* exported navigator */

const navigator = { language: usableLanguage(window.navigator.language) }

/** @param {string} language */
function usableLanguage (language) {
  try {
    return new Intl.NumberFormat(language).resolvedOptions().locale
  } catch {
    return 'en-US'
  }
}
