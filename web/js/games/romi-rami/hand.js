// @ts-check
// The reader's hand, sorted by number or by suit, with the suit bonus count and the Star. On the
// contract and discard steps a card is a button; one that no legal move can use with the picks so far
// is dimmed and disabled. The Star is lit when a move with the picks uses it.

import { h, icon } from '../../dom.js';
import { t } from '../../i18n.js';
import { numberCard, starToken } from '../../cards-ui.js';
import { covers } from '../../multiset.js';

/** @param {import('./state.js').Ctx} ctx */
export function handPanel(ctx) {
  const v = ctx.view();
  const { st } = ctx;
  const seat = ctx.mySeat();
  if (seat == null) return h('section.hand-area.spectating', h('p', icon('he'), ' ', t('hand.watching')));
  const step = ctx.myTurn() ? v.phase.step : null;
  const hand = ctx.sortedHand();
  const me = v.seats[seat];
  const picked = ctx.selectedHandCards();
  const completes = ctx
    .legalOf('complete')
    .filter((a) => (st.sel.contract == null || a.contract === st.sel.contract) && (!st.sel.star || a.star));
  const discards = ctx.legalOf('discard');
  const cards = hand.map((code, i) => {
    const selected = st.sel.hand.has(i);
    /** @type {boolean | null} */
    let possible = null;
    if (!selected && step === 'contracts') possible = completes.some((a) => covers(a.cards ?? [], [...picked, code]));
    if (!selected && step === 'discard') possible = discards.some((a) => covers(a.cards ?? [], [...picked, code]));
    const clickable = step === 'contracts' || step === 'discard';
    return numberCard(code, {
      selected,
      possible,
      extra: { 'data-key': `h${i}`, 'data-index': i },
      onclick: clickable ? () => ctx.toggle(st.sel.hand, i) : null,
    });
  });
  const withStar = ctx
    .legalOf('complete')
    .filter(
      (a) => a.star && (st.sel.contract == null || a.contract === st.sel.contract) && covers(a.cards ?? [], picked),
    );
  const starRow =
    step === 'contracts' && !me.star_used
      ? h(
          'div.star-row',
          starToken({
            selected: st.sel.star,
            possible: st.sel.star ? null : withStar.length > 0,
            label: t('star.use'),
            onclick: () => {
              st.sel.star = !st.sel.star;
              st.error = '';
              ctx.draw();
            },
          }),
          h('span.muted.small', t('star.help')),
        )
      : null;
  return h(
    'section.hand-area',
    { 'aria-labelledby': 'hand-title' },
    h(
      'div.hand-head',
      h('h2.label', { id: 'hand-title' }, t('hand.title', { n: hand.length })),
      h(
        'button.small.linklike',
        {
          type: 'button',
          'data-key': 'sort',
          'aria-pressed': String(st.bySuit),
          onclick: () => {
            st.bySuit = !st.bySuit;
            ctx.clearSelection();
            ctx.draw();
          },
        },
        t(st.bySuit ? 'hand.bySuit' : 'hand.byNumber'),
      ),
      h('span.bonus', { title: t('hand.bonusTitle') }, t('hand.bonus', { n: (v.suit_bonus ?? []).length })),
    ),
    h('div.hand', cards.length ? cards : h('p.muted', t('hand.none'))),
    starRow,
  );
}
