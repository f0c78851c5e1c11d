// @ts-check
// What the table shell knows and what it shares with a game's board: the table summary, the shell's own
// state, the context every part of the page draws from, and the board's side of the bargain (what a
// game's module under games/ hands the shell).

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
 * @property {(string | null)[]} [levels] the level of each host's bot (docs/protocol.md: `levels`)
 * @property {Record<string, any>} [options] the game's table options, every default filled in
 * @property {('here' | 'away' | 'bot' | null)[]} [presence] where each seat's player is (section 11b)
 * @property {boolean} [rated] whether the game counts for the ratings (rated unless said otherwise)
 * @property {string} [tournament] the tournament the game belongs to (docs/tournaments.md)
 * @property {string} [shuffle] the commitment to the server's seed, from the start (docs/protocol.md: `shuffle`)
 * @property {{seats: ('waiting' | 'player' | 'server')[], remaining_ms?: number}} [contributions] the seats' contributions to the deal
 */
/**
 * @typedef {object} LogEntry a line of the game log, drawn in the reader's language when shown
 * @property {string} kind '', 'turn', 'good' or 'alert'
 * @property {any} [event] a game event, described by the board's words (game-log.js for Romi Rami)
 * @property {number} [n] its number
 * @property {string} [key] or a message of the page, with its parameters
 * @property {Record<string, any>} [params]
 * @property {boolean} [placeholder] a line that the history replaces
 */
/**
 * @typedef {object} State what the shell keeps; a board adds its own fields (its picks, say)
 * @property {Summary | null} summary
 * @property {{seat: number} | 'spectator' | null} role
 * @property {any} gs the game as the board holds it; null before the start (the shell reads nothing else of it)
 * @property {any[] | null} legal the server's legal actions (`your_turn`), as written
 * @property {number} eventCount
 * @property {any} result the game's result once it is over
 * @property {number | null} pending
 * @property {string} error
 * @property {string} notice
 * @property {LogEntry[]} log
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
 * @typedef {object} Ctx what every part of the table page draws from, the shell's and the board's
 * @property {State} st
 * @property {string} tableId
 * @property {string | null} invite
 * @property {() => string} game the game's name (the server's)
 * @property {() => number | null} mySeat
 * @property {(seat: number) => string} nameOf
 * @property {(seat: number) => string} who
 * @property {(seat: number | null) => boolean} isBot
 * @property {(seat: number) => boolean} isBotPlayer
 * @property {(seat: number) => boolean} isStandIn
 * @property {() => boolean} botPlaysForMe
 * @property {() => boolean} myTurn
 * @property {() => void} draw
 * @property {(action: any) => void} act sends a move exactly as the legal list wrote it
 * @property {(type: string, extra?: Record<string, any>) => void} send
 * @property {() => void} leave
 * @property {() => void} reclaim
 * @property {() => void} sit
 * @property {() => ({toAct: number | null, turn: number | null, reserves: number[]} | null)} liveClocks
 * @property {(event: any, who: (seat: number) => string, me: number | null)
 *   => import('../game-log.js').Line | null} [describe] the log's words for the board's events
 */
/**
 * @typedef {object} Board a game's board at the table, made by its module's `mount(ctx)` (games/index.js)
 * @property {string} name the board's name (the rummy family's three games share one)
 * @property {boolean} folds whether it folds the events into the view it holds (a gap in them then asks for the
 *   table again); otherwise the server sends a `view` after each batch of events (protocol section 9)
 * @property {(view: any) => void} takeView the game as the server now shows it (a `table` or `view` message): sets
 *   `st.gs`, `st.eventCount` and `st.result`
 * @property {(events: {n: number, event: any}[], el: HTMLElement) => (() => void) | undefined} takeEvents new events
 *   (before they go to the log); what it returns runs after the redraw (the cards' flight)
 * @property {(result: any) => void} [gameOver]
 * @property {() => boolean} myTurn whether the reader is to play now, themselves
 * @property {() => any[] | null} legal the moves the page offers now, as the server wrote them (the test hook)
 * @property {() => {id: string, words: string} | null} turnCue what screen readers hear when the turn comes, said
 *   once per `id`
 * @property {(msg: any) => string | null} [explain] a refusal in the board's words (null: the shell's)
 * @property {() => BoardScreen} screen
 * @property {(el: HTMLElement) => void} [tick] updates countdowns in place
 * @property {Record<string, (msg: any) => void>} [messages] what the board does with messages of its game only
 * @property {Record<string, () => any>} hook what the board adds to the test hook
 */
/**
 * @typedef {object} BoardScreen the board's parts of the game screen
 * @property {string} class
 * @property {any[]} top over the table (the end screen, a round's scores)
 * @property {any[]} main the players, the felt, the hand
 * @property {any} actions what the reader may do now (shell/actions.js's frame)
 * @property {any[]} side under the actions (running scores)
 */

export {};
