// @ts-check
// Draws the game's pieces: number cards, contract cards, trophy tiles, the Star, and the small card
// tokens used in the log and the results. Each piece is a real <button> when it can be picked, with
// a label a screen reader can read ("3 of hearts", "Contract 12: pair of 4s + pair, …"). A piece no
// legal move can use with the current selection is dimmed and disabled.

import { h, icon } from './dom.js';
import { t, language } from './i18n.js';
import {
  cardLabel,
  contract,
  contractLabel,
  parseCard,
  requirementNotation,
  requirementText,
  suitName,
  TROPHIES,
  trophyName,
  trophyShort,
} from './rules-data.js';

/**
 * @typedef {object} PieceOptions
 * @property {((e: Event) => void) | null} [onclick] makes the piece a button
 * @property {boolean} [selected]
 * @property {boolean | null} [possible] true: highlighted; false: dimmed and disabled
 * @property {number | null} [slot]
 * @property {Record<string, any>} [extra] more attributes
 * @property {boolean} [compact]
 */

/** @param {boolean} selected @param {boolean | null | undefined} possible */
const stateClasses = (selected, possible) => [
  selected && 'selected',
  possible === false && 'impossible',
  possible === true && 'possible',
];

/** A number card; a button when `onclick` is given. @param {string} code @param {PieceOptions} [options] */
export function numberCard(code, { onclick, selected = false, possible = null, slot = null, extra = {} } = {}) {
  const { number, suit } = parseCard(code);
  const face = [
    h('span.corner', { 'aria-hidden': 'true' }, h('span.n', number), icon(suit)),
    h('span.pip', { 'aria-hidden': 'true' }, icon(suit)),
    h('span.corner.bottom', { 'aria-hidden': 'true' }, h('span.n', number)),
  ];
  const classes = ['card', `suit-${suit}`, ...stateClasses(selected, possible)].filter(Boolean).join(' ');
  const attrs = { class: classes, 'data-card': code, 'data-slot': slot, 'aria-label': cardLabel(code), ...extra };
  if (onclick) {
    return h(
      'button',
      { ...attrs, type: 'button', onclick, 'aria-pressed': String(selected), disabled: possible === false },
      face,
    );
  }
  return h('div', { ...attrs, role: 'img' }, face);
}

/** An empty market slot. @param {string} [kind] */
export function emptySlot(kind = 'card') {
  return h(`div.${kind}.empty`, { role: 'img', 'aria-label': t('slot.empty') });
}

/** The face-down back of a card (decks, other players' hands). @param {string} label @param {number | null} [count] */
export function cardBack(label, count = null) {
  return h('div.card.back', { role: 'img', 'aria-label': label }, count != null ? h('span.count', count) : null);
}

/** @param {import('./rules-data.js').Contract} c */
function sizeIcons(c) {
  return h(
    'span.sizes',
    { 'aria-hidden': 'true' },
    c.requirements.map((r) => h('span.size', r.size)),
  );
}

/**
 * A contract card; a button when `onclick` is given. `compact` draws the small version of a player's area.
 * @param {number} id
 * @param {PieceOptions} [options]
 */
export function contractCard(id, { onclick, selected = false, possible = null, compact = false, extra = {} } = {}) {
  const c = contract(id);
  const classes = ['contract', `suit-${c.suit}`, compact && 'compact', ...stateClasses(selected, possible)]
    .filter(Boolean)
    .join(' ');
  const body = compact
    ? [h('span.score', c.score), icon(c.suit), sizeIcons(c)]
    : [
        h(
          'span.head',
          { 'aria-hidden': 'true' },
          h('span.score', c.score),
          h('span.suitname', icon(c.suit), suitName(c.suit)),
        ),
        h(
          'ul.reqs',
          { 'aria-hidden': 'true' },
          c.requirements.map((r) =>
            h(
              'li',
              requirementText(r),
              // The rule book's notation (set3, run4) is English: shown beside the English words only.
              language() === 'en' ? h('small', requirementNotation(r)) : null,
            ),
          ),
        ),
        h('span.foot', { 'aria-hidden': 'true' }, sizeIcons(c), h('span.no', `#${id}`)),
      ];
  const attrs = {
    class: classes,
    'data-contract': id,
    'aria-label': contractLabel(id),
    title: contractLabel(id),
    ...extra,
  };
  if (onclick) {
    return h(
      'button',
      { ...attrs, type: 'button', onclick, 'aria-pressed': String(selected), disabled: possible === false },
      body,
    );
  }
  return h('div', { ...attrs, role: 'img' }, body);
}

/**
 * A trophy tile in play, with its points and who would win it now.
 * @param {string} code
 * @param {string | null} leaderName
 */
export function trophyTile(code, leaderName) {
  const tr = TROPHIES[code];
  const art = tr.suit
    ? icon(tr.suit)
    : h(
        'span.combo',
        { 'aria-hidden': 'true' },
        Array.from({ length: tr.size ?? 0 }, () => h('i')),
      );
  const label = t('trophy.label', { name: trophyName(code), points: tr.points, leader: leaderName });
  return h(
    'li.trophy',
    { 'aria-label': label, title: label },
    h('span.art', { 'aria-hidden': 'true' }, art),
    h('span.tname', { 'aria-hidden': 'true' }, trophyShort(code)),
    h('span.points', { 'aria-hidden': 'true' }, `${tr.points}`),
    h('span.leader', { 'aria-hidden': 'true' }, leaderName ?? '—'),
  );
}

/**
 * The Star token; a toggle button when `onclick` is given.
 * @param {{used?: boolean, onclick?: ((e: Event) => void) | null, selected?: boolean, label?: string,
 *   possible?: boolean | null}} [options]
 */
export function starToken({ used = false, onclick, selected = false, label, possible = null } = {}) {
  const star = h('svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true', class: 'star-svg' });
  const use = h('use', {});
  use.setAttribute('href', '#star');
  star.append(use);
  const classes = ['star', used && 'used', ...stateClasses(selected, possible)].filter(Boolean).join(' ');
  if (onclick) {
    return h(
      'button',
      {
        class: classes,
        type: 'button',
        onclick,
        'aria-pressed': String(selected),
        'aria-label': label ?? t('star.use'),
        disabled: possible === false,
      },
      star,
      h('span', t('star')),
    );
  }
  return h('span', { class: classes, role: 'img', 'aria-label': label ?? t(used ? 'star.used' : 'star.unused') }, star);
}

/** A small inline card for sentences: "3♥". @param {string} code */
export function cardToken(code) {
  const { number, suit } = parseCard(code);
  return h(
    `span.token.suit-${suit}`,
    { role: 'img', 'aria-label': cardLabel(code) },
    h('b', { 'aria-hidden': 'true' }, number),
    icon(suit),
  );
}

/** A small inline contract for sentences. @param {number} id */
export function contractToken(id) {
  const c = contract(id);
  return h(`span.ctoken.suit-${c.suit}`, { title: contractLabel(id) }, t('contract.token', { id }));
}

/** Renders log/sentence parts (strings, {card}, {contract}). @param {import('./game-log.js').Part[]} parts */
export function sentence(parts) {
  return parts.map((p) => (typeof p === 'string' ? p : 'card' in p ? cardToken(p.card) : contractToken(p.contract)));
}
