// @ts-check
// The rummy family's events (crates/rummy/src/*/view.rs) as log lines in the reader's language, and its
// refusals in words. "Rumino!" and "Rami sec" are lines of their own, as the events they are.

import { t } from '../../i18n.js';
import { shortList, short } from './cards.js';

/** @typedef {import('../../game-log.js').Line} Line */

/**
 * One log line for an event, or null for events not worth a line.
 * @param {any} e the event
 * @param {(seat: number) => string} who a seat's name ("You" for the reader)
 * @param {number | null} me the reader's seat
 * @returns {Line | null}
 */
export function describeRummy(e, who, me) {
  /** @param {string} kind @param {string} key @param {Record<string, any>} [p] @returns {Line} */
  const line = (kind, key, p = {}) => ({ kind, parts: [t(key, p)] });
  const w = e.seat != null ? who(e.seat) : '';
  const mine = e.seat != null && e.seat === me;
  switch (e.type) {
    case 'round_started':
      return line('turn', 'rl.round', { n: e.number, dealer: who(e.dealer), top: short(e.top ?? e.discard) });
    case 'dealt':
      if (e.number == null) return null;
      return line('turn', 'rl.hand', { n: e.number, dealer: who(e.dealer), top: short(e.upcard) });
    case 'to_act':
      return mine ? line('turn', 'rl.yourTurn') : line('turn', 'rl.turn', { who: w });
    case 'drew':
      return e.card ? line('', 'rl.drewCard', { who: w, card: short(e.card) }) : line('', 'rl.drew', { who: w });
    case 'took': {
      const cards = e.cards ?? [e.card];
      return line('', cards.length > 1 ? 'rl.tookDeep' : 'rl.took', {
        who: w,
        card: short(cards[0]),
        n: cards.length - 1,
      });
    }
    case 'ended_round':
      return line('alert', 'rl.endedRound', { who: w });
    case 'opened':
      return line('good', 'rl.opened', {
        who: w,
        melds: e.melds.map((/** @type {any} */ m) => meldText(m)).join(' · '),
      });
    case 'melded':
      return line('good', 'rl.melded', { who: w, meld: meldText(e.meld), id: e.meld.id });
    case 'laid_off':
      return line('', 'rl.laidOff', { who: w, cards: shortList(e.cards), id: e.id ?? e.meld?.id });
    case 'exchanged':
      return line('good', 'rl.exchanged', { who: w, card: short(e.card), id: e.meld.id });
    case 'discarded':
      return line('', e.gin ? 'rl.gin' : 'rl.discarded', { who: w, card: short(e.card) });
    case 'carte':
      return line('alert', 'rl.carte', { who: w });
    case 'knocked':
      return line('alert', 'rl.knocked', { who: w });
    case 'reshuffled':
      return line('', 'rl.reshuffled', { n: e.stock });
    case 'went_out':
    case 'out':
      return line('good', 'rl.out', { who: w });
    case 'rumino':
      return line('good', 'rl.rumino', { who: w, cards: shortList(e.cards) });
    case 'round_ended':
      if (e.result?.rami_sec) return line('good', 'rl.ramiSec', { who: who(e.result.out) });
      return line('turn', 'rl.roundOver', { n: e.number ?? '' });
    case 'hand_scored':
      return line('turn', 'rl.handOver', { how: t(`rl.end.${e.ended_by}`), who: who(e.by) });
    case 'eliminated':
      return line('alert', 'rl.eliminated', { who: w });
    case 'rebuy_asked':
      return line('', 'rl.rebuyAsked', { who: w });
    case 'rebuy_chosen':
      return line('', e.rebuy ? 'rl.rebought' : 'rl.noRebuy', { who: w });
    case 'took_back':
      return line('alert', 'rl.tookBack', { who: w });
    case 'match_over':
      return line('good', 'rl.matchOver');
    default:
      return null;
  }
}

/** A meld in short: "7♥ 8♥ 9♥". @param {any} meld */
export function meldText(meld) {
  return meld.cards
    .map((/** @type {any} */ p) => (p.card === 'X' ? `${short('X')}(${p.rank})` : short(p.card)))
    .join(' ');
}

/** The sections of the rule books a refusal names, to the words that explain them. */
const REFUSALS = /** @type {[RegExp, string][]} */ ([
  [/§6\.1 a|stock is empty/, 'rr.stockEmpty'],
  [/§6\.1 c|deep take/, 'rr.deepTake'],
  [/not in your hand/, 'rr.notInHand'],
  [/§6\.2|§6 |opening|open/, 'rr.opening'],
  [/§3|meld/, 'rr.meld'],
  [/knock/, 'rr.knock'],
  [/discard/, 'rr.discard'],
]);

/** An illegal move in words, by the rule its message names. @param {string} message */
export function explainRummy(message) {
  for (const [pattern, key] of REFUSALS) if (pattern.test(message)) return t(key);
  return t('illegal.other');
}
