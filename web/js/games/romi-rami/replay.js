// @ts-check
// Romi Rami in the replay viewer (replay-page.js): its record (GET /api/games/<id>/record) is replayed in the
// browser (replayer.js) and each step drawn with the table page's own parts (the players, the markets), every
// hand shown since the game is over.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { getRecord } from '../../api.js';
import { numberCard } from '../../cards-ui.js';
import { describe } from '../../game-log.js';
import { sortCards } from '../../rules-data.js';
import { replay, viewOf } from '../../replayer.js';
import { playersPanel } from './seats.js';
import { board } from './market.js';
import { scoreTable, aheadAt } from '../../widgets.js';
import { readOnly } from '../../replay-ctx.js';

/**
 * The replay of a finished Romi Rami game.
 * @param {string} id
 * @param {(seat: number) => string} nameOf
 * @param {() => void} redraw
 * @returns {Promise<import('../../replay-page.js').ReplayBoard>}
 */
export async function loadReplay(id, nameOf, redraw) {
  /** @type {import('../../replayer.js').GameRecord} */
  const record = await getRecord(id);
  const steps = replay(record);
  const last = steps.length - 1;

  /** The table page's context for a step: nothing is anyone's to play. @param {any} v */
  const ctxOf = (v) =>
    /** @type {any} */ ({
      st: {
        result: v.result ?? null,
        sel: { market: new Set(), hand: new Set(), contract: null, star: false },
        clocks: null,
        log: [],
      },
      ...readOnly(id, nameOf),
      view: () => v,
      legalOf: () => [],
      sortedHand: () => [],
      selectedMarketCards: () => [],
      selectedHandCards: () => [],
      draw: redraw,
      clearSelection: () => {},
      toggle: () => {},
      leave: () => {},
      reclaim: () => {},
      sit: () => {},
    });

  return {
    steps: steps.length,
    seatOf: (n) => steps[n].seat,
    lines: (n) =>
      steps[n].events
        .map((event) => describe(event, nameOf, null))
        .filter((line) => line != null)
        .map((line) => /** @type {import('../../game-log.js').Line} */ (line)),
    entryLine,
    view: (n) => viewOf(record, steps[n].state, n === last),
    draw: (n) => {
      const v = viewOf(record, steps[n].state, n === last);
      const ctx = ctxOf(v);
      const hands = v.seats.map((/** @type {any} */ s) =>
        h(
          'section.replay-hand',
          { 'data-seat': s.seat },
          h(
            'h2.label',
            t('replay.hand', { name: nameOf(s.seat) }),
            ' · ',
            t('replay.bonus', { n: v.bonuses?.[s.seat]?.length ?? 0 }),
          ),
          h(
            'div.hand',
            sortCards(v.hands?.[s.seat] ?? []).map((/** @type {string} */ code) => numberCard(code)),
          ),
        ),
      );
      const result = v.result
        ? h(
            'section.card-panel.end',
            scoreTable({ ...v.result, winners: v.result.ended_by === 'abandoned' ? [] : v.result.winners }, nameOf),
            h('p.muted', aheadAt(v.result).map(nameOf).join(', ')),
          )
        : null;
      return { top: [result], main: [playersPanel(ctx), board(ctx), ...hands], side: [] };
    },
  };

  /**
   * A log entry of the record (an action) as a log line: what the analysis says was played, or would have been.
   * @param {any} entry
   */
  function entryLine(entry) {
    const seat = entry.seat;
    const event = entry.take
      ? { type: 'took', seat, cards: entry.take }
      : entry.complete != null
        ? { type: 'completed', seat, contract: entry.complete, cards: entry.cards ?? [], star: Boolean(entry.star) }
        : entry.pass
          ? { type: 'passed', seat }
          : entry.discard
            ? { type: 'discarded', seat, cards: entry.discard, count: entry.discard.length }
            : null;
    return event ? describe(event, nameOf, null) : null;
  }
}
