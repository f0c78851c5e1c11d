// @ts-check
// Keeps a table's view (the server's `view`, docs/protocol.md section 4) current from the numbered
// events the server sends (section 7), so the page can redraw after every move without asking for the
// whole table again. It follows the two rules section 7 spells out (a take empties the first slot
// holding each card; a take back restores the market as it was) and recounts the public scores as the
// rule book adds them up (§5). It never judges a move: the server already applied it.

import { contract, trophyCount, TROPHIES } from '../../rules-data.js';
import { removeCards } from '../../multiset.js';

/** @typedef {import('./state.js').View} View */

/**
 * A fresh game state from a `table` message's view.
 * @param {View} view
 * @returns {{view: View, undo: any[], carry: number}}
 */
export function gameState(view) {
  return { view: structuredClone(view), undo: [], carry: 0 };
}

/** @param {View} view */
function mySeat(view) {
  return typeof view.viewer === 'object' ? view.viewer.seat : null;
}

/**
 * Applies one event (the `event` of `{n, event}`) to the state.
 * @param {{view: View, undo: any[]}} state
 * @param {any} event
 */
export function applyEvent(state, event) {
  const view = state.view;
  const me = mySeat(view);
  const seat = event.seat != null ? view.seats[event.seat] : null;
  switch (event.type) {
    case 'to_act':
      if (view.phase?.seat !== event.seat) state.undo = [];
      view.phase = { state: 'playing', seat: event.seat, step: event.step };
      break;
    case 'took': {
      const before = [...view.number_market];
      for (const card of event.cards) {
        const slot = view.number_market.indexOf(card);
        if (slot >= 0) view.number_market[slot] = null;
      }
      state.undo.push({ kind: 'take', market: before });
      seat.hand_size += event.cards.length;
      if (event.seat === me) view.hand = [...view.hand, ...event.cards];
      break;
    }
    case 'completed': {
      const c = contract(event.contract);
      const slot = view.contract_market.indexOf(event.contract);
      if (slot >= 0) view.contract_market[slot] = null;
      state.undo.push({ kind: 'contract', slot, contract: event.contract });
      seat.contracts.push(event.contract);
      seat.hand_size -= event.cards.length;
      if (event.star) seat.star_used = true;
      const bonus = event.cards.filter((card) => card.slice(1) === c.suit);
      view.discard_pile += event.cards.length - bonus.length;
      if (event.seat === me) {
        view.hand = removeCards(view.hand, event.cards);
        view.suit_bonus = [...(view.suit_bonus ?? []), ...bonus];
      }
      break;
    }
    case 'took_back': {
      if (event.contract == null) {
        const undo = state.undo.pop();
        if (undo?.kind === 'take') view.number_market = undo.market;
        else {
          // Not seen here (joined mid-turn): put the cards in the empty slots; a resync would be exact.
          for (const card of event.cards) {
            const slot = view.number_market.indexOf(null);
            if (slot >= 0) view.number_market[slot] = card;
          }
        }
        seat.hand_size -= event.cards.length;
        if (event.seat === me) view.hand = removeCards(view.hand, event.cards);
      } else {
        const undo = state.undo.pop();
        const c = contract(event.contract);
        const slot = undo?.kind === 'contract' ? undo.slot : view.contract_market.indexOf(null);
        if (slot >= 0) view.contract_market[slot] = event.contract;
        const at = seat.contracts.lastIndexOf(event.contract);
        if (at >= 0) seat.contracts.splice(at, 1);
        seat.hand_size += event.cards.length;
        if (event.star) seat.star_used = false;
        const bonus = event.cards.filter((card) => card.slice(1) === c.suit);
        view.discard_pile -= event.cards.length - bonus.length;
        if (event.seat === me) {
          view.hand = [...view.hand, ...event.cards];
          view.suit_bonus = removeCards(view.suit_bonus ?? [], bonus);
        }
      }
      break;
    }
    case 'passed':
      state.undo = [];
      break;
    case 'contract_market_refilled': {
      const filled = event.market.filter((c, i) => c != null && view.contract_market[i] == null).length;
      view.contract_market = event.market;
      view.contract_deck = Math.max(0, view.contract_deck - filled);
      break;
    }
    case 'reshuffled':
      // The deck only reshuffles when empty: the cards it still held were drawn just before, by the
      // refill or draw that follows, so count them in and let that subtract all it drew.
      view.number_deck += event.deck;
      view.discard_pile = 0;
      break;
    case 'number_market_refilled': {
      const filled = event.market.filter((c, i) => c != null && view.number_market[i] == null).length;
      view.number_market = event.market;
      view.number_deck = Math.max(0, view.number_deck - filled);
      break;
    }
    case 'drew':
      seat.hand_size += event.count;
      view.number_deck = Math.max(0, view.number_deck - event.count);
      if (event.seat === me && event.cards) view.hand = [...view.hand, ...event.cards];
      break;
    case 'discarded':
      seat.hand_size -= event.count;
      view.discard_pile += event.count;
      if (event.seat === me && event.cards) view.hand = removeCards(view.hand, event.cards);
      break;
    case 'last_round':
      view.last_round = event.started;
      break;
    case 'game_over':
      view.phase = { state: 'over', ended_by: event.result.ended_by };
      view.result = event.result;
      break;
    default:
      break;
  }
  rescore(view);
}

/** Recounts the scores as the rule book adds them up (§5), from what the view shows. @param {View} view */
export function rescore(view) {
  /** @type {Record<string, number | null>} */
  const leaders = {};
  for (const trophy of view.trophies) {
    const counts = view.seats.map((s) => trophyCount(trophy, s.contracts));
    const best = Math.max(...counts);
    const holders = counts.filter((n) => n === best).length;
    leaders[trophy] = best > 0 && holders === 1 ? counts.indexOf(best) : null;
  }
  view.trophy_leaders = leaders;
  const me = mySeat(view);
  for (const s of view.seats) {
    const contracts = s.contracts.reduce((n, id) => n + contract(id).score, 0);
    const trophies = view.trophies.filter((t) => leaders[t] === s.seat).reduce((n, t) => n + TROPHIES[t].points, 0);
    const star = s.star_used ? 0 : 1;
    const score = { contracts, trophies, star, public_total: contracts + trophies + star };
    if (s.seat === me && view.suit_bonus) {
      score.suit_bonus = view.suit_bonus.length;
      score.total = score.public_total + score.suit_bonus;
    }
    const final = view.result?.scores?.find((r) => r.seat === s.seat);
    s.score = final
      ? {
          contracts: final.contracts,
          trophies: final.trophies,
          star: final.star,
          public_total: final.contracts + final.trophies + final.star,
          suit_bonus: final.suit_bonus,
          total: final.total,
        }
      : score;
  }
}
