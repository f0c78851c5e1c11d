// @ts-check
// The printed material of Romi Rami, as the rule book lists it (§1.2 contracts, §1.3 trophies), and the
// words the client uses to name cards, contracts and trophies. The server sends contracts as numbers
// and trophies as codes; this file only turns them into something people can read. Nothing here decides
// what is legal: that is the server's job. Words come from the reader's language (i18n.js).

import { t } from './i18n.js';

export const SUITS = ['ch', 'di', 'he', 'cl'];

/** A suit's name: "cherry". @param {string} suit */
export const suitName = (suit) => t(`suit.${suit}`);

/** @typedef {{kind: 'set' | 'run', size: number, number: number | null}} Requirement */
/** @typedef {{id: number, score: number, suit: string, requirements: Requirement[], cards: number}} Contract */

/** @param {number} size @param {number | null} [number] @returns {Requirement} */
const set = (size, number = null) => ({ kind: 'set', size, number });
/** @param {number} size @returns {Requirement} */
const run = (size) => ({ kind: 'run', size, number: null });

// Rule book §1.2: [score, suit, requirements], row number = index + 1.
/** @type {[number, string, Requirement[]][]} */
const CONTRACT_ROWS = [
  [2, 'he', [set(4)]],
  [2, 'cl', [set(4)]],
  [2, 'di', [set(4)]],
  [4, 'ch', [set(5)]],
  [4, 'he', [set(5)]],
  [4, 'cl', [set(5)]],
  [4, 'ch', [set(2), set(2), set(2)]],
  [4, 'cl', [set(2), set(2), set(2)]],
  [5, 'ch', [set(2, 1), set(4)]],
  [5, 'cl', [set(2, 5), set(4)]],
  [1, 'di', [set(2, 2), set(2)]],
  [1, 'he', [set(2, 4), set(2)]],
  [5, 'he', [set(2, 1), run(4)]],
  [5, 'ch', [set(2, 5), run(4)]],
  [4, 'he', [set(3), run(3)]],
  [4, 'cl', [set(3), run(3)]],
  [4, 'di', [set(3), run(3)]],
  [4, 'ch', [set(3), set(3)]],
  [4, 'he', [set(3), set(3)]],
  [2, 'di', [set(2), set(3)]],
  [2, 'ch', [set(2), set(3)]],
  [2, 'cl', [set(2), set(3)]],
  [1, 'ch', [run(4)]],
  [1, 'di', [run(4)]],
  [1, 'cl', [run(4)]],
  [3, 'di', [run(5)]],
  [3, 'he', [run(5)]],
  [3, 'ch', [run(5)]],
  [6, 'cl', [run(3), set(4)]],
  [6, 'he', [run(3), set(4)]],
  [6, 'di', [set(3), run(4)]],
  [6, 'ch', [set(3), run(4)]],
  [6, 'di', [set(2), run(5)]],
  [6, 'cl', [set(2), run(5)]],
  [9, 'he', [run(3), set(5)]],
  [9, 'di', [run(3), set(5)]],
];

/**
 * The contract with this row number (1 to 36).
 * @param {number} id
 * @returns {Contract}
 */
export function contract(id) {
  const row = CONTRACT_ROWS[id - 1];
  if (!row) throw new RangeError(`no contract ${id}`);
  const [score, suit, requirements] = row;
  return { id, score, suit, requirements, cards: requirements.reduce((n, r) => n + r.size, 0) };
}

/** A requirement in words: "pair", "pair of 1s", "three of a kind", "run of four". @param {Requirement} r */
export function requirementText(r) {
  if (r.kind === 'run') return t('req.run', { size: r.size });
  if (r.number != null)
    return r.size === 2 ? t('req.pairOf', { n: r.number }) : t('req.setOf', { size: r.size, n: r.number });
  return t(`req.set${r.size}`);
}

/** The rule book's short notation: set2, set2(1), run4. @param {Requirement} r */
export function requirementNotation(r) {
  return r.kind === 'run' ? `run${r.size}` : `set${r.size}${r.number != null ? `(${r.number})` : ''}`;
}

/** A contract's requirements in words, grouped: "three pairs", "pair of 1s + four of a kind". @param {Contract} c */
export function contractText(c) {
  const parts = c.requirements.map(requirementText);
  if (parts.length === 3 && c.requirements.every((r) => r.kind === 'set' && r.size === 2 && r.number == null)) {
    return t('req.threePairs');
  }
  if (parts.length === 2 && parts[0] === parts[1]) return t('req.twice', { what: parts[0] });
  return parts.join(' + ');
}

/** A full sentence for screen readers and titles. @param {number} id */
export function contractLabel(id) {
  const c = contract(id);
  return t('contract.label', { id, text: contractText(c), cards: c.cards, score: c.score, suit: suitName(c.suit) });
}

// Rule book §1.3.
/** @type {Record<string, {points: number, suit?: string, size?: number}>} */
export const TROPHIES = {
  cherries: { points: 3, suit: 'ch' },
  hearts: { points: 3, suit: 'he' },
  clovers: { points: 3, suit: 'cl' },
  diamonds: { points: 3, suit: 'di' },
  combo2: { points: 5, size: 2 },
  combo3: { points: 4, size: 3 },
  combo4: { points: 3, size: 4 },
  combo5: { points: 2, size: 5 },
};

/** A trophy's name: "Most cherry contracts". @param {string} code */
export const trophyName = (code) => t(`trophy.${code}`);
/** A trophy's short name: "Cherries". @param {string} code */
export const trophyShort = (code) => t(`trophyShort.${code}`);

/**
 * How many icons of `trophy` a list of contracts shows (§5.2): contracts of its suit, or size icons.
 * @param {string} trophy
 * @param {number[]} contractIds
 */
export function trophyCount(trophy, contractIds) {
  const t = TROPHIES[trophy];
  let count = 0;
  for (const id of contractIds) {
    const c = contract(id);
    if (t.suit) count += c.suit === t.suit ? 1 : 0;
    else count += c.requirements.filter((r) => r.size === t.size).length;
  }
  return count;
}

/** A card code like "3he" as {number, suit}. @param {string} code */
export function parseCard(code) {
  return { number: Number(code[0]), suit: code.slice(1) };
}

/** "3 of hearts". @param {string} code */
export function cardLabel(code) {
  const { number, suit } = parseCard(code);
  return t('card.label', { n: number, suits: t(`suits.${suit}`) });
}

/**
 * Sorts card codes by number then suit (the server's order), or by suit then number.
 * @param {string[]} codes
 * @param {boolean} [bySuit]
 */
export function sortCards(codes, bySuit = false) {
  /** @param {string} code */
  const key = (code) => {
    const { number, suit } = parseCard(code);
    const s = SUITS.indexOf(suit);
    return bySuit ? s * 10 + number : number * 10 + s;
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

/** What a turn's step asks for: "take cards from the market". @param {string} step */
export const stepWords = (step) => t(`step.${step}`);

/** Why a game ended: "a market ran empty". @param {string} reason */
export const endedBy = (reason) => t(`ended.${reason}`);
