// The home page: choose a display name (kept with the guest token in this browser), see the live list
// of public tables (protocol section 12) and sit down or watch, and create a table (seats, public or
// private, who may watch, its turn clock). Creating a table leads to its page, where the invite link is.

import { connection } from './connection.js';
import { h, replace, toast, icon } from './dom.js';
import { identity, rememberInvite } from './identity.js';
import { CLOCK_PRESETS, clockTimes, clockWords } from './clock.js';

/** A form asking for a display name; calls `done(player)` once the server has welcomed it. */
export function nameForm(done, { intro = 'Choose the name other players will see.' } = {}) {
  const input = h('input', { id: 'name-input', name: 'name', maxlength: 24, required: true, autocomplete: 'nickname', value: identity().name ?? '', placeholder: 'Your name' });
  const error = h('p.error', { role: 'alert' });
  const form = h('form.name-form', {
    onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) { error.textContent = 'Please enter a name.'; return; }
      error.textContent = '';
      try {
        done(await connection.ready(name));
      } catch (err) {
        error.textContent = err.message === 'need_name' ? 'Please enter a name.' : err.message;
      }
    },
  },
  h('label', { for: 'name-input' }, intro),
  h('div.row', input, h('button.primary', { type: 'submit' }, 'Let’s play')),
  error);
  setTimeout(() => input.focus(), 0);
  return form;
}

function seatsText(summary) {
  const taken = summary.seats.filter(Boolean).length;
  return summary.state === 'waiting' ? `${taken} of ${summary.seats.length} seats taken` : `${taken} players`;
}

// The games a table may seat, by the name the server gives them (the table summary's `game`).
const GAME_NAMES = { 'romi-rami': 'Romi Rami' };

function tableRow(summary, me) {
  const mine = summary.seats.some((s) => s?.id === me?.id);
  const free = summary.state === 'waiting' && summary.seats.some((s) => s === null);
  const canWatch = summary.spectators === 'everyone';
  const host = summary.seats.find((s) => s?.id === summary.host)?.name ?? 'someone';
  const bot = (i) => summary.bots?.[i] === true;
  return h('li.table-row', { 'data-table': summary.id },
    h('div.who',
      h('span.badge', { class: `state-${summary.state}` }, summary.state === 'waiting' ? 'Waiting' : 'Playing'),
      h('strong', `${host}’s table`),
      h('span.muted', ` · ${GAME_NAMES[summary.game] ?? summary.game ?? 'Romi Rami'}`),
      h('span.muted', ` · ${seatsText(summary)}${summary.spectator_count ? ` · ${summary.spectator_count} watching` : ''}`),
      h('span.muted.small.clock-words', clockWords(summary.clock))),
    h('ul.seat-list', { 'aria-label': 'Seats' }, summary.seats.map((s, i) => h('li', { class: s ? (bot(i) ? 'taken bot' : 'taken') : 'free' },
      s ? s.name : 'free seat', s && bot(i) ? h('span.badge.bot', { title: 'The server’s bot plays this seat' }, 'Bot') : null))),
    h('div.row-actions',
      mine ? h('a.button.primary', { href: `#/table/${summary.id}` }, 'Back to my seat')
        : free ? h('a.button.primary', { href: `#/table/${summary.id}`, 'data-action': 'sit' }, 'Sit down') : null,
      canWatch && !mine ? h('a.button', { href: `#/table/${summary.id}?watch=1`, 'data-action': 'watch' }, 'Watch') : null));
}

export function mountLobby(root) {
  const tables = new Map();
  const list = h('ul.tables', { 'aria-live': 'polite', 'aria-label': 'Open tables' });
  const whoBox = h('section.card-panel.who-box', { 'aria-labelledby': 'who-title' });
  const createBox = h('section.card-panel', { 'aria-labelledby': 'create-title' });
  const tablesBox = h('section.card-panel.tables-box', { 'aria-labelledby': 'tables-title' },
    h('h2', { id: 'tables-title' }, 'Open tables'), list);

  root.append(h('div.lobby',
    h('section.hero',
      h('h1', 'Romi Rami'),
      h('p', 'Take numbers from the market, complete contracts, win trophies. A card game for 2 to 4 players.'),
      h('p.suits', { 'aria-hidden': 'true' }, icon('ch'), icon('di'), icon('he'), icon('cl'))),
    whoBox, createBox, tablesBox));

  function drawList() {
    const rows = [...tables.values()].sort((a, b) => (a.state === b.state ? 0 : a.state === 'waiting' ? -1 : 1));
    if (!connection.player) replace(list, h('li.empty', 'Choose a name to see the tables.'));
    else if (!rows.length) replace(list, h('li.empty', 'No open tables right now. Create one and invite a friend!'));
    else replace(list, rows.map((t) => tableRow(t, connection.player)));
  }

  function drawWho() {
    const player = connection.player;
    if (!player) {
      replace(whoBox, h('h2', { id: 'who-title' }, 'Welcome'), nameForm(() => start()));
      return;
    }
    replace(whoBox, h('h2', { id: 'who-title' }, 'Welcome back'),
      h('p', 'You play as ', h('strong', { 'data-testid': 'my-name' }, player.name), '.'),
      h('details.rename', h('summary', 'Play under another name'),
        h('p.muted', 'A new name makes you a new guest: your seats at current tables stay with ', player.name, '.'),
        nameForm(() => { location.reload(); }, { intro: 'New name' })));
  }

  function drawCreate() {
    const seats = h('select', { id: 'opt-seats', name: 'seats' }, [2, 3, 4].map((n) => h('option', { value: n }, `${n} players`)));
    const visibility = h('select', { id: 'opt-public', name: 'public' },
      h('option', { value: 'false' }, 'Private: invite link only'), h('option', { value: 'true' }, 'Public: listed here'));
    const spectators = h('select', { id: 'opt-spectators', name: 'spectators' },
      h('option', { value: 'everyone' }, 'Anyone may watch'), h('option', { value: 'link' }, 'Only with the link'), h('option', { value: 'nobody' }, 'Nobody may watch'));
    const clock = h('select', { id: 'opt-clock', name: 'clock', onchange: () => { custom.hidden = clock.value !== 'custom'; } },
      h('option', { value: 'none' }, 'No clock: a friendly table'),
      CLOCK_PRESETS.map((p) => h('option', { value: p.id }, `${p.name}: ${clockTimes(p)}`)),
      h('option', { value: 'custom' }, 'Custom…'));
    const turnS = h('input', { id: 'opt-turn-s', type: 'number', min: 1, max: 3600, step: 1, value: 60, 'aria-label': 'Seconds a turn' });
    const reserveS = h('input', { id: 'opt-reserve-s', type: 'number', min: 0, max: 3600, step: 1, value: 180, 'aria-label': 'Seconds of reserve' });
    const custom = h('div.row.custom-clock', { hidden: true }, turnS, h('span', 's a turn +'), reserveS, h('span', 's reserve'));
    const error = h('p.error', { role: 'alert' });
    const button = h('button.primary', { type: 'submit', id: 'create-table', disabled: !connection.player }, 'Create table');
    // The clock as create_table wants it; null for none, or a sentence when the custom times are wrong.
    const chosenClock = () => {
      if (clock.value === 'none') return null;
      const preset = CLOCK_PRESETS.find((p) => p.id === clock.value);
      if (preset) return { turn_ms: preset.turn_ms, reserve_ms: preset.reserve_ms };
      const [turn, reserve] = [Number(turnS.value), Number(reserveS.value)];
      if (!(turn >= 1 && turn <= 3600 && reserve >= 0 && reserve <= 3600)) return 'A custom clock needs 1 to 3600 s a turn and 0 to 3600 s of reserve.';
      return { turn_ms: Math.round(turn * 1000), reserve_ms: Math.round(reserve * 1000) };
    };
    replace(createBox, h('h2', { id: 'create-title' }, 'New table'),
      h('form.create', {
        onsubmit: (e) => {
          e.preventDefault();
          error.textContent = '';
          const chosen = chosenClock();
          if (typeof chosen === 'string') { error.textContent = chosen; return; }
          const msg = { type: 'create_table', seats: Number(seats.value), public: visibility.value === 'true', spectators: spectators.value };
          if (chosen) msg.clock = chosen;
          const sent = connection.send(msg);
          if (!sent) error.textContent = 'Not connected to the server yet.';
        },
      },
      h('label', { for: 'opt-seats' }, 'Seats'), seats,
      h('label', { for: 'opt-public' }, 'Table'), visibility,
      h('label', { for: 'opt-spectators' }, 'Spectators'), spectators,
      h('label', { for: 'opt-clock' }, 'Clock'), clock,
      custom,
      h('p.muted.small.clock-help', 'With a clock, a turn that runs over spends the seat’s reserve; a seat out of both is played by the bot until its player takes it back.'),
      button, error));
    createBox.error = error;
  }

  const offs = [
    connection.on('lobby', (msg) => { tables.clear(); for (const t of msg.tables) tables.set(t.id, t); drawList(); }),
    connection.on('lobby_table', (msg) => { tables.set(msg.table.id, msg.table); drawList(); }),
    connection.on('lobby_table_removed', (msg) => { tables.delete(msg.table); drawList(); }),
    connection.on('table_created', (msg) => {
      rememberInvite(msg.table.id, msg.invite);
      location.hash = `#/table/${msg.table.id}`;
    }),
    connection.on('error', (msg) => {
      if (!msg.table && createBox.error) createBox.error.textContent = msg.message;
      else toast(msg.message, 'error');
    }),
    connection.on('reconnected', () => connection.send({ type: 'lobby_subscribe' })),
  ];

  function start() {
    drawWho();
    drawCreate();
    drawList();
    connection.send({ type: 'lobby_subscribe' });
  }

  drawWho();
  drawCreate();
  drawList();
  connection.ready().then(start, () => { drawWho(); });

  return () => {
    for (const off of offs) off();
    connection.send({ type: 'lobby_unsubscribe' });
  };
}
