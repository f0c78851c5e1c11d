// @ts-check
// The games a table may seat and their table options, as the lobby offers them: each game's player range
// and its options with the rule book's defaults (rommi §2, rami §2, rumino §2; the server's
// `check_options` has the last word and refuses a bad value with `bad_options`). The table summary's
// `options` (every default filled in by the game) is put into words for the lobby's list and the table.

import { h } from './dom.js';
import { t } from './i18n.js';

/** @typedef {{id: string, name: string, min: number, max: number}} GameInfo */

/** @type {GameInfo[]} */
export const GAMES = [
  { id: 'romi-rami', name: 'Romi Rami', min: 2, max: 4 },
  { id: 'rommi', name: 'Rommi', min: 2, max: 4 },
  { id: 'rami', name: 'Rami', min: 2, max: 5 },
  { id: 'rumino', name: 'Rumino', min: 2, max: 6 },
];

/** @param {string | undefined} id */
export const gameInfo = (id) => GAMES.find((g) => g.id === (id ?? 'romi-rami')) ?? GAMES[0];

/** @param {string | undefined} id */
/**
 * A select of every game, Romi Rami first. @param {string} id @param {() => void} onchange
 * @returns {HTMLSelectElement}
 */
export const gameSelect = (id, onchange) =>
  /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id, name: 'game', onchange },
      GAMES.map((g) => h('option', { value: g.id }, g.name)),
    )
  );

export const gameName = (id) => GAMES.find((g) => g.id === (id ?? 'romi-rami'))?.name ?? String(id);

/** @param {string} id @param {string} label @param {[string, string][]} choices @param {string} value */
function select(id, label, choices, value) {
  return [
    h('label', { for: id }, label),
    h(
      'select',
      { id, name: id },
      choices.map(([v, words]) => h('option', { value: v, selected: v === value }, words)),
    ),
  ];
}

/** @param {string} id @param {string} label @param {Record<string, any>} attrs */
function number(id, label, attrs) {
  return [h('label', { for: id }, label), h('input', { id, name: id, type: 'number', step: 1, ...attrs })];
}

/** @param {string} id @param {string} label */
function checkbox(id, label) {
  return h('label.check', { for: id }, h('input', { id, name: id, type: 'checkbox' }), ` ${label}`);
}

/** The option fields of a game, rule-book defaults chosen. @param {string} game */
export function optionFields(game) {
  if (game === 'rommi') {
    return [
      select(
        'opt-variant',
        t('opt.variant'),
        [
          ['basic', t('opt.basic')],
          ['500', t('opt.500')],
        ],
        'basic',
      ),
      select(
        'opt-scoring',
        t('opt.scoring'),
        [
          ['', t('opt.scoringDefault')],
          ['positive', t('opt.positive')],
          ['meld_hand', t('opt.meld_hand')],
          ['negative', t('opt.negative')],
        ],
        '',
      ),
      number('opt-target', t('opt.target'), { min: 1, placeholder: t('opt.targetDefault') }),
      checkbox('opt-simple', t('opt.simple')),
      checkbox('opt-restriction', t('opt.restriction')),
    ];
  }
  if (game === 'rami') {
    return [
      select(
        'opt-opening',
        t('opt.opening'),
        [
          ['51', t('opt.rami51')],
          ['30', t('opt.rami30')],
        ],
        '51',
      ),
      select(
        'opt-end',
        t('opt.end'),
        [
          ['', t('opt.endDefault')],
          ['rounds', t('opt.rounds')],
          ['limit', t('opt.limit')],
        ],
        '',
      ),
      number('opt-end-n', t('opt.endN'), { min: 1, max: 500, placeholder: '500' }),
    ];
  }
  if (game === 'rumino') return [number('opt-rebuys', t('opt.rebuys'), { min: 0, max: 20, value: 1 })];
  return [];
}

/**
 * The options the form says, as `create_table` wants them; a sentence when a value cannot be right.
 * @param {string} game @param {HTMLElement} form @returns {Record<string, any> | string}
 */
export function readOptions(game, form) {
  /** @param {string} id */
  const field = (id) => /** @type {HTMLInputElement | null} */ (form.querySelector(`#${id}`));
  /** @param {string} id */
  const value = (id) => field(id)?.value ?? '';
  /** @type {Record<string, any>} */
  const options = {};
  if (game === 'rommi') {
    options.variant = value('opt-variant');
    if (value('opt-scoring')) options.scoring = value('opt-scoring');
    if (value('opt-target')) {
      const target = Number(value('opt-target'));
      if (!Number.isInteger(target) || target < 1) return t('opt.badTarget');
      options.target = target;
    }
    options.simple_scoring = field('opt-simple')?.checked ?? false;
    options.meld_restriction = field('opt-restriction')?.checked ?? false;
  } else if (game === 'rami') {
    options.opening = Number(value('opt-opening'));
    const end = value('opt-end');
    if (end) {
      const n = Number(value('opt-end-n') || (end === 'limit' ? 500 : 0));
      if (!Number.isInteger(n) || n < 1 || (end === 'rounds' && n > 20)) return t('opt.badEnd');
      options.match_end = { [end]: n };
    }
  } else if (game === 'rumino') {
    const rebuys = Number(value('opt-rebuys'));
    if (!Number.isInteger(rebuys) || rebuys < 0) return t('opt.badRebuys');
    options.max_rebuys = rebuys;
  }
  return options;
}

/**
 * A table's options in words, for the lobby and the table ('' when the game has none).
 * @param {string | undefined} game @param {Record<string, any> | undefined} options
 */
export function optionWords(game, options) {
  if (!options) return '';
  const parts = [];
  if (game === 'rommi') {
    parts.push(t(options.variant === '500' ? 'opt.500' : 'opt.basic'));
    if (options.scoring) parts.push(t(`opt.${options.scoring}`));
    if (options.target) parts.push(t('opt.targetN', { n: options.target }));
    if (options.simple_scoring) parts.push(t('opt.simple'));
    if (options.meld_restriction) parts.push(t('opt.restriction'));
  } else if (game === 'rami') {
    parts.push(t(options.opening === 30 ? 'opt.rami30' : 'opt.rami51'));
    const end = options.match_end;
    if (end?.rounds) parts.push(t('opt.roundsN', { n: end.rounds }));
    else if (end?.limit) parts.push(t('opt.limitN', { n: end.limit }));
    else parts.push(t('opt.endDefault'));
  } else if (game === 'rumino') {
    parts.push(t('opt.rebuysN', { n: options.max_rebuys ?? 1 }));
  }
  return parts.join(' · ');
}
