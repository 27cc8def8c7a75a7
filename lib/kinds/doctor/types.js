/**
 * The shapes a doctor run's renderers are given besides its analysis.
 *
 * @typedef {({ atMs: number } & import('../../load/options.js').LoadProgress)[]} LoadTimeline the load's progress, once a second (timeline.json)
 */
