// @ts-check
// Pieces more than one page draws: the name form, the final scores, the bot's mark, an error box.
// Pages import these from here and never from each other.

import { connection } from './connection.js';
import { h } from './dom.js';
import { identity } from './identity.js';
import { t } from './i18n.js';

/** The words of the server's refusals of a new guest's name, by code. @type {Record<string, string>} */
const NAME_REFUSALS = {
  name_taken: 'error.name_taken',
  bad_name: 'error.bad_name_rule',
  too_many_guests: 'error.too_many_guests',
};

/**
 * @typedef {object} Score
 * @property {number} seat
 * @property {number} total
 * @property {number} contracts
 * @property {number} trophies
 * @property {number} suit_bonus
 * @property {number} star
 */
/**
 * @typedef {object} Result
 * @property {string} ended_by
 * @property {Score[]} scores
 * @property {Record<string, number | null>} trophy_winners
 * @property {number[]} winners
 */

/**
 * A form asking for a display name; calls `done(player)` once the server has welcomed it.
 * @param {(player: any) => void} done
 * @param {{intro?: string}} [options]
 */
export function nameForm(done, { intro = t('name.intro') } = {}) {
  const input = /** @type {HTMLInputElement} */ (
    h('input', {
      id: 'name-input',
      name: 'name',
      maxlength: 24,
      required: true,
      autocomplete: 'nickname',
      value: identity().name ?? '',
      placeholder: t('name.placeholder'),
    })
  );
  const error = h('p.error', { role: 'alert' });
  const form = h(
    'form.name-form',
    {
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        const name = input.value.trim();
        if (!name) {
          error.textContent = t('name.empty');
          return;
        }
        error.textContent = '';
        try {
          done(await connection.ready(name));
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          // Every refusal of a name the server gives a code for is said in the reader's language.
          const code = /** @type {any} */ (err)?.code;
          const key = NAME_REFUSALS[code];
          error.textContent = message === 'need_name' ? t('name.empty') : key ? t(key) : message;
        }
      },
    },
    h('label', { for: 'name-input' }, intro),
    h('div.row', input, h('button.primary', { type: 'submit' }, t('name.go'))),
    error,
  );
  setTimeout(() => input.focus(), 0);
  return form;
}

/** The levels of the server's bot, weakest first (docs/protocol.md: `add_bot`). */
export const BOT_LEVELS = /** @type {const} */ (['easy', 'normal', 'strong']);

/**
 * A select of the bot's levels in the reader's language, `chosen` selected.
 * @param {string} id @param {string} chosen @param {Record<string, any>} [attributes]
 * @returns {HTMLSelectElement}
 */
export const levelSelect = (id, chosen, attributes = {}) =>
  /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id, name: 'level', ...attributes },
      BOT_LEVELS.map((level) => h('option', { value: level, selected: level === chosen }, t(`level.${level}`))),
    )
  );

/** How the server names each level's player ("Bot · strong"), for the lists that give no level. */
const BOT_PLAYER = /^Bot · (easy|normal|strong)$/;

/**
 * A player's name as shown: a bot's in the reader's language with its level ("Robot · fort"), a deleted
 * account's as "deleted player" in the reader's language, anyone else's as they chose it.
 * @param {string | null | undefined} name @param {string | null} [level] the bot's level, when known
 */
export function shownName(name, level) {
  // A deleted account's name (the server's DELETED_NAME), in the reader's language.
  if (name === 'deleted player' && !level) return t('player.deleted');
  const botLevel = level ?? BOT_PLAYER.exec(name ?? '')?.[1];
  return botLevel ? t('bot.named', { level: t(`level.${botLevel}`) }) : (name ?? '');
}

/** Whether `name` is a level's bot's player ("Bot · strong"). @param {string | null | undefined} name */
export const isLevelBot = (name) => BOT_PLAYER.test(name ?? '');

/** The mark of a seat the server's bot plays. @param {string} [text] @param {string} [title] */
export function botBadge(text = t('bot'), title = t('bot.title')) {
  return h('span.badge.bot', { title }, text);
}

/**
 * The seats ahead when a game stopped: its winners, or for an abandoned game (whose `winners` may be
 * empty) the highest totals, ties broken by the suit bonus as §5 does.
 * @param {{winners: number[], scores: Score[]}} result
 */
export function aheadAt(result) {
  if (result.winners.length) return result.winners;
  /** @param {Score} s */
  const key = (s) => s.total * 1000 + s.suit_bonus;
  const best = Math.max(...result.scores.map(key));
  return result.scores.filter((s) => key(s) === best).map((s) => s.seat);
}

/**
 * The final scores with their parts (§5), for the end screen, the game page and the replay;
 * `noteOf(seat)` may add a mark after a player's name.
 * @param {{scores: Score[], winners: number[]}} result
 * @param {(seat: number) => string} nameOf
 * @param {(seat: number) => Node | null} [noteOf]
 */
export function scoreTable(result, nameOf, noteOf = () => null) {
  const rows = [...result.scores].sort((a, b) => b.total - a.total);
  const cols = ['scores.player', 'scores.contracts', 'scores.trophies', 'scores.bonus', 'scores.star', 'scores.total'];
  return h(
    'table.scores',
    h('caption', t('scores.caption')),
    h(
      'thead',
      h(
        'tr',
        cols.map((key) => h('th', { scope: 'col' }, t(key))),
      ),
    ),
    h(
      'tbody',
      rows.map((s) =>
        h(
          'tr',
          { class: result.winners.includes(s.seat) ? 'winner' : '' },
          h(
            'th',
            { scope: 'row' },
            result.winners.includes(s.seat) ? h('span.crown', { 'aria-label': t('scores.winner') }, '★ ') : null,
            nameOf(s.seat),
            noteOf(s.seat),
          ),
          h('td', s.contracts),
          h('td', s.trophies),
          h('td', s.suit_bonus),
          h('td', s.star),
          h('td.total', s.total),
        ),
      ),
    ),
  );
}

/** A refusal or failure, with a button to try again. @param {Error} error @param {() => void} [retry] */
export function errorBox(error, retry) {
  return h(
    'div.error-box',
    { role: 'alert' },
    h('p', error.message),
    retry ? h('button', { type: 'button', onclick: retry }, t('try_again')) : null,
  );
}
