// @ts-check
// "Play against a bot": one click in the lobby opens a table of one's own against the server's bots and
// starts it. The form sends `create_table` (a private, rated table with one seat more than the bots) and
// remembers the bots; when the server answers `table_created`, the lobby calls `seatPlannedBots`, which
// gives each free seat to a bot of the chosen level (`add_bot`): the last one fills the table, and the
// game starts (docs/protocol.md, `add_bot`).

import { h } from './dom.js';
import { t } from './i18n.js';
import { gameInfo, gameSelect } from './game-options.js';
import { levelSelect } from './widgets.js';

/** @typedef {{send: (msg: Record<string, any>) => boolean, player: {id: string} | null}} Connection */

/** The bots to seat at the table being created, until the server says it is. */
/** @type {{bots: number, level: string} | null} */
let planned = null;

/**
 * The form. `error` shows what went wrong (no connection).
 * @param {Connection} connection @param {HTMLElement} error
 */
export function playBotForm(connection, error) {
  const game = gameSelect('bot-game', () => chooseGame());
  const level = levelSelect('bot-game-level', 'normal');
  const bots = /** @type {HTMLSelectElement} */ (h('select', { id: 'bot-count', name: 'bots' }));
  // As many bots as the game seats beside the player.
  const chooseGame = () => {
    const info = gameInfo(game.value);
    const was = Number(bots.value) || 1;
    bots.replaceChildren(
      ...Array.from({ length: info.max - 1 }, (_, i) => i + 1).map((n) =>
        h('option', { value: n, selected: n === Math.min(was, info.max - 1) }, t('playBot.n', { n })),
      ),
    );
  };
  chooseGame();
  return h(
    'form.create.play-bot',
    {
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        error.textContent = '';
        const count = Number(bots.value);
        /** @type {Record<string, any>} */
        const msg = { type: 'create_table', seats: count + 1, public: false, spectators: 'link', rated: true };
        if (game.value !== 'romi-rami') msg.game = game.value;
        planned = { bots: count, level: level.value };
        if (!connection.send(msg)) {
          planned = null;
          error.textContent = t('create.offline');
        }
      },
    },
    h('label', { for: 'bot-game' }, t('create.game')),
    game,
    h('label', { for: 'bot-game-level' }, t('playBot.level')),
    level,
    h('label', { for: 'bot-count' }, t('playBot.bots')),
    bots,
    h('button.primary', { type: 'submit', id: 'play-bot', disabled: !connection.player }, t('playBot.go')),
  );
}

/**
 * The server created the table this connection asked for: the bots planned for it take its free seats,
 * which starts the game. Nothing when the table was made with the other form.
 * @param {Connection} connection @param {string} tableId
 */
export function seatPlannedBots(connection, tableId) {
  if (!planned) return;
  for (let i = 0; i < planned.bots; i++) connection.send({ type: 'add_bot', table: tableId, level: planned.level });
  planned = null;
}

/** The create form was used instead: no bots wait for its table. */
export function forgetPlannedBots() {
  planned = null;
}
