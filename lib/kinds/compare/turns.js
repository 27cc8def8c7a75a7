/**
 * The order two versions of an app are loaded in, and the turns that keep
 * them to it while both run. Alternating which side goes first (A B, B A,
 * A B, …) spreads a machine that drifts during the run over both sides
 * alike; comparing within a round cancels what the round shares.
 *
 * @typedef {'before' | 'after'} Side
 */

/**
 * Which side goes first in each round, round 1 first: before, then after in
 * odd rounds; after, then before in even ones.
 * @param {number} rounds
 * @returns {Side[][]} one pair per round
 */
export function roundOrder (rounds) {
  return Array.from({ length: rounds }, (_, i) => (i % 2 === 0 ? ['before', 'after'] : ['after', 'before']))
}

/**
 * Hands out turns in a fixed order of sides: a side waits for its turn,
 * takes it, and says when it is done; the next in line then goes. When one
 * side can go no further (its app ended), `close()` releases every waiter.
 */
export class Turns {
  /** @param {Side[]} order every turn, in order */
  constructor (order) {
    this.order = order
    this.next = 0
    this.closed = false
    /** @type {Set<() => void>} */
    this.waiting = new Set()
  }

  /**
   * Resolves with true when it is `side`'s turn, false once the turns are
   * closed or none of them is left for it.
   * @param {Side} side
   * @returns {Promise<boolean>}
   */
  wait (side) {
    return new Promise((resolve) => {
      const check = () => {
        if (this.closed || this.next >= this.order.length) resolve(false)
        else if (this.order[this.next] === side) resolve(true)
        else return false
        this.waiting.delete(check)
        return true
      }
      if (!check()) this.waiting.add(check)
    })
  }

  /** The turn in progress is over: the next side in line goes. */
  done () {
    this.next++
    this.wake()
  }

  close () {
    this.closed = true
    this.wake()
  }

  /** @private */
  wake () {
    for (const check of [...this.waiting]) check()
  }
}
