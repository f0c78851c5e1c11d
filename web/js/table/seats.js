// @ts-check
// The players' areas (name, marks, clock, hand size, Star, score, contracts) and the status line that
// says whose turn it is. The clocks are drawn once per `clocks` message and their figures updated by a
// ticker without a redraw (which would move the focus and the selection).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { contractCard, starToken } from '../cards-ui.js';
import { trophyShort } from '../rules-data.js';
import { countdown } from '../clock.js';
import { botBadge } from '../widgets.js';

/** What a seat's clock says now. @param {import('./state.js').Ctx} ctx @param {number} seat */
function seatClock(ctx, seat) {
  const c = ctx.liveClocks();
  if (!c || c.reserves[seat] == null) return null;
  const reserve = t('clock.reserve', { time: countdown(c.reserves[seat]) });
  if (c.toAct !== seat || ctx.isBot(seat)) return { text: reserve, running: false, low: false };
  if (c.turn != null && c.turn > 0) {
    return {
      text: `${countdown(c.turn)} · ${reserve}`,
      running: true,
      low: c.turn < 10_000 && c.reserves[seat] < 10_000,
    };
  }
  return { text: reserve, running: true, low: true };
}

/** The clock of the seat to act, for the status line. @param {import('./state.js').Ctx} ctx */
export function turnClock(ctx) {
  const c = ctx.liveClocks();
  if (!c || c.toAct == null || ctx.isBot(c.toAct)) return null;
  const reserve = c.reserves[c.toAct] ?? 0;
  if (c.turn != null && c.turn > 0)
    return { text: t('clock.left', { time: countdown(c.turn) }), low: c.turn < 10_000 && reserve < 10_000 };
  return { text: t('clock.reserveLeft', { time: countdown(reserve) }), low: true };
}

/** @param {import('./state.js').Ctx} ctx @param {number} seat */
export function clockChip(ctx, seat) {
  const c = seatClock(ctx, seat);
  return c
    ? h(
        'span.seat-clock',
        {
          'data-clock-seat': seat,
          class: `${c.running ? 'running' : ''}${c.low ? ' low' : ''}`,
          title: t('clock.title'),
        },
        c.text,
      )
    : null;
}

/** Updates the clocks' figures in place. @param {import('./state.js').Ctx} ctx @param {HTMLElement} el */
export function tickClocks(ctx, el) {
  if (!ctx.st.clocks) return;
  for (const chip of el.querySelectorAll('[data-clock-seat]')) {
    const c = seatClock(ctx, Number(/** @type {HTMLElement} */ (chip).dataset.clockSeat));
    if (!c) continue;
    chip.textContent = c.text;
    chip.classList.toggle('running', c.running);
    chip.classList.toggle('low', c.low);
  }
  const turn = el.querySelector('[data-clock-turn]');
  const c = turnClock(ctx);
  if (turn && c) {
    turn.textContent = c.text;
    turn.classList.toggle('low', c.low);
  }
}

/** Whose turn it is and what they do. @param {import('./state.js').Ctx} ctx */
export function statusLine(ctx) {
  const v = ctx.view();
  if (ctx.st.result || v.phase.state === 'over') return h('p.status', t('status.over'));
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
  const clock = turnClock(ctx);
  return h(
    'div.status',
    { class: mineNow ? 'status mine' : 'status' },
    h(
      'strong',
      { 'data-testid': 'turn' },
      mineNow ? t('status.yourTurn') : t('status.turnOf', { name: ctx.nameOf(seat) }),
    ),
    ctx.isBot(seat) ? botBadge(mineNow ? t('seat.botForYou') : t('bot')) : null,
    h('span', ` — ${what[step]}`),
    clock ? h('span.turn-clock', { 'data-clock-turn': '', class: clock.low ? 'low' : '' }, clock.text) : null,
    v.last_round ? h('span.badge.alert', t('status.lastRound')) : null,
  );
}

/** One player's area. @param {import('./state.js').Ctx} ctx @param {import('./state.js').SeatView} s */
/**
 * Where a seat's player is: the host's bot plays it (`botSeat`), the bot stands in for its player
 * (`away`), or its player is not connected though the seat is theirs and their clock runs (`offline`,
 * protocol section 11b). Both tables show it the same way.
 * @param {any} ctx @param {number} seat
 */
export function presenceOf(ctx, seat) {
  const botSeat = ctx.isBotPlayer(seat);
  const away = ctx.isStandIn(seat);
  const offline = !botSeat && !away && !ctx.st.result && ctx.st.summary?.presence?.[seat] === 'away';
  return { botSeat, away, offline };
}

/** The badges after a seat's name that say where its player is. @param {any} ctx @param {number} seat */
export function presenceBadges(ctx, seat) {
  const { botSeat, away, offline } = presenceOf(ctx, seat);
  const me = seat === ctx.mySeat();
  return [
    botSeat ? botBadge() : null,
    away
      ? h(
          'span.badge.bot.away',
          { title: me ? t('seat.botForYouTitle') : t('seat.awayTitle') },
          me ? t('seat.botForYou') : t('seat.away'),
        )
      : null,
    offline
      ? h('span.badge.offline', { title: t('seat.offlineTitle'), 'data-presence': 'away' }, t('seat.offline'))
      : null,
  ];
}

function playerArea(ctx, s) {
  const v = ctx.view();
  const turn = v.phase.state === 'playing' && v.phase.seat === s.seat;
  const me = s.seat === ctx.mySeat();
  const leads = v.trophies.filter((tr) => v.trophy_leaders?.[tr] === s.seat);
  const score = s.score;
  const total = score.total != null ? score.total : score.public_total;
  const { botSeat, away, offline } = presenceOf(ctx, s.seat);
  const note = botSeat ? t('seat.noteBot') : away ? t('seat.noteAway') : offline ? t('seat.noteOffline') : '';
  const label = t('seat.label', {
    who: ctx.who(s.seat),
    note,
    contracts: s.contracts.length,
    cards: s.hand_size,
    star: t(s.star_used ? 'star.used' : 'star.unused'),
    score: total,
  });
  const classes = [
    'player',
    turn && 'turn',
    me && 'me',
    (botSeat || away) && 'bot',
    away && 'away',
    offline && 'offline',
  ]
    .filter(Boolean)
    .join(' ');
  return h(
    'section',
    { class: classes, 'data-seat': s.seat, 'aria-label': label },
    h(
      'header',
      h('span.pname', me ? t('seat.you', { name: ctx.nameOf(s.seat) }) : ctx.nameOf(s.seat)),
      s.seat === v.first_player ? h('span.badge.first', { title: t('seat.first') }, t('seat.firstShort')) : null,
      presenceBadges(ctx, s.seat),
      turn ? h('span.badge.turn', t('seat.toPlay')) : null,
      clockChip(ctx, s.seat),
    ),
    h(
      'div.pstats',
      h('span.handcount', { title: t('seat.hand') }, h('span.miniback', { 'aria-hidden': 'true' }), `${s.hand_size}`),
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
  );
}

/** Every player's area. @param {import('./state.js').Ctx} ctx */
export function playersPanel(ctx) {
  return h(
    'div.players',
    ctx.view().seats.map((s) => playerArea(ctx, s)),
  );
}
