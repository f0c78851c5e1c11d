// @ts-check
// The table page, for every game: joins (or watches) one table and keeps what every game shares current
// from the server's messages — the waiting room, the invite, the seats and who is where, the clocks, the
// log, the chat, the offer to play again, the connection, the turn in the title, the question before
// leaving a game in play — and hands the game itself to its board, found by the game's name
// (games/index.js) once the first `table` message says which game the table plays. A game without a board
// gets a page that says so, never another game's board. Moves are built with the board's controls, by
// mouse or keyboard, and only legal ones can be sent; the server still decides, and a refusal is shown in
// words.

import { turnTitle, plainTitle, chimeCount } from './title.js';
import { connection } from '../connection.js';
import { rematch } from './rematch.js';
import { h, replace, scrollState, restoreScroll } from '../dom.js';
import { inviteFor, rememberInvite } from '../identity.js';
import { clocksAt, clockWords, isTurnBased } from '../clock.js';
import { explainError } from '../errors.js';
import { t, onLanguage } from '../i18n.js';
import { nameForm, shownName } from '../widgets.js';
import { gameName, optionWords } from '../game-options.js';
import { tickClocks } from './seats.js';
import { logPanel, lineText, note, addLine, askHistory, takeHistory, presence, presenceLine } from './log.js';
import { tableChat } from './chat.js';
import { invitedTo, invitePanel, waitingRoom } from './waiting.js';
import { focusKeeper } from './focus.js';
import { boardFor } from '../games/index.js';

// The host's bots are known by the summary's `levels` (or, for a game from before bots had levels, by
// the name "Bot 2", which no person may take); any other seat the bot plays is a person's, stood in
// for while they are away.
const BOT_NAME = /^Bot \d+$/;

// The `leave`s this page's connection sent and the server has not yet answered with `left`, by table. A
// page that left a table goes at once; if its player comes straight back, the answer to that old `leave`
// can reach the new page: it is that answer, not word that the new page's player is gone. Every `left` is
// counted here, whether a table page is open or not (this listener comes before any page's), so that an
// answer that reaches the lobby does not leave a count behind. (A reconnect starts a new connection,
// whose answers never come: the count starts again.)
/** @type {Map<string, number>} */
const leavesUnanswered = new Map();
/** The `left` messages that answered a `leave` of ours. @type {WeakSet<object>} */
const answeredLeaves = new WeakSet();
connection.on('reconnected', () => leavesUnanswered.clear());
connection.on('left', (msg) => {
  const unanswered = leavesUnanswered.get(msg.table) ?? 0;
  if (unanswered === 0) return;
  if (unanswered === 1) leavesUnanswered.delete(msg.table);
  else leavesUnanswered.set(msg.table, unanswered - 1);
  answeredLeaves.add(msg);
});
/** Sends `leave` for `tableId`, counted until its `left` comes. @param {string} tableId */
function sendLeave(tableId) {
  leavesUnanswered.set(tableId, (leavesUnanswered.get(tableId) ?? 0) + 1);
  connection.send({ type: 'leave', table: tableId });
}

/**
 * @param {HTMLElement} root
 * @param {string} tableId
 * @param {URLSearchParams} params
 */
export function mountTable(root, tableId, params) {
  const invite = params.get('invite') || inviteFor(tableId);
  if (params.get('invite')) rememberInvite(tableId, params.get('invite'));
  let mode = params.get('watch') ? 'watch' : 'join';

  /** Whether the player left with the page's own button (nothing to ask before going). */
  let leftOnPurpose = false;
  /** @type {import('./state.js').State} */
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
    gone: null,
    history: null,
    clocks: null,
    clocksAt: 0,
    reclaiming: false,
    offline: false,
    announced: null,
  };
  /** The game's board, once the first `table` message names the game (null: none yet, or none for it). */
  /** @type {import('./state.js').Board | null} */
  let board = null;

  const el = h('div.table-page');
  const focus = focusKeeper(el);
  // The page is redrawn after every change; this region stays put, so screen readers hear each new
  // move of the others and the start of the reader's turn once.
  const announcer = h('p.sr-only', { 'aria-live': 'polite', id: 'announcer' });
  root.append(el, announcer);
  /** @param {string} text */
  const announce = (text) => {
    announcer.textContent = text;
  };

  const mySeat = () => (st.role && typeof st.role === 'object' ? st.role.seat : null);
  const isBot = (/** @type {number | null} */ seat) => seat != null && st.summary?.bots?.[seat] === true;
  const isBotPlayer = (/** @type {number} */ seat) =>
    st.summary?.levels?.[seat] != null || BOT_NAME.test(st.summary?.seats?.[seat]?.name ?? '');
  const botPlaysForMe = () => mySeat() != null && isBot(mySeat()) && !st.result;
  const nameOf = (/** @type {number} */ seat) => {
    const player = st.summary?.seats?.[seat];
    return player ? shownName(player.name, st.summary?.levels?.[seat]) : t('seat.n', { n: seat + 1 });
  };
  const game = () => st.summary?.game ?? 'romi-rami';

  /** @type {import('./state.js').Ctx} */
  const ctx = {
    st,
    tableId,
    invite,
    game,
    mySeat,
    nameOf,
    isBot,
    isBotPlayer,
    botPlaysForMe,
    who: (seat) => (seat === mySeat() ? t('you') : nameOf(seat)),
    isStandIn: (seat) => isBot(seat) && !isBotPlayer(seat) && !st.result,
    // Our turn to play ourselves: not while the bot plays our seat.
    myTurn: () => board != null && st.gs != null && !botPlaysForMe() && board.myTurn(),
    draw,
    act,
    send: (type, extra = {}) => connection.send({ type, table: tableId, ...extra }),
    leave: () => {
      leftOnPurpose = true;
      sendLeave(tableId);
      location.hash = '#/';
    },
    // A `join` without `since` takes the seat back from the bot (protocol section 11).
    reclaim: () => {
      st.reclaiming = true;
      request('join', false);
      draw();
    },
    sit: () => {
      mode = 'join';
      enter();
    },
    liveClocks: () => (st.clocks && !st.result ? clocksAt(st.clocks, performance.now() - st.clocksAt) : null),
  };
  const chat = tableChat(ctx);

  /** @param {string} kind @param {boolean} [withSince] */
  function request(kind, withSince = true) {
    /** @type {Record<string, any>} */
    const msg = { type: kind, table: tableId };
    if (invite) msg.invite = invite;
    if (withSince && st.gs) msg.since = st.eventCount;
    connection.send(msg);
  }
  // A table that is closing as the request arrives may not answer it: ask again until it does.
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let unanswered;
  const enter = () => {
    request(mode === 'watch' ? 'watch' : 'join');
    clearTimeout(unanswered);
    unanswered = setTimeout(() => {
      if (!st.summary && !st.gone) enter();
    }, 4000);
  };
  const resync = () => request(mode === 'watch' ? 'watch' : 'join', false);
  // Tries left to find the table on its new server after a `table_moved` (protocol section 13).
  const MOVE_TRIES = 15;
  let moving = 0;
  const askFrom = (/** @type {number} */ from) => connection.send({ type: 'history', table: tableId, from });

  /** The game as the server now shows it, in place of the one the page held. @param {any} view */
  function takeView(view) {
    if (!board) return;
    const wasPlaying = st.gs != null;
    board.takeView(view);
    if (!wasPlaying) {
      const fresh = (view.event_count ?? 0) <= 1;
      addLine(ctx, {
        kind: 'turn',
        placeholder: !fresh,
        key: st.result ? 'log.over' : fresh ? 'log.started' : 'log.underway',
      });
    }
    if (!ctx.myTurn()) st.legal = null;
    askHistory(ctx, askFrom);
  }

  // --- server messages ---------------------------------------------------------------------------------
  const mine = (/** @type {any} */ msg) => msg.table === tableId || msg.table?.id === tableId;
  // Playing again once the game is over (section 11c); the page follows the players to the new table.
  const again = rematch({ tableId, invite, mySeat, nameOf, watching: () => mode === 'watch', redraw: () => draw() });
  /** A message for this table, handled and then drawn. @param {string} type @param {(msg: any) => void} fn */
  const on = (type, fn) =>
    connection.on(type, (msg) => {
      if (!mine(msg)) return;
      fn(msg);
      draw();
    });
  const offs = [
    ...again.offs,
    connection.on('table', (msg) => {
      if (!mine(msg)) return;
      const before = st.summary;
      st.summary = msg.table;
      st.role = msg.role;
      moving = 0;
      if (!before) {
        board = boardFor(game())?.mount(ctx) ?? null;
        // The messages of the board's game only (the rummy family's `choice`).
        for (const [type, fn] of Object.entries(board?.messages ?? {})) offs.push(on(type, fn));
      }
      // Whoever the server seats as a spectator watches (someone who came by an invite link to a game
      // already under way, say): a later `join` would only be refused.
      if (msg.role === 'spectator') mode = 'watch';
      if (before) presence(ctx, before, msg.table);
      if (!botPlaysForMe()) st.reclaiming = false;
      else st.legal = null;
      if (msg.view) takeView(msg.view);
      if (!before) note(ctx, '', mode === 'watch' || msg.role === 'spectator' ? 'log.watching' : 'log.atTable');
      draw();
    }),
    on('history', (msg) => {
      if (st.gs) takeHistory(ctx, msg.events, askFrom);
    }),
    connection.on('events', (msg) => {
      if (!mine(msg) || !st.gs || !board) return;
      /** @type {{n: number, event: any}[]} */
      const fresh = msg.events.filter((/** @type {{n: number}} */ e) => e.n >= st.eventCount);
      if (!fresh.length) return;
      // A board that folds the events into its view needs every one: after a gap, the table is asked again.
      if (board.folds && fresh.some((e, i) => e.n !== st.eventCount + i)) {
        resync();
        return;
      }
      // The moves of the last `your_turn` were the moves of the game before these events: none of them
      // stands now (a draw once drawn...). The server sends the next `your_turn` after the events (and, for a
      // board that takes views, after the view and the ack): until then the page offers no move, rather than the
      // old ones, whose buttons the next message would take away under a click.
      st.legal = null;
      const after = board.takeEvents(fresh, el);
      const lines = [];
      for (const { n, event } of fresh) {
        st.eventCount = n + 1;
        /** @type {import('./state.js').LogEntry} */
        const entry = { kind: '', event, n };
        addLine(ctx, entry);
        if (event.seat !== mySeat()) lines.push(lineText(ctx, entry));
      }
      const shown = lines.filter(Boolean);
      if (shown.length) announce(shown.join(' '));
      if (!ctx.myTurn()) st.announced = null;
      st.error = '';
      draw();
      after?.();
    }),
    on('view', (msg) => {
      if (st.summary) takeView(msg.view);
    }),
    on('your_turn', (msg) => {
      // The server asks only a seat its player plays: if the bot had it, it is ours again.
      const seat = mySeat();
      if (seat != null && isBot(seat) && st.summary?.bots) {
        st.summary.bots[seat] = false;
        st.reclaiming = false;
        note(ctx, 'alert', 'log.mineAgain');
      }
      st.legal = msg.legal;
      const cue = board?.turnCue();
      if (cue && st.announced !== cue.id) {
        st.announced = cue.id;
        announce(cue.words);
      }
    }),
    on('ack', (msg) => {
      if (msg.id === st.pending) st.pending = null;
      if (board?.folds && msg.events > st.eventCount) resync();
    }),
    on('clocks', (msg) => {
      st.clocks = msg;
      st.clocksAt = performance.now();
    }),
    on('game_over', (msg) => {
      st.result = msg.result;
      board?.gameOver?.(msg.result);
      st.legal = null;
    }),
    on('presence', (msg) => {
      if (!st.summary) return;
      if (st.summary.presence) st.summary.presence[msg.seat] = msg.presence;
      presenceLine(ctx, msg);
    }),
    on('chat', (msg) => chat.add(msg.lines)),
    on('chat_history', (msg) => chat.replace(msg.lines)),
    on('muted', (msg) => chat.muted(msg.player, msg.muted)),
    on('left', (msg) => {
      // Only a `left` nobody here asked for sends this page away (the host freed the seat, or the
      // player left from another tab); the answer to an earlier page's `leave` does not.
      if (!answeredLeaves.has(msg)) st.gone = t('table.gone');
    }),
    connection.on('error', (msg) => {
      if (msg.table && msg.table !== tableId) return;
      // The table moved to another server of the site: join it again (with `since`) until its new server has it.
      if (msg.code === 'table_moved' || (moving > 0 && msg.code === 'no_such_table')) {
        if (msg.code === 'table_moved') {
          moving = MOVE_TRIES;
          note(ctx, 'alert', 'error.table_moved');
          st.pending = null;
          draw();
        }
        moving -= 1;
        if (moving >= 0) setTimeout(() => request(mode === 'watch' ? 'watch' : 'join'), 1000);
        return;
      }
      if (!st.summary && msg.code === 'already_started' && mode === 'join') {
        mode = 'watch';
        st.notice = t('table.startedWatching');
        enter();
        return;
      }
      const words =
        board?.explain?.(msg) ??
        explainError(msg, { watching: mode === 'watch', invite: Boolean(invite), bot: botPlaysForMe() });
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
      note(ctx, 'alert', 'log.reconnected');
      enter();
    }),
    connection.on('status', ({ status }) => {
      const lost = status === 'reconnecting';
      if (lost && !st.offline && st.summary) {
        note(ctx, 'alert', 'log.lost');
        st.pending = null;
        draw();
      }
      st.offline = lost;
    }),
    onLanguage(() => draw()),
  ];

  // --- acting --------------------------------------------------------------------------------------------
  /** @param {any} action the move exactly as the legal list wrote it */
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

  // --- drawing --------------------------------------------------------------------------------------------
  /** What every game's side shows under its log and chat: the game, the clock, the rules, the invite, leaving. */
  function tableInfo() {
    const summary = /** @type {import('./state.js').Summary} */ (st.summary);
    const words = optionWords(game(), summary.options);
    return h(
      'div.table-info',
      h('p.small.game-title', h('strong', gameName(game())), words ? ` · ${words}` : ''),
      summary.tournament
        ? h(
            'p.small.tournament-link',
            h('a', { href: `#/tournaments/${summary.tournament}`, id: 'tournament-link' }, t('table.tournament')),
          )
        : null,
      h('p.muted.small.table-clock', `${clockWords(summary.clock)}.`),
      mySeat() == null ? null : h('p.muted.small.keys', t('table.keys')),
      h('p.small', h('a', { href: `#/help/${game()}`, target: '_blank', id: 'help-link' }, t('nav.help'))),
      mySeat() == null ? null : h('details.share', h('summary', t('invite.label')), invitePanel(ctx)),
      mySeat() == null || st.result
        ? null
        : h(
            'details.leave',
            h('summary', t('leave.summary')),
            h('p.small', t('leave.note')),
            h('button', { type: 'button', id: 'leave-game', onclick: () => ctx.leave() }, t('leave.go')),
          ),
    );
  }

  /** @param {import('./state.js').Board} board */
  function gameScreen(board) {
    const screen = board.screen();
    return h(
      'div.game',
      { class: `game ${screen.class}${st.result ? ' over' : ''}`, 'data-game': game() },
      ...screen.top,
      st.result ? again.panel() : null,
      h('div.game-main', ...screen.main),
      h('aside.side', screen.actions, ...screen.side, logPanel(ctx), chat.panel(), tableInfo()),
    );
  }

  /** A page that says why there is no table to show, with the way back to the lobby. @param {string} why */
  const closed = (why, title = t('table.closed')) =>
    h('section.card-panel.gone', h('h1', title), h('p', why), h('a.button.primary', { href: '#/' }, t('table.lobby')));

  /** How many times the page was drawn (the test hook: a quiet table is not drawn again and again). */
  let draws = 0;
  function draw() {
    draws += 1;
    focus.before();
    if (st.gone) {
      replace(el, closed(st.gone));
    } else if (!st.summary) {
      replace(el, h('p.loading', t('table.joining')));
    } else if (!board) {
      replace(el, closed(t('table.noBoard', { game: gameName(game()) }), t('table.noBoardTitle')));
    } else if (!st.gs) {
      replace(el, waitingRoom(ctx), chat.panel());
    } else {
      // The log stays at its newest line, unless its reader scrolled back to read.
      const log = scrollState(el.querySelector('.log ol'));
      replace(el, gameScreen(board));
      restoreScroll(el.querySelector('.log ol'), log);
    }
    focus.after();
    turnTitle(Boolean(ctx.myTurn()));
  }

  const ticker = setInterval(() => {
    tickClocks(ctx, el);
    board?.tick?.(el);
  }, 250);

  // --- the test hook (read-only, but for one way to send a move the buttons would not build) ------------
  const hook = {
    // What to ask before a click elsewhere takes a player away from their game in play (app.js).
    // A turn-based game (a day or more a turn) is played over days: going elsewhere is no leaving.
    leaving: () =>
      !leftOnPurpose &&
      board != null &&
      mySeat() != null &&
      st.summary?.state === 'playing' &&
      !st.result &&
      !isTurnBased(st.summary?.clock)
        ? t('leave.confirmNav')
        : null,
    name: 'table',
    game: () => st.summary?.game ?? null,
    board: () => board?.name ?? null,
    legal: () => (ctx.myTurn() && st.pending == null ? (board?.legal() ?? null) : null),
    view: () => (board && st.gs ? board.hook.view() : null),
    summary: () => st.summary,
    role: () => st.role,
    eventCount: () => st.eventCount,
    result: () => st.result,
    rematch: () => again.offer(),
    error: () => st.error,
    pending: () => st.pending,
    clocks: () => ctx.liveClocks(),
    // Sends an action the page's controls would not let anyone build, to see how a refusal is shown.
    actUnchecked: (/** @type {any} */ action) => act(action),
    log: () => st.log.map((e) => lineText(ctx, e)).filter(Boolean),
    chat: () => chat.texts(),
    presence: () => st.summary?.presence ?? null,
    stale: () => Boolean(board?.hook.stale?.()),
    chimes: () => chimeCount(),
    draws: () => draws,
  };
  window.__romirami.page = hook;

  draw();
  connection.ready().then(enter, () => {
    replace(
      el,
      h(
        'section.card-panel',
        h('h1', t('table.join')),
        invitedTo(tableId, params, invite),
        nameForm(
          () => {
            draw();
            enter();
          },
          { intro: t('name.introTable') },
        ),
      ),
    );
  });

  return () => {
    clearInterval(ticker);
    clearTimeout(unanswered);
    focus.stop();
    plainTitle();
    announcer.remove();
    for (const off of offs) off();
    // A watcher stops watching; a player of a turn-based game in play goes away for now (their seat stays
    // theirs, and the table sleeps once nobody is at it: docs/architecture.md, "Turn-based tables").
    const awayFromTurnBased = st.summary?.state === 'playing' && mySeat() != null && isTurnBased(st.summary?.clock);
    if (st.summary && (mode === 'watch' || awayFromTurnBased)) sendLeave(tableId);
  };
}
