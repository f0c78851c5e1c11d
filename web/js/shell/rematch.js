// @ts-check
// Playing again (docs/protocol.md section 11c), for every game's table page: the offer the server makes
// at the end of a game (who said yes, the time left), the players' "Play again" and "No thanks", how it
// ended (a no, the time running out: then a player may offer again), and, once everyone said yes, the way to the new table: the page
// moves there with the same invite key, a player to their seat, a spectator to watch. The same answer
// comes to whoever opens the finished table's link later, so that link leads to the new game too.

import { connection } from '../connection.js';
import { h } from '../dom.js';
import { rememberInvite } from '../identity.js';
import { t, list } from '../i18n.js';

/**
 * @typedef {{ state: 'open', accepted: boolean[], until: number }
 *   | { state: 'closed', reason: 'declined' | 'timed_out' | 'failed', seat: number | null }
 *   | { state: 'started', next: string }} Offer
 */

/**
 * Follows the rematch offer of the table `tableId`.
 * @param {{ tableId: string, invite: string | null, mySeat: () => number | null,
 *   nameOf: (seat: number) => string, watching: () => boolean, redraw: () => void }} page
 * @returns {{ panel: () => HTMLElement | null, offer: () => Offer | null, offs: (() => void)[] }}
 */
export function rematch(page) {
  /** @type {Offer | null} */
  let offer = null;
  let sent = false;
  /** @param {any} msg */
  const mine = (msg) => msg.table === page.tableId;

  /** Moves the page to the new table, keeping the invite key in the link. */
  const follow = (/** @type {string} */ next) => {
    const params = new URLSearchParams();
    if (page.invite) {
      params.set('invite', page.invite);
      rememberInvite(next, page.invite);
    }
    if (page.mySeat() == null && page.watching()) params.set('watch', '1');
    const query = params.toString();
    location.hash = `#/table/${next}${query ? `?${query}` : ''}`;
  };

  const offs = [
    connection.on('rematch', (msg) => {
      if (!mine(msg)) return;
      offer = { state: 'open', accepted: msg.accepted, until: performance.now() + msg.remaining_ms };
      page.redraw();
    }),
    connection.on('rematch_closed', (msg) => {
      if (!mine(msg)) return;
      offer = { state: 'closed', reason: msg.reason, seat: msg.seat ?? null };
      sent = false;
      page.redraw();
    }),
    connection.on('rematch_started', (msg) => {
      if (!mine(msg)) return;
      offer = { state: 'started', next: msg.rematch };
      page.redraw();
      follow(msg.rematch);
    }),
  ];

  // The countdown ticks on its own: the rest of the page is not redrawn for it.
  const ticker = setInterval(() => {
    const status = document.getElementById('rematch-status');
    if (status && offer?.state === 'open') status.textContent = words();
  }, 1000);
  offs.push(() => clearInterval(ticker));

  /** @param {boolean} accept */
  const answer = (accept) => {
    sent = true;
    connection.send({ type: 'rematch', table: page.tableId, accept });
    page.redraw();
  };

  /** The offer in words. */
  const words = () => {
    if (!offer) return '';
    if (offer.state === 'started') return t('rematch.starting');
    if (offer.state === 'closed') {
      if (offer.reason === 'declined' && offer.seat != null) {
        const who = offer.seat === page.mySeat() ? t('you') : page.nameOf(offer.seat);
        return t('rematch.declined', { name: who });
      }
      return t(offer.reason === 'timed_out' ? 'rematch.timedOut' : 'rematch.failed');
    }
    const yes = offer.accepted.flatMap((said, seat) => (said ? [page.nameOf(seat)] : []));
    const seconds = Math.max(0, Math.ceil((offer.until - performance.now()) / 1000));
    const waiting = t('rematch.waiting', { seconds });
    return yes.length ? `${t('rematch.accepted', { names: list(yes), count: yes.length })} ${waiting}` : waiting;
  };

  const panel = () => {
    if (!offer) return null;
    const me = page.mySeat();
    // A player may say no until the offer closes, also after saying yes.
    const asked = offer.state === 'open' && me != null;
    const yes = offer.state === 'open' && me != null && !offer.accepted[me] && !sent;
    // Once the time to answer ran out, a player still at the table may make the offer again (section 11c).
    const again = offer.state === 'closed' && offer.reason === 'timed_out' && me != null && !sent;
    return h(
      'section.rematch',
      { id: 'rematch', 'data-state': offer.state, 'aria-labelledby': 'rematch-title' },
      h('h2', { id: 'rematch-title' }, t('rematch.title')),
      h('p', { id: 'rematch-status', 'data-testid': 'rematch-status', role: 'status' }, words()),
      asked
        ? h(
            'div.row.buttons',
            yes
              ? h(
                  'button.primary',
                  {
                    type: 'button',
                    id: 'rematch-accept',
                    'data-testid': 'rematch-accept',
                    onclick: () => answer(true),
                  },
                  t('rematch.accept'),
                )
              : null,
            h(
              'button',
              { type: 'button', id: 'rematch-decline', 'data-testid': 'rematch-decline', onclick: () => answer(false) },
              t('rematch.decline'),
            ),
          )
        : again
          ? h(
              'div.row.buttons',
              h(
                'button.primary',
                { type: 'button', id: 'rematch-offer', 'data-testid': 'rematch-offer', onclick: () => answer(true) },
                t('rematch.offerAgain'),
              ),
            )
          : null,
    );
  };

  return { panel, offer: () => offer, offs };
}
