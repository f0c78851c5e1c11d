// @ts-check
// The end screen: who won (or, for an abandoned game, who was ahead), the final scores with their
// parts, the trophies' winners, the rating changes (once the game is stored), and the links to the game's page and
// its replay. Only the server's own
// bot players carry the bot's mark here: a player the bot stood in for is a player.

import { h } from '../../dom.js';
import { t, list } from '../../i18n.js';
import { endedBy, trophyName, TROPHIES } from '../../rules-data.js';
import { scoreTable, botBadge, aheadAt } from '../../widgets.js';
import { endRatings } from '../../ratings.js';

/** @param {import('./state.js').Ctx} ctx */
export function endPanel(ctx) {
  const r = /** @type {import('../../widgets.js').Result} */ (ctx.st.result);
  const winners = r.winners.map(ctx.nameOf);
  const abandoned = r.ended_by === 'abandoned';
  const leaders = aheadAt(r).map(ctx.nameOf);
  const me = ctx.mySeat();
  const title = abandoned
    ? t('end.abandoned')
    : me != null && r.winners.includes(me)
      ? t(r.winners.length > 1 ? 'end.shared' : 'end.youWin')
      : t('end.wins', { names: list(winners), count: winners.length });
  return h(
    'section',
    { class: abandoned ? 'card-panel end abandoned' : 'card-panel end', 'aria-labelledby': 'end-title' },
    h('h1', { id: 'end-title' }, title),
    h(
      'p.muted',
      abandoned
        ? t('end.abandonedNote', { names: list(leaders), count: leaders.length })
        : t('end.because', { why: endedBy(r.ended_by) }),
    ),
    scoreTable(abandoned ? { ...r, winners: [] } : r, ctx.nameOf, (seat) =>
      ctx.isBotPlayer(seat) ? botBadge() : null,
    ),
    h(
      'ul.trophy-winners',
      Object.entries(r.trophy_winners).map(([tr, seat]) =>
        h(
          'li',
          `${trophyName(tr)} (${TROPHIES[tr].points}): `,
          h('strong', seat == null ? t('end.nobody') : ctx.nameOf(seat)),
        ),
      ),
    ),
    endRatings(ctx.tableId),
    h(
      'div.row.buttons',
      h('a.button.primary', { href: `#/games/${ctx.tableId}?fresh=1`, id: 'game-page-link' }, t('end.gamePage')),
      h('a.button', { href: `#/replay/${ctx.tableId}`, id: 'replay-link' }, t('end.replay')),
      h('a.button', { href: '#/' }, t('table.lobby')),
    ),
  );
}
