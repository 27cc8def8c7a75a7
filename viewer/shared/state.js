/*
 * A report's state: one object whose fields each mean one thing, changed only
 * by named actions, and the views that draw it. An action is a pure function
 * from the state (and its arguments) to the fields it sets. After each action
 * every view watching one of those fields draws again, in the order the views
 * were added. What follows from the state (trees, statistics, colours) is
 * computed through `memoize`, so a view asks for it and pays only on a change.
 */

/**
 * @template S
 * @typedef {{ [name: string]: (state: S, ...args: any[]) => Partial<S> | null }} Actions
 */

/**
 * An action as the page calls it: with its arguments, not the state.
 * @template S
 * @template {Actions<S>} A
 * @typedef {{ [K in keyof A]: A[K] extends (state: S, ...args: infer P) => any ? (...args: P) => void : never }} BoundActions
 */

/**
 * @template {object} S
 * @template {Actions<S>} A
 * @param {S} initial
 * @param {A} actions
 */
export function createStore (initial, actions) {
  let state = initial
  /** @type {{ fields: (keyof S)[], draw: (state: S) => void }[]} */
  const views = []
  /** @type {Set<keyof S> | null} fields set since the views last drew */
  let changed = null
  let drawing = false

  function drawChanged () {
    // An action taken while a view draws is drawn by this same loop, after the views of the first.
    if (drawing) return
    drawing = true
    try {
      while (changed) {
        const fields = changed
        changed = null
        for (const view of views) {
          if (view.fields.some((field) => fields.has(field))) view.draw(state)
        }
      }
    } finally {
      drawing = false
    }
  }

  /** @param {Partial<S>} patch */
  function apply (patch) {
    state = { ...state, ...patch }
    changed ??= new Set()
    for (const field of Object.keys(patch)) changed.add(/** @type {keyof S} */ (field))
    drawChanged()
  }

  const bound = /** @type {Record<string, (...args: any[]) => void>} */ ({})
  for (const name of Object.keys(actions)) {
    bound[name] = (...args) => {
      const patch = actions[name](state, ...args)
      if (patch) apply(patch)
    }
  }

  return {
    /** the current state: replaced by each action, never changed in place */
    get state () { return state },
    actions: /** @type {BoundActions<S, A>} */ (bound),
    /**
     * Adds a view: `draw` runs after each action that set one of `fields`.
     * @param {(keyof S)[]} fields
     * @param {(state: S) => void} draw
     */
    view (fields, draw) {
      views.push({ fields, draw })
    },
    /** Draws every view a first time. */
    start () {
      changed = new Set(/** @type {(keyof S)[]} */ (Object.keys(state)))
      drawChanged()
    }
  }
}

/**
 * `compute`, run again only when one of its inputs is not the same (===) as
 * on the last call; otherwise the last result.
 * @template {any[]} I
 * @template R
 * @param {(...inputs: I) => R} compute
 * @returns {(...inputs: I) => R}
 */
export function memoize (compute) {
  /** @type {I | null} */
  let last = null
  /** @type {R} */
  let result
  return (...inputs) => {
    if (last === null || inputs.some((input, i) => input !== /** @type {I} */ (last)[i])) {
      result = compute(...inputs)
      last = inputs
    }
    return result
  }
}
