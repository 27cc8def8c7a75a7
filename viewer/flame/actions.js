/*
 * What the reader of a flamegraph chose, and the actions that change it. The
 * trees, statistics, colours and marks follow from it (model.js).
 */
import { themeActions } from '../shared/theme.js'
/** @import { BoundActions } from '../shared/state.js' */
/** @import { ThemeName } from '../shared/theme.js' */
/** @import { ColorMode } from './colors.js' */
/** @import { FilterName } from './profile.js' */

/**
 * @typedef {object} FlameState
 * @property {FilterName[]} hidden the filters turned off: their categories' samples go to the callers
 * @property {boolean} inverted whether the bottom-up tree is shown
 * @property {number[]} zoom the zoomed call, as its path from the root (see pathTo); [] for none
 * @property {string} query the search, as typed
 * @property {'' | 'optimized' | 'unoptimized'} highlight which code is highlighted; '' for none
 * @property {ColorMode} colorBy
 * @property {number} selected the function shown in the source panel and the table; -1 for none
 * @property {ThemeName} theme
 */

/** @typedef {BoundActions<FlameState, typeof flameActions>} FlameActions */

/**
 * @param {ThemeName} theme
 * @param {ColorMode} [colorBy] the colours at first: a differential's are its changes
 * @returns {FlameState}
 */
export function flameState (theme, colorBy = 'heat') {
  // Several processes or threads are merged at first (see FILTERS).
  return { hidden: ['processes'], inverted: false, zoom: [], query: '', highlight: '', colorBy, selected: -1, theme }
}

export const flameActions = {
  ...themeActions,
  /** @param {FlameState} state @param {number[]} path @returns {Partial<FlameState>} */
  zoom: (state, path) => ({ zoom: path }),
  /** @param {FlameState} state @param {number} frame @returns {Partial<FlameState>} */
  select: (state, frame) => ({ selected: frame }),
  /**
   * Zooms to a call and shows its function; the root only zooms out.
   * @param {FlameState} state @param {number[]} path @param {number} frame @returns {Partial<FlameState>}
   */
  focus: (state, path, frame) => (path.length ? { zoom: path, selected: frame } : { zoom: path }),
  /** @param {FlameState} state @param {string} query @returns {Partial<FlameState>} */
  search: (state, query) => ({ query }),
  /** Shows or hides a filter's categories; the zoom stays where the same calls still lead. @param {FlameState} state @param {FilterName} name @param {boolean} shown @returns {Partial<FlameState>} */
  filter: (state, name, shown) => ({ hidden: shown ? state.hidden.filter((n) => n !== name) : [...state.hidden.filter((n) => n !== name), name] }),
  /** @param {FlameState} state @param {boolean} inverted @returns {Partial<FlameState>} */
  invert: (state, inverted) => ({ inverted, zoom: [] }),
  /** @param {FlameState} state @param {ColorMode} mode @returns {Partial<FlameState>} */
  colorBy: (state, mode) => ({ colorBy: mode }),
  /** A second press turns it off. @param {FlameState} state @param {'optimized' | 'unoptimized'} which @returns {Partial<FlameState>} */
  highlight: (state, which) => ({ highlight: state.highlight === which ? '' : which })
}
