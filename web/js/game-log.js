// @ts-check
// Turns the server's events (docs/protocol.md section 7) into sentences for the game log, in the
// reader's language: "Ana took 3♥ and 3♣", "Ben completed contract 12 (pair of 4s + pair) with the Star".
// A sentence is a list of parts: strings, and {card} or {contract} that the page draws as small tokens.

import { contract, contractText, endedBy } from './rules-data.js';
import { tParts, list } from './i18n.js';

/** @typedef {string | {card: string} | {contract: number}} Part */
/** @typedef {{kind: string, parts: Part[]}} Line */

/** @param {string[]} codes @returns {Part[]} */
function cards(codes) {
  return codes.flatMap((code, i) => (i ? [' ', { card: code }] : [{ card: code }]));
}

/**
 * One log line for an event, or null for events not worth a line.
 * @param {any} event the `event` of a numbered event
 * @param {(seat: number) => string} who a seat's name ("You" for the reader's own seat)
 * @param {number | null} me the reader's seat
 * @returns {Line | null}
 */
export function describe(event, who, me = null) {
  /** @param {string} kind @param {string} key @param {Record<string, any>} [params] @returns {Line} */
  const line = (kind, key, params = {}) => ({ kind, parts: tParts(key, params) });
  const w = event.seat != null ? who(event.seat) : '';
  switch (event.type) {
    case 'to_act':
      if (event.step === 'discard') return line('', 'log.mustDiscard', { who: w });
      if (event.step === 'take')
        return event.seat === me ? line('turn', 'log.yourTurn') : line('turn', 'log.turn', { who: w });
      return null;
    case 'took':
      return line('', 'log.took', { who: w, cards: cards(event.cards) });
    case 'completed': {
      const c = contract(event.contract);
      return line('good', 'log.completed', {
        who: w,
        contract: [{ contract: event.contract }],
        text: contractText(c),
        score: c.score,
        cards: cards(event.cards),
        star: event.star,
      });
    }
    case 'took_back':
      return event.contract == null
        ? line('', 'log.tookBackTake', { who: w, cards: cards(event.cards) })
        : line('', 'log.tookBackContract', { who: w, contract: [{ contract: event.contract }], star: event.star });
    case 'passed':
      return line('', 'log.passed', { who: w });
    case 'reshuffled':
      return line('', 'log.reshuffled', { deck: event.deck });
    case 'drew':
      return event.cards
        ? line('', 'log.drew', { who: w, cards: cards(event.cards) })
        : line('', 'log.drewCount', { who: w, count: event.count });
    case 'discarded':
      return event.cards
        ? line('', 'log.discarded', { who: w, cards: cards(event.cards) })
        : line('', 'log.discardedCount', { who: w, count: event.count });
    case 'last_round':
      return line('alert', event.started ? 'log.lastRound' : 'log.lastRoundOff');
    case 'game_over': {
      const { winners, ended_by: ended } = event.result;
      if (ended === 'abandoned' || !winners.length) return line('alert', 'log.gameOverAbandoned');
      return line('alert', 'log.gameOver', {
        why: endedBy(ended),
        names: list(winners.map(who)),
        you: winners.includes(me),
        count: winners.length,
      });
    }
    default:
      return null;
  }
}

/**
 * A line's text for screen readers and the test hook: tokens as words.
 * @param {Line} entry
 * @param {(code: string) => string} cardWords
 * @param {(id: number) => string} contractWords
 */
export function plain(entry, cardWords, contractWords) {
  return entry.parts
    .map((p) => (typeof p === 'string' ? p : 'card' in p ? cardWords(p.card) : contractWords(p.contract)))
    .join('');
}
