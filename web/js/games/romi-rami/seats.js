// @ts-check
// Romi Rami's parts of the players' areas (cards in hand, Star, score, contracts, trophies led) and of the
// status line (the step of the turn, the last round), in the shell's frame (shell/seats.js).

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { contractCard, starToken } from '../../cards-ui.js';
import { trophyShort } from '../../rules-data.js';
import { handCount, presenceOf, seatArea, statusLine } from '../../shell/seats.js';

/** Whose turn it is and what they do. @param {import('./state.js').Ctx} ctx */
export function turnLine(ctx) {
  const v = ctx.view();
  if (v.phase.state === 'over') return statusLine(ctx, null, '');
  const { seat, step } = v.phase;
  const mineNow = seat === ctx.mySeat();
  const byMe = mineNow && !ctx.isBot(seat);
  const actor = mineNow ? t('status.theBot') : ctx.nameOf(seat);
  /** @type {Record<string, string>} */
  const what = {
    take: byMe ? t('status.take') : t('status.takeOther', { who: actor }),
    contracts: byMe ? t('status.contracts') : t('status.contractsOther', { who: actor }),
    discard: byMe ? t('status.discard', { n: v.seats[seat].hand_size }) : t('status.discardOther', { who: actor }),
  };
  return statusLine(ctx, seat, what[step], v.last_round ? h('span.badge.alert', t('status.lastRound')) : null);
}

/** One player's area. @param {import('./state.js').Ctx} ctx @param {import('./state.js').SeatView} s */
function playerArea(ctx, s) {
  const v = ctx.view();
  const leads = v.trophies.filter((tr) => v.trophy_leaders?.[tr] === s.seat);
  const score = s.score;
  const total = score.total != null ? score.total : score.public_total;
  const { botSeat, away, offline } = presenceOf(ctx, s.seat);
  const note = botSeat ? t('seat.noteBot') : away ? t('seat.noteAway') : offline ? t('seat.noteOffline') : '';
  return seatArea(ctx, {
    seat: s.seat,
    turn: v.phase.state === 'playing' && v.phase.seat === s.seat,
    label: t('seat.label', {
      who: ctx.who(s.seat),
      note,
      contracts: s.contracts.length,
      cards: s.hand_size,
      star: t(s.star_used ? 'star.used' : 'star.unused'),
      score: total,
    }),
    mark: s.seat === v.first_player ? { title: t('seat.first'), short: t('seat.firstShort') } : null,
    body: [
      h(
        'div.pstats',
        handCount(s.hand_size),
        starToken({ used: s.star_used }),
        h(
          'span.pscore',
          { title: t(score.total != null ? 'seat.scoreMine' : 'seat.scoreTitle') },
          h('b', total),
          t('seat.pts'),
          score.total != null && !ctx.st.result ? h('small', t('seat.bonus', { n: score.suit_bonus })) : null,
        ),
      ),
      h(
        'div.pcontracts',
        { 'aria-label': t('seat.contracts') },
        s.contracts.length
          ? s.contracts.map((id) => contractCard(id, { compact: true }))
          : h('span.muted.small', t('seat.noContracts')),
        h('span.target', `${s.contracts.length}/${v.contract_target}`),
      ),
      leads.length ? h('div.leads', t('seat.leads', { list: leads.map(trophyShort).join(', ') })) : null,
    ],
  });
}

/** Every player's area. @param {import('./state.js').Ctx} ctx */
export function playersPanel(ctx) {
  return h(
    'div.players',
    ctx.view().seats.map((s) => playerArea(ctx, s)),
  );
}
