// @ts-check
// One tournament's page (`#/tournaments/<id>`, docs/tournaments.md): its shape and state, the countdown (to
// its start, its next round or its end), join / withdraw / pause, the standings, and every round's tables —
// the player's own to play, the others to watch, the finished ones to open. It follows the tournament over
// the WebSocket (`tournament_subscribe`): every change redraws it, and a `tournament_table` that seats this
// player takes them to their table.

import { connection } from './connection.js';
import { h, replace, toast } from './dom.js';
import { getTournament, joinTournament, withdrawTournament, pauseTournament, contributeToTournament } from './api.js';
import { contributeToRounds } from './shuffle-proof.js';
import { identity } from './identity.js';
import { t } from './i18n.js';
import { gameName } from './game-options.js';
import { clockWords, spanWords } from './clock.js';
import { errorBox } from './widgets.js';
import { formatWords } from './tournaments-page.js';

/** @typedef {{table: string, seats: string[], places?: number[], points?: number[]}} TourTable */

/** Points to at most three decimals, the reader's way. @param {number} x */
const pointsText = (x) => (Math.round(x * 1000) / 1000).toLocaleString();

/**
 * @param {HTMLElement} root @param {string} id
 * @returns {() => void}
 */
export function mountTournament(root, id) {
  let alive = true;
  /** @type {any} */
  let tour = null;
  // Whether the person asked to see every player and table of a tournament told live partial.
  let wantAll = false;
  const box = h('div.tournament-page', { 'data-tournament': id }, h('p.muted', t('loading')));
  const countdown = h('p.countdown', { id: 't-countdown', role: 'timer' });
  root.append(box);

  const me = () => connection.player?.id ?? identity().id ?? null;
  /** @param {string} player */
  const nameOf = (player) => tour?.players.find((/** @type {any} */ p) => p.id === player)?.name ?? '?';
  const mine = () => tour?.players.find((/** @type {any} */ p) => p.id === me());

  function tick() {
    if (!tour) return;
    const now = Date.now();
    /** @param {string} key @param {number} at */
    const left = (key, at) => t(key, { left: spanWords(Math.max(0, at - now)) });
    if (tour.state === 'waiting')
      countdown.textContent = tour.starts_at
        ? left('tour.startsIn', tour.starts_at)
        : t('tour.startsWhenFull', { n: tour.max_players - tour.players.length });
    else if (tour.state === 'running' && tour.next_round_at)
      countdown.textContent = left('tour.nextRoundIn', tour.next_round_at);
    else if (tour.state === 'running' && tour.ends_at) countdown.textContent = left('tour.endsIn', tour.ends_at);
    else countdown.textContent = tour.state === 'finished' ? t('tour.over') : '';
  }
  const timer = setInterval(tick, 1000);

  /** @param {() => Promise<any>} ask @param {HTMLButtonElement} button */
  async function act(ask, button) {
    button.disabled = true;
    try {
      tour = await ask();
      draw();
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
      button.disabled = false;
    }
  }

  function buttons() {
    const { token } = identity();
    if (!token || tour.state === 'finished') return null;
    const entry = mine();
    const playing = entry && ['active', 'paused'].includes(entry.status);
    const arena = tour.format === 'arena';
    const canJoin = !playing && (tour.state === 'waiting' || (arena && tour.state === 'running'));
    /** @type {HTMLElement[]} */
    const list = [];
    if (canJoin) {
      const b = /** @type {HTMLButtonElement} */ (
        h('button.primary', { id: 't-join', type: 'button' }, t('tour.join'))
      );
      b.onclick = () => act(() => joinTournament(id, token), b);
      list.push(b);
    }
    if (playing && arena && tour.state === 'running') {
      const paused = entry.status === 'paused';
      const b = /** @type {HTMLButtonElement} */ (
        h('button', { id: 't-pause', type: 'button' }, t(paused ? 'tour.resume' : 'tour.pause'))
      );
      b.onclick = () => act(() => pauseTournament(id, !paused, token), b);
      list.push(b);
    }
    if (playing) {
      const b = /** @type {HTMLButtonElement} */ (
        h('button', { id: 't-withdraw', type: 'button' }, t('tour.withdraw'))
      );
      b.onclick = () => {
        if (window.confirm(t('tour.withdrawAsk'))) act(() => withdrawTournament(id, token), b);
      };
      list.push(b);
    }
    return h('div.actions', list);
  }

  /** My table still in play, if any (a partial view lists no table: the call takes the player there). */
  function myTable() {
    if (tour.partial) return null;
    for (const round of tour.rounds)
      for (const table of round.tables) if (!table.places && table.seats.includes(me())) return table.table;
    return null;
  }

  function standings() {
    const champion = tour.state === 'finished' ? tour.standings[0]?.player : null;
    return h(
      'table.standings',
      { id: 't-standings', 'aria-label': t('tour.standings') },
      h(
        'thead',
        h(
          'tr',
          h('th.num', '#'),
          h('th', t('rs.player')),
          h('th.num', t('tour.points')),
          h('th.num', t('tour.games')),
          h('th.num', t('tour.tiebreak')),
        ),
      ),
      h(
        'tbody',
        tour.standings.map((/** @type {any} */ line, /** @type {number} */ i) => {
          const status = tour.players.find((/** @type {any} */ p) => p.id === line.player)?.status;
          return h(
            'tr',
            { class: line.player === me() ? 'me' : '', 'data-player': line.player },
            h('td.num', String(i + 1)),
            h(
              'th',
              { scope: 'row' },
              line.player === champion
                ? h('span.trophy', { title: t('tour.winner'), 'aria-label': t('tour.winner') }, '🏆 ')
                : null,
              h('a', { href: `#/players/${line.player}` }, nameOf(line.player)),
              status && status !== 'active' ? h('span.muted', ` (${t(`tour.status.${status}`)})`) : null,
            ),
            h('td.num', pointsText(line.points)),
            h('td.num', String(line.games)),
            h('td.num', pointsText(line.tiebreak)),
          );
        }),
      ),
    );
  }

  /** @param {TourTable} table */
  function tableLine(table) {
    const names = table.seats.map((p, i) => {
      const place = table.places ? ` (${table.places[i]}.)` : '';
      return h('span.seat', { class: p === me() ? 'me' : '' }, nameOf(p) + place);
    });
    const link = table.places
      ? h('a', { href: `#/games/${table.table}` }, t('tour.result'))
      : table.seats.includes(me())
        ? h('a.primary', { href: `#/table/${table.table}`, 'data-mine': 'true' }, t('tour.play'))
        : tour.duplicate
          ? null
          : h('a', { href: `#/table/${table.table}` }, t('tour.watch'));
    return h(
      'li',
      { 'data-table': table.table },
      names.flatMap((n, i) => (i ? [' · ', n] : [n])),
      ' ',
      link,
    );
  }

  function rounds() {
    return [...tour.rounds]
      .reverse()
      .map((/** @type {any} */ round) =>
        h(
          'section.round',
          { 'data-round': round.n },
          h('h3', tour.format === 'swiss' ? t('tour.round', { n: round.n }) : t('tour.wave', { n: round.n })),
          round.seed_commitment
            ? h('p.muted.commitment', t('tour.commitment', { c: round.seed_commitment.slice(0, 16) }))
            : null,
          dealing(round),
          tour.partial
            ? h('p.muted.in-play', t('tour.inPlay', { n: round.in_play, done: round.finished }))
            : h('ul.round-tables', round.tables.map(tableLine)),
          round.byes?.length ? h('p.muted', t('tour.byes', { names: round.byes.map(nameOf).join(', ') })) : null,
        ),
      );
  }

  /** A duplicate round's deal in the making: how many contributions are awaited. @param {any} round */
  function dealing(round) {
    const asked = round.contributions;
    if (!asked) return null;
    const waiting = asked.given
      ? asked.given.filter((/** @type {string} */ g) => g === 'waiting').length
      : asked.waiting;
    if (!waiting) return null;
    return h('p.muted.dealing', { id: `t-dealing-${round.n}` }, t('tour.dealing', { n: waiting }));
  }

  function draw() {
    if (!alive || !tour) return;
    // A duplicate round's deal waits for this player's contribution: this page sends it.
    const token = identity().token;
    if (token) contributeToRounds(tour, me(), (value) => contributeToTournament(id, value, token));
    const table = myTable();
    replace(
      box,
      h('p', h('a', { href: '#/tournaments' }, `← ${t('tour.title')}`)),
      h('h1', gameName(tour.game), ' · ', t(tour.format === 'swiss' ? 'tour.swiss' : 'tour.arena')),
      h(
        'p.muted',
        formatWords(tour),
        ' · ',
        clockWords(tour.clock),
        ' · ',
        t(tour.rated ? 'tour.ratedYes' : 'tour.ratedNo'),
      ),
      h(
        'p',
        h('span.badge', { id: 't-state', 'data-state': tour.state }, t(`tour.state.${tour.state}`)),
        ' ',
        t('tour.playersOf', { n: tour.players_total ?? tour.players.length, max: tour.max_players }),
      ),
      countdown,
      buttons(),
      table
        ? h('p.your-table', h('a.primary', { id: 't-your-table', href: `#/table/${table}` }, t('tour.yourTable')))
        : null,
      h('h2', t('tour.standings')),
      tour.players.length ? standings() : h('p.muted', t('tour.nobody')),
      tour.partial
        ? h(
            'p.muted',
            { id: 't-partial' },
            t('tour.partial', { n: tour.standings.length, total: tour.players_total }),
            ' ',
            h('button', { id: 't-show-all', type: 'button', onclick: showAll }, t('tour.showAll')),
          )
        : null,
      tour.rounds.length ? h('h2', t(tour.format === 'swiss' ? 'tour.rounds' : 'tour.waves')) : null,
      rounds(),
    );
    tick();
  }

  async function load() {
    try {
      tour = await getTournament(id);
      draw();
    } catch (error) {
      if (alive) replace(box, errorBox(error, load));
    }
  }

  /** A large tournament is told live partial (its leaders, its tables counted): show everything. */
  function showAll() {
    wantAll = true;
    load();
  }

  const subscribe = () => connection.send({ type: 'tournament_subscribe', tournament: id });
  const offs = [
    connection.on('tournament', (msg) => {
      if (msg.tournament?.id !== id) return;
      // Whoever asked to see everything gets the whole view at each change, over HTTP.
      if (msg.tournament.partial && wantAll) return load();
      tour = msg.tournament;
      draw();
    }),
    connection.on('tournament_table', (msg) => {
      if (msg.tournament !== id || !msg.seats.includes(me())) return;
      toast(t('tour.ready'));
      location.hash = `#/table/${msg.table}`;
    }),
    connection.on('status', ({ status }) => {
      if (status === 'open') subscribe();
    }),
  ];
  load();
  connection.ready().then(subscribe, () => {});
  return () => {
    alive = false;
    clearInterval(timer);
    for (const off of offs) off();
    connection.send({ type: 'tournament_unsubscribe' });
  };
}
