// @ts-check
// The page's title says when it is the reader's turn, so that a player whose table is in another tab (or
// behind another window) sees it is their move. The table shell sets it at each redraw.

import { t } from '../i18n.js';

/** Marks the title while it is the reader's turn. @param {boolean} myTurn */
export function turnTitle(myTurn) {
  const title = myTurn ? `${t('title.yourTurn')} · ${t('app.title')}` : t('app.title');
  if (document.title !== title) document.title = title;
}

/** The plain title again, when the table's page closes. */
export function plainTitle() {
  document.title = t('app.title');
}
