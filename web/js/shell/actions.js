// @ts-check
// The frame of the action panel, the same for every game: the status line, then what the reader may do —
// nothing while watching, the notice and "Take my seat back" while the bot plays their seat, else the
// board's moves — and the line that says why the server refused a move.

import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @param {import('./state.js').Ctx} ctx
 * @param {any} status the board's status line
 * @param {() => {mine: boolean, body: any[]}} moves the board's moves, when the reader plays their seat
 */
export function actionFrame(ctx, status, moves) {
  const { st } = ctx;
  if (st.result) return null;
  const errorLine = () =>
    h(
      'p.error',
      { id: 'action-error', role: 'alert', tabindex: '-1' },
      st.error ? t('refused', { why: st.error }) : '',
    );
  if (ctx.mySeat() == null) return h('section.actions', { 'aria-label': t('actions.label') }, status);
  if (ctx.botPlaysForMe()) {
    return h(
      'section.actions',
      { 'aria-label': t('actions.label') },
      status,
      h(
        'div.notice.bot-notice',
        { id: 'bot-notice', role: 'status' },
        h('strong', t('bot.playsForYou')),
        h('p', t(st.reclaiming ? 'bot.soon' : 'bot.why')),
        h(
          'button.primary',
          {
            type: 'button',
            id: 'take-seat-back',
            'data-key': 'take-seat-back',
            disabled: st.reclaiming || st.offline,
            onclick: () => ctx.reclaim(),
          },
          t('bot.takeBack'),
        ),
      ),
      errorLine(),
    );
  }
  const { mine, body } = moves();
  return h(
    'section.actions',
    { class: mine ? 'actions mine' : 'actions', 'aria-label': t('actions.label'), 'aria-keyshortcuts': 'A' },
    status,
    ...body,
    errorLine(),
  );
}
