// @ts-check
// The home page: choose a display name (kept with the guest token in this browser) or sign in with a name
// kept with a password (account.js), see the live list
// of public tables (protocol section 12) and sit down or watch, play against the server's bots at once
// (play-bot.js), and create a table (seats, public or private, who may watch, rated or casual, its turn
// clock). A named player sees their ratings here. Creating a
// table leads to its page, where the invite link is.

import { connection } from './connection.js';
import { h, replace, toast, icon } from './dom.js';
import { rememberInvite } from './identity.js';
import { CLOCK_PRESETS, clockTimes, clockWords, isTurnBased, presetName } from './clock.js';
import { t } from './i18n.js';
import { explainError } from './errors.js';
import { nameForm, botBadge, shownName } from './widgets.js';
import { gameInfo, gameName, gameSelect, optionFields, optionWords, readOptions } from './game-options.js';
import { playerRatings } from './ratings.js';
import { accountBox } from './account.js';
import { playBotForm, seatPlannedBots, forgetPlannedBots } from './play-bot.js';

/** @typedef {import('./shell/state.js').Summary} Summary */

/** @param {Summary} summary */
function seatsText(summary) {
  const taken = summary.seats.filter(Boolean).length;
  return summary.state === 'waiting'
    ? t('lobby.seatsTaken', { taken, seats: summary.seats.length })
    : t('lobby.players', { n: taken });
}

/** @param {Summary} summary @param {{id: string} | null} me */
function tableRow(summary, me) {
  const mine = summary.seats.some((s) => s?.id === me?.id);
  const free = summary.state === 'waiting' && summary.seats.some((s) => s === null);
  const canWatch = summary.spectators === 'everyone';
  const host = summary.seats.find((s) => s?.id === summary.host)?.name ?? t('lobby.someone');
  /** @param {number} i */
  const bot = (i) => summary.bots?.[i] === true;
  const watching = summary.spectator_count ? ` · ${t('lobby.watching', { n: summary.spectator_count })}` : '';
  const options = optionWords(summary.game, summary.options);
  return h(
    'li.table-row',
    { 'data-table': summary.id },
    h(
      'div.who',
      h(
        'span.badge',
        { class: `state-${summary.state}` },
        t(summary.state === 'waiting' ? 'lobby.waiting' : 'lobby.playing'),
      ),
      h('strong', t('lobby.hostTable', { host })),
      h('span.muted.game-name', { 'data-game': summary.game ?? 'romi-rami' }, ` · ${gameName(summary.game)}`),
      options ? h('span.muted.small.game-options', ` (${options})`) : null,
      h('span.muted', ` · ${seatsText(summary)}${watching}`),
      h(
        'span.badge',
        { class: summary.rated === false ? 'casual' : 'rated' },
        t(summary.rated === false ? 'lobby.casual' : 'lobby.rated'),
      ),
      h('span.muted.small.clock-words', clockWords(summary.clock)),
    ),
    h(
      'ul.seat-list',
      { 'aria-label': t('lobby.seats') },
      summary.seats.map((s, i) =>
        h(
          'li',
          { class: s ? (bot(i) ? 'taken bot' : 'taken') : 'free' },
          s ? shownName(s.name, summary.levels?.[i]) : t('lobby.freeSeat'),
          s && bot(i) ? botBadge() : null,
        ),
      ),
    ),
    h(
      'div.row-actions',
      mine
        ? h('a.button.primary', { href: `#/table/${summary.id}` }, t('lobby.back'))
        : free
          ? h('a.button.primary', { href: `#/table/${summary.id}`, 'data-action': 'sit' }, t('lobby.sit'))
          : null,
      canWatch && !mine
        ? h('a.button', { href: `#/table/${summary.id}?watch=1`, 'data-action': 'watch' }, t('lobby.watch'))
        : null,
    ),
  );
}

/** @param {HTMLElement} root */
export function mountLobby(root) {
  /** @type {Map<string, Summary>} */
  const tables = new Map();
  const list = h('ul.tables', { 'aria-live': 'polite', 'aria-label': t('lobby.tables') });
  const whoBox = h('section.card-panel.who-box', { 'aria-labelledby': 'who-title' });
  const createBox = h('section.card-panel', { 'aria-labelledby': 'create-title' });
  const playBotBox = h('section.card-panel.play-bot-box', { 'aria-labelledby': 'play-bot-title' });
  /** @type {HTMLElement | null} */
  let createError = null;
  const tablesBox = h(
    'section.card-panel.tables-box',
    { 'aria-labelledby': 'tables-title' },
    h('h2', { id: 'tables-title' }, t('lobby.tables')),
    list,
  );

  root.append(
    h(
      'div.lobby',
      h(
        'section.hero',
        h('h1', 'Romi Rami'),
        h('p', t('lobby.tagline')),
        h('p.suits', { 'aria-hidden': 'true' }, icon('ch'), icon('di'), icon('he'), icon('cl')),
      ),
      whoBox,
      playBotBox,
      createBox,
      tablesBox,
    ),
  );

  function drawList() {
    const rows = [...tables.values()].sort((a, b) => (a.state === b.state ? 0 : a.state === 'waiting' ? -1 : 1));
    if (!connection.player) replace(list, h('li.empty', t('lobby.noName')));
    else if (!rows.length) replace(list, h('li.empty', t('lobby.none')));
    else
      replace(
        list,
        rows.map((row) => tableRow(row, connection.player)),
      );
  }

  function drawWho() {
    const player = connection.player;
    if (!player) {
      replace(
        whoBox,
        h('h2', { id: 'who-title' }, t('lobby.welcome')),
        nameForm(() => start()),
        accountBox(null),
      );
      return;
    }
    const [before, after] = t('lobby.playAs', { name: '\u0001' }).split('\u0001');
    const [rb, ra] = t('lobby.renameNote', { name: '\u0001' }).split('\u0001');
    replace(
      whoBox,
      h('h2', { id: 'who-title' }, t('lobby.welcomeBack')),
      h('p', before, h('strong', { 'data-testid': 'my-name' }, player.name), after),
      accountBox(player),
      playerRatings(player.id),
      h(
        'details.rename',
        h('summary', t('lobby.rename')),
        h('p.muted', rb, player.name, ra),
        nameForm(
          () => {
            location.reload();
          },
          { intro: t('name.new') },
        ),
      ),
    );
  }

  function drawCreate() {
    // The seats follow the game's player range, and its options appear under it.
    const seats = /** @type {HTMLSelectElement} */ (h('select', { id: 'opt-seats', name: 'seats' }));
    const gameOptions = h('div.game-options-fields');
    const game = gameSelect('opt-game', () => chooseGame());
    const chooseGame = () => {
      const info = gameInfo(game.value);
      const was = Number(seats.value) || 2;
      const counts = Array.from({ length: info.max - info.min + 1 }, (_, i) => info.min + i);
      replace(
        seats,
        counts.map((n) =>
          h('option', { value: n, selected: n === Math.min(was, info.max) }, t('create.nPlayers', { n })),
        ),
      );
      replace(gameOptions, optionFields(game.value));
    };
    chooseGame();
    const visibility = h(
      'select',
      { id: 'opt-public', name: 'public' },
      h('option', { value: 'false' }, t('create.private')),
      h('option', { value: 'true' }, t('create.public')),
    );
    const spectators = h(
      'select',
      { id: 'opt-spectators', name: 'spectators' },
      h('option', { value: 'everyone' }, t('create.everyone')),
      h('option', { value: 'link' }, t('create.link')),
      h('option', { value: 'nobody' }, t('create.nobody')),
    );
    const rated = h(
      'select',
      { id: 'opt-rated', name: 'rated' },
      h('option', { value: 'true' }, t('create.rated')),
      h('option', { value: 'false' }, t('create.casual')),
    );
    const clock = /** @type {HTMLSelectElement} */ (
      h(
        'select',
        {
          id: 'opt-clock',
          name: 'clock',
          onchange: () => {
            custom.hidden = clock.value !== 'custom';
            turnBasedHelp.hidden = !isTurnBased(CLOCK_PRESETS.find((p) => p.id === clock.value));
          },
        },
        h('option', { value: 'none' }, t('clock.none')),
        CLOCK_PRESETS.map((p) => h('option', { value: p.id }, `${presetName(p.id)}: ${clockTimes(p)}`)),
        h('option', { value: 'custom' }, t('create.custom')),
      )
    );
    const turnS = /** @type {HTMLInputElement} */ (
      h('input', {
        id: 'opt-turn-s',
        type: 'number',
        min: 1,
        max: 3600,
        step: 1,
        value: 60,
        'aria-label': t('create.turnS'),
      })
    );
    const reserveS = /** @type {HTMLInputElement} */ (
      h('input', {
        id: 'opt-reserve-s',
        type: 'number',
        min: 0,
        max: 3600,
        step: 1,
        value: 180,
        'aria-label': t('create.reserveS'),
      })
    );
    const custom = h(
      'div.row.custom-clock',
      { hidden: true },
      turnS,
      h('span', t('create.sTurn')),
      reserveS,
      h('span', t('create.sReserve')),
    );
    const turnBasedHelp = h('p.muted.small.turn-based-help', { hidden: true }, t('create.turnBasedHelp'));
    const error = h('p.error', { role: 'alert' });
    const button = h(
      'button.primary',
      { type: 'submit', id: 'create-table', disabled: !connection.player },
      t('create.go'),
    );
    // The clock as create_table wants it; null for none, or a sentence when the custom times are wrong.
    /** @returns {import('./clock.js').Clock | null | string} */
    const chosenClock = () => {
      if (clock.value === 'none') return null;
      const preset = CLOCK_PRESETS.find((p) => p.id === clock.value);
      if (preset) return { turn_ms: preset.turn_ms, reserve_ms: preset.reserve_ms };
      const [turn, reserve] = [Number(turnS.value), Number(reserveS.value)];
      if (!(turn >= 1 && turn <= 3600 && reserve >= 0 && reserve <= 3600)) return t('create.badClock');
      return { turn_ms: Math.round(turn * 1000), reserve_ms: Math.round(reserve * 1000) };
    };
    replace(
      createBox,
      h('h2', { id: 'create-title' }, t('create.title')),
      h(
        'form.create',
        {
          onsubmit: (/** @type {Event} */ e) => {
            e.preventDefault();
            error.textContent = '';
            const chosen = chosenClock();
            if (typeof chosen === 'string') {
              error.textContent = chosen;
              return;
            }
            const options = readOptions(game.value, gameOptions);
            if (typeof options === 'string') {
              error.textContent = options;
              return;
            }
            /** @type {Record<string, any>} */
            const msg = {
              type: 'create_table',
              seats: Number(/** @type {HTMLSelectElement} */ (seats).value),
              public: /** @type {HTMLSelectElement} */ (visibility).value === 'true',
              spectators: /** @type {HTMLSelectElement} */ (spectators).value,
              rated: /** @type {HTMLSelectElement} */ (rated).value === 'true',
            };
            if (chosen) msg.clock = chosen;
            if (game.value !== 'romi-rami') {
              msg.game = game.value;
              msg.options = options;
            }
            forgetPlannedBots();
            const sent = connection.send(msg);
            if (!sent) error.textContent = t('create.offline');
          },
        },
        h('label', { for: 'opt-game' }, t('create.game')),
        game,
        gameOptions,
        h('label', { for: 'opt-seats' }, t('create.seats')),
        seats,
        h('label', { for: 'opt-public' }, t('create.table')),
        visibility,
        h('label', { for: 'opt-spectators' }, t('create.spectators')),
        spectators,
        h('label', { for: 'opt-rated' }, t('create.ratedLabel')),
        rated,
        h('label', { for: 'opt-clock' }, t('create.clock')),
        clock,
        custom,
        h('p.muted.small.clock-help', t('create.clockHelp')),
        turnBasedHelp,
        button,
        error,
      ),
    );
    createError = error;
  }

  function drawPlayBot() {
    const error = h('p.error', { role: 'alert' });
    replace(
      playBotBox,
      h('h2', { id: 'play-bot-title' }, t('playBot.title')),
      h('p.muted.small', t('playBot.intro')),
      playBotForm(connection, error),
      error,
    );
  }

  const offs = [
    connection.on('lobby', (msg) => {
      tables.clear();
      for (const row of msg.tables) tables.set(row.id, row);
      drawList();
    }),
    connection.on('lobby_table', (msg) => {
      tables.set(msg.table.id, msg.table);
      drawList();
    }),
    connection.on('lobby_table_removed', (msg) => {
      tables.delete(msg.table);
      drawList();
    }),
    connection.on('table_created', (msg) => {
      rememberInvite(msg.table.id, msg.invite);
      seatPlannedBots(connection, msg.table.id);
      location.hash = `#/table/${msg.table.id}`;
    }),
    connection.on('error', (msg) => {
      if (!msg.table && createError) createError.textContent = explainError(msg);
      else toast(explainError(msg), 'error');
    }),
    connection.on('reconnected', () => connection.send({ type: 'lobby_subscribe' })),
  ];

  function start() {
    drawWho();
    drawPlayBot();
    drawCreate();
    drawList();
    connection.send({ type: 'lobby_subscribe' });
  }

  drawWho();
  drawPlayBot();
  drawCreate();
  drawList();
  connection.ready().then(start, () => {
    drawWho();
  });

  return () => {
    for (const off of offs) off();
    connection.send({ type: 'lobby_unsubscribe' });
  };
}
