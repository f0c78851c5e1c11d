// @ts-check
// The scores: after a round (or a Rumino hand) a panel with its result — how it ended, each seat's score
// and the cards it ended with — over the table until the reader closes it (the next round is already
// dealt: the server pauses a few seconds before its first turn); at the side, every player's running total
// and the rounds scored; at the end, the match's result and, once the match is stored, the rating changes.

import { h } from '../../dom.js';
import { t, list } from '../../i18n.js';
import { shortList } from './cards.js';
import { endRatings } from '../../ratings.js';

/**
 * How the round ended, in words.
 * @param {import('./state.js').MeldCtx} ctx
 * @param {import('./model.js').RoundShown} r
 */
function endWords(ctx, r) {
  const who = r.by != null ? ctx.who(r.by) : '';
  if (r.ramiSec) return t('rl.ramiSec', { who });
  return t(`rs.end.${r.endedBy}`, { who });
}

/** @param {import('./state.js').MeldCtx} ctx @param {import('./model.js').RoundShown} r */
function roundTable(ctx, r) {
  const m = ctx.m();
  const part = (/** @type {import('./model.js').RoundRow} */ row) =>
    Object.entries(row.parts)
      .filter(([k]) => k !== 'opened')
      .map(([k, v]) => t(`rs.part.${k}`, { n: v }))
      .join(', ');
  return h(
    'table.round-scores',
    { 'data-round': r.number },
    h(
      'thead',
      h('tr', h('th', t('rs.player')), h('th', t('rs.round')), h('th', t('rs.detail')), h('th', t('rs.total'))),
    ),
    h(
      'tbody',
      r.rows.map((row) =>
        h(
          'tr',
          { 'data-seat': row.seat },
          h('th', { scope: 'row' }, ctx.who(row.seat)),
          h('td.num', row.score),
          h('td.small', part(row), row.cards?.length ? h('span.muted', ` · ${shortList(row.cards)}`) : null),
          h('td.num', m.totals[row.seat] ?? ''),
        ),
      ),
    ),
  );
}

/** The result of the match in words. @param {import('./state.js').MeldCtx} ctx */
function resultWords(ctx) {
  const result = ctx.st.result ?? ctx.m().result;
  const winners = (result?.winners ?? []).map((/** @type {number} */ s) => ctx.nameOf(s));
  if (!winners.length) return t('rs.noWinner');
  return t('rs.winners', { names: list(winners), n: winners.length });
}

/** The panel after a round, and the match's end. @param {import('./state.js').MeldCtx} ctx */
export function roundPanel(ctx) {
  const { st } = ctx;
  const m = ctx.m();
  const r = m.last;
  if (st.result) {
    return h(
      'section.card-panel.round-end.match-end',
      { id: 'match-end', 'aria-labelledby': 'match-end-title' },
      h('h2', { id: 'match-end-title' }, t('rs.matchOver')),
      h('p.winners', resultWords(ctx)),
      r ? h('p', endWords(ctx, r)) : null,
      r ? roundTable(ctx, r) : null,
      totalsList(ctx),
      endRatings(ctx.tableId),
      h(
        'p',
        h('a.button', { href: '#/' }, t('table.lobby')),
        ' ',
        h('a.button', { href: `#/games/${ctx.tableId}?fresh=1`, id: 'game-page-link' }, t('rs.gamePage')),
      ),
    );
  }
  if (!r || st.seenRound === r.number) return null;
  return h(
    'section.card-panel.round-end',
    { id: 'round-end', role: 'status', 'aria-labelledby': 'round-end-title' },
    h('h2', { id: 'round-end-title' }, t(ctx.game() === 'rumino' ? 'rs.handOver' : 'rs.roundOver', { n: r.number })),
    h('p', endWords(ctx, r), r.multiplier > 1 ? ` ${t('rs.multiplier', { n: r.multiplier })}` : ''),
    r.rumino ? h('p.rumino', t('rs.rumino', { cards: shortList(r.rumino) })) : null,
    roundTable(ctx, r),
    h('p.muted.small', t('rs.next')),
    h(
      'button',
      {
        type: 'button',
        id: 'close-round',
        'data-key': 'close-round',
        onclick: () => {
          st.seenRound = r.number;
          ctx.draw();
        },
      },
      t('rs.close'),
    ),
  );
}

/** Every player's total. @param {import('./state.js').MeldCtx} ctx */
function totalsList(ctx) {
  const m = ctx.m();
  return h(
    'ol.totals',
    { 'aria-label': t('rs.totals') },
    m.totals.map((total, seat) => h('li', { 'data-seat': seat }, h('span', ctx.who(seat)), ' ', h('b', total))),
  );
}

/** The side's scores: totals, and each round scored. @param {import('./state.js').MeldCtx} ctx */
export function scoresPanel(ctx) {
  const m = ctx.m();
  const rounds = m.rounds;
  return h(
    'section.scores',
    { 'aria-labelledby': 'scores-title' },
    h(
      'h2.label',
      { id: 'scores-title' },
      t(ctx.game() === 'rumino' ? 'rs.totalsHand' : 'rs.totalsRound', { n: m.round }),
    ),
    totalsList(ctx),
    rounds.length > 1
      ? h(
          'details.rounds',
          h('summary', t('rs.rounds', { n: rounds.length })),
          h(
            'table.round-history',
            h(
              'thead',
              h(
                'tr',
                h('th', '#'),
                m.totals.map((_, s) => h('th', ctx.who(s))),
              ),
            ),
            h(
              'tbody',
              rounds.map((r) =>
                h(
                  'tr',
                  h('th', r.number),
                  m.totals.map((_, s) => h('td.num', r.rows.find((row) => row.seat === s)?.score ?? '–')),
                ),
              ),
            ),
          ),
        )
      : null,
  );
}
