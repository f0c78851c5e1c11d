// @ts-check
// Past results from the REST API: the list of finished games with filters (game, player, number of players,
// dates), each naming its game and options, and a player's page with their statistics, ratings and recent
// games. A game's own page is game-page.js.

import { h, replace } from './dom.js';
import { listGames, getPlayer, listTournaments } from './api.js';
import { formatWords } from './tournaments-page.js';
import { t, dateTime, list, num } from './i18n.js';
import { botBadge, errorBox, shownName, isLevelBot } from './widgets.js';
import { playerRatings } from './ratings.js';
import { GAMES, gameName, optionWords } from './game-options.js';

/** @typedef {{seat: number, name: string, id: string, bot?: boolean, level?: string}} GamePlayer */
/**
 * @typedef {import('./widgets.js').Result & {id: string, players: GamePlayer[], bot_actions?: number[],
 *   started_at: string, finished_at: string, places?: number[], game?: string, options?: Record<string, any>}} Game
 */

/** An instant as the API wants it: RFC 3339 in UTC, whole seconds. @param {Date} date */
const rfc3339 = (date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** @param {GamePlayer} p */
export function playerLink(p) {
  return h('a', { href: `#/players/${p.id}` }, shownName(p.name, p.level));
}

/**
 * The mark after a player's name: a bot's seat, or how many of a player's moves the bot played.
 * @param {Game} game @param {number} seat @param {boolean} [short]
 */
export function botNote(game, seat, short = false) {
  const i = game.players.findIndex((p) => p.seat === seat);
  const moves = game.bot_actions?.[i] ?? 0;
  if (game.players[i]?.bot) return botBadge();
  if (moves > 0)
    return botBadge(
      t(short ? 'game.botMovesShort' : 'game.botMoves', { n: moves }),
      t('game.botMovesTitle', { n: moves }),
    );
  return null;
}

/**
 * Which game it was, with its options in words: "Rommi · 500 · to 60".
 * @param {Game} game
 */
export function gameAndOptions(game) {
  const options = optionWords(game.game ?? 'romi-rami', game.options);
  return options ? `${gameName(game.game)} · ${options}` : gameName(game.game);
}

/** @param {Game} game */
function gameRow(game) {
  const winners = new Set(game.winners);
  const abandoned = game.ended_by === 'abandoned';
  // A rummy game's scores carry no seat: they are in seat order.
  const bySeat = new Map(game.scores.map((s, i) => [s.seat ?? i, s]));
  const lineup = game.players.map((p) => `${shownName(p.name, p.level)} ${bySeat.get(p.seat)?.total ?? ''}`).join(', ');
  return h(
    'li.game-row',
    { 'data-game': game.id },
    h(
      'a.game-link',
      {
        href: `#/games/${game.id}`,
        'aria-label': t('games.rowLabel', { game: gameAndOptions(game), when: dateTime(game.finished_at), lineup }),
      },
      h('span.date', dateTime(game.finished_at)),
      h('span.game-name', { 'data-game': game.game ?? 'romi-rami' }, gameAndOptions(game)),
      h(
        'span.lineup',
        game.players.map((p) =>
          h(
            'span',
            { class: winners.has(p.seat) && !abandoned ? 'pl winner' : 'pl' },
            winners.has(p.seat) && !abandoned ? h('span.crown', { 'aria-hidden': 'true' }, '★') : null,
            shownName(p.name, p.level),
            botNote(game, p.seat, true),
            ' ',
            h('b', bySeat.get(p.seat)?.total ?? '–'),
          ),
        ),
      ),
      abandoned
        ? h('span.badge.abandoned', t('endedShort.abandoned'))
        : h('span.muted.small', t(`endedShort.${game.ended_by}`)),
    ),
  );
}

/** @param {HTMLElement} root @param {URLSearchParams} params */
export function mountGames(root, params) {
  let alive = true;
  const filters = {
    game: params.get('game') ?? '',
    player: params.get('player') ?? '',
    players: params.get('players') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const games = h('ul.games', { 'aria-live': 'polite' });
  const more = h('div.more');
  const status = h('p.muted', { role: 'status' }, t('loading'));

  const game = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: 'f-game', name: 'game' },
      [{ id: '', name: t('games.any') }, ...GAMES].map((g) =>
        h('option', { value: g.id, selected: g.id === filters.game }, g.name),
      ),
    )
  );
  const player = /** @type {HTMLInputElement} */ (
    h('input', { id: 'f-player', name: 'player', value: filters.player, placeholder: t('games.playerPh') })
  );
  const players = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: 'f-players', name: 'players' },
      // As many as the largest table of any game seats (Rumino: 6).
      ['', ...Array.from({ length: Math.max(...GAMES.map((g) => g.max)) - 1 }, (_, i) => String(i + 2))].map((n) =>
        h(
          'option',
          { value: n, selected: n === filters.players },
          n ? t('create.nPlayers', { n: Number(n) }) : t('games.any'),
        ),
      ),
    )
  );
  const from = /** @type {HTMLInputElement} */ (
    h('input', { id: 'f-from', type: 'date', name: 'from', value: filters.from })
  );
  const to = /** @type {HTMLInputElement} */ (h('input', { id: 'f-to', type: 'date', name: 'to', value: filters.to }));
  const form = h(
    'form.filters',
    {
      role: 'search',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const q = new URLSearchParams(
          Object.entries({
            game: game.value,
            player: player.value.trim(),
            players: players.value,
            from: from.value,
            to: to.value,
          }).filter(([, v]) => v),
        );
        const hash = `#/games${q.toString() ? `?${q}` : ''}`;
        if (location.hash === hash) load();
        else location.hash = hash;
      },
    },
    h('div.field', h('label', { for: 'f-game' }, t('games.game')), game),
    h('div.field', h('label', { for: 'f-player' }, t('games.player')), player),
    h('div.field', h('label', { for: 'f-players' }, t('games.players')), players),
    h('div.field', h('label', { for: 'f-from' }, t('games.from')), from),
    h('div.field', h('label', { for: 'f-to' }, t('games.to')), to),
    h('button.primary', { type: 'submit', id: 'filter-games' }, t('games.show')),
  );

  root.append(h('div.results', h('h1', t('games.title')), form, status, games, more));

  /** @param {string | null} cursor */
  function query(cursor) {
    /** @type {Record<string, any>} */
    const q = {
      game: filters.game || null,
      player: filters.player || null,
      players: filters.players || null,
      limit: 20,
      cursor,
    };
    if (filters.from) q.since = rfc3339(new Date(`${filters.from}T00:00:00`));
    if (filters.to) {
      const d = new Date(`${filters.to}T00:00:00`);
      d.setDate(d.getDate() + 1);
      q.until = rfc3339(d);
    }
    return q;
  }

  /** @param {string | null} [cursor] */
  async function load(cursor = null) {
    if (!cursor) {
      games.replaceChildren();
      status.textContent = t('loading');
    }
    replace(more);
    try {
      const page = await listGames(query(cursor));
      if (!alive) return;
      games.append(...page.games.map(gameRow));
      status.textContent = games.children.length
        ? ''
        : filters.player
          ? t('games.noneFor', { name: filters.player })
          : t('games.none');
      if (page.next)
        replace(
          more,
          h('button', { type: 'button', id: 'more-games', onclick: () => load(page.next) }, t('games.older')),
        );
    } catch (error) {
      if (!alive) return;
      status.textContent = '';
      replace(
        more,
        errorBox(/** @type {Error} */ (error), () => load(cursor)),
      );
    }
  }
  let loaded = false;
  load().then(() => (loaded = true));
  window.__romirami.page = { name: 'games', count: () => games.children.length, loaded: () => loaded };
  return () => {
    alive = false;
  };
}

/** @param {HTMLElement} root @param {string} id */
/**
 * A player's figures in each game they played, one row a game: games, wins, the average score in that game's own
 * scoring and the average place. Scores of different games do not compare, so no average is taken over them.
 * @param {{game: string, games_played: number, wins: number, average_score: number, average_place: number}[]} games
 */
function perGame(games) {
  if (!games.length) return null;
  const decimal = new Intl.NumberFormat(document.documentElement.lang, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  return h(
    'table.player-games',
    { 'data-testid': 'player-games' },
    h('caption', t('player.byGame')),
    h(
      'thead',
      h(
        'tr',
        h('th', { scope: 'col' }, t('player.game')),
        h('th', { scope: 'col' }, t('player.games')),
        h('th', { scope: 'col' }, t('player.wins')),
        h('th', { scope: 'col' }, t('player.average')),
        h('th', { scope: 'col' }, t('player.averagePlace')),
      ),
    ),
    h(
      'tbody',
      games.map((g) =>
        h(
          'tr',
          { 'data-game': g.game },
          h('th', { scope: 'row' }, gameName(g.game)),
          h('td.games', num(g.games_played)),
          h('td.wins', num(g.wins)),
          h('td.average', decimal.format(g.average_score)),
          h('td.place', decimal.format(g.average_place)),
        ),
      ),
    ),
  );
}

/** @param {HTMLElement} root @param {string} id */
/** The tournaments a player won, each with its trophy and a link (nothing when none). @param {string} id */
function trophies(id) {
  const box = h('div.trophies', { id: 'player-trophies' });
  listTournaments(undefined, id).then(
    ({ tournaments }) => {
      if (!tournaments.length) return;
      replace(
        box,
        h('h2', t('player.trophies', { n: tournaments.length })),
        h(
          'ul.trophy-list',
          tournaments.map((/** @type {any} */ tour) =>
            h(
              'li',
              h('span.trophy', { 'aria-hidden': 'true' }, '🏆 '),
              h('a', { href: `#/tournaments/${tour.id}` }, gameName(tour.game), ' · ', formatWords(tour)),
            ),
          ),
        ),
      );
    },
    () => {},
  );
  return box;
}

export function mountPlayer(root, id) {
  let alive = true;
  const box = h('div.player-page', h('p.muted', t('loading')));
  root.append(box);
  getPlayer(id).then(
    (p) => {
      if (!alive) return;
      replace(
        box,
        h('p', h('a', { href: '#/games' }, t('games.back'))),
        h(
          'section.card-panel',
          h(
            'h1',
            shownName(p.name),
            isLevelBot(p.name) ? botBadge() : null,
            p.claimed ? h('span.badge.claimed', { title: t('player.claimed') }, t('player.claimed')) : null,
          ),
          h(
            'dl.stats',
            h('div', h('dt', t('player.games')), h('dd', num(p.games_played))),
            h('div', h('dt', t('player.wins')), h('dd', num(p.wins))),
          ),
          // Each game scores its own way (Rami's penalty points, Romi Rami's points): the averages are per game.
          perGame(p.by_game ?? []),
          trophies(id),
          playerRatings(id),
          h('h2', t('player.recent')),
          p.recent.length ? h('ul.games', p.recent.map(gameRow)) : h('p.muted', t('player.none')),
          h('p', h('a', { href: `#/games?player=${encodeURIComponent(p.id)}` }, t('player.all'))),
        ),
      );
    },
    (error) => {
      if (alive) replace(box, h('section.card-panel', h('h1', t('player.title')), errorBox(error)));
    },
  );
  return () => {
    alive = false;
  };
}
