// @ts-check
// The server's legal lists (`your_turn`) of the three games in one shape. Rommi and Rumino tag their
// actions by `type` ({"type": "lay_off", "id": 3, "cards": [...]}); Rami writes them as the record's log
// does ("draw", {"open": [...]}, {"discard": "5c"}). The page offers only moves of the list and sends
// each back exactly as the server wrote it (`raw`).

import { sameCards } from '../../multiset.js';

/**
 * @typedef {object} Move
 * @property {string} kind draw, take, end_round, knock, open, meld, lay_off, exchange, discard, rebuy, take_back
 * @property {string[]} cards the hand cards it plays (for a take from the pile: the card taken)
 * @property {number} [id] the meld it goes on
 * @property {string} [card] a take's deepest card, a discard, the card exchanged for a joker
 * @property {string} [joker] what a joker laid stands for
 * @property {{cards: string[], joker?: string}[]} [melds] an opening's melds
 * @property {boolean} [gin] a Rumino discard that declares gin
 * @property {boolean} [rebuy] a Rumino rebuy choice
 * @property {any} raw the action as the server wrote it
 */

/** @param {any} raw @returns {Move} */
export function normalize(raw) {
  if (typeof raw === 'string') return { kind: raw, cards: [], raw };
  if (raw.type) {
    switch (raw.type) {
      case 'take':
        return { kind: 'take', cards: raw.card ? [raw.card] : [], card: raw.card, raw };
      case 'meld':
        return { kind: 'meld', cards: raw.cards, raw };
      case 'lay_off':
        return { kind: 'lay_off', cards: raw.cards, id: raw.id, raw };
      case 'discard':
        return { kind: 'discard', cards: [raw.card], card: raw.card, gin: raw.gin === true, raw };
      case 'rebuy':
        return { kind: 'rebuy', cards: [], rebuy: raw.rebuy, raw };
      default:
        return { kind: raw.type, cards: [], raw };
    }
  }
  const [kind] = Object.keys(raw);
  const v = raw[kind];
  switch (kind) {
    case 'open':
      return { kind, cards: v.flatMap((/** @type {any} */ m) => m.cards), melds: v, raw };
    case 'meld':
      return { kind, cards: v.cards, joker: v.joker, raw };
    case 'lay_off':
      return { kind, cards: v.cards, id: v.id, joker: v.joker, raw };
    case 'exchange':
      return { kind, cards: [v.card], card: v.card, id: v.id, raw };
    case 'discard':
      return { kind, cards: [v], card: v, raw };
    default:
      return { kind, cards: [], raw };
  }
}

/** The moves of a kind. @param {Move[]} moves @param {string} kind */
export const ofKind = (moves, kind) => moves.filter((m) => m.kind === kind);

/**
 * The moves of a kind that play exactly these hand cards.
 * @param {Move[]} moves @param {string} kind @param {string[]} cards
 */
export const playing = (moves, kind, cards) => ofKind(moves, kind).filter((m) => sameCards(m.cards, cards));

/** Whether a hand card can take part in any move that plays hand cards. @param {Move[]} moves @param {string} card */
export const usable = (moves, card) => moves.some((m) => m.kind !== 'take' && m.cards.includes(card));
