// The table page: joins (or watches) one table and draws it as the server describes it: the waiting
// room before the start (seats, bots, invite link, start button), then the game (markets, trophies,
// every player's area, your hand, whose turn it is, the clocks, a game log in words) and the end screen.
// A seat the server's bot plays is marked; when it is yours, the page offers to take it back. Moves are built
// by clicking (cards, contracts, the Star) and sent as they are; the server decides, and its refusal is
// shown as it words it. The `your_turn` list only highlights what is possible.

import { connection } from './connection.js';
import { explainError } from './errors.js';
import { t as t_ } from './i18n.js';
import { h, replace, copyText, icon } from './dom.js';
import { inviteFor, rememberInvite } from './identity.js';
import { cardLabel, contract, sortCards, ENDED_BY_WORDS, TROPHIES } from './rules-data.js';
import { numberCard, emptySlot, cardBack, contractCard, trophyTile, starToken, sentence } from './cards-ui.js';
import { gameState, applyEvent, rescore } from './game-state.js';
import { describe } from './game-log.js';
import { nameForm } from './lobby-page.js';
import { clockWords, clocksAt, countdown } from './clock.js';

// Multisets of card codes, as the protocol treats lists of cards (section 4).
function counts(cards) {
  const m = new Map();
  for (const c of cards) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}
function covers(big, small) {
  const b = counts(big);
  for (const [c, n] of counts(small)) if ((b.get(c) ?? 0) < n) return false;
  return true;
}
function sameCards(a, b) {
  return a.length === b.length && covers(a, b);
}

const BOT_NAME = /^Bot \d+$/;
// The server replays at most this many events to a `join` or `watch` with `since` (protocol section 14).
const CATCH_UP_LIMIT = 500;
const LOG_CAP = 1000;

export function mountTable(root, tableId, params) {
  const invite = params.get('invite') || inviteFor(tableId);
  if (params.get('invite')) rememberInvite(tableId, params.get('invite'));
  let mode = params.get('watch') ? 'watch' : 'join';

  const t = {
    summary: null, role: null, gs: null, legal: null, eventCount: 0, result: null,
    sel: { market: new Set(), hand: new Set(), contract: null, star: false },
    pending: null, error: '', notice: '', log: [], bySuit: false, gone: null, history: null,
    // The last `clocks` message and when it arrived (performance.now()); whether we asked for our seat back.
    clocks: null, clocksAt: 0, reclaiming: false,
  };

  const el = h('div.table-page');
  // The page is redrawn after every change; this region stays put, so screen readers hear each new
  // log line and the start of the reader's turn once.
  const announcer = h('p.sr-only', { 'aria-live': 'polite', id: 'announcer' });
  root.append(el, announcer);
  const announce = (text) => { announcer.textContent = text; };
  const plain = (entry) => entry.parts.map((p) => (typeof p === 'string' ? p : p.card ? cardLabel(p.card) : `contract ${p.contract}`)).join('');

  const mySeat = () => (t.role && typeof t.role === 'object' ? t.role.seat : null);
  const view = () => t.gs?.view ?? null;
  const nameOf = (seat) => t.summary?.seats?.[seat]?.name ?? `Seat ${seat + 1}`;
  const who = (seat) => (seat === mySeat() ? 'You' : nameOf(seat));
  const isBot = (seat) => seat != null && t.summary?.bots?.[seat] === true;
  // The server's own bot players are named "Bot 1" to "Bot 4", a name no person may take (protocol
  // section 3); any other seat the bot plays is a person's, stood in for while they are away.
  const isBotPlayer = (seat) => BOT_NAME.test(t.summary?.seats?.[seat]?.name ?? '');
  const isStandIn = (seat) => isBot(seat) && !isBotPlayer(seat) && !t.result;
  const botPlaysForMe = () => mySeat() != null && isBot(mySeat()) && !t.result;
  // Our turn to play ourselves: not while the bot plays our seat.
  const myTurn = () => view()?.phase?.state === 'playing' && view().phase.seat === mySeat() && !botPlaysForMe();
  const sortedHand = () => sortCards(view()?.hand ?? [], t.bySuit);

  function clearSelection() {
    t.sel = { market: new Set(), hand: new Set(), contract: null, star: false };
  }

  function request(kind, withSince = true, since = t.eventCount) {
    const msg = { type: kind, table: tableId };
    if (invite) msg.invite = invite;
    if (withSince && t.gs) msg.since = since;
    connection.send(msg);
  }

  function enter() {
    request(mode === 'watch' ? 'watch' : 'join');
  }

  function resync() {
    request(mode === 'watch' ? 'watch' : 'join', false);
  }

  function addLog(entry, n = null) {
    if (!entry) return;
    t.log.push(n == null ? entry : { ...entry, n });
    if (t.log.length > LOG_CAP) t.log.splice(0, t.log.length - LOG_CAP);
  }

  // The log from history: the server keeps every event, and replays those after `since` to a `join` or
  // `watch` (protocol section 9, at most its catch-up limit of 500). After a fresh view, the page asks
  // once more with `since` and turns the events it already has into the log's first lines.
  function askHistory() {
    const upTo = t.eventCount;
    if (t.history !== null || upTo <= 1) return;
    t.history = { upTo, from: Math.max(0, upTo - CATCH_UP_LIMIT) };
    request(mode === 'watch' ? 'watch' : 'join', true, t.history.from);
  }

  function takeHistory(events) {
    const entries = [];
    for (const { n, event } of events) {
      if (n >= t.history.upTo) break;
      const entry = describe(event, who);
      if (entry) entries.push({ ...entry, n });
    }
    const cut = t.history.from > 0 ? [{ kind: 'turn', parts: ['Earlier moves are not shown.'] }] : [];
    t.log = [...cut, ...entries, ...t.log.filter((e) => !e.placeholder)];
    t.history.done = true;
  }

  // Who plays each seat, as the table summary tells: a seat the bot takes over or hands back is said in
  // the log (a player who left, or ran out of time, and came back).
  function presence(before, after) {
    if (!before?.bots || !after?.bots || !t.gs || t.result) return;
    after.bots.forEach((bot, seat) => {
      if (bot === before.bots[seat] || isBotPlayer(seat)) return;
      const name = nameOf(seat);
      if (seat === mySeat()) {
        if (bot) addLog({ kind: 'alert', parts: ['The bot is playing your seat.'] });
        else addLog({ kind: 'alert', parts: ['Your seat is yours again.'] });
      } else if (bot) {
        const outOfTime = t.clocks && t.clocks.reserves_ms?.[seat] === 0;
        addLog({ kind: 'alert', parts: [outOfTime
          ? `${name} ran out of time: the bot plays for them.`
          : `${name} left the game: the bot plays for them.`] });
      } else {
        addLog({ kind: 'alert', parts: [`${name} is back.`] });
      }
    });
  }

  // --- server messages ---------------------------------------------------------------------------------
  const mine = (msg) => msg.table === tableId || msg.table?.id === tableId;
  const offs = [
    connection.on('table', (msg) => {
      if (!mine(msg)) return;
      const first = !t.summary;
      const before = t.summary;
      t.summary = msg.table;
      t.role = msg.role;
      if (!first) presence(before, msg.table);
      if (!botPlaysForMe()) t.reclaiming = false;
      else t.legal = null;
      if (msg.view) {
        const wasPlaying = t.gs != null;
        t.gs = gameState(msg.view);
        t.eventCount = msg.view.event_count;
        t.result = msg.view.result ?? null;
        if (!wasPlaying) {
          const started = msg.view.event_count <= 1;
          addLog({ kind: 'turn', placeholder: !started, parts: [t.result ? 'The game is over.' : started ? 'The game has started. Good luck!' : 'The game is under way.'] });
        }
        if (!myTurn()) t.legal = null;
        // Answered with a table instead of events: this history is all there is.
        if (t.history && !t.history.done) t.history.done = true;
        else askHistory();
      }
      if (first) addLog({ kind: '', parts: [mode === 'watch' || msg.role === 'spectator' ? 'You are watching this table.' : 'You are at the table.'] });
      draw();
    }),
    connection.on('events', (msg) => {
      if (!mine(msg) || !t.gs) return;
      if (t.history && !t.history.done) takeHistory(msg.events);
      const lines = [];
      for (const { n, event } of msg.events) {
        if (n < t.eventCount) continue;
        if (n > t.eventCount) { resync(); return; }
        applyEvent(t.gs, event);
        t.eventCount = n + 1;
        const entry = describe(event, who);
        addLog(entry, n);
        if (entry && event.seat !== mySeat()) lines.push(plain(entry));
        if (event.type === 'game_over') t.result = event.result;
      }
      if (lines.length) announce(lines.join(' '));
      if (!myTurn()) t.announced = null;
      t.legal = null;
      clearSelection();
      t.error = '';
      draw();
    }),
    connection.on('your_turn', (msg) => {
      if (!mine(msg)) return;
      // The server asks only a seat its player plays: if the bot had it, it is ours again.
      if (isBot(mySeat())) {
        t.summary.bots[mySeat()] = false;
        t.reclaiming = false;
        addLog({ kind: 'alert', parts: ['Your seat is yours again.'] });
      }
      const step = view()?.phase?.step;
      if (step && t.announced !== step) {
        t.announced = step;
        announce(`Your turn: ${{ take: 'take cards from the market', contracts: 'complete contracts or pass', discard: 'discard down to 10 cards' }[step]}.`);
      }
      t.legal = msg.legal;
      draw();
    }),
    connection.on('ack', (msg) => {
      if (!mine(msg)) return;
      if (msg.id === t.pending) t.pending = null;
      if (msg.events > t.eventCount) resync();
      draw();
    }),
    connection.on('clocks', (msg) => {
      if (!mine(msg)) return;
      t.clocks = msg;
      t.clocksAt = performance.now();
      draw();
    }),
    connection.on('game_over', (msg) => {
      if (!mine(msg)) return;
      t.result = msg.result;
      if (t.gs) { t.gs.view.result = msg.result; t.gs.view.phase = { state: 'over', ended_by: msg.result.ended_by }; rescore(t.gs.view); }
      t.legal = null;
      draw();
    }),
    connection.on('left', (msg) => {
      if (!mine(msg)) return;
      t.gone = 'You are no longer at this table.';
      draw();
    }),
    connection.on('error', (msg) => {
      if (msg.table && msg.table !== tableId) return;
      if (!t.summary && msg.code === 'already_started' && mode === 'join') {
        mode = 'watch';
        t.notice = 'This game has already started: you are watching it.';
        enter();
        return;
      }
      const words = explainError(msg, { watching: mode === 'watch', invite: Boolean(invite), bot: botPlaysForMe() });
      if (!t.summary && ['no_such_table', 'spectating_not_allowed', 'already_started', 'table_full'].includes(msg.code)) {
        t.gone = words;
        draw();
        return;
      }
      if (msg.id != null && msg.id === t.pending) t.pending = null;
      t.error = words;
      draw();
      document.getElementById('action-error')?.focus?.();
    }),
    connection.on('reconnected', () => {
      addLog({ kind: 'alert', parts: ['Reconnected to the server.'] });
      enter();
    }),
    connection.on('status', ({ status }) => {
      const lost = status === 'reconnecting';
      if (lost && !t.offline && t.summary) { addLog({ kind: 'alert', parts: ['Connection lost. Reconnecting…'] }); t.pending = null; draw(); }
      t.offline = lost;
    }),
  ];

  // --- acting --------------------------------------------------------------------------------------------
  function act(action) {
    t.error = '';
    const id = connection.act(tableId, action);
    if (id == null) { t.error = 'Not connected: your move was not sent. Reconnecting…'; draw(); return; }
    t.pending = id;
    draw();
  }

  const selectedMarketCards = () => [...t.sel.market].map((i) => view().number_market[i]).filter(Boolean);
  const selectedHandCards = () => { const hand = sortedHand(); return [...t.sel.hand].map((i) => hand[i]); };
  const legalOf = (type) => (t.legal ?? []).filter((a) => a.type === type);

  function toggle(set, key) {
    if (set.has(key)) set.delete(key); else set.add(key);
    t.error = '';
    draw();
  }

  // --- drawing --------------------------------------------------------------------------------------------
  function draw() {
    const focusKey = document.activeElement?.dataset?.key;
    if (t.gone) {
      replace(el, h('section.card-panel.gone', h('h1', 'Table closed'), h('p', t.gone), h('a.button.primary', { href: '#/' }, 'Back to the lobby')));
    } else if (!t.summary) {
      replace(el, h('p.loading', 'Joining the table…'));
    } else if (!t.gs) {
      replace(el, waitingRoom());
    } else {
      replace(el, gameScreen());
      const log = el.querySelector('.log ol');
      if (log) log.scrollTop = log.scrollHeight;
    }
    if (focusKey) el.querySelector(`[data-key="${focusKey}"]`)?.focus();
  }

  function inviteLink() {
    const base = `${location.origin}${location.pathname}#/table/${tableId}`;
    return invite ? `${base}?invite=${invite}` : base;
  }

  function invitePanel() {
    const link = inviteLink();
    const input = h('input.link', { id: 'invite-link', readonly: true, value: link, 'aria-label': 'Invite link', onfocus: (e) => e.target.select() });
    return h('div.invite',
      h('label', { for: 'invite-link' }, t.summary.public ? 'Share this link, or let players find the table in the lobby:' : 'Send this link to the players you invite:'),
      h('div.row', input, h('button', { type: 'button', id: 'copy-invite', 'data-key': 'copy', onclick: () => copyText(link, input) }, 'Copy link')));
  }

  function waitingRoom() {
    const s = t.summary;
    const isHost = connection.player?.id === s.host;
    const seated = s.seats.filter(Boolean).length;
    const amSeated = s.seats.some((p) => p?.id === connection.player?.id);
    const free = s.seats.some((p) => p === null);
    return h('section.card-panel.waiting', { 'aria-labelledby': 'wait-title' },
      h('h1', { id: 'wait-title' }, 'Waiting for players'),
      t.notice ? h('p.notice', t.notice) : null,
      h('p.muted', `${seated} of ${s.seats.length} seats taken. The game starts by itself when every seat is taken${isHost ? ', or when you start it' : ''}.`),
      h('ol.seats', s.seats.map((p, i) => h('li', { class: p ? (isBot(i) ? 'taken bot' : 'taken') : 'free', 'data-seat': i },
        h('span.seatno', `Seat ${i + 1}`),
        h('span.pname', p ? p.name : 'Free seat'),
        p?.id === s.host ? h('span.badge', 'Host') : null,
        p && isBot(i) ? h('span.badge.bot', { title: 'The server’s bot plays this seat' }, 'Bot') : null,
        p?.id === connection.player?.id ? h('span.badge.you', 'You') : null,
        isHost && p && p.id !== s.host ? h('button.small', { type: 'button', 'data-key': `kick${i}`, onclick: () => connection.send({ type: 'kick', table: tableId, seat: i }) }, 'Remove') : null))),
      invitePanel(),
      h('div.row.buttons',
        isHost ? h('button', { type: 'button', id: 'add-bot', 'data-key': 'add-bot', disabled: !free, title: free ? 'The server’s bot takes the first free seat' : 'Every seat is taken', onclick: () => connection.send({ type: 'add_bot', table: tableId }) }, 'Add a bot') : null,
        isHost ? h('button.primary', { type: 'button', id: 'start-game', 'data-key': 'start', disabled: seated < 2, onclick: () => connection.send({ type: 'start', table: tableId }) }, seated < 2 ? 'Start (needs 2 players)' : 'Start the game') : null,
        !amSeated && s.seats.some((p) => p === null) ? h('button.primary', { type: 'button', id: 'sit-down', onclick: () => { mode = 'join'; enter(); } }, 'Sit down') : null,
        h('button', { type: 'button', 'data-key': 'leave', onclick: () => { connection.send({ type: 'leave', table: tableId }); location.hash = '#/'; } }, amSeated ? 'Leave the table' : 'Stop watching')),
      t.error ? h('p.error', { role: 'alert' }, t.error) : null,
      h('p.muted.small', `${s.spectators === 'nobody' ? 'Nobody may watch.' : s.spectators === 'link' ? 'Spectators need the link.' : 'Anyone may watch.'} ${s.public ? 'Listed in the lobby.' : 'Private table.'}`),
      h('p.muted.small.table-clock', `${clockWords(s.clock)}.`));
  }

  // --- clocks ---------------------------------------------------------------------------------------------
  // The clocks are drawn once per `clocks` message and their numbers updated by a ticker, without
  // redrawing the page (which would move the focus and the selection).
  const liveClocks = () => (t.clocks && !t.result ? clocksAt(t.clocks, performance.now() - t.clocksAt) : null);

  /** What a seat's clock says now: its turn and reserve while it acts, else its reserve. */
  function seatClock(seat) {
    const c = liveClocks();
    if (!c || c.reserves[seat] == null) return null;
    const reserve = `reserve ${countdown(c.reserves[seat])}`;
    if (c.toAct !== seat || isBot(seat)) return { text: reserve, running: false, low: false };
    if (c.turn > 0) return { text: `${countdown(c.turn)} · ${reserve}`, running: true, low: c.turn < 10_000 && c.reserves[seat] < 10_000 };
    return { text: reserve, running: true, low: true };
  }

  /** The clock of the seat to act, for the status line. */
  function turnClock() {
    const c = liveClocks();
    if (!c || c.toAct == null || isBot(c.toAct)) return null;
    const reserve = c.reserves[c.toAct] ?? 0;
    if (c.turn > 0) return { text: `${countdown(c.turn)} left`, low: c.turn < 10_000 && reserve < 10_000 };
    return { text: `${countdown(reserve)} of reserve left`, low: true };
  }

  function clockChip(seat) {
    const c = seatClock(seat);
    return c ? h('span.seat-clock', { 'data-clock-seat': seat, class: `${c.running ? 'running' : ''}${c.low ? ' low' : ''}`, title: 'Time left: the turn, then the seat’s reserve for the game' }, c.text) : null;
  }

  function tick() {
    if (!t.clocks) return;
    for (const chip of el.querySelectorAll('[data-clock-seat]')) {
      const c = seatClock(Number(chip.dataset.clockSeat));
      if (!c) continue;
      chip.textContent = c.text;
      chip.classList.toggle('running', c.running);
      chip.classList.toggle('low', c.low);
    }
    const turn = el.querySelector('[data-clock-turn]');
    const c = turnClock();
    if (turn && c) {
      turn.textContent = c.text;
      turn.classList.toggle('low', c.low);
    }
  }
  const ticker = setInterval(tick, 250);

  function statusLine() {
    const v = view();
    if (t.result || v.phase.state === 'over') return h('p.status', 'The game is over.');
    const { seat, step } = v.phase;
    const mineNow = seat === mySeat();
    const byMe = mineNow && !isBot(seat);
    const actor = mineNow ? 'The bot' : nameOf(seat);
    const what = {
      take: byMe ? 'Take 1 to 3 cards from the market that share a number or a suit.' : `${actor} is taking cards from the market.`,
      contracts: byMe ? 'Complete contracts, then pass.' : `${actor} may complete contracts, then passes.`,
      discard: byMe ? `You hold ${v.seats[seat].hand_size} cards: discard down to 10.` : `${actor} is discarding down to 10 cards.`,
    }[step];
    const clock = turnClock();
    return h('div.status', { class: mineNow ? 'status mine' : 'status' },
      h('strong', { 'data-testid': 'turn' }, mineNow ? 'Your turn' : `${nameOf(seat)}’s turn`),
      isBot(seat) ? h('span.badge.bot', { title: 'The server’s bot plays this seat' }, mineNow ? 'Bot for you' : 'Bot') : null,
      h('span', ` — ${what}`),
      clock ? h('span.turn-clock', { 'data-clock-turn': '', class: clock.low ? 'low' : '' }, clock.text) : null,
      v.last_round ? h('span.badge.alert', 'Last round') : null);
  }

  function playerArea(s) {
    const v = view();
    const turn = v.phase.state === 'playing' && v.phase.seat === s.seat;
    const me = s.seat === mySeat();
    const leads = v.trophies.filter((tr) => v.trophy_leaders?.[tr] === s.seat);
    const score = s.score;
    const total = score.total != null ? `${score.total}` : `${score.public_total}`;
    const botSeat = isBotPlayer(s.seat);
    const away = isStandIn(s.seat);
    const note = botSeat ? ' (the server’s bot)' : away ? ' (away: the bot plays for them)' : '';
    return h('section', { class: `player${turn ? ' turn' : ''}${me ? ' me' : ''}${botSeat || away ? ' bot' : ''}${away ? ' away' : ''}`, 'data-seat': s.seat, 'aria-label': `${who(s.seat)}${note}: ${s.contracts.length} contracts, ${s.hand_size} cards in hand, Star ${s.star_used ? 'used' : 'not used'}, score ${total}` },
      h('header',
        h('span.pname', me ? `${nameOf(s.seat)} (you)` : nameOf(s.seat)),
        s.seat === v.first_player ? h('span.badge.first', { title: 'First player' }, '1st') : null,
        botSeat ? h('span.badge.bot', { title: 'The server’s bot plays this seat' }, 'Bot') : null,
        away ? h('span.badge.bot.away', { title: me ? 'The bot is playing for you' : 'Away: the bot plays for them until they come back' }, me ? 'Bot for you' : 'Away · bot') : null,
        turn ? h('span.badge.turn', 'to play') : null,
        clockChip(s.seat)),
      h('div.pstats',
        h('span.handcount', { title: 'Cards in hand' }, h('span.miniback', { 'aria-hidden': 'true' }), `${s.hand_size}`),
        starToken({ used: s.star_used, label: s.star_used ? 'Star used' : 'Star not used' }),
        h('span.pscore', { title: score.total != null ? 'Score with your suit bonus' : 'Public score (the suit bonus stays hidden until the end)' },
          h('b', total), ' pts',
          score.total != null && !t.result ? h('small', ` (${score.suit_bonus} bonus)`) : null)),
      h('div.pcontracts', { 'aria-label': 'Completed contracts' },
        s.contracts.length ? s.contracts.map((id) => contractCard(id, { compact: true })) : h('span.muted.small', 'No contracts yet'),
        h('span.target', `${s.contracts.length}/${v.contract_target}`)),
      leads.length ? h('div.leads', 'Leads: ', leads.map((tr) => TROPHIES[tr].short).join(', ')) : null);
  }

  function board() {
    const v = view();
    const step = myTurn() ? v.phase.step : null;
    // Market cards: highlight those that some legal take still allows together with the selection.
    const takes = legalOf('take');
    const selMarket = step === 'take' ? selectedMarketCards() : [];
    const market = v.number_market.map((code, i) => {
      if (!code) return emptySlot();
      if (step !== 'take') return numberCard(code, { slot: i });
      const selected = t.sel.market.has(i);
      const possible = selected ? null : takes.some((a) => covers(a.cards, [...selMarket, code]));
      return numberCard(code, { slot: i, selected, possible, extra: { 'data-key': `m${i}` }, onclick: () => toggle(t.sel.market, i) });
    });
    const selHand = step === 'contracts' ? selectedHandCards() : [];
    const completes = legalOf('complete').filter((a) => (!t.sel.star || a.star) && covers(a.cards, selHand));
    const contracts = v.contract_market.map((id) => {
      if (id == null) return emptySlot('contract');
      if (step !== 'contracts') return contractCard(id);
      const selected = t.sel.contract === id;
      const possible = selected ? null : completes.some((a) => a.contract === id);
      return contractCard(id, { selected, possible, onclick: () => { t.sel.contract = selected ? null : id; t.error = ''; draw(); } });
    });
    contracts.forEach((c, i) => c.dataset && (c.dataset.key = `c${i}`));
    return h('section.board', { 'aria-label': 'Table' },
      h('div.trophies-wrap', h('h2.label', 'Trophies'),
        h('ul.trophies', v.trophies.map((tr) => trophyTile(tr, v.trophy_leaders?.[tr] != null ? who(v.trophy_leaders[tr]) : null)))),
      h('div.contract-market', h('h2.label', 'Contracts'), h('div.row-cards', contracts)),
      h('div.number-market', h('h2.label', 'Market'), h('div.row-cards', market)),
      h('div.piles', { 'aria-label': 'Decks and discard pile' },
        h('div.pile', cardBack(`Number deck: ${v.number_deck} cards`, v.number_deck), h('span', 'Deck')),
        h('div.pile', h('div.cback.contract-back', { role: 'img', 'aria-label': `Contract deck: ${v.contract_deck} cards` }, h('span.count', v.contract_deck)), h('span', 'Contracts')),
        h('div.pile', h('div.card.discard', { role: 'img', 'aria-label': `Discard pile: ${v.discard_pile} cards` }, h('span.count', v.discard_pile)), h('span', 'Discard'))));
  }

  function handArea() {
    const v = view();
    if (mySeat() == null) return h('section.hand-area.spectating', h('p', icon('he'), ' You are watching: hands stay hidden.'));
    const step = myTurn() ? v.phase.step : null;
    const hand = sortedHand();
    const me = v.seats[mySeat()];
    const completes = legalOf('complete').filter((a) => (t.sel.contract == null || a.contract === t.sel.contract) && (!t.sel.star || a.star));
    const selHand = selectedHandCards();
    const discards = legalOf('discard');
    const cards = hand.map((code, i) => {
      const selected = t.sel.hand.has(i);
      let possible = null;
      if (!selected && step === 'contracts') possible = completes.some((a) => covers(a.cards, [...selHand, code]));
      if (!selected && step === 'discard') possible = discards.some((a) => covers(a.cards, [...selHand, code]));
      const clickable = step === 'contracts' || step === 'discard';
      return numberCard(code, { selected, possible, extra: { 'data-key': `h${i}`, 'data-index': i }, onclick: clickable ? () => toggle(t.sel.hand, i) : null });
    });
    const starClickable = step === 'contracts' && !me.star_used;
    // The Star is lit when some move with the current picks uses it; it must be picked when every one does.
    const withStar = legalOf('complete').filter((a) => a.star && (t.sel.contract == null || a.contract === t.sel.contract)
      && covers(a.cards, selHand));
    const starPossible = t.sel.star ? null : withStar.length > 0;
    return h('section.hand-area', { 'aria-labelledby': 'hand-title' },
      h('div.hand-head',
        h('h2.label', { id: 'hand-title' }, `Your hand (${hand.length})`),
        h('button.small.linklike', { type: 'button', 'data-key': 'sort', 'aria-pressed': String(t.bySuit), onclick: () => { t.bySuit = !t.bySuit; clearSelection(); draw(); } }, t.bySuit ? 'Sorted by suit' : 'Sorted by number'),
        h('span.bonus', { title: 'Your suit bonus pile: 1 point per card at the end, hidden from the others' }, `Suit bonus: ${(v.suit_bonus ?? []).length}`)),
      h('div.hand', cards.length ? cards : h('p.muted', 'No cards')),
      starClickable
        ? h('div.star-row', starToken({ selected: t.sel.star, possible: starPossible, onclick: () => { t.sel.star = !t.sel.star; t.error = ''; draw(); }, label: 'Use your Star (joker) for this contract' }), h('span.muted.small', 'The Star replaces any one card, once per game.'))
        : null);
  }

  function actionPanel() {
    const v = view();
    const items = [];
    if (t.result) return null;
    if (mySeat() == null) return h('section.actions', { 'aria-label': 'Actions' }, statusLine());
    if (botPlaysForMe()) {
      return h('section.actions', { 'aria-label': 'Actions' },
        statusLine(),
        h('div.notice.bot-notice', { id: 'bot-notice', role: 'status' },
          h('strong', 'The bot is playing for you.'),
          h('p', t.reclaiming
            ? 'You will have your seat back at the start of your next turn.'
            : 'Your time ran out, or you left the game: the bot plays your seat until you take it back.'),
          h('button.primary', { type: 'button', id: 'take-seat-back', 'data-key': 'take-seat-back', disabled: t.reclaiming || t.offline, onclick: () => { t.reclaiming = true; resync(); draw(); } }, 'Take my seat back')),
        h('p.error', { id: 'action-error', role: 'alert', tabindex: '-1' }, t.error ? t_('refused', { why: t.error }) : ''));
    }
    const step = myTurn() ? v.phase.step : null;
    const busy = t.pending != null;
    const canTakeBack = legalOf('take_back').length > 0;
    const clear = () => h('button', { type: 'button', id: 'act-clear', 'data-key': 'clear', onclick: () => { clearSelection(); draw(); } }, 'Clear');
    if (step === 'take') {
      const cards = selectedMarketCards();
      const exact = legalOf('take').some((a) => sameCards(a.cards, cards));
      items.push(h('p.hint', { id: 'hint' }, cards.length ? `Selected: ${cards.length} card${cards.length > 1 ? 's' : ''}${exact ? '' : ' — this take is not possible'}` : 'Pick the cards in the market.'));
      items.push(h('button.primary', { type: 'button', id: 'act-take', 'data-key': 'act-take', disabled: busy || !exact, onclick: () => act({ type: 'take', cards }) }, cards.length ? `Take ${cards.length} card${cards.length > 1 ? 's' : ''}` : 'Take'));
      if (cards.length) items.push(clear());
    } else if (step === 'contracts') {
      const cards = selectedHandCards();
      const c = t.sel.contract != null ? contract(t.sel.contract) : null;
      const forC = c ? legalOf('complete').filter((a) => a.contract === c.id && covers(a.cards, cards)) : [];
      const exact = forC.some((a) => a.star === t.sel.star && sameCards(a.cards, cards));
      const starOnly = !t.sel.star && forC.length > 0 && forC.every((a) => a.star);
      const need = c ? c.cards - (t.sel.star || starOnly ? 1 : 0) : 0;
      let hint = 'Pick a contract and the cards that complete it, or pass.';
      const starFits = !t.sel.star && forC.some((a) => a.star && sameCards(a.cards, cards));
      if (c && exact) hint = `Contract ${c.id}: ready. Complete it.`;
      else if (c && starFits && !starOnly) hint = `Contract ${c.id}: pick one more card, or the Star to complete it with these ${cards.length}.`;
      else if (c && starOnly && forC.some((a) => sameCards(a.cards, cards))) hint = `Contract ${c.id} needs the Star: pick the Star to complete it with these ${cards.length} cards.`;
      else if (c && !forC.length) hint = `These cards cannot complete contract ${c.id}.`;
      else if (c) hint = `Contract ${c.id}: select ${need} card${need === 1 ? '' : 's'} from your hand (${cards.length} selected)${t.sel.star || starOnly ? ' + the Star' : ''}.`;
      items.push(h('p.hint', { id: 'hint', class: starOnly || starFits ? 'hint star-needed' : 'hint' }, hint));
      items.push(h('button.primary', { type: 'button', id: 'act-complete', 'data-key': 'act-complete', disabled: busy || !exact, onclick: () => act({ type: 'complete', contract: t.sel.contract, cards, star: t.sel.star }) }, 'Complete contract'));
      items.push(h('button', { type: 'button', id: 'act-pass', 'data-key': 'act-pass', disabled: busy, onclick: () => act({ type: 'pass' }) }, 'Pass'));
      if (c || cards.length || t.sel.star) items.push(clear());
    } else if (step === 'discard') {
      const cards = selectedHandCards();
      const need = v.seats[mySeat()].hand_size - 10;
      const exact = legalOf('discard').some((a) => sameCards(a.cards, cards));
      items.push(h('p.hint', { id: 'hint' }, `Select ${need} card${need === 1 ? '' : 's'} to discard (${cards.length} selected).`));
      items.push(h('button.primary', { type: 'button', id: 'act-discard', 'data-key': 'act-discard', disabled: busy || !exact, onclick: () => act({ type: 'discard', cards }) }, `Discard ${cards.length || ''}`.trim()));
    }
    if (step && step !== 'discard') {
      items.push(h('button', { type: 'button', id: 'act-take-back', 'data-key': 'act-take-back', disabled: busy || !canTakeBack, title: 'Undo your last take or contract of this turn', onclick: () => act({ type: 'take_back' }) }, 'Take back'));
    }
    return h('section.actions', { class: step ? 'actions mine' : 'actions', 'aria-label': 'Actions' },
      statusLine(),
      items.length ? h('div.row.buttons', items) : null,
      h('p.error', { id: 'action-error', role: 'alert', tabindex: '-1' }, t.error ? t_('refused', { why: t.error }) : ''));
  }

  function endPanel() {
    const r = t.result;
    const winners = r.winners.map((s) => nameOf(s));
    const abandoned = r.ended_by === 'abandoned';
    const leaders = aheadAt(r).map((s) => nameOf(s));
    const title = abandoned ? 'Game abandoned'
      : r.winners.includes(mySeat()) ? (r.winners.length > 1 ? 'A shared win!' : 'You win!')
        : `${winners.join(' and ')} win${winners.length > 1 ? '' : 's'}!`;
    return h('section.card-panel.end', { class: abandoned ? 'card-panel end abandoned' : 'card-panel end', 'aria-labelledby': 'end-title' },
      h('h1', { id: 'end-title' }, title),
      h('p.muted', abandoned
        ? `Every player left, so the game stopped here. The scores as they stood: ${leaders.join(' and ')} ${leaders.length > 1 ? 'were' : 'was'} ahead.`
        : `The game ended because ${ENDED_BY_WORDS[r.ended_by]}.`),
      scoreTable(abandoned ? { ...r, winners: [] } : r, nameOf, (seat) => (isBotPlayer(seat) ? botBadge() : null)),
      h('ul.trophy-winners', Object.entries(r.trophy_winners).map(([tr, seat]) => h('li', `${TROPHIES[tr].name} (${TROPHIES[tr].points}): `, h('strong', seat == null ? 'nobody (tie)' : nameOf(seat))))),
      h('div.row.buttons',
        h('a.button.primary', { href: `#/games/${tableId}`, id: 'game-page-link' }, 'Game page and record'),
        h('a.button', { href: '#/' }, 'Back to the lobby')));
  }

  function gameScreen() {
    const v = view();
    return h('div.game', { class: `game${t.result ? ' over' : ''}` },
      t.result ? endPanel() : null,
      h('div.game-main',
        h('div.players', v.seats.map(playerArea)),
        board(),
        handArea()),
      h('aside.side',
        actionPanel(),
        h('section.log', { 'aria-labelledby': 'log-title' },
          h('h2.label', { id: 'log-title' }, 'Game log'),
          h('ol', { 'aria-live': 'polite' }, t.log.slice(-80).map((e) => h('li', { class: e.kind }, sentence(e.parts))))),
        h('div.table-info',
          h('p.muted.small.table-clock', `${clockWords(t.summary.clock)}.`),
          mySeat() == null ? null : h('details.share', h('summary', 'Invite link'), invitePanel()),
          mySeat() == null || t.result ? null : h('details.leave', h('summary', 'Leave the game'),
            h('p.small', 'The bot plays your seat while you are away; come back to this table to take it back. When every player has left, the game ends as abandoned.'),
            h('button', { type: 'button', id: 'leave-game', onclick: () => { connection.send({ type: 'leave', table: tableId }); location.hash = '#/'; } }, 'Leave: the bot plays for me')))));
  }

  // --- the test hook (read-only) ------------------------------------------------------------------------
  window.__romirami.page = {
    name: 'table',
    legal: () => (myTurn() && t.pending == null ? t.legal : null),
    view: () => view(),
    summary: () => t.summary,
    role: () => t.role,
    eventCount: () => t.eventCount,
    result: () => t.result,
    error: () => t.error,
    pending: () => t.pending,
    clocks: () => liveClocks(),
    // Sends an action the page's controls would not let anyone build, to see how a refusal is shown.
    actUnchecked: (action) => act(action),
    log: () => t.log.map((e) => e.parts.map((p) => (typeof p === 'string' ? p : p.card ?? `contract ${p.contract}`)).join('')),
  };

  draw();
  connection.ready().then(enter, () => {
    replace(el, h('section.card-panel', h('h1', 'Join the table'), nameForm(() => { draw(); enter(); }, { intro: 'Choose the name other players will see, then you sit down.' })));
  });

  return () => {
    clearInterval(ticker);
    announcer.remove();
    for (const off of offs) off();
    if (t.summary && mode === 'watch') connection.send({ type: 'leave', table: tableId });
  };
}

/**
 * The seats ahead when a game stopped: its winners, or for an abandoned game (whose `winners` may be
 * empty) the highest totals, ties broken by the suit bonus as §5 does.
 */
export function aheadAt(result) {
  if (result.winners.length) return result.winners;
  const key = (s) => s.total * 1000 + s.suit_bonus;
  const best = Math.max(...result.scores.map(key));
  return result.scores.filter((s) => key(s) === best).map((s) => s.seat);
}

/** The mark of a seat the server's bot played. */
export function botBadge(text = 'Bot', title = 'The server’s bot played this seat') {
  return h('span.badge.bot', { title }, text);
}

/**
 * The final scores with their parts (§5), for the end screen and the game page; `noteOf(seat)` may add
 * a mark after a player's name.
 */
export function scoreTable(result, nameOf, noteOf = () => null) {
  const rows = [...result.scores].sort((a, b) => b.total - a.total);
  return h('table.scores',
    h('caption', 'Final scores'),
    h('thead', h('tr', h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Contracts'), h('th', { scope: 'col' }, 'Trophies'), h('th', { scope: 'col' }, 'Suit bonus'), h('th', { scope: 'col' }, 'Star'), h('th', { scope: 'col' }, 'Total'))),
    h('tbody', rows.map((s) => h('tr', { class: result.winners.includes(s.seat) ? 'winner' : '' },
      h('th', { scope: 'row' }, result.winners.includes(s.seat) ? h('span.crown', { 'aria-label': 'winner' }, '★ ') : null, nameOf(s.seat), noteOf(s.seat)),
      h('td', s.contracts), h('td', s.trophies), h('td', s.suit_bonus), h('td', s.star), h('td.total', s.total)))));
}

