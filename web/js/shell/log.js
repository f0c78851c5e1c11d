// @ts-check
// The game log: every event in words (game-log.js), with the page's own lines (who lost their
// connection, left, ran out of time or came back, as the server's `presence` messages say; the
// connection). Lines are kept as events and message keys, and put into words
// when drawn, so a language switch rewrites the whole log. After a reload, a re-entry or for a late
// spectator the log is rebuilt from the events the server replays to a `join` or `watch` with `since`
// (protocol section 9): at most its catch-up limit of 500, the game's latest events.

import { h } from '../dom.js';
import { t, tParts } from '../i18n.js';
import { sentence } from '../cards-ui.js';
import { describe, plain } from '../game-log.js';
import { cardLabel } from '../rules-data.js';

/** The log keeps this many lines; a rebuilt log starts this many events before the view. */
const LOG_CAP = 1000;

/** @typedef {import('./state.js').LogEntry} LogEntry */

/**
 * A line in words.
 * @param {import('./state.js').Ctx} ctx
 * @param {LogEntry} entry
 * @returns {import('../game-log.js').Line | null}
 */
export function lineOf(ctx, entry) {
  if (entry.event) return (ctx.describe ?? describe)(entry.event, ctx.who, ctx.mySeat());
  return { kind: entry.kind, parts: tParts(/** @type {string} */ (entry.key), entry.params ?? {}) };
}

/**
 * A line as plain text (screen readers, the test hook).
 * @param {import('./state.js').Ctx} ctx
 * @param {LogEntry} entry
 */
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

/**
 * A page's own line.
 * @param {import('./state.js').Ctx} ctx
 * @param {string} kind
 * @param {string} key
 * @param {Record<string, any>} [params]
 */
export function note(ctx, kind, key, params = {}) {
  addLine(ctx, { kind, key, params });
}

/**
 * After a fresh view: asks the server for the events before it (`history`, protocol section 14), page by page,
 * to write the log's first lines — as many as the log keeps.
 * @param {import('./state.js').Ctx} ctx
 * @param {(from: number) => void} ask sends the `history` request for the events from `from` on
 */
export function askHistory(ctx, ask) {
  const { st } = ctx;
  const upTo = st.eventCount;
  if (st.history !== null || upTo <= 1) return;
  const from = Math.max(0, upTo - LOG_CAP);
  st.history = { upTo, from, next: from, lines: [] };
  ask(from);
}

/**
 * A page of replayed events: kept until every event before the view has come, then they become the log's first
 * lines; otherwise the next page is asked for.
 * @param {import('./state.js').Ctx} ctx @param {{n: number, event: any}[]} events
 * @param {(from: number) => void} ask
 */
export function takeHistory(ctx, events, ask) {
  const { st } = ctx;
  const history = st.history;
  if (!history || history.done) return;
  const asked = history.next;
  for (const { n, event } of events) {
    // An event the log has, or one past the view (the game went on meanwhile), is not taken; a gap (events
    // taken back while the pages came) is stepped over.
    if (n < history.next || n >= history.upTo) continue;
    history.lines.push({ kind: '', event, n });
    history.next = n + 1;
  }
  // The next page only when this one brought the log forward: a page that brings nothing new ends the
  // paging (asking for the same page again would ask for ever, redrawing the table at each answer).
  if (history.next > asked && history.next < history.upTo) {
    ask(history.next);
    return;
  }
  const cut = history.from > 0 ? [{ kind: 'turn', key: 'log.earlier' }] : [];
  st.log = [...cut, ...history.lines, ...st.log.filter((e) => !e.placeholder)];
  history.lines = [];
  history.done = true;
}

/**
 * Who plays the reader's own seat, as the table summary tells (`bots`): the bot taking it over or
 * handing it back is said in the log. The other seats' comings and goings come as `presence`
 * messages ([`presenceLine`]).
 * @param {import('./state.js').Ctx} ctx
 * @param {import('./state.js').Summary | null} before
 * @param {import('./state.js').Summary} after
 */
export function presence(ctx, before, after) {
  const { st } = ctx;
  const seat = ctx.mySeat();
  if (!before?.bots || !after.bots || !st.gs || st.result || seat == null) return;
  const bot = after.bots[seat];
  if (bot !== before.bots[seat]) note(ctx, 'alert', bot ? 'log.botForMe' : 'log.mineAgain');
}

/** @type {Record<string, string>} */
const PRESENCE_KEYS = {
  disconnected: 'log.disconnected',
  left: 'log.left',
  out_of_time: 'log.outOfTime',
  back: 'log.back',
};

/**
 * Another seat's player came or went (a `presence` message, protocol section 11b): said in the log.
 * @param {import('./state.js').Ctx} ctx
 * @param {{seat: number, presence: string, change: string}} msg
 */
export function presenceLine(ctx, msg) {
  const key = PRESENCE_KEYS[msg.change];
  if (key && msg.seat !== ctx.mySeat()) note(ctx, 'alert', key, { name: ctx.nameOf(msg.seat) });
}

/** The log's panel. @param {import('./state.js').Ctx} ctx */
export function logPanel(ctx) {
  const lines = ctx.st.log.map((e) => lineOf(ctx, e)).filter((l) => l != null);
  return h(
    'section.log',
    { 'aria-labelledby': 'log-title' },
    h('h2.label', { id: 'log-title' }, t('log.title')),
    h(
      'ol',
      { tabindex: '0', 'aria-label': t('log.title') },
      lines.map((l) => h('li', { class: /** @type {any} */ (l).kind }, sentence(/** @type {any} */ (l).parts))),
    ),
  );
}
