// @ts-check
// Motion: after a take the cards fly from their market slots into the hand (or to the taker's area),
// and a completed contract flies from its market slot (or from the hand) to the player's contracts.
// The page redraws from the state, so the parts' places are noted before the redraw and the new
// elements are moved from there (a transform transition, with the Web Animations API). Nothing moves
// for those who ask for less motion (prefers-reduced-motion).

/**
 * @typedef {object} Places
 * @property {{code: string, rect: DOMRect}[]} market
 * @property {Map<number, DOMRect>} contracts
 * @property {DOMRect | null} hand
 */

const reduced = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true;

/** Where the market slots, the contract slots and the hand are now. @param {HTMLElement} el @returns {Places | null} */
export function remember(el) {
  if (reduced()) return null;
  /** @type {Places} */
  const places = { market: [], contracts: new Map(), hand: el.querySelector('.hand')?.getBoundingClientRect() ?? null };
  for (const card of el.querySelectorAll('.number-market [data-card]')) {
    places.market.push({
      code: /** @type {HTMLElement} */ (card).dataset.card ?? '',
      rect: card.getBoundingClientRect(),
    });
  }
  for (const card of el.querySelectorAll('.contract-market [data-contract]')) {
    places.contracts.set(Number(/** @type {HTMLElement} */ (card).dataset.contract), card.getBoundingClientRect());
  }
  return places;
}

/**
 * Moves `target` from `from` to where it is.
 * @param {Element | null} target
 * @param {DOMRect | null | undefined} from
 */
function fly(target, from) {
  if (!target || !from) return;
  const to = target.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) + Math.abs(dy) < 4) return;
  target.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], {
    duration: 380,
    easing: 'cubic-bezier(.2, .7, .3, 1)',
  });
}

/**
 * Plays the moves of these events, from the places noted before the redraw.
 * @param {HTMLElement} el
 * @param {Places | null} before
 * @param {{n: number, event: any}[]} events
 * @param {number | null} me
 */
export function animate(el, before, events, me) {
  if (!before) return;
  for (const { event } of events) {
    if (event.type === 'took') {
      // A take empties the first slot holding each card (protocol section 7).
      const left = [...before.market];
      const handCards = [...el.querySelectorAll('.hand .card')];
      for (const card of event.cards) {
        const i = left.findIndex((slot) => slot.code === card);
        const source = i >= 0 ? left.splice(i, 1)[0].rect : null;
        const target =
          event.seat === me
            ? (handCards.filter((c) => /** @type {HTMLElement} */ (c).dataset.card === card).pop() ?? null)
            : el.querySelector(`.player[data-seat="${event.seat}"] .handcount`);
        fly(target, source);
      }
    } else if (event.type === 'completed') {
      const targets = el.querySelectorAll(
        `.player[data-seat="${event.seat}"] .pcontracts [data-contract="${event.contract}"]`,
      );
      fly(targets[targets.length - 1] ?? null, event.seat === me ? before.hand : before.contracts.get(event.contract));
    }
  }
}
