// @ts-check
// What the table page knows and what its parts share: the types of the server's messages it keeps, the
// page's own state, and the context every part of the page draws from (seats, market, contracts, hand,
// actions, log).

/** @typedef {{id: string, name: string}} PlayerInfo */
/**
 * @typedef {object} Summary the table summary (docs/protocol.md section 4)
 * @property {string} id
 * @property {string} [game]
 * @property {'waiting' | 'playing' | 'finished'} state
 * @property {string} host
 * @property {boolean} public
 * @property {'everyone' | 'link' | 'nobody'} spectators
 * @property {(PlayerInfo | null)[]} seats
 * @property {number} spectator_count
 * @property {import('../clock.js').Clock} [clock]
 * @property {boolean[]} [bots]
 * @property {Record<string, any>} [options] the game's table options, every default filled in
 * @property {('here' | 'away' | 'bot' | null)[]} [presence] where each seat's player is (section 11b)
 * @property {boolean} [rated] whether the game counts for the ratings (rated unless said otherwise)
 */
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
 * @property {import('../widgets.js').Result} [result]
 * @property {number} event_count
 * @property {string[][]} [hands] every hand, in the replay only
 * @property {string[][]} [bonuses] every suit bonus pile, in the replay only
 */
/** @typedef {{type: string, cards?: string[], contract?: number, star?: boolean}} Action */
/**
 * @typedef {object} LogEntry a line of the game log, drawn in the reader's language when shown
 * @property {string} kind '', 'turn', 'good' or 'alert'
 * @property {any} [event] a game event, described by game-log.js
 * @property {number} [n] its number
 * @property {string} [key] or a message of the page, with its parameters
 * @property {Record<string, any>} [params]
 * @property {boolean} [placeholder] a line that the history replaces
 */
/**
 * @typedef {object} State
 * @property {Summary | null} summary
 * @property {{seat: number} | 'spectator' | null} role
 * @property {{view: View, undo: any[]} | null} gs
 * @property {Action[] | null} legal
 * @property {number} eventCount
 * @property {import('../widgets.js').Result | null} result
 * @property {{market: Set<number>, hand: Set<number>, contract: number | null, star: boolean}} sel
 * @property {number | null} pending
 * @property {string} error
 * @property {string} notice
 * @property {LogEntry[]} log
 * @property {boolean} bySuit
 * @property {string | null} gone
 * @property {{upTo: number, from: number, next: number, lines: LogEntry[], done?: boolean} | null} history the log's
 *   rebuilding from the server's `history` answers: the events before `upTo`, from `from` on, `next` being the one
 *   awaited
 * @property {import('../clock.js').ClocksMsg | null} clocks
 * @property {number} clocksAt
 * @property {boolean} reclaiming
 * @property {boolean} offline
 * @property {string | null} announced
 */
/**
 * @typedef {object} Ctx what every part of the table page draws from
 * @property {State} st
 * @property {string} tableId
 * @property {string | null} invite
 * @property {() => View} view
 * @property {() => number | null} mySeat
 * @property {(seat: number) => string} nameOf
 * @property {(seat: number) => string} who
 * @property {(seat: number | null) => boolean} isBot
 * @property {(seat: number) => boolean} isBotPlayer
 * @property {(seat: number) => boolean} isStandIn
 * @property {() => boolean} botPlaysForMe
 * @property {() => boolean} myTurn
 * @property {(type: string) => Action[]} legalOf
 * @property {() => string[]} sortedHand
 * @property {() => string[]} selectedMarketCards
 * @property {() => string[]} selectedHandCards
 * @property {() => void} draw
 * @property {(action: Action) => void} act
 * @property {() => void} clearSelection
 * @property {(set: Set<number>, key: number) => void} toggle
 * @property {(type: string, extra?: Record<string, any>) => void} send
 * @property {() => void} leave
 * @property {() => void} reclaim
 * @property {() => void} sit
 * @property {() => ({toAct: number | null, turn: number | null, reserves: number[]} | null)} liveClocks
 * @property {(event: any, who: (seat: number) => string, me: number | null)
 *   => import('../game-log.js').Line | null} [describe]
 *   the log's words for another game's events (the rummy family's table)
 */

export {};
