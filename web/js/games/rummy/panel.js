// @ts-check
// The players (name, marks, clock, cards in hand, total, Rami's opening and "carte", Rumino's eliminations
// and rebuys), whose turn it is, and the reader's moves: every button stands for a move of the server's
// legal list that fits the cards picked, so an illegal move cannot be built. Rami's opening shows its
// running points against the threshold (rami §6).

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { handCount, seatArea, statusLine } from '../../shell/seats.js';
import { actionFrame } from '../../shell/actions.js';
import { countdown } from '../../clock.js';
import { ofKind, playing } from './legal.js';
import { meldMoves } from './felt.js';
import { jokerWords, meldPoints, short, shortList } from './cards.js';

/**
 * What is left of the choice asked of `seat` (Rumino's rebuy), in milliseconds; null when none is open.
 * @param {import('./state.js').MeldCtx} ctx @param {number} seat
 */
function choiceLeft(ctx, seat) {
  const choice = ctx.st.choice;
  if (!choice || choice.seat !== seat || ctx.m().toAct !== seat || ctx.m().result) return null;
  return Math.max(0, choice.until - performance.now());
}

/** The countdown of a choice outside the turns. @param {import('./state.js').MeldCtx} ctx @param {number} seat */
function choiceChip(ctx, seat) {
  const left = choiceLeft(ctx, seat);
  if (left == null) return null;
  return h(
    'span.seat-clock.running',
    { 'data-choice-seat': seat, class: left < 10_000 ? 'low' : '', title: t('rt.choiceTitle') },
    t('rt.choiceLeft', { time: countdown(left) }),
  );
}

/** Updates the choices' countdowns in place. @param {import('./state.js').MeldCtx} ctx @param {HTMLElement} el */
export function tickChoice(ctx, el) {
  if (!ctx.st.choice || !ctx.st.gs) return;
  for (const chip of el.querySelectorAll('[data-choice-seat]')) {
    const left = choiceLeft(ctx, Number(/** @type {HTMLElement} */ (chip).dataset.choiceSeat));
    if (left == null) continue;
    chip.textContent = t('rt.choiceLeft', { time: countdown(left) });
    chip.classList.toggle('low', left < 10_000);
  }
}

/** @param {import('./state.js').MeldCtx} ctx @param {number} seat */
function playerArea(ctx, seat) {
  const m = ctx.m();
  const extra = m.seats[seat] ?? {};
  return seatArea(ctx, {
    seat,
    turn: m.toAct === seat && !m.result,
    label: t('rt.seatLabel', { who: ctx.who(seat), cards: m.handSizes[seat] ?? 0, total: m.totals[seat] ?? 0 }),
    mark: seat === m.dealer ? { title: t('rt.dealer'), short: t('rt.dealerShort') } : null,
    classes: extra.out ? ['out'] : [],
    head: [choiceChip(ctx, seat)],
    body: [
      h(
        'div.pstats',
        handCount(m.handSizes[seat] ?? 0),
        h('span.pscore', { title: t('rt.total') }, h('b', m.totals[seat] ?? 0), t('seat.pts')),
        extra.opened ? h('span.badge.good', t('rt.opened')) : null,
        extra.carte ? h('span.badge.alert', t('rt.carte')) : null,
        extra.out ? h('span.badge.alert', t('rt.eliminated')) : null,
        extra.rebuys ? h('span.badge', t('rt.rebuys', { n: extra.rebuys })) : null,
      ),
    ],
  });
}

/** @param {import('./state.js').MeldCtx} ctx */
export function playersPanel(ctx) {
  return h(
    'div.players',
    ctx.m().handSizes.map((_, seat) => playerArea(ctx, seat)),
  );
}

/** Whose turn it is and what they do. @param {import('./state.js').MeldCtx} ctx */
const turnLine = (ctx) => statusLine(ctx, ctx.m().toAct, t(`rt.step.${ctx.m().step}`));

/**
 * A button for one legal move.
 * @param {string} id
 * @param {string} text
 * @param {any} raw
 * @param {import('./state.js').MeldCtx} ctx
 * @param {string} [cls]
 */
const moveButton = (id, text, raw, ctx, cls = '') =>
  h(
    `button${cls}`,
    { type: 'button', id, 'data-key': id, disabled: ctx.st.pending != null, onclick: () => ctx.act(raw) },
    text,
  );

/**
 * Rami §6: the points of the picked cards that the listed opening lays, against the threshold.
 * @param {import('./state.js').MeldCtx} ctx
 */
function openingLine(ctx) {
  const m = ctx.m();
  if (m.threshold == null || ctx.game() !== 'rami' || m.step !== 'play') return null;
  const opening = ofKind(ctx.moves(), 'open')[0];
  const picked = [...ctx.selected()];
  let points = 0;
  for (const meld of opening?.melds ?? []) {
    points += meldPoints(meld, (code) => {
      const i = picked.indexOf(code);
      if (i < 0) return false;
      picked.splice(i, 1);
      return true;
    });
  }
  return h(
    'p.opening',
    { id: 'opening-points', class: points >= m.threshold ? 'opening enough' : 'opening' },
    t('rt.openingPoints', { n: points, of: m.threshold }),
    opening ? null : h('span.muted', ` ${t('rt.cannotOpen')}`),
  );
}

/** The buttons for the moves that fit the picks. @param {import('./state.js').MeldCtx} ctx */
function moveButtons(ctx) {
  const moves = ctx.moves();
  const picked = ctx.selected();
  const items = [];
  for (const mv of ofKind(moves, 'draw')) items.push(moveButton('act-draw', t('rt.draw'), mv.raw, ctx, '.primary'));
  const top = ctx.m().pile.at(-1);
  for (const mv of ofKind(moves, 'take').filter((x) => !x.card || x.card === top)) {
    items.push(
      moveButton('act-take', t('rt.takeTopButton', { card: short(/** @type {string} */ (top)) }), mv.raw, ctx),
    );
  }
  for (const mv of ofKind(moves, 'end_round')) items.push(moveButton('act-end-round', t('rt.endRound'), mv.raw, ctx));
  for (const mv of ofKind(moves, 'knock')) items.push(moveButton('act-knock', t('rt.knock'), mv.raw, ctx, '.primary'));
  for (const mv of ofKind(moves, 'rebuy')) {
    items.push(
      moveButton(
        mv.rebuy ? 'act-rebuy' : 'act-no-rebuy',
        t(mv.rebuy ? 'rt.rebuy' : 'rt.noRebuy'),
        mv.raw,
        ctx,
        mv.rebuy ? '.primary' : '',
      ),
    );
  }
  if (picked.length) {
    for (const mv of playing(moves, 'open', picked)) {
      items.push(moveButton('act-open', t('rt.open'), mv.raw, ctx, '.primary'));
    }
    playing(moves, 'meld', picked).forEach((mv, i) =>
      items.push(
        moveButton(
          i ? `act-meld-${i}` : 'act-meld',
          mv.joker ? t('rt.meldJoker', { card: jokerWords(mv.joker) }) : t('rt.meld'),
          mv.raw,
          ctx,
          '.primary',
        ),
      ),
    );
    for (const meld of ctx.m().melds) {
      // A joker may stand for one of two cards on the same meld: each button says which.
      meldMoves(ctx, meld.id).forEach((mv, i) => {
        const words = { id: meld.id, who: ctx.who(meld.owner), card: mv.joker ? jokerWords(mv.joker) : '' };
        const key = mv.kind === 'exchange' ? 'rt.exchangeOn' : mv.joker ? 'rt.layOffOnJoker' : 'rt.layOffOn';
        items.push(moveButton(`act-${mv.kind}-${meld.id}${i ? `-${i}` : ''}`, t(key, words), mv.raw, ctx));
      });
    }
    for (const mv of playing(moves, 'discard', picked)) {
      items.push(
        mv.gin
          ? moveButton('act-gin', t('rt.gin', { card: short(picked[0]) }), mv.raw, ctx, '.primary')
          : moveButton('act-discard', t('rt.discard', { card: short(picked[0]) }), mv.raw, ctx),
      );
    }
  }
  for (const mv of ofKind(moves, 'take_back')) {
    items.push(moveButton('act-take-back', t('act.takeBack'), mv.raw, ctx));
  }
  return items;
}

/** What the reader may do now. @param {import('./state.js').MeldCtx} ctx */
export function actionPanel(ctx) {
  const { st } = ctx;
  return actionFrame(ctx, turnLine(ctx), () => {
    const mine = ctx.myTurn();
    const items = mine ? moveButtons(ctx) : [];
    const picked = ctx.selected();
    const hint = !mine
      ? null
      : picked.length
        ? t('rt.picked', { cards: shortList(picked), n: picked.length })
        : t(`rt.hint.${ctx.m().step}`);
    const clear = h(
      'button.small',
      {
        type: 'button',
        id: 'act-clear',
        'data-key': 'clear',
        onclick: () => {
          st.sel.clear();
          ctx.draw();
        },
      },
      t('act.clear'),
    );
    return {
      mine,
      body: [
        hint ? h('p.hint', { id: 'hint' }, hint) : null,
        mine ? openingLine(ctx) : null,
        items.length ? h('div.row.buttons', items) : null,
        picked.length ? clear : null,
      ],
    };
  });
}
