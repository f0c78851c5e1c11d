// @ts-check
// What the rummy family's board keeps and the context its parts draw from: the shell's (shell/state.js), with
// the board's own fields.

/**
 * @typedef {object} BoardState the board's own part of the page's state
 * @property {import('./model.js').Model | null} gs the view, in the page's shape
 * @property {boolean} bySuit the hand sorted by suit, else by rank
 * @property {{seat: number, until: number} | null} choice a choice asked outside the turns (Rumino's rebuy):
 *   the seat asked, and when its time runs out (on `performance.now()`'s scale)
 * @property {Set<number>} sel the picked cards, by their place in the sorted hand
 * @property {boolean} stale events came after the view: a fresh one is on its way
 * @property {number | null} seenRound the last round whose scores the reader closed
 * @property {number | null} choosing the meld whose lay-offs the reader is asked to choose between (a joker
 *   that may stand for two cards)
 */
/** @typedef {import('../../shell/state.js').State & BoardState} MeldState */
/**
 * @typedef {object} BoardCtx
 * @property {MeldState} st
 * @property {() => import('./model.js').Model} m
 * @property {() => import('./legal.js').Move[]} moves the legal moves now, in one shape
 * @property {() => string[]} sortedHand
 * @property {() => string[]} selected the picked hand cards
 * @property {(event: any, who: (seat: number) => string, me: number | null)
 *   => import('../../game-log.js').Line | null} describe
 */
/** @typedef {import('../../shell/state.js').Ctx & BoardCtx} MeldCtx */

export {};
