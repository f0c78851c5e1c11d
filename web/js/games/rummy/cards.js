// @ts-check
// The rummy family's cards (rummy-record-format.md, "Cards"): codes such as "Qh", "10c", "As" and "X" for a
// joker, drawn as buttons with a spoken label ("queen of hearts"), sorted by suit or by rank, and valued as
// rami §4 counts them for the opening.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';

/** @type {Record<string, string>} */
const SYMBOL = { c: '♣', d: '♦', h: '♥', s: '♠' };
const SUIT_ORDER = 'shdc';
/** @type {Record<string, number>} */
const RANK = { A: 1, J: 11, Q: 12, K: 13 };

/** @param {string} code @returns {{joker: boolean, rank: string, suit: string, n: number}} */
export function parse(code) {
  if (code === 'X') return { joker: true, rank: '', suit: '', n: 99 };
  const rank = code.slice(0, -1);
  return { joker: false, rank, suit: code.slice(-1), n: RANK[rank] ?? Number(rank) };
}

/** The card as a short text, "Q♥", for the log and the tokens. @param {string} code */
export function short(code) {
  const c = parse(code);
  return c.joker ? t('rc.jokerShort') : `${c.rank}${SYMBOL[c.suit] ?? c.suit}`;
}

/** The card in words, "queen of hearts". @param {string} code */
export function cardWords(code) {
  const c = parse(code);
  if (c.joker) return t('rc.joker');
  return t('rc.card', { rank: t(`rc.rank.${c.rank}`), suit: t(`rc.suit.${c.suit}`) });
}

/**
 * What a laid joker stands for, short: a card in a run ("9c": "9♣"), a rank alone in a set ("9").
 * @param {string} joker
 */
export const jokerWords = (joker) => (/[cdhs]$/.test(joker) ? short(joker) : joker);

/** A list of cards as short texts. @param {string[]} codes */
export const shortList = (codes) => codes.map(short).join(' ');

/**
 * A card: a button when `onclick` is given (pressed when selected, disabled when no legal move can use it).
 * @param {string} code
 * @param {{onclick?: () => void, selected?: boolean, possible?: boolean | null, label?: string, key?: string,
 *   small?: boolean, stands?: string}} [options] `stands`: the rank a joker on the table stands for
 */
export function rcard(code, { onclick, selected = false, possible = null, label, key, small = false, stands } = {}) {
  const c = parse(code);
  const classes = [
    'rcard',
    c.joker ? 'joker' : `suit-${c.suit}`,
    selected && 'selected',
    possible === false && 'impossible',
    possible === true && 'possible',
    small && 'small',
  ]
    .filter(Boolean)
    .join(' ');
  const face = c.joker
    ? [h('span.rank', '★'), h('span.suit', stands ?? t('rc.jokerShort'))]
    : [h('span.rank', c.rank), h('span.suit', SYMBOL[c.suit])];
  const attrs = { class: classes, 'data-card': code, 'aria-label': label ?? cardWords(code), 'data-key': key };
  if (!onclick) return h('span', { ...attrs, role: 'img' }, face);
  return h(
    'button',
    { ...attrs, type: 'button', onclick, 'aria-pressed': String(selected), disabled: possible === false },
    face,
  );
}

/** A face-down card with a count (the stock, others' hands). @param {string} label @param {number} count */
export const rback = (label, count) =>
  h('span.rcard.back', { role: 'img', 'aria-label': label }, h('span.count', count));

/**
 * The hand in the chosen order: by suit (then rank) or by rank (then suit); jokers last.
 * @param {string[]} cards @param {boolean} bySuit
 */
export function sortHand(cards, bySuit) {
  const key = (/** @type {string} */ code) => {
    const c = parse(code);
    const suit = c.joker ? 9 : SUIT_ORDER.indexOf(c.suit);
    return bySuit ? suit * 100 + c.n : c.n * 10 + suit;
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** Rami §4: a card's value in a meld, the ace by where it sits. @param {number} n @param {boolean} aceHigh */
const value = (n, aceHigh) => (n === 1 ? (aceHigh ? 11 : 1) : Math.min(n, 10));

/**
 * What a meld of the opening counts (rami §4): a set's ace 11, a run's ace 1 next to a 2 and 11 otherwise; a
 * joker the value of the card it stands for. Only the `counted` cards are added (the player's picks so far).
 * @param {{cards: string[], joker?: string}} meld @param {(code: string) => boolean} [counted]
 */
export function meldPoints(meld, counted = () => true) {
  const real = meld.cards.filter((c) => c !== 'X').map(parse);
  const isSet = real.every((c) => c.n === real[0]?.n);
  // A run's joker stands for a card ("9c"), a set's for a rank alone ("9").
  const stood = meld.joker ? parse(/[cdhs]$/.test(meld.joker) ? meld.joker : `${meld.joker}s`) : null;
  const ranks = [...real.map((c) => c.n), ...(stood ? [stood.n] : [])];
  const aceHigh = isSet || !ranks.includes(2);
  let total = 0;
  for (const code of meld.cards) {
    if (!counted(code)) continue;
    const n = code === 'X' ? (stood?.n ?? 0) : parse(code).n;
    total += value(n, aceHigh);
  }
  return total;
}
