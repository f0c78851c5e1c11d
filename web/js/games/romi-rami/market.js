// @ts-check
// The felt: the trophies in play, the contract market, the number market and the piles. On the take
// step a market card is a button; one that no legal take allows with the cards picked so far is dimmed
// and disabled.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { numberCard, emptySlot, cardBack, trophyTile } from '../../cards-ui.js';
import { covers } from '../../multiset.js';
import { contractMarket } from './contracts.js';

/** @param {import('./state.js').Ctx} ctx */
function numberMarket(ctx) {
  const v = ctx.view();
  const step = ctx.myTurn() ? v.phase.step : null;
  const takes = ctx.legalOf('take');
  const picked = step === 'take' ? ctx.selectedMarketCards() : [];
  const cards = v.number_market.map((code, i) => {
    if (!code) return emptySlot();
    if (step !== 'take') return numberCard(code, { slot: i });
    const selected = ctx.st.sel.market.has(i);
    const possible = selected ? null : takes.some((a) => covers(a.cards ?? [], [...picked, code]));
    return numberCard(code, {
      slot: i,
      selected,
      possible,
      extra: { 'data-key': `m${i}` },
      onclick: () => ctx.toggle(ctx.st.sel.market, i),
    });
  });
  return h('div.number-market', h('h2.label', t('board.market')), h('div.row-cards', cards));
}

/** @param {import('./state.js').Ctx} ctx */
export function board(ctx) {
  const v = ctx.view();
  const leader = (/** @type {string} */ tr) =>
    v.trophy_leaders?.[tr] != null ? ctx.who(/** @type {number} */ (v.trophy_leaders[tr])) : null;
  return h(
    'section.board',
    { 'aria-label': t('board.label') },
    h(
      'div.trophies-wrap',
      h('h2.label', t('board.trophies')),
      h(
        'ul.trophies',
        v.trophies.map((tr) => trophyTile(tr, leader(tr))),
      ),
    ),
    contractMarket(ctx),
    numberMarket(ctx),
    h(
      'div.piles',
      { 'aria-label': t('board.piles') },
      h('div.pile', cardBack(t('board.deckLabel', { n: v.number_deck }), v.number_deck), h('span', t('board.deck'))),
      h(
        'div.pile',
        h(
          'div.cback.contract-back',
          { role: 'img', 'aria-label': t('board.contractDeckLabel', { n: v.contract_deck }) },
          h('span.count', v.contract_deck),
        ),
        h('span', t('board.contractDeck')),
      ),
      h(
        'div.pile',
        h(
          'div.card.discard',
          { role: 'img', 'aria-label': t('board.discardLabel', { n: v.discard_pile }) },
          h('span.count', v.discard_pile),
        ),
        h('span', t('board.discard')),
      ),
    ),
  );
}
