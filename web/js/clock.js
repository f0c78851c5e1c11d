// @ts-check
// Turn clocks (docs/protocol.md, `create_table`'s `clock` and the `clocks` message): the presets the
// create form offers, the words for a table's clock, and the countdown of a `clocks` message. The server
// counts the time and decides when a seat is out of it; the page only counts down from what it was told.

import { t } from './i18n.js';

/** @typedef {{turn_ms: number, reserve_ms: number}} Clock */
/** @typedef {{to_act?: number | null, turn_ms: number, reserves_ms: number[]}} ClocksMsg */

const DAY = 86_400_000;

/**
 * The server's presets (protocol.rs `Clock::RELAXED`, `NORMAL`, `FAST`, `DAILY`) and a slower turn-based one. A
 * turn longer than ten minutes makes a table turn-based: played over days, each turn pushed to its player.
 */
export const CLOCK_PRESETS = [
  { id: 'relaxed', turn_ms: 90_000, reserve_ms: 300_000 },
  { id: 'normal', turn_ms: 45_000, reserve_ms: 120_000 },
  { id: 'fast', turn_ms: 20_000, reserve_ms: 60_000 },
  { id: 'daily', turn_ms: DAY, reserve_ms: 2 * DAY },
  { id: 'threeDays', turn_ms: 3 * DAY, reserve_ms: 3 * DAY },
];

/** Whether a table with this clock is turn-based (protocol.rs `Clock::is_turn_based`). @param {Clock | null | undefined} clock */
export const isTurnBased = (clock) => !!clock && clock.turn_ms > 600_000;

/** A preset's name: "Relaxed". @param {string} id */
export const presetName = (id) => t(`clock.${id}`);

/** A duration for people: "45 s", "2 min", "1 min 30 s". @param {number} ms */
export function spanWords(ms) {
  const s = Math.round(ms / 1000);
  if (s >= 86_400) {
    const d = Math.floor(s / 86_400);
    const h = Math.floor((s % 86_400) / 3600);
    return h ? t('clock.dH', { d, h }) : t('clock.d', { d });
  }
  if (s >= 3600) {
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return m ? t('clock.hMin', { h, m }) : t('clock.h', { h });
  }
  if (s < 60) return t('clock.s', { s });
  const m = Math.floor(s / 60);
  return s % 60 ? t('clock.minS', { m, s: s % 60 }) : t('clock.min', { m });
}

/** "45 s a turn + 2 min reserve" @param {Clock} clock */
export function clockTimes(clock) {
  return t('clock.times', { turn: spanWords(clock.turn_ms), reserve: spanWords(clock.reserve_ms) });
}

/**
 * A table's clock in words: "Normal: 45 s a turn + 2 min reserve", or that it has none.
 * @param {Clock | null | undefined} clock
 */
export function clockWords(clock) {
  if (!clock) return t('clock.none');
  const preset = CLOCK_PRESETS.find((p) => p.turn_ms === clock.turn_ms && p.reserve_ms === clock.reserve_ms);
  return t('clock.words', { name: presetName(preset ? preset.id : 'clock'), times: clockTimes(clock) });
}

/** A countdown for people: "0:42", "12:05". @param {number} ms */
export function countdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  // A turn-based table's turn lasts days: its countdown says days and hours, or hours and minutes.
  if (s >= 3600) return spanWords(s * 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The clocks of a `clocks` message, `elapsed` ms after it arrived: for each seat what is left of its
 * reserve, and for the seat to act what is left of its turn (the turn runs out first, then the reserve).
 * @param {ClocksMsg} msg
 * @param {number} elapsed
 * @returns {{toAct: number | null, turn: number | null, reserves: number[]}}
 */
export function clocksAt(msg, elapsed) {
  const reserves = [...msg.reserves_ms];
  let turn = null;
  if (msg.to_act != null) {
    turn = Math.max(0, msg.turn_ms - elapsed);
    const overrun = Math.max(0, elapsed - msg.turn_ms);
    reserves[msg.to_act] = Math.max(0, (reserves[msg.to_act] ?? 0) - overrun);
  }
  return { toAct: msg.to_act ?? null, turn, reserves };
}
