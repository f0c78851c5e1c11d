// @ts-check
// Ratings on the page: each game's leaderboard (#/leaderboard?game=…, GET /api/leaderboard, paged with
// its cursor), a finished game's rating changes (its `rated` and `ratings` in GET /api/games/<id>) for
// the end screen and the game's page, and a player's ratings (GET /api/players/<id>/ratings) for their
// page and the lobby. How games are rated is the server's (docs/protocol.md, create_table's `rated`).

import { h, replace } from './dom.js';
import { getGame, getLeaderboard, getPlayerRatings } from './api.js';
import { t, num } from './i18n.js';
import { errorBox, shownName, botBadge } from './widgets.js';
import { GAMES, gameName } from './game-options.js';

/** A change as "+23" or "−7". @param {number} before @param {number} after */
const delta = (before, after) => {
  const d = after - before;
  return d > 0 ? `+${num(d)}` : d < 0 ? `−${num(-d)}` : '±0';
};

/**
 * The rating changes of a finished game from the REST API: one line per player, or a note that the
 * game did not count.
 * @param {{rated?: boolean, unrated_because?: string | null, ratings?: ({before: number, after: number} | null)[], players: {name: string}[]}} game
 */
export function ratingChanges(game) {
  if (!game.rated || !game.ratings) {
    // Which reason applied, as the server judged it (docs/protocol.md: `unrated_because`).
    const why = game.unrated_because ? `rating.unrated.${game.unrated_because}` : 'rating.unrated';
    return h(
      'p.muted.rating-note',
      { 'data-testid': 'unrated', 'data-reason': game.unrated_because ?? '' },
      t(why) === why ? t('rating.unrated') : t(why),
    );
  }
  return h(
    'div.rating-changes',
    { 'data-testid': 'rating-changes' },
    h('h2', t('rating.title')),
    h(
      'ul',
      game.players.map((p, i) => {
        const change = game.ratings?.[i];
        if (!change) return null;
        const d = change.after - change.before;
        return h(
          'li',
          { class: d > 0 ? 'up' : d < 0 ? 'down' : '' },
          h('span.name', shownName(p.name)),
          ' ',
          h('span.rating', t('rating.change', { before: num(change.before), after: num(change.after) })),
          ' ',
          h('b.delta', delta(change.before, change.after)),
        );
      }),
    ),
  );
}

/**
 * The finished games asked for by the end screen, which is drawn again on every change.
 * @type {Map<string, Promise<any>>}
 */
const finished = new Map();

/** A finished game from the REST API, asked again while the server is still storing it. @param {string} id */
function storedGame(id) {
  let game = finished.get(id);
  if (!game) {
    game = (async () => {
      for (let tries = 0; ; tries += 1) {
        try {
          return await getGame(id);
        } catch (error) {
          if (tries >= 15) throw error;
          await new Promise((resolve) => {
            setTimeout(resolve, 700);
          });
        }
      }
    })();
    game.catch(() => finished.delete(id));
    finished.set(id, game);
  }
  return game;
}

/**
 * The end screen's rating changes: the finished game is stored a moment after its end.
 * @param {string} tableId
 */
export function endRatings(tableId) {
  const box = h('div.end-ratings', { 'aria-live': 'polite' }, h('p.muted', t('rating.pending')));
  storedGame(tableId).then(
    (game) => replace(box, ratingChanges(game)),
    () => replace(box),
  );
  return box;
}

/**
 * A player's ratings, one per game they played rated.
 * @param {string} playerId @param {{title?: boolean}} [options]
 */
export function playerRatings(playerId, { title = true } = {}) {
  const box = h('div.player-ratings', { 'data-testid': 'player-ratings' });
  getPlayerRatings(playerId).then(
    (answer) => {
      /** @type {{game: string, rating: number, games: number}[]} */
      const ratings = answer.ratings;
      replace(
        box,
        title ? h('h2', t('rating.yours.title')) : null,
        ratings.length
          ? h(
              'ul.ratings',
              ratings.map((r) =>
                h(
                  'li',
                  { 'data-game': r.game },
                  h('span', gameName(r.game)),
                  ' ',
                  h('b.rating', num(r.rating)),
                  ' ',
                  h('span.muted.small', t('rating.games', { n: r.games })),
                ),
              ),
            )
          : h('p.muted', t('rating.none')),
      );
    },
    () => replace(box),
  );
  return box;
}

/** @param {HTMLElement} root @param {URLSearchParams} params */
export function mountLeaderboard(root, params) {
  let alive = true;
  const game = GAMES.some((g) => g.id === params.get('game')) ? String(params.get('game')) : 'romi-rami';
  const rows = h('tbody');
  const status = h('p.muted', { role: 'status' }, t('loading'));
  const more = h('div.more');
  const choose = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      {
        id: 'board-game',
        name: 'game',
        onchange: () => {
          location.hash = `#/leaderboard?game=${encodeURIComponent(choose.value)}`;
        },
      },
      GAMES.map((g) => h('option', { value: g.id, selected: g.id === game }, g.name)),
    )
  );
  root.append(
    h(
      'div.results.leaderboard',
      h('h1', t('board.title')),
      h('div.field', h('label', { for: 'board-game' }, t('board.game')), choose),
      status,
      h(
        'table.standings',
        { 'aria-label': t('board.title') },
        h(
          'thead',
          h(
            'tr',
            h('th', { scope: 'col' }, '#'),
            h('th', { scope: 'col' }, t('board.player')),
            h('th', { scope: 'col' }, t('board.rating')),
            h('th', { scope: 'col' }, t('board.games')),
          ),
        ),
        rows,
      ),
      more,
    ),
  );

  /** @param {string | null} [cursor] */
  async function load(cursor = null) {
    replace(more);
    try {
      const page = await getLeaderboard({ game, limit: 20, cursor });
      if (!alive) return;
      const first = rows.children.length;
      rows.append(
        ...page.players.map((/** @type {any} */ p, /** @type {number} */ i) =>
          h(
            'tr',
            { 'data-player': p.id },
            h('td', num(first + i + 1)),
            h('td', h('a', { href: `#/players/${p.id}` }, shownName(p.name, p.level)), p.bot ? botBadge() : null),
            h('td', h('b', num(p.rating))),
            h('td', num(p.games)),
          ),
        ),
      );
      status.textContent = rows.children.length
        ? t('board.note', { n: page.min_games })
        : t('board.none', { n: page.min_games });
      if (page.next)
        replace(
          more,
          h('button', { type: 'button', id: 'more-players', onclick: () => load(page.next) }, t('board.more')),
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
  load();
  window.__romirami.page = {
    name: 'leaderboard',
    names: () => [...rows.querySelectorAll('td a')].map((a) => a.textContent),
  };
  return () => {
    alive = false;
  };
}
