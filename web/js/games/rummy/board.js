// @ts-check
// The rummy family's board (Rommi, Rami, Rumino) in the table shell: the melds and the piles (felt.js), the
// players and the moves (panel.js), the scores (scores.js), in this family's words (words.js, i18n/, help/).
//
// The view: these games' events do not carry everything their views hold (where a card laid off sits in a
// run, the turn's state), so the server sends the game's `view` right after each batch of events (protocol
// section 9): the events go into the log, the view in place of the one the page held. While the bot plays
// the reader's seat the page does not ask for the table (a `join` takes the seat back).

import { t } from '../../i18n.js';
import { describeRummy, explainRummy } from './words.js';
import { model } from './model.js';
import { normalize } from './legal.js';
import { sortHand } from './cards.js';
import { boardPanel, handPanel } from './felt.js';
import { playersPanel, actionPanel, tickChoice } from './panel.js';
import { roundPanel, scoresPanel } from './scores.js';

/** @param {import('../../shell/state.js').Ctx} shell @returns {import('../../shell/state.js').Board} */
export function mount(shell) {
  const ctx = /** @type {import('./state.js').MeldCtx} */ (shell);
  const { st } = ctx;
  Object.assign(st, { bySuit: true, choice: null, sel: new Set(), stale: false, seenRound: null, choosing: null });
  const m = () => /** @type {import('./model.js').Model} */ (st.gs);
  Object.assign(ctx, {
    m,
    moves: () => (ctx.myTurn() && !st.stale ? (st.legal ?? []).map(normalize) : []),
    sortedHand: () => sortHand(st.gs?.hand ?? [], st.bySuit),
    selected: () => {
      const hand = ctx.sortedHand();
      return [...st.sel].sort((a, b) => a - b).map((i) => hand[i]);
    },
    describe: describeRummy,
  });
  return {
    name: 'rummy',
    folds: false,
    takeView: (view) => {
      st.gs = model(ctx.game(), view, ctx.mySeat());
      st.stale = false;
      st.eventCount = Math.max(st.eventCount, view.event_count ?? 0);
      st.result = st.gs.result;
    },
    // The view that follows the events (a `view` message) brings the board up to date; the moves went with the
    // events (the shell forgets them), and come back with the `your_turn` after the view and the ack.
    takeEvents: () => {
      st.stale = true;
      st.sel.clear();
      st.choosing = null;
      return undefined;
    },
    myTurn: () => !st.result && m().toAct != null && m().toAct === ctx.mySeat(),
    legal: () => (st.stale ? null : st.legal),
    turnCue: () => ({ id: String(st.eventCount), words: t('rt.yourTurn') }),
    explain: (msg) => (msg.code === 'illegal_action' ? explainRummy(msg.message ?? '') : null),
    screen: () => ({
      class: 'meld-game',
      top: [roundPanel(ctx)],
      main: [playersPanel(ctx), boardPanel(ctx), handPanel(ctx)],
      actions: actionPanel(ctx),
      side: [scoresPanel(ctx)],
    }),
    tick: (el) => tickChoice(ctx, el),
    messages: {
      choice: (msg) => {
        st.choice = { seat: msg.seat, until: performance.now() + msg.left_ms };
      },
    },
    hook: { view: () => st.gs, stale: () => st.stale },
  };
}
