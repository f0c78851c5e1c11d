// @ts-check
// A small replayer of `romirami-record/1` records (docs/rules/record-format.md), for the replay of a
// finished game: it deals the initial decks as §2 says, plays the log's moves as §3 and §4 say (the
// take empties the first slot holding each card, refills fill the empty slots lowest first from the
// top of the deck, a reshuffle takes the record's next `shuffle` order), and gives the whole state —
// every hand, since the game is over — after each move, with the events each move made, in the
// protocol's words (docs/protocol.md section 7) so the game log can tell them. It trusts the record:
// the server verified the game; the rules engine stays on the server.

import { contract, trophyCount, TROPHIES } from './rules-data.js';
import { removeCards } from './multiset.js';

/**
 * @typedef {object} Entry
 * @property {number} [seat]
 * @property {string[]} [take]
 * @property {number} [complete]
 * @property {string[]} [cards]
 * @property {boolean} [star]
 * @property {boolean} [pass]
 * @property {string[]} [discard]
 * @property {string[]} [shuffle]
 */
/**
 * @typedef {object} GameRecord
 * @property {string} format
 * @property {string} id
 * @property {{seat: number, name: string}[]} players
 * @property {number} first_player
 * @property {string[]} trophies
 * @property {string[]} number_deck
 * @property {number[]} contract_deck
 * @property {Entry[]} log
 * @property {import('./widgets.js').Result} result
 */
/** @typedef {{hand: string[], bonus: string[], contracts: number[], star: boolean}} SeatState */
/**
 * @typedef {object} ReplayState the game after a move, all of it
 * @property {(string | null)[]} market
 * @property {(number | null)[]} contracts
 * @property {string[]} deck
 * @property {number[]} contractDeck
 * @property {number} discard
 * @property {SeatState[]} seats
 * @property {{seat: number, step: string} | null} toAct
 * @property {boolean} lastRound
 */
/** @typedef {{state: ReplayState, events: any[], seat: number | null}} Step */

const TARGET = { 2: 7, 3: 6, 4: 5 };

/** @param {ReplayState} s */
const clone = (s) => structuredClone(s);

/**
 * Every step of a record: the deal, then the state after each move.
 * @param {GameRecord} record
 * @returns {Step[]}
 */
export function replay(record) {
  if (record.format !== 'romirami-record/1') throw new Error(`not a romirami-record/1 record: ${record.format}`);
  const players = record.players.length;
  const target = TARGET[/** @type {2 | 3 | 4} */ (players)];
  const deck = [...record.number_deck];
  const contractDeck = [...record.contract_deck];
  /** @type {SeatState[]} */
  const seats = [];
  for (let i = 0; i < players; i += 1) seats.push({ hand: deck.splice(0, 3), bonus: [], contracts: [], star: false });
  /** @type {ReplayState} */
  const s = {
    market: deck.splice(0, 6),
    contracts: contractDeck.splice(0, 4),
    deck,
    contractDeck,
    discard: 0,
    seats,
    toAct: { seat: record.first_player, step: 'take' },
    lastRound: false,
  };
  /** @type {string[]} the discard pile's cards */
  let pile = [];
  const shuffles = record.log.filter((e) => e.shuffle).map((e) => /** @type {string[]} */ (e.shuffle));
  /** @type {Step[]} */
  const steps = [
    { state: clone(s), events: [{ type: 'to_act', seat: record.first_player, step: 'take' }], seat: null },
  ];
  /** @type {any[]} */
  let events = [];

  const draw = () => {
    if (!s.deck.length && pile.length) {
      const order = shuffles.shift();
      if (!order) throw new Error('a reshuffle has no shuffle entry');
      s.deck = [...order];
      pile = [];
      events.push({ type: 'reshuffled', deck: s.deck.length });
    }
    return s.deck.shift() ?? null;
  };
  const refillNumbers = () => {
    let changed = false;
    for (let i = 0; i < s.market.length; i += 1) {
      if (s.market[i] != null) continue;
      const card = draw();
      if (card == null) break;
      s.market[i] = card;
      changed = true;
    }
    if (changed) events.push({ type: 'number_market_refilled', market: [...s.market] });
  };
  const refillContracts = () => {
    let changed = false;
    for (let i = 0; i < s.contracts.length; i += 1) {
      if (s.contracts[i] == null && s.contractDeck.length) {
        s.contracts[i] = /** @type {number} */ (s.contractDeck.shift());
        changed = true;
      }
    }
    if (changed) events.push({ type: 'contract_market_refilled', market: [...s.contracts] });
  };
  /** @param {number} seat */
  const endTurn = (seat) => {
    const next = (seat + 1) % players;
    if (next === record.first_player && s.lastRound) s.toAct = null;
    else if (s.market.every((c) => c == null) || s.contracts.every((c) => c == null)) s.toAct = null;
    else s.toAct = { seat: next, step: 'take' };
    events.push(s.toAct ? { type: 'to_act', ...s.toAct } : { type: 'game_over', result: record.result });
  };

  for (const entry of record.log) {
    if (entry.shuffle) continue;
    const seat = /** @type {number} */ (entry.seat);
    const me = s.seats[seat];
    events = [];
    if (entry.take) {
      for (const card of entry.take) {
        const slot = s.market.indexOf(card);
        if (slot < 0) throw new Error(`${card} is not in the market`);
        s.market[slot] = null;
      }
      me.hand.push(...entry.take);
      events.push({ type: 'took', seat, cards: entry.take });
      s.toAct = { seat, step: 'contracts' };
    } else if (entry.complete != null) {
      const c = contract(entry.complete);
      const cards = entry.cards ?? [];
      me.hand = removeCards(me.hand, cards);
      const bonus = cards.filter((card) => card.slice(1) === c.suit);
      me.bonus.push(...bonus);
      pile.push(...removeCards(cards, bonus));
      me.contracts.push(entry.complete);
      if (entry.star) me.star = true;
      s.contracts[s.contracts.indexOf(entry.complete)] = null;
      events.push({ type: 'completed', seat, contract: entry.complete, cards, star: Boolean(entry.star) });
      if (!s.lastRound && me.contracts.length >= target) {
        s.lastRound = true;
        events.push({ type: 'last_round', started: true });
      }
    } else if (entry.pass) {
      events.push({ type: 'passed', seat });
      refillContracts();
      refillNumbers();
      if (me.hand.length > 10) {
        s.toAct = { seat, step: 'discard' };
        events.push({ type: 'to_act', ...s.toAct });
      } else {
        if (me.hand.length < 3) {
          const drawn = [];
          for (let n = me.hand.length; n < 3; n += 1) {
            const card = draw();
            if (card == null) break;
            drawn.push(card);
          }
          if (drawn.length) {
            me.hand.push(...drawn);
            events.push({ type: 'drew', seat, count: drawn.length, cards: drawn });
          }
        }
        endTurn(seat);
      }
    } else if (entry.discard) {
      me.hand = removeCards(me.hand, entry.discard);
      pile.push(...entry.discard);
      events.push({ type: 'discarded', seat, count: entry.discard.length, cards: entry.discard });
      refillNumbers();
      endTurn(seat);
    }
    s.discard = pile.length;
    steps.push({ state: clone(s), events, seat });
  }
  if (record.result?.ended_by === 'abandoned') {
    steps[steps.length - 1].events.push({ type: 'game_over', result: record.result });
  }
  return steps;
}

/**
 * A step as the table page's view (docs/protocol.md section 4), every hand in `hands`, for the parts of
 * the table page to draw.
 * @param {GameRecord} record
 * @param {ReplayState} s
 * @param {boolean} last whether this is the game's last step
 * @returns {import('./games/romi-rami/state.js').View}
 */
export function viewOf(record, s, last) {
  const leaders = /** @type {Record<string, number | null>} */ ({});
  for (const trophy of record.trophies) {
    const counts = s.seats.map((seat) => trophyCount(trophy, seat.contracts));
    const best = Math.max(...counts);
    leaders[trophy] = best > 0 && counts.filter((n) => n === best).length === 1 ? counts.indexOf(best) : null;
  }
  const seats = s.seats.map((seat, i) => {
    const contracts = seat.contracts.reduce((n, id) => n + contract(id).score, 0);
    const trophies = record.trophies.filter((tr) => leaders[tr] === i).reduce((n, tr) => n + TROPHIES[tr].points, 0);
    const star = seat.star ? 0 : 1;
    const publicTotal = contracts + trophies + star;
    return {
      seat: i,
      contracts: seat.contracts,
      hand_size: seat.hand.length,
      star_used: seat.star,
      score: {
        contracts,
        trophies,
        star,
        public_total: publicTotal,
        suit_bonus: seat.bonus.length,
        total: publicTotal + seat.bonus.length,
      },
    };
  });
  return {
    viewer: 'spectator',
    phase:
      s.toAct && !last
        ? { state: 'playing', seat: s.toAct.seat, step: s.toAct.step }
        : { state: 'over', ended_by: record.result.ended_by },
    first_player: record.first_player,
    last_round: s.lastRound,
    contract_target: TARGET[/** @type {2 | 3 | 4} */ (record.players.length)],
    trophies: record.trophies,
    trophy_leaders: leaders,
    number_market: s.market,
    contract_market: s.contracts,
    number_deck: s.deck.length,
    contract_deck: s.contractDeck.length,
    discard_pile: s.discard,
    seats,
    result: last ? record.result : undefined,
    event_count: 0,
    hands: s.seats.map((seat) => seat.hand),
    bonuses: s.seats.map((seat) => seat.bonus),
  };
}
