// Turn clocks (docs/protocol.md, `create_table`'s `clock` and the `clocks` message): the presets the
// create form offers, the words for a table's clock, and the countdown of a `clocks` message. The server
// counts the time and decides when a seat is out of it; the page only counts down from what it was told.

/** The server's presets (protocol.rs `Clock::RELAXED`, `NORMAL`, `FAST`). */
export const CLOCK_PRESETS = [
  { id: 'relaxed', name: 'Relaxed', turn_ms: 90_000, reserve_ms: 300_000 },
  { id: 'normal', name: 'Normal', turn_ms: 45_000, reserve_ms: 120_000 },
  { id: 'fast', name: 'Fast', turn_ms: 20_000, reserve_ms: 60_000 },
];

/** A duration for people: "45 s", "2 min", "1 min 30 s". */
export function spanWords(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
}

/** "45 s a turn + 2 min reserve" */
export function clockTimes(clock) {
  return `${spanWords(clock.turn_ms)} a turn + ${spanWords(clock.reserve_ms)} reserve`;
}

/** A table's clock in words: "Normal: 45 s a turn + 2 min reserve", or that it has none. */
export function clockWords(clock) {
  if (!clock) return 'No clock: a friendly table';
  const preset = CLOCK_PRESETS.find((p) => p.turn_ms === clock.turn_ms && p.reserve_ms === clock.reserve_ms);
  return `${preset ? preset.name : 'Clock'}: ${clockTimes(clock)}`;
}

/** A countdown for people: "0:42", "12:05". */
export function countdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The clocks of a `clocks` message, `elapsed` ms after it arrived: for each seat what is left of its
 * reserve, and for the seat to act what is left of its turn (the turn runs out first, then the reserve).
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
