// @ts-check
// What Romi Rami's board knows: the game's view as the server sends it, and the context its parts draw from
// (the shell's, with the board's picks and the legal moves by type).

/**
 * @typedef {object} SeatScore
 * @property {number} contracts
 * @property {number} trophies
 * @property {number} star
 * @property {number} public_total
 * @property {number} [suit_bonus]
 * @property {number} [total]
 */
/** @typedef {{seat: number, contracts: number[], hand_size: number, star_used: boolean, score: SeatScore}} SeatView */
/**
 * @typedef {object} View a game as one recipient sees it (section 4)
 * @property {{seat: number} | 'spectator'} viewer
 * @property {{state: 'playing', seat: number, step: string}
 *   | {state: 'over', ended_by: string, seat?: undefined, step?: undefined}} phase
 * @property {number} first_player
 * @property {boolean} last_round
 * @property {number} contract_target
 * @property {string[]} trophies
 * @property {Record<string, number | null>} [trophy_leaders]
 * @property {(string | null)[]} number_market
 * @property {(number | null)[]} contract_market
 * @property {number} number_deck
 * @property {number} contract_deck
 * @property {number} discard_pile
 * @property {SeatView[]} seats
 * @property {string[]} [hand]
 * @property {string[]} [suit_bonus]
 * @property {import('../../widgets.js').Result} [result]
 * @property {number} event_count
 * @property {string[][]} [hands] every hand, in the replay only
 * @property {string[][]} [bonuses] every suit bonus pile, in the replay only
 */
/** @typedef {{type: string, cards?: string[], contract?: number, star?: boolean}} Action */
/**
 * @typedef {object} BoardState the board's own part of the page's state
 * @property {{view: View, undo: any[]} | null} gs
 * @property {Action[] | null} legal
 * @property {{market: Set<number>, hand: Set<number>, contract: number | null, star: boolean}} sel
 * @property {boolean} bySuit
 */
/**
 * @typedef {object} BoardCtx
 * @property {import('../../shell/state.js').State & BoardState} st
 * @property {() => View} view
 * @property {(type: string) => Action[]} legalOf
 * @property {() => string[]} sortedHand
 * @property {() => string[]} selectedMarketCards
 * @property {() => string[]} selectedHandCards
 * @property {() => void} clearSelection
 * @property {(set: Set<number>, key: number) => void} toggle
 */
/** @typedef {import('../../shell/state.js').Ctx & BoardCtx} Ctx */

export {};
