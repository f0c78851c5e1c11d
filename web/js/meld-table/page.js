// @ts-check
// The table page of the rummy family (Rommi, Rami, Rumino): joins or watches one table and draws it as the
// server describes it. It shares the Romi Rami table's parts that are not about the game — the waiting
// room and invite link (table/waiting.js), the log (table/log.js, with this family’s words), the chat
// (table/chat.js), the clocks (clock.js, table/seats.js) — and draws the game with its own: the melds and the
// piles (board.js), the players and the moves (panel.js), the scores (scores.js).
//
// The view: these games' events do not carry everything their views hold (where a card laid off sits in a
// run, the turn's state), so the server sends the game's `view` right after each batch of events (protocol
// section 9): the events go into the log, the view in place of the one the page held. The page asks for the
// table only to arrive, to come back after a lost connection, and to take its seat back from the bot.

import { turnTitle, plainTitle } from '../table/title.js';
import { connection } from '../connection.js';
import { rematch } from '../table/rematch.js';
import { h, replace, scrollState, restoreScroll } from '../dom.js';
import { inviteFor, rememberInvite } from '../identity.js';
import { clocksAt, clockWords } from '../clock.js';
import { tickChoice } from './panel.js';
import { explainError } from '../errors.js';
import { t, onLanguage } from '../i18n.js';
import { tickClocks } from '../table/seats.js';
import { logPanel, lineText, note, addLine, askHistory, takeHistory, presence, presenceLine } from '../table/log.js';
import { tableChat } from '../table/chat.js';
import { invitePanel, waitingRoom } from '../table/waiting.js';
import { gameName, optionWords } from '../game-options.js';
import { describeRummy, explainRummy } from './words.js';
import { model } from './model.js';
import { normalize } from './legal.js';
import { sortHand } from './cards.js';
import { boardPanel, handPanel } from './board.js';
import { playersPanel, actionPanel } from './panel.js';
import { roundPanel, scoresPanel } from './scores.js';

const BOT_NAME = /^Bot \d+$/;

/**
 * @param {HTMLElement} root
 * @param {string} tableId
 * @param {URLSearchParams} params
 * @param {any} [first] the `table` message the Romi Rami page received before handing the table over
 */
export function mountMeldTable(root, tableId, params, first) {
  const invite = params.get('invite') || inviteFor(tableId);
  if (params.get('invite')) rememberInvite(tableId, params.get('invite'));
  let mode = params.get('watch') ? 'watch' : 'join';

  /** Whether the player left with the page's own button (nothing to ask before going). */
  let leftOnPurpose = false;
  /** @type {import('./state.js').MeldState} */
  const st = {
    summary: null,
    role: null,
    gs: null,
    legal: null,
    eventCount: 0,
    result: null,
    pending: null,
    error: '',
    notice: '',
    log: [],
    bySuit: true,
    gone: null,
    history: null,
    clocks: null,
    clocksAt: 0,
    choice: null,
    reclaiming: false,
    offline: false,
    announced: null,
    sel: new Set(),
    stale: false,
    seenRound: null,
  };
  const el = h('div.table-page.meld-page');
  const announcer = h('p.sr-only', { 'aria-live': 'polite', id: 'announcer' });
  root.append(el, announcer);

  const mySeat = () => (st.role && typeof st.role === 'object' ? st.role.seat : null);
  const isBot = (/** @type {number | null} */ seat) => seat != null && st.summary?.bots?.[seat] === true;
  const isBotPlayer = (/** @type {number} */ seat) => BOT_NAME.test(st.summary?.seats?.[seat]?.name ?? '');
  const botPlaysForMe = () => mySeat() != null && isBot(mySeat()) && !st.result;
  const nameOf = (/** @type {number} */ seat) => st.summary?.seats?.[seat]?.name ?? t('seat.n', { n: seat + 1 });
  const game = () => st.summary?.game ?? 'rommi';
  const m = () => /** @type {import('./model.js').Model} */ (st.gs);

  /** @type {import('./state.js').MeldCtx} */
  const ctx = {
    st,
    tableId,
    invite,
    mySeat,
    nameOf,
    isBot,
    isBotPlayer,
    botPlaysForMe,
    m,
    game,
    who: (seat) => (seat === mySeat() ? t('you') : nameOf(seat)),
    isStandIn: (seat) => isBot(seat) && !isBotPlayer(seat) && !st.result,
    myTurn: () => st.gs != null && !st.result && st.gs.toAct === mySeat() && mySeat() != null && !botPlaysForMe(),
    moves: () => (ctx.myTurn() && !st.stale ? (st.legal ?? []).map(normalize) : []),
    sortedHand: () => sortHand(st.gs?.hand ?? [], st.bySuit),
    selected: () => {
      const hand = ctx.sortedHand();
      return [...st.sel].sort((a, b) => a - b).map((i) => hand[i]);
    },
    describe: (event, who, me) => describeRummy(event, who, me),
    draw,
    act,
    send: (type, extra = {}) => connection.send({ type, table: tableId, ...extra }),
    leave: () => {
      leftOnPurpose = true;
      connection.send({ type: 'leave', table: tableId });
      location.hash = '#/';
    },
    reclaim: () => {
      st.reclaiming = true;
      takeSeatBack();
      draw();
    },
    sit: () => {
      mode = 'join';
      enter();
    },
    liveClocks: () => (st.clocks && !st.result ? clocksAt(st.clocks, performance.now() - st.clocksAt) : null),
  };
  // The shared parts (waiting room, log, clocks, chat) read only what both tables have.
  const shared = /** @type {any} */ (ctx);
  const chat = tableChat(shared);

  /** @param {string} kind @param {boolean} withSince */
  function request(kind, withSince) {
    /** @type {Record<string, any>} */
    const msg = { type: kind, table: tableId };
    if (invite) msg.invite = invite;
    if (withSince && st.gs) msg.since = st.eventCount;
    connection.send(msg);
  }
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let unanswered;
  const enter = () => {
    request(mode === 'watch' ? 'watch' : 'join', true);
    clearTimeout(unanswered);
    unanswered = setTimeout(() => {
      if (!st.summary && !st.gone) enter();
    }, 4000);
  };
  // Takes the reader's seat back from the bot: a `join` does (protocol section 11).
  const takeSeatBack = () => request('join', false);
  const askFrom = (/** @type {number} */ from) => connection.send({ type: 'history', table: tableId, from });
  // Tries left to find the table on its new server after a `table_moved` (protocol section 13), as table/page.js.
  let moving = 0;
  const mine = (/** @type {any} */ msg) => msg.table === tableId || msg.table?.id === tableId;

  /** The game as the server now shows it to the reader, in place of the one the page held. @param {any} view */
  function takeView(view) {
    const wasPlaying = st.gs != null;
    st.gs = model(game(), view, mySeat());
    st.stale = false;
    st.eventCount = Math.max(st.eventCount, view.event_count ?? 0);
    st.result = st.gs.result;
    if (!wasPlaying) {
      addLine(shared, { kind: 'turn', placeholder: true, key: st.result ? 'log.over' : 'log.underway' });
      askHistory(shared, askFrom);
    }
    if (!ctx.myTurn()) st.legal = null;
  }

  /** @param {any} msg */
  function onTable(msg) {
    const before = st.summary;
    st.summary = msg.table;
    st.role = msg.role;
    // Whoever the server seats as a spectator watches (someone who came by an invite link to a game
    // already under way, say): a later `join` would only be refused.
    if (msg.role === 'spectator') mode = 'watch';
    if (before) presence(shared, before, msg.table);
    if (!botPlaysForMe()) st.reclaiming = false;
    if (msg.view) takeView(msg.view);
    if (!before) note(shared, '', mode === 'watch' || msg.role === 'spectator' ? 'log.watching' : 'log.atTable');
    draw();
  }

  // Playing again once the game is over (section 11c); the page follows the players to the new table.
  const again = rematch({ tableId, invite, mySeat, nameOf, watching: () => mode === 'watch', redraw: () => draw() });
  const offs = [
    ...again.offs,
    connection.on('table', (msg) => {
      if (mine(msg)) onTable(msg);
    }),
    connection.on('history', (msg) => {
      if (!mine(msg) || !st.gs) return;
      takeHistory(shared, msg.events, askFrom);
      draw();
    }),
    connection.on('events', (msg) => {
      if (!mine(msg) || !st.gs) return;
      const lines = [];
      for (const { n, event } of msg.events) {
        if (n < st.eventCount) continue;
        st.eventCount = n + 1;
        const entry = { kind: '', event, n };
        addLine(shared, entry);
        if (event.seat !== mySeat()) lines.push(lineText(shared, entry));
      }
      if (!msg.events.length) return;
      const shown = lines.filter(Boolean);
      if (shown.length) announcer.textContent = shown.join(' ');
      // The view that follows the events (a `view` message) brings the board up to date.
      st.stale = true;
      st.sel.clear();
      st.error = '';
      draw();
    }),
    connection.on('view', (msg) => {
      if (!mine(msg) || !st.summary) return;
      takeView(msg.view);
      draw();
    }),
    connection.on('your_turn', (msg) => {
      if (!mine(msg)) return;
      const seat = mySeat();
      if (seat != null && isBot(seat) && st.summary?.bots) {
        st.summary.bots[seat] = false;
        st.reclaiming = false;
        note(shared, 'alert', 'log.mineAgain');
      }
      st.legal = msg.legal;
      if (st.announced !== String(st.eventCount)) {
        st.announced = String(st.eventCount);
        announcer.textContent = t('rt.yourTurn');
      }
      draw();
    }),
    connection.on('ack', (msg) => {
      if (!mine(msg)) return;
      if (msg.id === st.pending) st.pending = null;
      draw();
    }),
    connection.on('choice', (msg) => {
      if (!mine(msg)) return;
      st.choice = { seat: msg.seat, until: performance.now() + msg.left_ms };
      draw();
    }),
    connection.on('clocks', (msg) => {
      if (!mine(msg)) return;
      st.clocks = msg;
      st.clocksAt = performance.now();
      draw();
    }),
    connection.on('game_over', (msg) => {
      if (!mine(msg)) return;
      st.result = msg.result;
      st.legal = null;
      draw();
    }),
    connection.on('presence', (msg) => {
      if (!mine(msg) || !st.summary) return;
      const summary = /** @type {any} */ (st.summary);
      if (summary.presence) summary.presence[msg.seat] = msg.presence;
      presenceLine(shared, msg);
      draw();
    }),
    connection.on('chat', (msg) => {
      if (mine(msg)) {
        chat.add(msg.lines);
        draw();
      }
    }),
    connection.on('chat_history', (msg) => {
      if (mine(msg)) {
        chat.replace(msg.lines);
        draw();
      }
    }),
    connection.on('muted', (msg) => {
      if (mine(msg)) {
        chat.muted(msg.player, msg.muted);
        draw();
      }
    }),
    connection.on('left', (msg) => {
      if (mine(msg)) {
        st.gone = t('table.gone');
        draw();
      }
    }),
    connection.on('error', (msg) => {
      if (msg.table && msg.table !== tableId) return;
      if (msg.code === 'table_moved' || (moving > 0 && msg.code === 'no_such_table')) {
        if (msg.code === 'table_moved') {
          moving = 15;
          note(shared, 'alert', 'error.table_moved');
          st.pending = null;
          draw();
        }
        moving -= 1;
        if (moving >= 0) setTimeout(() => request(mode === 'watch' ? 'watch' : 'join', true), 1000);
        return;
      }
      if (!st.summary && msg.code === 'already_started' && mode === 'join') {
        mode = 'watch';
        st.notice = t('table.startedWatching');
        enter();
        return;
      }
      const words =
        msg.code === 'illegal_action'
          ? explainRummy(msg.message ?? '')
          : explainError(msg, { watching: mode === 'watch', invite: Boolean(invite), bot: botPlaysForMe() });
      if (
        !st.summary &&
        ['no_such_table', 'spectating_not_allowed', 'already_started', 'table_full'].includes(msg.code)
      ) {
        st.gone = words;
        draw();
        return;
      }
      if (msg.id == null && chat.refused(msg, words)) {
        draw();
        return;
      }
      if (msg.id != null && msg.id === st.pending) st.pending = null;
      st.error = words;
      draw();
      document.getElementById('action-error')?.focus?.();
    }),
    connection.on('reconnected', () => {
      note(shared, 'alert', 'log.reconnected');
      enter();
    }),
    connection.on('status', ({ status }) => {
      const lost = status === 'reconnecting';
      if (lost && !st.offline && st.summary) {
        note(shared, 'alert', 'log.lost');
        st.pending = null;
        draw();
      }
      st.offline = lost;
    }),
    onLanguage(() => draw()),
  ];

  /** @param {any} action the action exactly as the legal list wrote it */
  function act(action) {
    st.error = '';
    const id = connection.act(tableId, action);
    if (id == null) {
      st.error = t('error.offline');
      draw();
      return;
    }
    st.pending = id;
    draw();
  }

  function gameScreen() {
    const summary = /** @type {import('../table/state.js').Summary} */ (st.summary);
    const words = optionWords(summary.game, summary.options);
    return h(
      'div.game.meld-game',
      { class: `game meld-game${st.result ? ' over' : ''}`, 'data-game': game() },
      roundPanel(ctx),
      st.result ? again.panel() : null,
      h('div.game-main', playersPanel(ctx), boardPanel(ctx), handPanel(ctx)),
      h(
        'aside.side',
        actionPanel(ctx),
        scoresPanel(ctx),
        logPanel(shared),
        chat.panel(),
        h(
          'div.table-info',
          h('p.small.game-title', h('strong', gameName(summary.game)), words ? ` · ${words}` : ''),
          h('p.muted.small.table-clock', `${clockWords(summary.clock)}.`),
          h('p.small', h('a', { href: `#/help/${game()}`, target: '_blank', id: 'help-link' }, t('nav.help'))),
          mySeat() == null ? null : h('details.share', h('summary', t('invite.label')), invitePanel(shared)),
          mySeat() == null || st.result
            ? null
            : h(
                'details.leave',
                h('summary', t('leave.summary')),
                h('p.small', t('leave.note')),
                h('button', { type: 'button', id: 'leave-game', onclick: () => ctx.leave() }, t('leave.go')),
              ),
        ),
      ),
    );
  }

  function draw() {
    const focusKey = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.key;
    if (st.gone) {
      replace(
        el,
        h(
          'section.card-panel.gone',
          h('h1', t('table.closed')),
          h('p', st.gone),
          h('a.button.primary', { href: '#/' }, t('table.lobby')),
        ),
      );
    } else if (!st.summary) {
      replace(el, h('p.loading', t('table.joining')));
    } else if (!st.gs) {
      replace(el, waitingRoom(shared));
    } else {
      // The log stays at its newest line, unless its reader scrolled back to read.
      const log = scrollState(el.querySelector('.log ol'));
      replace(el, gameScreen());
      restoreScroll(el.querySelector('.log ol'), log);
    }
    if (focusKey) /** @type {HTMLElement | null} */ (el.querySelector(`[data-key="${focusKey}"]`))?.focus();
    turnTitle(Boolean(ctx.myTurn()));
  }

  const ticker = setInterval(() => {
    tickClocks(shared, el);
    tickChoice(ctx, el);
  }, 250);

  window.__romirami.page = {
    // What to ask before a click elsewhere takes a player away from their game in play (app.js).
    leaving: () =>
      !leftOnPurpose && ctx.mySeat() != null && st.summary?.state === 'playing' && !st.result
        ? t('leave.confirmNav')
        : null,
    name: 'meld-table',
    game,
    legal: () => (ctx.myTurn() && st.pending == null && !st.stale ? st.legal : null),
    view: () => st.gs,
    summary: () => st.summary,
    role: () => st.role,
    eventCount: () => st.eventCount,
    result: () => st.result,
    rematch: () => again.offer(),
    error: () => st.error,
    stale: () => st.stale,
    log: () => st.log.map((e) => lineText(shared, e)).filter(Boolean),
  };

  draw();
  if (first) onTable(first);
  connection.ready().then(
    () => {
      if (!first) enter();
    },
    () => {},
  );

  return () => {
    clearInterval(ticker);
    clearTimeout(unanswered);
    plainTitle();
    announcer.remove();
    for (const off of offs) off();
    if (st.summary && mode === 'watch') connection.send({ type: 'leave', table: tableId });
  };
}
