// The printed material of Romi Rami, as the rule book lists it (§1.2 contracts, §1.3 trophies), and the
// words the client uses to name cards, contracts and trophies. The server sends contracts as numbers
// and trophies as codes; this file only turns them into something people can read. Nothing here decides
// what is legal: that is the server's job.

export const SUITS = ['ch', 'di', 'he', 'cl'];

export const SUIT_NAMES = { ch: 'cherry', di: 'diamond', he: 'heart', cl: 'clover' };
export const SUIT_PLURALS = { ch: 'cherries', di: 'diamonds', he: 'hearts', cl: 'clovers' };

const set = (size, number = null) => ({ kind: 'set', size, number });
const run = (size) => ({ kind: 'run', size });

// Rule book §1.2: [score, suit, requirements], row number = index + 1.
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

/** The contract with this row number (1 to 36): {id, score, suit, requirements, cards}. */
export function contract(id) {
  const row = CONTRACT_ROWS[id - 1];
  if (!row) return null;
  const [score, suit, requirements] = row;
  return { id, score, suit, requirements, cards: requirements.reduce((n, r) => n + r.size, 0) };
}

const SET_WORDS = { 2: 'pair', 3: 'three of a kind', 4: 'four of a kind', 5: 'five of a kind' };
const NUMBER_WORDS = { 2: 'two', 3: 'three', 4: 'four', 5: 'five' };

/** A requirement in words: "pair", "pair of 1s", "three of a kind", "run of four". */
export function requirementText(r) {
  if (r.kind === 'run') return `run of ${NUMBER_WORDS[r.size]}`;
  if (r.number != null) return r.size === 2 ? `pair of ${r.number}s` : `${NUMBER_WORDS[r.size]} ${r.number}s`;
  return SET_WORDS[r.size];
}

/** The rule book's short notation: set2, set2(1), run4. */
export function requirementNotation(r) {
  return r.kind === 'run' ? `run${r.size}` : `set${r.size}${r.number != null ? `(${r.number})` : ''}`;
}

/** A contract's requirements in words, grouped: "3 pairs", "pair of 1s + four of a kind". */
export function contractText(c) {
  const parts = c.requirements.map(requirementText);
  if (parts.length === 3 && parts.every((p) => p === 'pair')) return 'three pairs';
  if (parts.length === 2 && parts[0] === parts[1]) return `two × ${parts[0]}`;
  return parts.join(' + ');
}

/** A full sentence for screen readers and titles. */
export function contractLabel(id) {
  const c = contract(id);
  return `Contract ${id}: ${contractText(c)}, ${c.cards} cards, ${c.score} point${c.score === 1 ? '' : 's'}, ${SUIT_NAMES[c.suit]}`;
}

// Rule book §1.3.
export const TROPHIES = {
  cherries: { name: 'Most cherry contracts', short: 'Cherries', points: 3, suit: 'ch' },
  hearts: { name: 'Most heart contracts', short: 'Hearts', points: 3, suit: 'he' },
  clovers: { name: 'Most clover contracts', short: 'Clovers', points: 3, suit: 'cl' },
  diamonds: { name: 'Most diamond contracts', short: 'Diamonds', points: 3, suit: 'di' },
  combo2: { name: 'Most 2-card combos', short: '2-card combos', points: 5, size: 2 },
  combo3: { name: 'Most 3-card combos', short: '3-card combos', points: 4, size: 3 },
  combo4: { name: 'Most 4-card combos', short: '4-card combos', points: 3, size: 4 },
  combo5: { name: 'Most 5-card combos', short: '5-card combos', points: 2, size: 5 },
};

/** How many icons of `trophy` a list of contracts shows (§5.2): contracts of its suit, or size icons. */
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

/** A card code like "3he" as {number, suit}. */
export function parseCard(code) {
  return { number: Number(code[0]), suit: code.slice(1) };
}

/** "3 of hearts". */
export function cardLabel(code) {
  const { number, suit } = parseCard(code);
  return `${number} of ${SUIT_PLURALS[suit]}`;
}

/** Sorts card codes by number then suit (the server's order), or by suit then number. */
export function sortCards(codes, bySuit = false) {
  const key = (code) => {
    const { number, suit } = parseCard(code);
    const s = SUITS.indexOf(suit);
    return bySuit ? s * 10 + number : number * 10 + s;
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

export const STEP_WORDS = {
  take: 'take cards from the market',
  contracts: 'complete contracts or pass',
  discard: 'discard down to 10 cards',
};

export const ENDED_BY_WORDS = {
  contracts: 'a player reached the contract target',
  market: 'a market ran empty',
  abandoned: 'the game was abandoned',
};
