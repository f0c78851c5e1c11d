// @ts-check
// The three games' views (RommiView, RamiView, RuminoView: crates/rummy/src/*/view.rs) in one shape the
// page draws: whose turn and which step, the hand, the stock, the discard pile, the melds, the totals, the
// last round's scores, the match's result.

/**
 * @typedef {object} Placed @property {string} card @property {number} owner @property {string} rank
 * @property {number | null} position
 */
/** @typedef {{id: number, owner: number, kind: any, cards: Placed[], joker: string | null}} Meld */
/** @typedef {{seat: number, score: number, parts: Record<string, number | boolean>, cards?: string[]}} RoundRow */
/**
 * @typedef {object} RoundShown a round's scores as the table shows them after it
 * @property {number} number
 * @property {string} endedBy out, stock, blocked, knock, gin, rumino
 * @property {number | null} by who went out, knocked or declared
 * @property {boolean} ramiSec rami §9: went out in one go
 * @property {number} multiplier
 * @property {RoundRow[]} rows
 * @property {string[] | null} rumino the seven cards of a rumino
 */
/**
 * @typedef {object} Model
 * @property {string} game
 * @property {number} round
 * @property {number} dealer
 * @property {number | null} toAct
 * @property {string | null} step draw, play (Rommi, Rami); pick, discard, rebuy (Rumino)
 * @property {string[] | null} hand
 * @property {number[]} handSizes
 * @property {number} stock
 * @property {string[]} pile bottom first
 * @property {Meld[]} melds
 * @property {number[]} totals
 * @property {{opened?: boolean, carte?: boolean, out?: boolean, rebuys?: number}[]} seats
 * @property {RoundShown | null} last
 * @property {RoundShown[]} rounds every round scored (Rami); the last one otherwise
 * @property {{ended_by: string, winners: number[], totals?: number[]} | null} result
 * @property {number | null} threshold the opening's points (rami §6), while the reader has not opened
 * @property {number | null} deadwood the reader's deadwood (rumino §4)
 * @property {boolean} splayed whether any pile card may be taken with those above it (rommi 500, §6.1 c)
 * @property {Record<string, any>} options
 */

/** @param {any} r @param {string} kind */
function rommiRound(r, kind) {
  return {
    number: 0,
    endedBy: r.ended_by,
    by: r.out ?? null,
    ramiSec: false,
    multiplier: 1,
    rumino: null,
    rows: r.scores.map((/** @type {any} */ s) => ({
      seat: s.seat,
      score: s.score,
      parts:
        kind === 'rami' ? { hand: s.hand, penalty: s.penalty, opened: s.opened } : { hand: s.hand, melded: s.melded },
    })),
  };
}

/** @param {string} game @param {any} v @param {number | null} me @returns {Model} */
export function model(game, v, me) {
  if (game === 'rumino') {
    // The hand shown is the one before the hand dealt since, unless the match ended or a rebuy is asked.
    const last = v.last_end
      ? {
          number: v.outcome || v.step === 'rebuy' ? v.hand_number : v.hand_number - 1,
          endedBy: v.last_end.ended_by,
          by: v.last_end.by,
          ramiSec: false,
          multiplier: 1,
          rumino: v.last_end.rumino ?? null,
          rows: v.last_end.hands.map((/** @type {any} */ s) => ({
            seat: s.seat,
            score: s.score,
            parts: { deadwood: s.deadwood },
            cards: s.cards,
          })),
        }
      : null;
    return {
      game,
      round: v.hand_number,
      dealer: v.dealer,
      toAct: v.to_act ?? null,
      step: v.step ?? null,
      hand: v.hand ?? null,
      handSizes: v.seats.map((/** @type {any} */ s) => s.hand_size),
      stock: v.stock,
      pile: v.discard_pile,
      melds: [],
      totals: v.seats.map((/** @type {any} */ s) => s.total),
      seats: v.seats.map((/** @type {any} */ s) => ({ out: !s.is_in, rebuys: s.rebuys })),
      last,
      rounds: last ? [last] : [],
      result: v.outcome ? { ...v.outcome, totals: v.seats.map((/** @type {any} */ s) => s.total) } : null,
      threshold: null,
      deadwood: v.deadwood ?? null,
      splayed: false,
      options: {},
    };
  }
  if (game === 'rami') {
    const rounds = v.rounds.map((/** @type {any} */ r) => {
      const shown = rommiRound(r.result, 'rami');
      const penalty = (/** @type {number} */ seat) =>
        r.result.scores.find((/** @type {any} */ s) => s.seat === seat)?.penalty ?? 0;
      const rowCards = (/** @type {RoundRow} */ row) => ({
        ...row,
        score: penalty(row.seat),
        cards: r.hands[row.seat],
      });
      return {
        ...shown,
        number: r.number,
        ramiSec: r.result.rami_sec,
        multiplier: r.result.multiplier,
        rows: shown.rows.map(rowCards),
      };
    });
    const opened = me != null && v.opened[me];
    return {
      game,
      round: v.round,
      dealer: v.dealer,
      toAct: v.to_act ?? null,
      step: v.to_act == null ? null : v.drew ? 'play' : 'draw',
      hand: v.hand ?? null,
      handSizes: v.hand_sizes,
      stock: v.stock,
      pile: v.discard_pile,
      melds: v.melds,
      totals: v.totals,
      seats: v.opened.map((/** @type {boolean} */ o, /** @type {number} */ i) => ({ opened: o, carte: v.carte[i] })),
      last: rounds.at(-1) ?? null,
      rounds,
      result: v.result ?? null,
      threshold: me != null && !opened ? v.options.opening : null,
      deadwood: null,
      splayed: false,
      options: v.options,
    };
  }
  const [result, hands] = v.last_round ?? [null, null];
  const last = result ? { ...rommiRound(result, 'rommi'), number: v.result ? v.round : v.round - 1 } : null;
  if (last && hands) last.rows = last.rows.map((row) => ({ ...row, cards: hands[row.seat] }));
  return {
    game,
    round: v.round,
    dealer: v.dealer,
    toAct: v.to_act ?? null,
    step: v.to_act == null ? null : v.step,
    hand: v.hand ?? null,
    handSizes: v.hand_sizes,
    stock: v.stock,
    pile: v.discard_pile,
    melds: v.melds,
    totals: v.totals,
    seats: v.hand_sizes.map(() => ({})),
    last,
    rounds: last ? [last] : [],
    result: v.result ?? null,
    threshold: null,
    deadwood: null,
    splayed: v.options.variant === '500',
    options: v.options,
  };
}
