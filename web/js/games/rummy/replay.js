// @ts-check
// The rummy family (Rommi, Rami, Rumino) in the replay viewer (replay-page.js): the server replays the record
// through the game's rules (GET /api/games/<id>/replay) and sends, for the deal and after each action, the
// game as a spectator saw it, every hand (the game is over) and the events; each step is drawn with the
// table page's own parts (felt.js, panel.js, scores.js) with nothing to play.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { getReplay } from '../../api.js';
import { model } from './model.js';
import { describeRummy } from './words.js';
import { rcard, shortList, short, sortHand } from './cards.js';
import { boardPanel } from './felt.js';
import { playersPanel } from './panel.js';
import { roundPanel, scoresPanel } from './scores.js';
import { readOnly } from '../../replay-ctx.js';

/**
 * The replay of a finished match of the rummy family.
 * @param {string} id
 * @param {(seat: number) => string} nameOf
 * @param {() => void} redraw
 * @returns {Promise<import('../../replay-page.js').ReplayBoard>}
 */
export async function loadReplay(id, nameOf, redraw) {
  /** @type {{game: string, players: number, steps: {seat?: number, entry?: any, view: any, hands: (string[] | null)[], events: any[]}[]}} */
  const replay = await getReplay(id);
  const game = replay.game;
  const models = replay.steps.map((step) => model(game, step.view, null));
  /** The round whose scores the reader closed at this step (the panel shows again at another step). */
  let closed = /** @type {{step: number, round: number} | null} */ (null);

  /** The table page's context for step `n`: nothing is anyone's to play. @param {number} n */
  const ctxOf = (n) => {
    const m = models[n];
    // A round's scores show at the step that ended it, until the reader closes them.
    const before = n > 0 ? models[n - 1].last?.number : null;
    const round = m.last?.number ?? null;
    const fresh = round != null && round !== before && !(closed?.step === n && closed.round === round);
    const st = /** @type {any} */ ({
      gs: m,
      result: n === models.length - 1 ? m.result : null,
      sel: new Set(),
      bySuit: true,
      choice: null,
      choosing: null,
      stale: false,
      seenRound: fresh ? null : round,
      clocks: null,
      pending: null,
      log: [],
    });
    const ctx = /** @type {any} */ ({
      st,
      ...readOnly(id, nameOf),
      game: () => game,
      m: () => m,
      moves: () => [],
      selected: () => [],
      sortedHand: () => [],
      describe: describeRummy,
      draw: () => {
        // The round panel's close button: remember it for this step, then draw again.
        if (st.seenRound != null && round != null) closed = { step: n, round };
        redraw();
      },
    });
    return ctx;
  };

  return {
    steps: replay.steps.length,
    seatOf: (n) => replay.steps[n].seat ?? null,
    lines: (n) =>
      replay.steps[n].events
        .map((event) => describeRummy(event, nameOf, null))
        .filter((line) => line != null)
        .map((line) => /** @type {import('../../game-log.js').Line} */ (line)),
    entryLine,
    view: (n) => ({ ...models[n], hands: replay.steps[n].hands }),
    draw: (n) => {
      const ctx = ctxOf(n);
      const hands = replay.steps[n].hands.map((cards, seat) =>
        h(
          'section.replay-hand.meld-hand',
          { 'data-seat': seat },
          h('h2.label', t('replay.hand', { name: nameOf(seat) }), ` · ${cards?.length ?? 0}`),
          h(
            'div.hand-cards',
            cards?.length ? sortHand(cards, true).map((code) => rcard(code, { small: true })) : h('span.muted', '—'),
          ),
        ),
      );
      return { top: [roundPanel(ctx)], main: [playersPanel(ctx), boardPanel(ctx), ...hands], side: [scoresPanel(ctx)] };
    },
  };

  /**
   * A log entry of the record (an action) as a log line: what the analysis says was played, or would have been.
   * @param {any} e
   * @returns {import('../../game-log.js').Line | null}
   */
  function entryLine(e) {
    /** @param {string} kind @param {string} key @param {Record<string, any>} p */
    const line = (kind, key, p) => ({ kind, parts: [t(key, p)] });
    const who = nameOf(e.seat);
    const meld = (/** @type {any} */ m) => m.cards.map((/** @type {string} */ c) => short(c)).join(' ');
    if (e.draw) return line('', 'rl.drewCard', { who, card: short(e.draw) });
    if (e.take)
      return line('', e.take.length > 1 ? 'rl.tookDeep' : 'rl.took', {
        who,
        card: short(e.take[0]),
        n: e.take.length - 1,
      });
    if (e.meld) return line('good', 'rl.melded', { who, meld: meld(e.meld), id: e.meld.id });
    if (e.open) return line('good', 'rl.opened', { who, melds: e.open.map(meld).join(' · ') });
    if (e.lay_off) return line('', 'rl.laidOff', { who, cards: shortList(e.lay_off.cards), id: e.lay_off.id });
    if (e.exchange) return line('good', 'rl.exchanged', { who, card: short(e.exchange.card), id: e.exchange.id });
    if (e.discard) return line('', e.gin ? 'rl.gin' : 'rl.discarded', { who, card: short(e.discard) });
    if (e.knock) return line('alert', 'rl.knocked', { who });
    if (e.end_round) return line('alert', 'rl.endedRound', { who });
    return null;
  }
}
