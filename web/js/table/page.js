// @ts-check
// The table page: joins (or watches) one table and draws it as the server describes it: the waiting
// room before the start, then the game (players, the felt, the hand, the actions, the log, the chat) and
// the end screen. This file keeps the page's state current from the server's messages and hands one
// context to the parts that draw it (seats.js, market.js, contracts.js, hand.js, actions.js, log.js,
// chat.js, waiting.js, end.js). Moves are built with the page's buttons, by mouse or keyboard, and only legal ones
// can be
// sent; the server still decides, and a refusal is shown in words.

import { turnTitle, plainTitle } from './title.js';
import { connection } from '../connection.js';
import { rematch } from './rematch.js';
import { h, replace, scrollState, restoreScroll } from '../dom.js';
import { inviteFor, rememberInvite } from '../identity.js';
import { sortCards, stepWords } from '../rules-data.js';
import { gameState, applyEvent, rescore } from '../game-state.js';
import { clocksAt, clockWords } from '../clock.js';
import { explainError } from '../errors.js';
import { t, onLanguage } from '../i18n.js';
import { nameForm } from '../widgets.js';
import { playersPanel, tickClocks } from './seats.js';
import { board } from './market.js';
import { handPanel } from './hand.js';
import { actionPanel } from './actions.js';
import { logPanel, lineText, note, addLine, askHistory, takeHistory, presence, presenceLine } from './log.js';
import { tableChat } from './chat.js';
import { invitePanel, waitingRoom } from './waiting.js';
import { endPanel } from './end.js';
import { remember, animate } from './motion.js';

// The server's own bot players are named "Bot 1" to "Bot 4", a name no person may take (protocol
// section 3); any other seat the bot plays is a person's, stood in for while they are away.
const BOT_NAME = /^Bot \d+$/;

/**
 * @param {HTMLElement} root
 * @param {string} tableId
 * @param {URLSearchParams} params
 * @param {((msg: any) => void) | null} [otherGame] takes the table over when it seats another game (the rummy family)
 */
export function mountTable(root, tableId, params, otherGame = null) {
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
    sel: { market: new Set(), hand: new Set(), contract: null, star: false },
    pending: null,
    error: '',
    notice: '',
    log: [],
    bySuit: false,
    gone: null,
    history: null,
    clocks: null,
    clocksAt: 0,
    reclaiming: false,
    offline: false,
    announced: null,
  };

  const el = h('div.table-page');
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
  const isBotPlayer = (/** @type {number} */ seat) => BOT_NAME.test(st.summary?.seats?.[seat]?.name ?? '');
  const botPlaysForMe = () => mySeat() != null && isBot(mySeat()) && !st.result;
  const view = () => /** @type {import('./state.js').View} */ (st.gs?.view);
  const nameOf = (/** @type {number} */ seat) => st.summary?.seats?.[seat]?.name ?? t('seat.n', { n: seat + 1 });

  /** @type {import('./state.js').Ctx} */
  const ctx = {
    st,
    tableId,
    invite,
    view,
    mySeat,
    nameOf,
    isBot,
    isBotPlayer,
    botPlaysForMe,
    who: (seat) => (seat === mySeat() ? t('you') : nameOf(seat)),
    isStandIn: (seat) => isBot(seat) && !isBotPlayer(seat) && !st.result,
    // Our turn to play ourselves: not while the bot plays our seat.
    myTurn: () => st.gs?.view.phase.state === 'playing' && view().phase.seat === mySeat() && !botPlaysForMe(),
    legalOf: (type) => (st.legal ?? []).filter((a) => a.type === type),
    sortedHand: () => sortCards(st.gs?.view.hand ?? [], st.bySuit),
    selectedMarketCards: () => [...st.sel.market].map((i) => view().number_market[i]).filter((c) => c != null),
    selectedHandCards: () => {
      const hand = ctx.sortedHand();
      return [...st.sel.hand].map((i) => hand[i]);
    },
    draw,
    act,
    clearSelection: () => {
      st.sel = { market: new Set(), hand: new Set(), contract: null, star: false };
    },
    toggle: (set, key) => {
      if (set.has(key)) set.delete(key);
      else set.add(key);
      st.error = '';
      draw();
    },
    send: (type, extra = {}) => connection.send({ type, table: tableId, ...extra }),
    leave: () => {
      leftOnPurpose = true;
      connection.send({ type: 'leave', table: tableId });
      location.hash = '#/';
    },
    reclaim: () => {
      st.reclaiming = true;
      resync();
      draw();
    },
    sit: () => {
      mode = 'join';
      enter();
    },
    liveClocks: () => (st.clocks && !st.result ? clocksAt(st.clocks, performance.now() - st.clocksAt) : null),
  };
  const chat = tableChat(ctx);

  /** @param {string} kind @param {boolean} [withSince] @param {number} [since] */
  function request(kind, withSince = true, since = st.eventCount) {
    /** @type {Record<string, any>} */
    const msg = { type: kind, table: tableId };
    if (invite) msg.invite = invite;
    if (withSince && st.gs) msg.since = since;
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

  // --- server messages ---------------------------------------------------------------------------------
  const mine = (/** @type {any} */ msg) => msg.table === tableId || msg.table?.id === tableId;
  // Playing again once the game is over (section 11c); the page follows the players to the new table.
  const again = rematch({ tableId, invite, mySeat, nameOf, watching: () => mode === 'watch', redraw: () => draw() });
  const offs = [
    ...again.offs,
    connection.on('table', (msg) => {
      if (!mine(msg)) return;
      if (otherGame && msg.table.game && msg.table.game !== 'romi-rami') {
        otherGame(msg);
        return;
      }
      const before = st.summary;
      st.summary = msg.table;
      st.role = msg.role;
      moving = 0;
      if (before) presence(ctx, before, msg.table);
      if (!botPlaysForMe()) st.reclaiming = false;
      else st.legal = null;
      if (msg.view) {
        const wasPlaying = st.gs != null;
        st.gs = gameState(msg.view);
        st.eventCount = msg.view.event_count;
        st.result = msg.view.result ?? null;
        if (!wasPlaying) {
          const fresh = msg.view.event_count <= 1;
          addLine(ctx, {
            kind: 'turn',
            placeholder: !fresh,
            key: st.result ? 'log.over' : fresh ? 'log.started' : 'log.underway',
          });
        }
        if (!ctx.myTurn()) st.legal = null;
        askHistory(ctx, askFrom);
      }
      if (!before) note(ctx, '', mode === 'watch' || msg.role === 'spectator' ? 'log.watching' : 'log.atTable');
      draw();
    }),
    connection.on('history', (msg) => {
      if (!mine(msg) || !st.gs) return;
      takeHistory(ctx, msg.events, askFrom);
      draw();
    }),
    connection.on('events', (msg) => {
      if (!mine(msg) || !st.gs) return;
      const lines = [];
      const before = remember(el);
      for (const { n, event } of msg.events) {
        if (n < st.eventCount) continue;
        if (n > st.eventCount) {
          resync();
          return;
        }
        applyEvent(st.gs, event);
        st.eventCount = n + 1;
        /** @type {import('./state.js').LogEntry} */
        const entry = { kind: '', event, n };
        addLine(ctx, entry);
        if (event.seat !== mySeat()) lines.push(lineText(ctx, entry));
        if (event.type === 'game_over') st.result = event.result;
      }
      const shown = lines.filter(Boolean);
      if (shown.length) announce(shown.join(' '));
      if (!ctx.myTurn()) st.announced = null;
      st.legal = null;
      ctx.clearSelection();
      st.error = '';
      draw();
      animate(el, before, msg.events, mySeat());
    }),
    connection.on('your_turn', (msg) => {
      if (!mine(msg)) return;
      // The server asks only a seat its player plays: if the bot had it, it is ours again.
      const seat = mySeat();
      if (seat != null && isBot(seat) && st.summary?.bots) {
        st.summary.bots[seat] = false;
        st.reclaiming = false;
        note(ctx, 'alert', 'log.mineAgain');
      }
      const step = st.gs?.view.phase.step;
      if (step && st.announced !== step) {
        st.announced = step;
        announce(t('announce.yourTurn', { what: stepWords(step) }));
      }
      st.legal = msg.legal;
      draw();
    }),
    connection.on('ack', (msg) => {
      if (!mine(msg)) return;
      if (msg.id === st.pending) st.pending = null;
      if (msg.events > st.eventCount) resync();
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
      if (st.gs) {
        st.gs.view.result = msg.result;
        st.gs.view.phase = { state: 'over', ended_by: msg.result.ended_by };
        rescore(st.gs.view);
      }
      st.legal = null;
      draw();
    }),
    connection.on('presence', (msg) => {
      if (!mine(msg) || !st.summary) return;
      if (st.summary.presence) st.summary.presence[msg.seat] = msg.presence;
      presenceLine(ctx, msg);
      draw();
    }),
    connection.on('chat', (msg) => {
      if (!mine(msg)) return;
      chat.add(msg.lines);
      draw();
    }),
    connection.on('chat_history', (msg) => {
      if (!mine(msg)) return;
      chat.replace(msg.lines);
      draw();
    }),
    connection.on('muted', (msg) => {
      if (!mine(msg)) return;
      chat.muted(msg.player, msg.muted);
      draw();
    }),
    connection.on('left', (msg) => {
      if (!mine(msg)) return;
      st.gone = t('table.gone');
      draw();
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
      const words = explainError(msg, { watching: mode === 'watch', invite: Boolean(invite), bot: botPlaysForMe() });
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
  /** @param {import('./state.js').Action} action */
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
  function gameScreen() {
    return h(
      'div.game',
      { class: `game${st.result ? ' over' : ''}` },
      st.result ? endPanel(ctx) : null,
      st.result ? again.panel() : null,
      h('div.game-main', playersPanel(ctx), board(ctx), handPanel(ctx)),
      h(
        'aside.side',
        actionPanel(ctx),
        logPanel(ctx),
        chat.panel(),
        h(
          'div.table-info',
          h('p.muted.small.table-clock', `${clockWords(st.summary?.clock)}.`),
          h('p.small', h('a', { href: '#/help/romi-rami', target: '_blank', id: 'help-link' }, t('nav.help'))),
          mySeat() == null ? null : h('details.share', h('summary', t('invite.label')), invitePanel(ctx)),
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
      replace(el, waitingRoom(ctx), chat.panel());
    } else {
      // The log stays at its newest line, unless its reader scrolled back to read.
      const log = scrollState(el.querySelector('.log ol'));
      replace(el, gameScreen());
      restoreScroll(el.querySelector('.log ol'), log);
    }
    if (focusKey) /** @type {HTMLElement | null} */ (el.querySelector(`[data-key="${focusKey}"]`))?.focus();
    turnTitle(Boolean(ctx.myTurn()));
  }

  const ticker = setInterval(() => tickClocks(ctx, el), 250);

  // --- the test hook (read-only, but for one way to send a move the buttons would not build) ------------
  window.__romirami.page = {
    // What to ask before a click elsewhere takes a player away from their game in play (app.js).
    leaving: () =>
      !leftOnPurpose && ctx.mySeat() != null && st.summary?.state === 'playing' && !st.result
        ? t('leave.confirmNav')
        : null,
    name: 'table',
    legal: () => (ctx.myTurn() && st.pending == null ? st.legal : null),
    view: () => st.gs?.view ?? null,
    summary: () => st.summary,
    role: () => st.role,
    eventCount: () => st.eventCount,
    result: () => st.result,
    rematch: () => again.offer(),
    error: () => st.error,
    pending: () => st.pending,
    clocks: () => ctx.liveClocks(),
    // Sends an action the page's controls would not let anyone build, to see how a refusal is shown.
    actUnchecked: (/** @type {import('./state.js').Action} */ action) => act(action),
    log: () => st.log.map((e) => lineText(ctx, e)).filter(Boolean),
    chat: () => chat.texts(),
    presence: () => st.summary?.presence ?? null,
  };

  draw();
  connection.ready().then(enter, () => {
    replace(
      el,
      h(
        'section.card-panel',
        h('h1', t('table.join')),
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
    plainTitle();
    announcer.remove();
    for (const off of offs) off();
    if (st.summary && mode === 'watch') connection.send({ type: 'leave', table: tableId });
  };
}
