// @ts-check
// Lists of card codes as multisets, as the protocol treats them (section 4): the order does not count,
// copies do.

/** @param {string[]} cards */
function counts(cards) {
  /** @type {Map<string, number>} */
  const m = new Map();
  for (const c of cards) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}

/** Whether `big` holds every card of `small` (copies counted). @param {string[]} big @param {string[]} small */
export function covers(big, small) {
  const b = counts(big);
  for (const [c, n] of counts(small)) if ((b.get(c) ?? 0) < n) return false;
  return true;
}

/** Whether two lists hold the same cards. @param {string[]} a @param {string[]} b */
export function sameCards(a, b) {
  return a.length === b.length && covers(a, b);
}

/** `list` without one copy of each of `cards`. @param {string[]} list @param {string[]} cards */
export function removeCards(list, cards) {
  const rest = [...list];
  for (const card of cards) {
    const i = rest.indexOf(card);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}
