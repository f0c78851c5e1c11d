// Past results from the REST API: the list of finished games with filters (player, number of players,
// dates), each game's page with its result and a download link for its romirami-record/1 record, and a
// player's page with their statistics and recent games.

import { h, replace, when } from './dom.js';
import { listGames, getGame, getPlayer, recordUrl } from './api.js';
import { ENDED_BY_WORDS } from './rules-data.js';
import { scoreTable, botBadge, aheadAt } from './table-page.js';

/** An instant as the API wants it: RFC 3339 in UTC, whole seconds. */
const rfc3339 = (date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

const ENDED_SHORT = { contracts: 'Contracts target', market: 'Market ran out', abandoned: 'Abandoned' };

function errorBox(error, retry) {
  return h('div.error-box', { role: 'alert' },
    h('p', error.message),
    retry ? h('button', { type: 'button', onclick: retry }, 'Try again') : null);
}

function playerLink(p) {
  return h('a', { href: `#/players/${p.id}` }, p.name);
}

/** The mark after a player's name: a bot's seat, or how many of a player's moves the bot played. */
function botNote(game, seat, short = false) {
  const i = game.players.findIndex((p) => p.seat === seat);
  const moves = game.bot_actions?.[i] ?? 0;
  if (game.players[i]?.bot) return botBadge();
  if (moves > 0) return botBadge(short ? `bot: ${moves} move${moves === 1 ? '' : 's'}` : `bot played ${moves} move${moves === 1 ? '' : 's'}`, `The bot played ${moves} of this player’s moves, while they were out of time or away`);
  return null;
}

function gameRow(game) {
  const winners = new Set(game.winners);
  const abandoned = game.ended_by === 'abandoned';
  const bySeat = new Map(game.scores.map((s) => [s.seat, s]));
  return h('li.game-row', { 'data-game': game.id },
    h('a.game-link', { href: `#/games/${game.id}`, 'aria-label': `Game of ${when(game.finished_at)}: ${game.players.map((p) => `${p.name} ${bySeat.get(p.seat)?.total ?? ''}`).join(', ')}` },
      h('span.date', when(game.finished_at)),
      h('span.lineup', game.players.map((p) => h('span', { class: winners.has(p.seat) && !abandoned ? 'pl winner' : 'pl' },
        winners.has(p.seat) && !abandoned ? h('span.crown', { 'aria-hidden': 'true' }, '★') : null,
        p.name, botNote(game, p.seat, true), ' ', h('b', bySeat.get(p.seat)?.total ?? '–')))),
      abandoned ? h('span.badge.abandoned', 'Abandoned') : h('span.muted.small', ENDED_SHORT[game.ended_by] ?? game.ended_by)));
}

export function mountGames(root, params) {
  let alive = true;
  const filters = {
    player: params.get('player') ?? '',
    players: params.get('players') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const list = h('ul.games', { 'aria-live': 'polite' });
  const more = h('div.more');
  const status = h('p.muted', { role: 'status' }, 'Loading…');

  const player = h('input', { id: 'f-player', name: 'player', value: filters.player, placeholder: 'Name or player id' });
  const players = h('select', { id: 'f-players', name: 'players' },
    ['', '2', '3', '4'].map((n) => h('option', { value: n, selected: n === filters.players }, n ? `${n} players` : 'Any')));
  const from = h('input', { id: 'f-from', type: 'date', name: 'from', value: filters.from });
  const to = h('input', { id: 'f-to', type: 'date', name: 'to', value: filters.to });
  const form = h('form.filters', {
    role: 'search',
    onsubmit: (e) => {
      e.preventDefault();
      const q = new URLSearchParams(Object.entries({ player: player.value.trim(), players: players.value, from: from.value, to: to.value }).filter(([, v]) => v));
      const hash = `#/games${q.toString() ? `?${q}` : ''}`;
      if (location.hash === hash) load(); else location.hash = hash;
    },
  },
  h('div.field', h('label', { for: 'f-player' }, 'Player'), player),
  h('div.field', h('label', { for: 'f-players' }, 'Players'), players),
  h('div.field', h('label', { for: 'f-from' }, 'From'), from),
  h('div.field', h('label', { for: 'f-to' }, 'To'), to),
  h('button.primary', { type: 'submit', id: 'filter-games' }, 'Show games'));

  root.append(h('div.results',
    h('h1', 'Past games'),
    form, status, list, more));

  function query(cursor) {
    const q = { player: filters.player || null, players: filters.players || null, limit: 20, cursor };
    if (filters.from) q.since = rfc3339(new Date(`${filters.from}T00:00:00`));
    if (filters.to) { const d = new Date(`${filters.to}T00:00:00`); d.setDate(d.getDate() + 1); q.until = rfc3339(d); }
    return q;
  }

  async function load(cursor = null) {
    if (!cursor) { list.replaceChildren(); status.textContent = 'Loading…'; }
    replace(more);
    try {
      const page = await listGames(query(cursor));
      if (!alive) return;
      list.append(...page.games.map(gameRow));
      status.textContent = list.children.length ? '' : (filters.player ? `No finished games for “${filters.player}”.` : 'No finished games yet. Go play one!');
      if (page.next) replace(more, h('button', { type: 'button', id: 'more-games', onclick: () => load(page.next) }, 'Older games'));
    } catch (error) {
      if (!alive) return;
      status.textContent = '';
      replace(more, errorBox(error, () => load(cursor)));
    }
  }
  load();
  window.__romirami.page = { name: 'games', count: () => list.children.length };
  return () => { alive = false; };
}

export function mountGame(root, id) {
  let alive = true;
  const box = h('div.game-page', h('p.muted', 'Loading…'));
  root.append(box);
  async function load() {
    try {
      const game = await getGame(id);
      if (!alive) return;
      const names = new Map(game.players.map((p) => [p.seat, p.name]));
      const winners = game.winners.map((s) => names.get(s));
      const abandoned = game.ended_by === 'abandoned';
      const leaders = aheadAt(game).map((s) => names.get(s));
      replace(box,
        h('p', h('a', { href: '#/games' }, '← Past games')),
        h('section.card-panel',
          h('h1', { id: 'game-title' }, abandoned ? 'Abandoned game' : `${winners.join(' and ')} won`),
          abandoned ? h('p.notice', `Every player left before the end, so the game stopped where it stood. ${leaders.join(' and ')} ${leaders.length > 1 ? 'were' : 'was'} ahead.`) : null,
          h('p.muted', `${game.players.length} players · started ${when(game.started_at)} · ${abandoned ? 'abandoned' : 'finished'} ${when(game.finished_at)} · ended because ${ENDED_BY_WORDS[game.ended_by] ?? game.ended_by}`),
          h('p', 'Players: ', game.players.flatMap((p, i) => [i ? ', ' : '', playerLink(p), botNote(game, p.seat), game.places ? ` (${ordinal(game.places[i])})` : ''])),
          scoreTable({ scores: game.scores, winners: abandoned ? [] : game.winners }, (seat) => names.get(seat), (seat) => botNote(game, seat)),
          h('div.row.buttons',
            h('a.button.primary', { href: recordUrl(id), download: `romirami-${id}.json`, id: 'download-record' }, 'Download the game record'),
            h('a.button', { href: '#/' }, 'Play another game'))));
      window.__romirami.page = { name: 'game', game: () => game };
    } catch (error) {
      if (!alive) return;
      replace(box, h('p', h('a', { href: '#/games' }, '← Past games')),
        h('section.card-panel', h('h1', 'Game'), errorBox(error, load)));
    }
  }
  load();
  window.__romirami.page = { name: 'game', game: () => null };
  return () => { alive = false; };
}

function ordinal(n) {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

export function mountPlayer(root, id) {
  let alive = true;
  const box = h('div.player-page', h('p.muted', 'Loading…'));
  root.append(box);
  getPlayer(id).then((p) => {
    if (!alive) return;
    replace(box,
      h('p', h('a', { href: '#/games' }, '← Past games')),
      h('section.card-panel',
        h('h1', p.name),
        h('dl.stats',
          h('div', h('dt', 'Games'), h('dd', p.games_played)),
          h('div', h('dt', 'Wins'), h('dd', p.wins)),
          h('div', h('dt', 'Average score'), h('dd', p.average_score == null ? '–' : p.average_score.toFixed(1)))),
        h('h2', 'Recent games'),
        p.recent.length ? h('ul.games', p.recent.map(gameRow)) : h('p.muted', 'No finished games yet.'),
        h('p', h('a', { href: `#/games?player=${encodeURIComponent(p.id)}` }, 'All their games'))));
  }, (error) => {
    if (alive) replace(box, h('section.card-panel', h('h1', 'Player'), errorBox(error)));
  });
  return () => { alive = false; };
}
