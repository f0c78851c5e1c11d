// @ts-check
// What every game's players' areas and status line share: the frame of a seat (its name, the first
// player's or dealer's mark, where its player is, whose turn, its clock), the status line that says whose
// turn it is, and the clocks. A board fills in what its game shows of a seat (cards, scores, contracts).
// The clocks are drawn once per `clocks` message and their figures updated by a ticker without a redraw
// (which would move the focus and the selection).

import { h } from '../dom.js';
import { t } from '../i18n.js';
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
function turnClock(ctx) {
  const c = ctx.liveClocks();
  if (!c || c.toAct == null || ctx.isBot(c.toAct)) return null;
  const reserve = c.reserves[c.toAct] ?? 0;
  if (c.turn != null && c.turn > 0)
    return { text: t('clock.left', { time: countdown(c.turn) }), low: c.turn < 10_000 && reserve < 10_000 };
  return { text: t('clock.reserveLeft', { time: countdown(reserve) }), low: true };
}

/** @param {import('./state.js').Ctx} ctx @param {number} seat */
function clockChip(ctx, seat) {
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

/**
 * Whose turn it is and what they do: `seat` is the seat to act (null once the game is over), `what` the
 * board's words for what that seat does now, `extra` the board's badges after them.
 * @param {import('./state.js').Ctx} ctx @param {number | null} seat @param {string} what @param {any} [extra]
 */
export function statusLine(ctx, seat, what, extra = null) {
  if (ctx.st.result || seat == null) return h('p.status', t('status.over'));
  const mineNow = seat === ctx.mySeat();
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
    h('span', ` — ${what}`),
    clock ? h('span.turn-clock', { 'data-clock-turn': '', class: clock.low ? 'low' : '' }, clock.text) : null,
    extra,
  );
}

/**
 * Where a seat's player is: the host's bot plays it (`botSeat`), the bot stands in for its player
 * (`away`), or its player is not connected though the seat is theirs and their clock runs (`offline`,
 * protocol section 11b).
 * @param {import('./state.js').Ctx} ctx @param {number} seat
 */
export function presenceOf(ctx, seat) {
  const botSeat = ctx.isBotPlayer(seat);
  const away = ctx.isStandIn(seat);
  const offline = !botSeat && !away && !ctx.st.result && ctx.st.summary?.presence?.[seat] === 'away';
  return { botSeat, away, offline };
}

/** The badges after a seat's name that say where its player is. @param {import('./state.js').Ctx} ctx @param {number} seat */
function presenceBadges(ctx, seat) {
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

/**
 * One player's area: the frame every game shares, with the board's own parts.
 * @param {import('./state.js').Ctx} ctx
 * @param {object} seatArea
 * @param {number} seatArea.seat
 * @param {boolean} seatArea.turn whether the seat is to act
 * @param {string} seatArea.label the area's name for screen readers
 * @param {{title: string, short: string} | null} seatArea.mark the first player's or the dealer's mark
 * @param {string[]} [seatArea.classes] the board's own classes (an eliminated player, say)
 * @param {any[]} [seatArea.head] what follows the clock in the header
 * @param {any[]} seatArea.body the board's parts of the area
 */
export function seatArea(ctx, { seat, turn, label, mark, classes = [], head = [], body }) {
  const me = seat === ctx.mySeat();
  const { botSeat, away, offline } = presenceOf(ctx, seat);
  const cls = ['player', turn && 'turn', me && 'me', (botSeat || away) && 'bot', away && 'away', offline && 'offline']
    .concat(classes)
    .filter(Boolean)
    .join(' ');
  return h(
    'section',
    { class: cls, 'data-seat': seat, 'aria-label': label },
    h(
      'header',
      h('span.pname', me ? t('seat.you', { name: ctx.nameOf(seat) }) : ctx.nameOf(seat)),
      mark ? h('span.badge.first', { title: mark.title }, mark.short) : null,
      presenceBadges(ctx, seat),
      turn ? h('span.badge.turn', t('seat.toPlay')) : null,
      clockChip(ctx, seat),
      ...head,
    ),
    ...body,
  );
}

/** The cards a seat holds, face down, as a count. @param {number} n */
export const handCount = (n) =>
  h('span.handcount', { title: t('seat.hand') }, h('span.miniback', { 'aria-hidden': 'true' }), `${n}`);
