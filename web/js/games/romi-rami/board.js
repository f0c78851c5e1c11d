// @ts-check
// Romi Rami's board in the table shell: it folds the server's events into the view it holds (events.js),
// so that the cards fly where they go (motion.js), and draws the players, the markets (market.js,
// contracts.js), the hand (hand.js), the moves (actions.js) and, at the end, the result (end.js).

import { t } from '../../i18n.js';
import { sortCards, stepWords } from '../../rules-data.js';
import { gameState, applyEvent, rescore } from './events.js';
import { playersPanel } from './seats.js';
import { board } from './market.js';
import { handPanel } from './hand.js';
import { actionPanel } from './actions.js';
import { endPanel } from './end.js';
import { remember, animate } from './motion.js';

/** @param {import('../../shell/state.js').Ctx} shell @returns {import('../../shell/state.js').Board} */
export function mount(shell) {
  const ctx = /** @type {import('./state.js').Ctx} */ (shell);
  const { st } = ctx;
  st.sel = { market: new Set(), hand: new Set(), contract: null, star: false };
  st.bySuit = false;
  const view = () => /** @type {import('./state.js').View} */ (st.gs?.view);
  Object.assign(ctx, {
    view,
    legalOf: (/** @type {string} */ type) => (st.legal ?? []).filter((a) => a.type === type),
    sortedHand: () => sortCards(st.gs?.view.hand ?? [], st.bySuit),
    selectedMarketCards: () => [...st.sel.market].map((i) => view().number_market[i]).filter((c) => c != null),
    selectedHandCards: () => {
      const hand = ctx.sortedHand();
      return [...st.sel.hand].map((i) => hand[i]);
    },
    clearSelection: () => {
      st.sel = { market: new Set(), hand: new Set(), contract: null, star: false };
    },
    toggle: (/** @type {Set<number>} */ set, /** @type {number} */ key) => {
      if (set.has(key)) set.delete(key);
      else set.add(key);
      st.error = '';
      ctx.draw();
    },
  });
  return {
    name: 'romi-rami',
    folds: true,
    takeView: (v) => {
      st.gs = gameState(v);
      st.eventCount = v.event_count;
      st.result = v.result ?? null;
    },
    takeEvents: (events, el) => {
      const before = remember(el);
      for (const { event } of events) {
        applyEvent(/** @type {any} */ (st.gs), event);
        if (event.type === 'game_over') st.result = event.result;
      }
      st.legal = null;
      ctx.clearSelection();
      return () => animate(el, before, events, ctx.mySeat());
    },
    gameOver: (result) => {
      if (!st.gs) return;
      st.gs.view.result = result;
      st.gs.view.phase = { state: 'over', ended_by: result.ended_by };
      rescore(st.gs.view);
    },
    myTurn: () => view().phase.state === 'playing' && view().phase.seat === ctx.mySeat(),
    legal: () => st.legal,
    turnCue: () => {
      const step = view()?.phase.step;
      return step ? { id: step, words: t('announce.yourTurn', { what: stepWords(step) }) } : null;
    },
    screen: () => ({
      class: '',
      top: st.result ? [endPanel(ctx)] : [],
      main: [playersPanel(ctx), board(ctx), handPanel(ctx)],
      actions: actionPanel(ctx),
      side: [],
    }),
    hook: { view: () => st.gs?.view ?? null },
  };
}
