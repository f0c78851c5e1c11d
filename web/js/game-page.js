// @ts-check
// A finished game's page (`#/games/<id>`): its result, its players and their rating changes, the check of its
// shuffle, a download link for its record, its replay, the analysis of each player's decisions (asked for
// here, followed while the server makes it), and a "Share" box with the link and the code that puts the
// replay in another site's page (`/embed/<id>`).

import { h, replace } from './dom.js';
import { ApiError, getGame, getRecord, recordUrl } from './api.js';
import { checkShuffle } from './shuffle-proof.js';
import { endedBy } from './rules-data.js';
import { t, dateTime, list } from './i18n.js';
import { scoreTable, aheadAt, errorBox, shownName } from './widgets.js';
import { ratingChanges } from './ratings.js';
import { playerLink, botNote, gameAndOptions } from './results-page.js';
import { follow, stateText, summaryText } from './analysis.js';

/** @typedef {import('./results-page.js').Game} Game */

/**
 * A rummy match's scores (Rommi, Rami, Rumino): each round's score and the total, by seat; `scores[i]` is seat
 * i's `{total, rounds}` as the server stores the game's outcome.
 * @param {Game} game @param {(seat: number) => string} nameOf
 */
function roundScores(game, nameOf) {
  const rows = /** @type {any[]} */ (game.scores);
  const rounds = Math.max(0, ...rows.map((s) => s.rounds?.length ?? 0));
  const winners = new Set(game.ended_by === 'abandoned' ? [] : game.winners);
  return h(
    'table.scores.round-scores',
    { 'aria-label': t('scores.caption') },
    h(
      'thead',
      h(
        'tr',
        h('th', t('rs.player')),
        Array.from({ length: rounds }, (_, r) => h('th.num', `${r + 1}`)),
        h('th.num', t('rs.total')),
      ),
    ),
    h(
      'tbody',
      rows.map((s, seat) =>
        h(
          'tr',
          { class: winners.has(seat) ? 'winner' : '' },
          h('th', { scope: 'row' }, nameOf(seat), botNote(game, seat)),
          Array.from({ length: rounds }, (_, r) => h('td.num', s.rounds?.[r] ?? '–')),
          h('td.num', h('b', s.total)),
        ),
      ),
    ),
  );
}

/** How many times a just-finished game's page asks again while the server is still storing it. */
const FRESH_TRIES = 15;

/**
 * A finished game's page. The end screen's link says `?fresh=1`: the server stores a game just after its
 * end, so a page opened at once may find it missing for a moment, and asks again every second instead of
 * saying there is no such game.
 * @param {HTMLElement} root @param {string} id @param {URLSearchParams} [params]
 */
export function mountGame(root, id, params = new URLSearchParams()) {
  let freshTries = params.get('fresh') ? FRESH_TRIES : 0;
  let alive = true;
  const box = h('div.game-page', h('p.muted', t('loading')));
  const shuffleBox = h('p.shuffle-check.muted', { id: 'shuffle-check', role: 'status' }, t('shuffle.checking'));
  root.append(box);
  async function load() {
    try {
      /** @type {Game} */
      const game = await getGame(id);
      if (!alive) return;
      const names = new Map(game.players.map((p) => [p.seat, shownName(p.name, p.level)]));
      /** @param {number} seat */
      const nameOf = (seat) => names.get(seat) ?? '';
      const winners = game.winners.map(nameOf);
      const abandoned = game.ended_by === 'abandoned';
      const rummy = Boolean(game.game && game.game !== 'romi-rami');
      // Who was ahead: a rummy game's places say it (its scores carry no seat and no suit bonus).
      const ahead = rummy ? (game.places ?? []).flatMap((place, seat) => (place === 1 ? [seat] : [])) : aheadAt(game);
      const leaders = ahead.map(nameOf);
      replace(
        box,
        h('p', h('a', { href: '#/games' }, t('games.back'))),
        h(
          'section.card-panel',
          h(
            'h1',
            { id: 'game-title' },
            abandoned ? t('game.abandoned') : t('game.won', { names: list(winners), count: winners.length }),
          ),
          abandoned ? h('p.notice', t('game.abandonedNote', { names: list(leaders), count: leaders.length })) : null,
          h('p.game-name', { id: 'game-name', 'data-game': game.game ?? 'romi-rami' }, gameAndOptions(game)),
          h(
            'p.muted',
            t('game.meta', {
              n: game.players.length,
              started: dateTime(game.started_at),
              abandoned,
              finished: dateTime(game.finished_at),
              why: endedBy(game.ended_by),
            }),
          ),
          h(
            'p',
            t('game.players'),
            game.players.flatMap((p, i) => [
              i ? ', ' : '',
              playerLink(p),
              botNote(game, p.seat),
              game.places ? ` (${t('ordinal', { n: game.places[i] })})` : '',
            ]),
          ),
          rummy
            ? roundScores(game, nameOf)
            : scoreTable({ scores: game.scores, winners: abandoned ? [] : game.winners }, nameOf, (seat) =>
                botNote(game, seat),
              ),
          ratingChanges(game),
          h(
            'div.row.buttons',
            h('a.button.primary', { href: `#/replay/${id}`, id: 'replay-link' }, t('end.replay')),
            h(
              'a.button',
              { href: recordUrl(id), download: `romirami-${id}.json`, id: 'download-record' },
              t('game.download'),
            ),
            h('a.button', { href: '#/' }, t('game.another')),
          ),
        ),
      );
      window.__romirami.page = { name: 'game', game: () => game, shuffle: () => shuffleBox.dataset.status ?? null };
      box.querySelector('section.card-panel')?.append(shuffleBox);
      box.append(
        analysisSection(game, id, nameOf, () => alive),
        shareSection(id),
      );
      showShuffleCheck(shuffleBox, id);
    } catch (error) {
      if (!alive) return;
      if (error instanceof ApiError && error.status === 404 && freshTries > 0) {
        freshTries -= 1;
        replace(box, h('p.muted', { id: 'game-saving' }, t('game.saving')));
        setTimeout(() => alive && load(), 1000);
        return;
      }
      replace(
        box,
        h('p', h('a', { href: '#/games' }, t('games.back'))),
        h('section.card-panel', h('h1', t('game.title')), errorBox(/** @type {Error} */ (error), load)),
      );
    }
  }
  load();
  window.__romirami.page = { name: 'game', game: () => null };
  return () => {
    alive = false;
  };
}

/**
 * The analysis of each player's decisions: a button per seat that asks for it, its progress, then its counts
 * and a link to the replay that shows it.
 * @param {Game} game @param {string} id @param {(seat: number) => string} nameOf @param {() => boolean} alive
 */
function analysisSection(game, id, nameOf, alive) {
  const rows = game.players.map((p) => {
    const state = h('span.analysis-state', { role: 'status', 'data-seat': p.seat });
    const button = /** @type {HTMLButtonElement} */ (
      h(
        'button',
        {
          type: 'button',
          class: 'analyse-seat',
          'data-seat': p.seat,
          onclick: async () => {
            button.disabled = true;
            replace(state, t('an.queued'));
            try {
              const done = await follow(
                id,
                p.seat,
                (a, wait) => {
                  replace(
                    state,
                    a?.state === 'running'
                      ? h('progress', { max: 1, value: a.progress, 'aria-label': stateText(a) })
                      : null,
                    ' ',
                    stateText(a, wait),
                  );
                },
                alive,
              );
              if (!done) return;
              replace(
                state,
                summaryText(done),
                ' ',
                h('a', { href: `#/replay/${id}?seat=${p.seat}`, class: 'analysis-link' }, t('an.inReplay')),
              );
              state.dataset.state = 'done';
            } catch (error) {
              button.disabled = false;
              replace(state, /** @type {Error} */ (error).message);
            }
          },
        },
        t('an.analyseWho', { who: nameOf(p.seat) }),
      )
    );
    return h('li', button, ' ', state);
  });
  return h(
    'section.analysis',
    { id: 'analysis', 'aria-labelledby': 'analysis-title' },
    h('h2', { id: 'analysis-title' }, t('an.title')),
    h('p.muted.small', t('an.explain')),
    h('ul.analysis-seats', rows),
  );
}

/**
 * The "Share" box: the game's link, and the code that puts its replay in another site's page.
 * @param {string} id
 */
function shareSection(id) {
  const link = `${location.origin}/#/games/${id}`;
  const frame = `<iframe src="${location.origin}/embed/${id}" width="800" height="600" title="Romi Rami Online" style="border:0"></iframe>`;
  /** @param {string} key @param {string} value @param {string} field */
  const row = (key, value, field) =>
    h(
      'label.share-row',
      h('span', t(key)),
      h('input', {
        type: 'text',
        readonly: true,
        value,
        id: field,
        onfocus: (/** @type {any} */ e) => e.target.select(),
      }),
      h(
        'button.small',
        {
          type: 'button',
          onclick: async (/** @type {any} */ e) => {
            try {
              await navigator.clipboard.writeText(value);
              e.target.textContent = t('share.copied');
            } catch {
              /** @type {HTMLInputElement | null} */ (document.getElementById(field))?.select();
            }
          },
        },
        t('share.copy'),
      ),
    );
  return h(
    'details.share',
    { id: 'share' },
    h('summary', t('share.title')),
    row('share.link', link, 'share-link'),
    row('share.embed', frame, 'share-embed'),
  );
}

/**
 * Checks the finished game's shuffle in the browser (web/js/shuffle-proof.js) and says what came of it; the
 * outcome is also in the element's `data-status` (verified, mismatch, absent, failed).
 * @param {HTMLElement} box @param {string} id
 */
async function showShuffleCheck(box, id) {
  try {
    const check = await checkShuffle(await getRecord(id));
    box.dataset.status = check.status;
    box.classList.toggle('verified', check.status === 'verified');
    box.classList.toggle('mismatch', check.status === 'mismatch');
    box.dataset.mine = check.mine ?? 'none';
    if (check.status === 'verified') {
      const said = t('shuffle.verified', { short: (check.commitment ?? '').slice(0, 12) });
      const seen = check.seen ? ` ${t('shuffle.seen')}` : '';
      replace(box, `✓ ${said}${seen}${check.mine === 'in' ? ` ${t('shuffle.mine')}` : ''}`);
      box.title = check.commitment ?? '';
    } else if (check.mine === 'missing') {
      replace(box, t('shuffle.notMine'));
    } else {
      replace(box, t(check.status === 'mismatch' ? 'shuffle.mismatch' : 'shuffle.absent'));
    }
  } catch (error) {
    box.dataset.status = 'failed';
    replace(box, t('shuffle.failed', { why: /** @type {Error} */ (error).message }));
  }
}
