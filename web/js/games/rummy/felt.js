// @ts-check
// The felt: the stock, the discard pile (splayed where any card may be taken with those above it, rommi
// 500 §6.1 c), every meld with its id and who laid it, and the reader's hand (sorted by suit or by rank).
// A card, the stock or a meld is a button only when a legal move uses it with the cards picked so far.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { rcard, rback, cardWords, jokerWords, short } from './cards.js';
import { ofKind, playing, usable } from './legal.js';

/**
 * The moves a click on meld `id` makes with the picked cards.
 * @param {import('./state.js').MeldCtx} ctx @param {number} id
 */
export function meldMoves(ctx, id) {
  const picked = ctx.selected();
  if (!picked.length) return [];
  const moves = ctx.moves();
  return [...playing(moves, 'lay_off', picked), ...playing(moves, 'exchange', picked)].filter((mv) => mv.id === id);
}

/**
 * What a move on a meld does, in a few words: what its joker will stand for, else lay off or exchange.
 * @param {import('./legal.js').Move} mv
 */
export const meldMoveWords = (mv) =>
  mv.joker
    ? t('rt.jokerChoice', { card: jokerWords(mv.joker) })
    : mv.kind === 'exchange'
      ? t('rt.exchangeHere')
      : t('rt.layOffHere');

/** @param {import('./state.js').MeldCtx} ctx @param {import('./model.js').Meld} meld */
function meldView(ctx, meld) {
  const { st } = ctx;
  const moves = meldMoves(ctx, meld.id);
  const owner = ctx.who(meld.owner);
  const cards = meld.cards.map((p) =>
    rcard(p.card, {
      small: true,
      stands: p.card === 'X' ? p.rank : undefined,
      label: p.card === 'X' ? t('rt.jokerAs', { rank: p.rank }) : cardWords(p.card),
    }),
  );
  const head = h('span.meld-head', h('b', `${meld.id}`), ` ${owner}`);
  const label = t('rt.meldLabel', { id: meld.id, who: owner, cards: meld.cards.map((p) => short(p.card)).join(' ') });
  if (!moves.length) {
    return h(
      'div.meld',
      { 'data-meld': meld.id, role: 'group', 'aria-label': label },
      head,
      h('span.meld-cards', cards),
    );
  }
  // One meaning: a click plays it. Several (a joker that may stand for a card at either end of a run): a click
  // asks which, beside the meld, rather than send one the player did not choose.
  const asking = moves.length > 1 && st.choosing === meld.id;
  const what = moves.length > 1 ? t('rt.jokerWhich') : meldMoveWords(moves[0]);
  const button = h(
    'button.meld.possible',
    {
      type: 'button',
      'data-meld': meld.id,
      'data-key': `meld${meld.id}`,
      'aria-label': `${label}. ${what}`,
      'aria-expanded': moves.length > 1 ? String(asking) : null,
      title: what,
      onclick: () => {
        if (moves.length === 1) {
          ctx.act(moves[0].raw);
          return;
        }
        st.choosing = asking ? null : meld.id;
        ctx.draw();
        /** @type {HTMLElement | null} */ (document.querySelector(`[data-key="choice${meld.id}-0"]`))?.focus();
      },
    },
    head,
    h('span.meld-cards', cards),
  );
  if (!asking) return button;
  return h(
    'div.meld-asking',
    button,
    h(
      'div.meld-choice',
      { role: 'group', 'aria-label': t('rt.jokerWhich') },
      h('p.small', t('rt.jokerWhich')),
      moves.map((mv, i) =>
        h(
          'button.primary',
          {
            type: 'button',
            'data-key': `choice${meld.id}-${i}`,
            'data-joker': mv.joker ?? null,
            onclick: () => {
              st.choosing = null;
              ctx.act(mv.raw);
            },
          },
          meldMoveWords(mv),
        ),
      ),
      h(
        'button',
        {
          type: 'button',
          'data-key': `choice${meld.id}-cancel`,
          onclick: () => {
            st.choosing = null;
            ctx.draw();
          },
        },
        t('rt.cancel'),
      ),
    ),
  );
}

/** @param {import('./state.js').MeldCtx} ctx */
function pileView(ctx) {
  const m = ctx.m();
  const takes = ofKind(ctx.moves(), 'take');
  const top = m.pile.length - 1;
  // The card a take takes down to: the listed card (Rommi), else the top card.
  const takeAt = (/** @type {number} */ i) =>
    takes.find((mv) => (mv.card ? mv.card === m.pile[i] && m.pile.lastIndexOf(mv.card) === i : i === top));
  const shown = m.splayed ? m.pile.map((c, i) => i) : m.pile.length ? [top] : [];
  const cards = shown.map((i) => {
    const move = takeAt(i);
    const n = top - i;
    const card = cardWords(m.pile[i]);
    const label = n > 0 ? t('rt.takeDeep', { card, n }) : t('rt.takeTop', { card });
    return move
      ? rcard(m.pile[i], { onclick: () => ctx.act(move.raw), possible: true, label, key: `pile${i}` })
      : rcard(m.pile[i], { label: cardWords(m.pile[i]) });
  });
  return h(
    'div.pile',
    { class: m.splayed ? 'pile splayed' : 'pile', role: 'group', 'aria-label': t('rt.pile', { n: m.pile.length }) },
    h('span.label', t('rt.pileShort', { n: m.pile.length })),
    h('div.pile-cards', cards.length ? cards : h('span.muted', '—')),
  );
}

/** @param {import('./state.js').MeldCtx} ctx */
export function boardPanel(ctx) {
  const m = ctx.m();
  const draw = ofKind(ctx.moves(), 'draw')[0];
  const stock = draw
    ? h(
        'button.stock.possible',
        {
          type: 'button',
          id: 'act-stock',
          'data-key': 'stock',
          'aria-label': t('rt.drawFrom', { n: m.stock }),
          onclick: () => ctx.act(draw.raw),
        },
        rback('', m.stock),
      )
    : h('div.stock', { 'aria-label': t('rt.stock', { n: m.stock }), role: 'img' }, rback('', m.stock));
  const melds = m.melds.length
    ? m.melds.map((meld) => meldView(ctx, meld))
    : h('p.muted.small', ctx.game() === 'rumino' ? t('rt.noMeldsRumino') : t('rt.noMelds'));
  return h(
    'section.board.meld-board',
    { 'aria-label': t('rt.table') },
    h('div.piles', h('div.stock-wrap', h('span.label', t('rt.stockShort')), stock), pileView(ctx)),
    h('div.melds', { 'aria-label': t('rt.melds') }, melds),
  );
}

/** @param {import('./state.js').MeldCtx} ctx */
export function handPanel(ctx) {
  const { st } = ctx;
  const m = ctx.m();
  if (!m.hand) return h('section.hand-watch', h('p.muted', t('rt.spectatorHand')));
  const hand = ctx.sortedHand();
  const moves = ctx.moves();
  const playable = moves.some((mv) => mv.kind !== 'take' && mv.kind !== 'draw' && mv.cards.length);
  const cards = hand.map((code, i) =>
    rcard(code, {
      selected: st.sel.has(i),
      possible: playable ? (usable(moves, code) ? null : false) : null,
      key: `hand${i}`,
      onclick: () => {
        st.choosing = null;
        if (st.sel.has(i)) st.sel.delete(i);
        else st.sel.add(i);
        st.error = '';
        ctx.draw();
      },
    }),
  );
  const sortButton = (/** @type {boolean} */ bySuit) =>
    h(
      'button.small',
      {
        type: 'button',
        'aria-pressed': String(st.bySuit === bySuit),
        'data-key': bySuit ? 'sort-suit' : 'sort-rank',
        onclick: () => {
          st.bySuit = bySuit;
          st.sel.clear();
          ctx.draw();
        },
      },
      t(bySuit ? 'rt.bySuit' : 'rt.byRank'),
    );
  return h(
    'section.meld-hand',
    { 'aria-label': t('rt.hand', { n: hand.length }) },
    h(
      'div.hand-head',
      h('h2.label', t('rt.hand', { n: hand.length })),
      m.deadwood != null ? h('span.badge', t('rt.deadwood', { n: m.deadwood })) : null,
      h('span.sort', sortButton(true), sortButton(false)),
    ),
    h('div.hand-cards', cards),
  );
}
