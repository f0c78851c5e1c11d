// @ts-check
// What the rummy family's table page keeps and the context its parts draw from. It has the fields the
// shared parts (the waiting room, the log, the clocks: table/waiting.js, table/log.js, table/seats.js) read.

/**
 * @typedef {object} MeldState
 * @property {import('../table/state.js').Summary | null} summary
 * @property {{seat: number} | 'spectator' | null} role
 * @property {import('./model.js').Model | null} gs the view, in the page's shape
 * @property {any[] | null} legal the server's legal actions, as written
 * @property {number} eventCount
 * @property {any} result
 * @property {number | null} pending
 * @property {string} error
 * @property {string} notice
 * @property {import('../table/state.js').LogEntry[]} log
 * @property {boolean} bySuit the hand sorted by suit, else by rank
 * @property {string | null} gone
 * @property {any} history
 * @property {import('../clock.js').ClocksMsg | null} clocks
 * @property {number} clocksAt
 * @property {{seat: number, until: number} | null} choice a choice asked outside the turns (Rumino's rebuy):
 *   the seat asked, and when its time runs out (on `performance.now()`'s scale)
 * @property {boolean} reclaiming
 * @property {boolean} offline
 * @property {string | null} announced
 * @property {Set<number>} sel the picked cards, by their place in the sorted hand
 * @property {boolean} stale events came after the view: a fresh one is on its way
 * @property {number | null} seenRound the last round whose scores the reader closed
 */
/**
 * @typedef {object} MeldCtx
 * @property {MeldState} st
 * @property {string} tableId
 * @property {string | null} invite
 * @property {() => import('./model.js').Model} m
 * @property {() => string} game
 * @property {() => number | null} mySeat
 * @property {(seat: number) => string} nameOf
 * @property {(seat: number) => string} who
 * @property {(seat: number | null) => boolean} isBot
 * @property {(seat: number) => boolean} isBotPlayer
 * @property {(seat: number) => boolean} isStandIn
 * @property {() => boolean} botPlaysForMe
 * @property {() => boolean} myTurn
 * @property {() => import('./legal.js').Move[]} moves the legal moves now, in one shape
 * @property {() => string[]} sortedHand
 * @property {() => string[]} selected the picked hand cards
 * @property {(event: any, who: (seat: number) => string, me: number | null)
 *   => import('../game-log.js').Line | null} describe
 * @property {() => void} draw
 * @property {(action: any) => void} act
 * @property {(type: string, extra?: Record<string, any>) => void} send
 * @property {() => void} leave
 * @property {() => void} reclaim
 * @property {() => void} sit
 * @property {() => ({toAct: number | null, turn: number | null, reserves: number[]} | null)} liveClocks
 */

export {};
