// @ts-check
// The boards, by the server's name of their game: the table shell (shell/page.js) asks `boardFor` once the
// table says which game it plays; the replay viewer (replay-page.js) asks `replayFor`. The rummy family's three
// games share one board. A new game adds its lines here, its folder beside this file (its board, its replay,
// words and help), and its entry in game-options.js.

import * as romiRami from './romi-rami/board.js';
import * as rummy from './rummy/board.js';
import * as romiRamiReplay from './romi-rami/replay.js';
import * as rummyReplay from './rummy/replay.js';

/** @typedef {{mount: (ctx: import('../shell/state.js').Ctx) => import('../shell/state.js').Board}} BoardModule */

/** @type {Record<string, BoardModule>} */
const BOARDS = { 'romi-rami': romiRami, rommi: rummy, rami: rummy, rumino: rummy };

/**
 * The board of the game `name`, or null when this client has none for it (the shell then says so): never
 * another game's board.
 * @param {string} name
 * @returns {BoardModule | null}
 */
export const boardFor = (name) => (Object.hasOwn(BOARDS, name) ? BOARDS[name] : null);

/**
 * @typedef {{loadReplay: (id: string, nameOf: (seat: number) => string, redraw: () => void)
 *   => Promise<import('../replay-page.js').ReplayBoard>}} ReplayModule
 */

/** @type {Record<string, ReplayModule>} */
const REPLAYS = { 'romi-rami': romiRamiReplay, rommi: rummyReplay, rami: rummyReplay, rumino: rummyReplay };

/**
 * The replay viewer's part for the game `name`, or null when this client has none for it.
 * @param {string} name
 * @returns {ReplayModule | null}
 */
export const replayFor = (name) => (Object.hasOwn(REPLAYS, name) ? REPLAYS[name] : null);
