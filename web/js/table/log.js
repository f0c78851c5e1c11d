// @ts-check
// The game log: every event in words (game-log.js), with the page's own lines (who left, ran out of
// time or came back; the connection). Lines are kept as events and message keys, and put into words
// when drawn, so a language switch rewrites the whole log. After a reload, a re-entry or for a late
// spectator the log is rebuilt from the events the server replays to a `join` or `watch` with `since`
// (protocol section 9): at most its catch-up limit of 500, the game's latest events.

import { h } from '../dom.js';
import { t, tParts } from '../i18n.js';
import { sentence } from '../cards-ui.js';
import { describe, plain } from '../game-log.js';
import { cardLabel } from '../rules-data.js';

/** The server replays at most this many events to a `join` or `watch` (protocol section 14). */
export const CATCH_UP_LIMIT = 500;
const LOG_CAP = 1000;

/** @typedef {import('./state.js').LogEntry} LogEntry */

/**
 * A line in words.
 * @param {import('./state.js').Ctx} ctx
 * @param {LogEntry} entry
 * @returns {import('../game-log.js').Line | null}
 */
export function lineOf(ctx, entry) {
  if (entry.event) return describe(entry.event, ctx.who, ctx.mySeat());
  return { kind: entry.kind, parts: tParts(/** @type {string} */ (entry.key), entry.params ?? {}) };
}

/** A line as plain text (screen readers, the test hook). @param {import('./state.js').Ctx} ctx @param {LogEntry} entry */
export function lineText(ctx, entry) {
  const line = lineOf(ctx, entry);
  return line ? plain(line, cardLabel, (id) => t('contract.token', { id })) : '';
}

/** Adds a line. @param {import('./state.js').Ctx} ctx @param {LogEntry} entry */
export function addLine(ctx, entry) {
  const { log } = ctx.st;
  log.push(entry);
  if (log.length > LOG_CAP) log.splice(0, log.length - LOG_CAP);
}

/** A page's own line. @param {import('./state.js').Ctx} ctx @param {string} kind @param {string} key @param {Record<string, any>} [params] */
export function note(ctx, kind, key, params = {}) {
  addLine(ctx, { kind, key, params });
}

/**
 * After a fresh view: asks the server once for the events before it, to write the log's first lines.
 * @param {import('./state.js').Ctx} ctx
 * @param {(since: number) => void} ask sends the `join` or `watch` with `since`
 */
export function askHistory(ctx, ask) {
  const { st } = ctx;
  const upTo = st.eventCount;
  if (st.history !== null || upTo <= 1) return;
  st.history = { upTo, from: Math.max(0, upTo - CATCH_UP_LIMIT) };
  ask(st.history.from);
}

/** The replayed events before the view become the log's first lines. @param {import('./state.js').Ctx} ctx @param {{n: number, event: any}[]} events */
export function takeHistory(ctx, events) {
  const { st } = ctx;
  const history = /** @type {NonNullable<typeof st.history>} */ (st.history);
  /** @type {LogEntry[]} */
  const lines = events.filter(({ n }) => n < history.upTo).map(({ n, event }) => ({ kind: '', event, n }));
  const cut = history.from > 0 ? [{ kind: 'turn', key: 'log.earlier' }] : [];
  st.log = [...cut, ...lines, ...st.log.filter((e) => !e.placeholder)];
  history.done = true;
}

/**
 * Who plays each seat, as the table summary tells (`bots`): a seat the bot takes over or hands back is
 * said in the log.
 * @param {import('./state.js').Ctx} ctx
 * @param {import('./state.js').Summary | null} before
 * @param {import('./state.js').Summary} after
 */
export function presence(ctx, before, after) {
  const { st } = ctx;
  if (!before?.bots || !after.bots || !st.gs || st.result) return;
  after.bots.forEach((bot, seat) => {
    if (bot === before.bots?.[seat] || ctx.isBotPlayer(seat)) return;
    const name = ctx.nameOf(seat);
    if (seat === ctx.mySeat()) note(ctx, 'alert', bot ? 'log.botForMe' : 'log.mineAgain');
    else if (!bot) note(ctx, 'alert', 'log.back', { name });
    else note(ctx, 'alert', st.clocks?.reserves_ms?.[seat] === 0 ? 'log.outOfTime' : 'log.left', { name });
  });
}

/** The log's panel. @param {import('./state.js').Ctx} ctx */
export function logPanel(ctx) {
  const lines = ctx.st.log.map((e) => lineOf(ctx, e)).filter((l) => l != null);
  return h('section.log', { 'aria-labelledby': 'log-title' },
    h('h2.label', { id: 'log-title' }, t('log.title')),
    h('ol', { tabindex: '0', 'aria-label': t('log.title') },
      lines.map((l) => h('li', { class: /** @type {any} */ (l).kind }, sentence(/** @type {any} */ (l).parts)))));
}
