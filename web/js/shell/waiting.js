// @ts-check
// The waiting room before the start: which game is about to be played (its options, rated or casual),
// the seats (the host may remove a player or add the server's bot), the invite link, and the start button; and
// what the page says one is invited to before one has chosen a name.

import { connection } from '../connection.js';
import { h, copyText, replace } from '../dom.js';
import { t } from '../i18n.js';
import { clockWords } from '../clock.js';
import { botBadge, shownName, levelSelect } from '../widgets.js';
import { gameInfo, gameName, optionWords } from '../game-options.js';
import { tableInfo } from '../api.js';

/**
 * The game about to be played, in words: "Rommi · Basic rummy · to 60 · Rated", as the host chose (the
 * host's bots are rated players too).
 * @param {import('./state.js').Summary} s
 */
export function gameLine(s) {
  const game = s.game ?? 'romi-rami';
  const options = optionWords(game, s.options);
  return h(
    'p.game-line',
    { id: 'wait-game', 'data-game': game },
    h('b', gameName(game)),
    options ? ` · ${options}` : '',
    ' · ',
    h('span', { class: s.rated === false ? 'casual' : 'rated' }, t(s.rated === false ? 'lobby.casual' : 'lobby.rated')),
  );
}

/**
 * What the page says one is invited to before one has a name (and so no WebSocket): the game the link names,
 * then the table's game, options, clock and seats as the server tells them (GET /api/tables/<id>, with the
 * link's invite key for a private table).
 * @param {string} tableId @param {URLSearchParams} params @param {string | null} invite
 */
export function invitedTo(tableId, params, invite) {
  const named = params.get('game');
  const line = h(
    'div.invited',
    { id: 'invited' },
    named && gameInfo(named).id === named ? h('p.game-line', t('invite.toGame', { game: gameName(named) })) : null,
  );
  tableInfo(tableId, invite).then(
    (/** @type {import('./state.js').Summary & {seats: number}} */ table) => {
      const seats = t('invite.seats', { count: table.seats });
      replace(line, gameLine(table), h('p.muted.small', `${seats} · ${clockWords(table.clock)}.`));
    },
    () => {},
  );
  return line;
}

/** The link that brings a player to this table. @param {import('./state.js').Ctx} ctx */
export function invitePanel(ctx) {
  // The link names the game too, so that its page can say what one is invited to before one has a name.
  const query = new URLSearchParams();
  if (ctx.invite) query.set('invite', ctx.invite);
  query.set('game', ctx.game());
  const link = `${location.origin}${location.pathname}#/table/${ctx.tableId}?${query}`;
  const input = /** @type {HTMLInputElement} */ (
    h('input.link', {
      id: 'invite-link',
      readonly: true,
      value: link,
      'aria-label': t('invite.label'),
      onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select(),
    })
  );
  return h(
    'div.invite',
    h('label', { for: 'invite-link' }, t(ctx.st.summary?.public ? 'invite.public' : 'invite.private')),
    h(
      'div.row',
      input,
      h(
        'button',
        { type: 'button', id: 'copy-invite', 'data-key': 'copy', onclick: () => copyText(link, input) },
        t('invite.copy'),
      ),
    ),
  );
}

/** The level of the next bot the host adds: kept across the room's redraws (`normal` at first). */
let botLevel = 'normal';

/** The host's choice of the next bot's level. @param {boolean} free whether a seat is free */
function botLevelSelect(free) {
  return h(
    'label.bot-level',
    t('wait.botLevel'),
    ' ',
    levelSelect('bot-level', botLevel, {
      'data-key': 'bot-level',
      disabled: !free,
      onchange: (/** @type {Event} */ e) => {
        botLevel = /** @type {HTMLSelectElement} */ (e.target).value;
      },
    }),
  );
}

/**
 * The deal being made: the server has committed to its seed (the commitment's first digits shown), and each
 * seat adds randomness of its own before the cards are dealt; who has, and how long the server still waits.
 * @param {import('./state.js').Summary} s
 */
function dealingPanel(s) {
  const seats = s.contributions?.seats ?? [];
  const waiting = seats.filter((c) => c === 'waiting').length;
  return h(
    'div.dealing',
    { id: 'dealing', 'data-waiting': String(waiting), role: 'status' },
    h('p', h('b', t('deal.title')), ' ', t('deal.explain', { short: (s.shuffle ?? '').slice(0, 12) })),
    h(
      'ul.deal-seats',
      seats.map((from, i) =>
        h(
          'li',
          { 'data-seat': i, 'data-from': from },
          `${s.seats[i] ? shownName(s.seats[i].name, s.levels?.[i]) : t('wait.seat', { n: i + 1 })}: `,
          t(`deal.${from}`),
        ),
      ),
    ),
  );
}

/** @param {import('./state.js').Ctx} ctx */
export function waitingRoom(ctx) {
  const s = /** @type {import('./state.js').Summary} */ (ctx.st.summary);
  if (s.contributions) {
    return h(
      'section.card-panel.waiting',
      { 'aria-labelledby': 'wait-title' },
      h('h1', { id: 'wait-title' }, t('deal.starting')),
      gameLine(s),
      dealingPanel(s),
      ctx.st.error ? h('p.error', { role: 'alert' }, ctx.st.error) : null,
    );
  }
  const me = connection.player?.id;
  const isHost = me === s.host;
  const seated = s.seats.filter(Boolean).length;
  const amSeated = s.seats.some((p) => p?.id === me);
  const free = s.seats.some((p) => p === null);
  return h(
    'section.card-panel.waiting',
    { 'aria-labelledby': 'wait-title' },
    h('h1', { id: 'wait-title' }, t('wait.title')),
    gameLine(s),
    ctx.st.notice ? h('p.notice', ctx.st.notice) : null,
    h('p.muted', t('wait.taken', { taken: seated, seats: s.seats.length, host: isHost })),
    h(
      'ol.seats',
      s.seats.map((p, i) =>
        h(
          'li',
          { class: p ? (ctx.isBot(i) ? 'taken bot' : 'taken') : 'free', 'data-seat': i },
          h('span.seatno', t('wait.seat', { n: i + 1 })),
          h('span.pname', p ? shownName(p.name, s.levels?.[i]) : t('wait.free')),
          p?.id === s.host ? h('span.badge', t('wait.host')) : null,
          p && ctx.isBot(i) ? botBadge() : null,
          p?.id === me ? h('span.badge.you', t('wait.you')) : null,
          isHost && p && p.id !== s.host
            ? h(
                'button.small',
                { type: 'button', 'data-key': `kick${i}`, onclick: () => ctx.send('kick', { seat: i }) },
                t('wait.remove'),
              )
            : null,
        ),
      ),
    ),
    invitePanel(ctx),
    h(
      'div.row.buttons',
      isHost ? botLevelSelect(free) : null,
      isHost
        ? h(
            'button',
            {
              type: 'button',
              id: 'add-bot',
              'data-key': 'add-bot',
              disabled: !free,
              title: t(free ? 'wait.addBotTitle' : 'wait.full'),
              onclick: () => ctx.send('add_bot', { level: botLevel }),
            },
            t('wait.addBot'),
          )
        : null,
      isHost
        ? h(
            'button.primary',
            {
              type: 'button',
              id: 'start-game',
              'data-key': 'start',
              disabled: seated < 2,
              onclick: () => ctx.send('start'),
            },
            t(seated < 2 ? 'wait.needs2' : 'wait.start'),
          )
        : null,
      !amSeated && free
        ? h('button.primary', { type: 'button', id: 'sit-down', onclick: () => ctx.sit() }, t('wait.sit'))
        : null,
      h(
        'button',
        { type: 'button', 'data-key': 'leave', onclick: () => ctx.leave() },
        t(amSeated ? 'wait.leave' : 'wait.stop'),
      ),
    ),
    ctx.st.error ? h('p.error', { role: 'alert' }, ctx.st.error) : null,
    h('p.muted.small', `${t(`wait.${s.spectators}`)} ${t(s.public ? 'wait.listed' : 'wait.private')}`),
    h('p.muted.small.table-clock', `${clockWords(s.clock)}.`),
  );
}
