// @ts-check
// The contract market. On the contract step a contract is a button; one that no legal move can
// complete with the cards and Star picked so far is dimmed and disabled.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { contractCard, emptySlot } from '../../cards-ui.js';
import { covers } from '../../multiset.js';

/** @param {import('./state.js').Ctx} ctx */
export function contractMarket(ctx) {
  const v = ctx.view();
  const { sel } = ctx.st;
  const step = ctx.myTurn() ? v.phase.step : null;
  const picked = step === 'contracts' ? ctx.selectedHandCards() : [];
  const completes = ctx.legalOf('complete').filter((a) => (!sel.star || a.star) && covers(a.cards ?? [], picked));
  const cards = v.contract_market.map((id, i) => {
    if (id == null) return emptySlot('contract');
    if (step !== 'contracts') return contractCard(id, { extra: { 'data-slot': i } });
    const selected = sel.contract === id;
    const possible = selected ? null : completes.some((a) => a.contract === id);
    return contractCard(id, {
      selected,
      possible,
      extra: { 'data-key': `c${i}`, 'data-slot': i },
      onclick: () => {
        sel.contract = selected ? null : id;
        ctx.st.error = '';
        ctx.draw();
      },
    });
  });
  return h('div.contract-market', h('h2.label', t('board.contracts')), h('div.row-cards', cards));
}
