// @ts-check
// The tournaments page (`#/tournaments`, docs/tournaments.md): the tournaments that take players, those in
// play and the finished ones, each with a link to its page; and, for a player who keeps their name, the form
// that creates one (game, Swiss or arena, table size, rounds or minutes, clock, start, players, duplicate
// deals, rated). Joining is on the tournament's page.

import { h, replace } from './dom.js';
import { ApiError, createTournament, getPlayer, listTournaments } from './api.js';
import { identity } from './identity.js';
import { t, dateTime } from './i18n.js';
import { CLOCK_PRESETS, presetName, clockTimes } from './clock.js';
import { GAMES, gameInfo, gameName } from './game-options.js';
import { errorBox } from './widgets.js';

/** @typedef {{id: string, game: string, format: string, duplicate: boolean, state: string, seats: number,
 * rounds_planned?: number, minutes?: number, max_players: number, starts_at?: number, players: any[]}} Tournament */

/** "Swiss · 3 rounds · tables of 2", "Arena · 30 min · duplicate deals". @param {Tournament} tour */
export function formatWords(tour) {
  const parts = [
    tour.format === 'swiss'
      ? t('tour.swissRounds', { n: tour.rounds_planned ?? 0 })
      : t('tour.arenaMinutes', { n: tour.minutes ?? 0 }),
    t('tour.tablesOf', { n: tour.seats }),
  ];
  if (tour.duplicate) parts.push(t('tour.duplicate'));
  return parts.join(' · ');
}

/** One tournament in a list. @param {Tournament} tour */
function item(tour) {
  const start =
    tour.state === 'waiting' && tour.starts_at
      ? t('tour.startsAt', { at: dateTime(new Date(tour.starts_at).toISOString()) })
      : '';
  return h(
    'li.tournament-item',
    { 'data-tournament': tour.id },
    h('a', { href: `#/tournaments/${tour.id}` }, h('b', gameName(tour.game)), ' · ', formatWords(tour)),
    h(
      'span.muted',
      ' ',
      t('tour.playersOf', { n: tour.players.length, max: tour.max_players }),
      start ? ` · ${start}` : '',
    ),
  );
}

/** A labelled field. @param {string} id @param {string} label @param {HTMLElement} input */
const field = (id, label, input) => h('div.field', h('label', { for: id }, label), input);

/** The form that creates a tournament; `done(id)` once it is created. @param {(id: string) => void} done */
function createForm(done) {
  const game = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: 't-game' },
      GAMES.map((g) => h('option', { value: g.id }, g.name)),
    )
  );
  const seats = /** @type {HTMLSelectElement} */ (h('select', { id: 't-seats' }));
  const format = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: 't-format' },
      h('option', { value: 'swiss' }, t('tour.swiss')),
      h('option', { value: 'arena' }, t('tour.arena')),
    )
  );
  const rounds = /** @type {HTMLInputElement} */ (
    h('input', { id: 't-rounds', type: 'number', min: 1, max: 30, value: 3 })
  );
  const minutes = /** @type {HTMLInputElement} */ (
    h('input', { id: 't-minutes', type: 'number', min: 1, max: 1440, value: 30 })
  );
  const clock = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: 't-clock' },
      CLOCK_PRESETS.map((p) =>
        h('option', { value: p.id, selected: p.id === 'normal' }, `${presetName(p.id)}: ${clockTimes(p)}`),
      ),
    )
  );
  const max = /** @type {HTMLInputElement} */ (
    h('input', { id: 't-max', type: 'number', min: 2, max: 2000, value: 8 })
  );
  const start = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: 't-start' },
      h('option', { value: 'when_full' }, t('tour.whenFull')),
      h('option', { value: 'at' }, t('tour.atTime')),
    )
  );
  const at = /** @type {HTMLInputElement} */ (h('input', { id: 't-at', type: 'datetime-local' }));
  const duplicate = /** @type {HTMLInputElement} */ (h('input', { id: 't-duplicate', type: 'checkbox' }));
  const rated = /** @type {HTMLInputElement} */ (h('input', { id: 't-rated', type: 'checkbox', checked: true }));
  const error = h('p.error', { role: 'alert' });
  const roundsField = field('t-rounds', t('tour.rounds'), rounds);
  const minutesField = field('t-minutes', t('tour.minutes'), minutes);
  const atField = field('t-at', t('tour.startTime'), at);

  function shape() {
    const info = gameInfo(game.value);
    const was = seats.value || '2';
    replace(
      seats,
      Array.from({ length: info.max - info.min + 1 }, (_, i) => String(info.min + i)).map((n) =>
        h('option', { value: n, selected: n === was }, n),
      ),
    );
    roundsField.hidden = format.value !== 'swiss';
    minutesField.hidden = format.value !== 'arena';
    atField.hidden = start.value !== 'at';
  }
  for (const input of [game, format, start]) input.addEventListener('change', shape);
  shape();

  const button = /** @type {HTMLButtonElement} */ (
    h('button.primary', { id: 't-submit', type: 'submit' }, t('tour.create'))
  );
  return h(
    'form.tournament-form',
    {
      id: 'tournament-create',
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        error.textContent = '';
        const preset = CLOCK_PRESETS.find((p) => p.id === clock.value) ?? CLOCK_PRESETS[1];
        /** @type {Record<string, any>} */
        const body = {
          game: game.value,
          format: format.value,
          seats: Number(seats.value),
          clock: { turn_ms: preset.turn_ms, reserve_ms: preset.reserve_ms },
          start: start.value === 'at' && at.value ? new Date(at.value).toISOString() : 'when_full',
          max_players: Number(max.value),
          duplicate: duplicate.checked,
          rated: rated.checked,
        };
        if (format.value === 'swiss') body.rounds = Number(rounds.value);
        else body.minutes = Number(minutes.value);
        const { token } = identity();
        if (!token) return;
        button.disabled = true;
        try {
          const { id } = await createTournament(body, token);
          done(id);
        } catch (err) {
          const code = err instanceof ApiError ? err.code : '';
          error.textContent = ['too_many_tournaments', 'name_not_kept'].includes(code)
            ? t(`tour.error.${code}`)
            : err instanceof Error
              ? err.message
              : String(err);
          button.disabled = false;
        }
      },
    },
    h('h2', t('tour.createTitle')),
    h(
      'div.form-grid',
      field('t-game', t('tour.game'), game),
      field('t-format', t('tour.format'), format),
      field('t-seats', t('tour.seats'), seats),
      roundsField,
      minutesField,
      field('t-clock', t('clock.clock'), clock),
      field('t-max', t('tour.maxPlayers'), max),
      field('t-start', t('tour.start'), start),
      atField,
    ),
    h('label.check', duplicate, ' ', t('tour.duplicateAsk')),
    h('p.muted.hint', t('tour.duplicateHint')),
    h('label.check', rated, ' ', t('tour.rated')),
    error,
    button,
  );
}

/** The create form, or why it is not offered. @param {(id: string) => void} done */
function createArea(done) {
  const area = h('section.tournament-create', h('p.muted', t('loading')));
  const { id } = identity();
  if (!id) {
    replace(area, h('p.muted', t('tour.needName')));
    return area;
  }
  getPlayer(id).then(
    (page) =>
      replace(area, page.claimed === true ? createForm(done) : h('p.muted', { id: 't-keep-name' }, t('tour.needKept'))),
    () => replace(area, h('p.muted', t('tour.needKept'))),
  );
  return area;
}

/** @param {HTMLElement} root */
export function mountTournaments(root) {
  let alive = true;
  const lists = h('div.tournament-lists', h('p.muted', t('loading')));
  async function load() {
    try {
      const { tournaments } = await listTournaments();
      if (!alive) return;
      /** @param {string} state @param {string} title */
      const section = (state, title) => {
        const these = /** @type {Tournament[]} */ (tournaments).filter((x) => x.state === state);
        return h(
          `section.tournaments-${state}`,
          h('h2', title),
          these.length ? h('ul.tournaments', these.map(item)) : h('p.muted', t('tour.none')),
        );
      };
      replace(
        lists,
        section('waiting', t('tour.waiting')),
        section('running', t('tour.running')),
        section('finished', t('tour.finished')),
      );
    } catch (error) {
      if (alive) replace(lists, errorBox(error, load));
    }
  }
  load();
  root.append(
    h(
      'div.tournaments-page',
      h('h1', t('tour.title')),
      h('p.lead', t('tour.lead')),
      lists,
      createArea((id) => {
        location.hash = `#/tournaments/${id}`;
      }),
    ),
  );
  return () => {
    alive = false;
  };
}
