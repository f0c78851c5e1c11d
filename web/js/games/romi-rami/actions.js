// @ts-check
// The action panel: what the reader may do now, with a hint that follows the picks. A move can only be
// sent when it is one of the server's legal moves (`your_turn`): the buttons stay disabled otherwise,
// and the hint says what is missing (a card, the Star). The rule of the step is one click away.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { contract } from '../../rules-data.js';
import { covers, sameCards } from '../../multiset.js';
import { turnLine } from './seats.js';
import { actionFrame } from '../../shell/actions.js';

/** The help's section for each step of a turn. */
const RULE_OF_STEP = { take: 'take', contracts: 'contracts', discard: 'limit' };

/** @param {import('./state.js').Ctx} ctx @param {string | null} step @param {boolean} busy */
function stepItems(ctx, step, busy) {
  const { st } = ctx;
  const items = [];
  const clear = () =>
    h(
      'button',
      {
        type: 'button',
        id: 'act-clear',
        'data-key': 'clear',
        onclick: () => {
          ctx.clearSelection();
          ctx.draw();
        },
      },
      t('act.clear'),
    );
  if (step === 'take') {
    const cards = ctx.selectedMarketCards();
    const exact = ctx.legalOf('take').some((a) => sameCards(a.cards ?? [], cards));
    items.push(
      h(
        'p.hint',
        { id: 'hint' },
        cards.length ? t('act.selected', { n: cards.length, ok: exact }) : t('act.pickMarket'),
      ),
    );
    items.push(
      h(
        'button.primary',
        {
          type: 'button',
          id: 'act-take',
          'data-key': 'act-take',
          disabled: busy || !exact,
          onclick: () => ctx.act({ type: 'take', cards }),
        },
        t('act.take', { n: cards.length }),
      ),
    );
    if (cards.length) items.push(clear());
  } else if (step === 'contracts') {
    const cards = ctx.selectedHandCards();
    const c = st.sel.contract != null ? contract(st.sel.contract) : null;
    const forC = c ? ctx.legalOf('complete').filter((a) => a.contract === c.id && covers(a.cards ?? [], cards)) : [];
    const exact = forC.some((a) => Boolean(a.star) === st.sel.star && sameCards(a.cards ?? [], cards));
    const starOnly = !st.sel.star && forC.length > 0 && forC.every((a) => a.star);
    const starFits = !st.sel.star && forC.some((a) => a.star && sameCards(a.cards ?? [], cards));
    const need = c ? c.cards - (st.sel.star || starOnly ? 1 : 0) : 0;
    let hint = t('act.pickContract');
    if (c && exact) hint = t('act.ready', { id: c.id });
    else if (c && starFits && !starOnly) hint = t('act.moreOrStar', { id: c.id, n: cards.length });
    else if (c && starFits) hint = t('act.needsStar', { id: c.id, n: cards.length });
    else if (c && !forC.length) hint = t('act.cannot', { id: c.id });
    else if (c) hint = t('act.selectFor', { id: c.id, need, n: cards.length, star: st.sel.star || starOnly });
    items.push(h('p.hint', { id: 'hint', class: starOnly || starFits ? 'hint star-needed' : 'hint' }, hint));
    items.push(
      h(
        'button.primary',
        {
          type: 'button',
          id: 'act-complete',
          'data-key': 'act-complete',
          disabled: busy || !exact,
          onclick: () =>
            ctx.act({ type: 'complete', contract: /** @type {number} */ (st.sel.contract), cards, star: st.sel.star }),
        },
        t('act.complete'),
      ),
    );
    items.push(
      h(
        'button',
        {
          type: 'button',
          id: 'act-pass',
          'data-key': 'act-pass',
          disabled: busy,
          onclick: () => ctx.act({ type: 'pass' }),
        },
        t('act.pass'),
      ),
    );
    if (c || cards.length || st.sel.star) items.push(clear());
  } else if (step === 'discard') {
    const cards = ctx.selectedHandCards();
    const seat = /** @type {number} */ (ctx.mySeat());
    const need = ctx.view().seats[seat].hand_size - 10;
    const exact = ctx.legalOf('discard').some((a) => sameCards(a.cards ?? [], cards));
    items.push(h('p.hint', { id: 'hint' }, t('act.discardHint', { need, n: cards.length })));
    items.push(
      h(
        'button.primary',
        {
          type: 'button',
          id: 'act-discard',
          'data-key': 'act-discard',
          disabled: busy || !exact,
          onclick: () => ctx.act({ type: 'discard', cards }),
        },
        t('act.discard', { n: cards.length }),
      ),
    );
  }
  if (step && step !== 'discard') {
    items.push(
      h(
        'button',
        {
          type: 'button',
          id: 'act-take-back',
          'data-key': 'act-take-back',
          disabled: busy || !ctx.legalOf('take_back').length,
          title: t('act.takeBackTitle'),
          onclick: () => ctx.act({ type: 'take_back' }),
        },
        t('act.takeBack'),
      ),
    );
  }
  if (step) {
    items.push(
      h(
        'a.rule-link.small',
        { href: `#/help/romi-rami#${RULE_OF_STEP[/** @type {'take'} */ (step)]}`, target: '_blank', id: 'rule-link' },
        t('act.rule'),
      ),
    );
  }
  return items;
}

/** @param {import('./state.js').Ctx} ctx */
export function actionPanel(ctx) {
  return actionFrame(ctx, turnLine(ctx), () => {
    const step = ctx.myTurn() ? (ctx.view().phase.step ?? null) : null;
    const items = stepItems(ctx, step, ctx.st.pending != null);
    return { mine: step != null, body: [items.length ? h('div.row.buttons', items) : null] };
  });
}
