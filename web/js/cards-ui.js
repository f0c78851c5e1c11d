// Draws the game's pieces: number cards, contract cards, trophy tiles, the Star, and the small card
// tokens used in the log and the results. Each piece is a real <button> when it can be picked, with
// a label a screen reader can read ("3 of hearts", "Contract 12: pair of 4s + pair, …").

import { h, icon } from './dom.js';
import {
  cardLabel, contract, contractLabel, parseCard, requirementNotation, requirementText, SUIT_NAMES, TROPHIES,
} from './rules-data.js';

/** A number card; a button when `onclick` is given. */
export function numberCard(code, { onclick, selected = false, possible = null, slot = null, extra = {} } = {}) {
  const { number, suit } = parseCard(code);
  const face = [
    h('span.corner', { 'aria-hidden': 'true' }, h('span.n', number), icon(suit)),
    h('span.pip', { 'aria-hidden': 'true' }, icon(suit)),
    h('span.corner.bottom', { 'aria-hidden': 'true' }, h('span.n', number)),
  ];
  const classes = ['card', `suit-${suit}`, selected && 'selected', possible === false && 'impossible', possible === true && 'possible']
    .filter(Boolean).join(' ');
  const attrs = { class: classes, 'data-card': code, 'data-slot': slot, 'aria-label': cardLabel(code), ...extra };
  // A card no legal move can use with the current selection is dimmed and cannot be picked.
  if (onclick) return h('button', { ...attrs, type: 'button', onclick, 'aria-pressed': String(selected), disabled: possible === false }, face);
  return h('div', { ...attrs, role: 'img' }, face);
}

/** An empty market slot. */
export function emptySlot(kind = 'card') {
  return h(`div.${kind}.empty`, { role: 'img', 'aria-label': 'empty slot' });
}

/** The face-down back of a card (decks, other players' hands). */
export function cardBack(label, count = null) {
  return h('div.card.back', { role: 'img', 'aria-label': label }, count != null ? h('span.count', count) : null);
}

function sizeIcons(c) {
  return h('span.sizes', { 'aria-hidden': 'true' }, c.requirements.map((r) => h('span.size', r.size)));
}

/** A contract card; a button when `onclick` is given. `compact` draws the small version of a player's area. */
export function contractCard(id, { onclick, selected = false, possible = null, compact = false } = {}) {
  const c = contract(id);
  const classes = ['contract', `suit-${c.suit}`, compact && 'compact', selected && 'selected',
    possible === false && 'impossible', possible === true && 'possible'].filter(Boolean).join(' ');
  const body = compact
    ? [h('span.score', c.score), icon(c.suit), sizeIcons(c)]
    : [
      h('span.head', { 'aria-hidden': 'true' }, h('span.score', c.score), h('span.suitname', icon(c.suit), SUIT_NAMES[c.suit])),
      h('ul.reqs', { 'aria-hidden': 'true' }, c.requirements.map((r) => h('li', requirementText(r), h('small', requirementNotation(r))))),
      h('span.foot', { 'aria-hidden': 'true' }, sizeIcons(c), h('span.no', `#${id}`)),
    ];
  const attrs = { class: classes, 'data-contract': id, 'aria-label': contractLabel(id), title: contractLabel(id) };
  if (onclick) return h('button', { ...attrs, type: 'button', onclick, 'aria-pressed': String(selected), disabled: possible === false }, body);
  return h('div', { ...attrs, role: 'img' }, body);
}

/** A trophy tile in play, with its points and who would win it now. */
export function trophyTile(code, leaderName) {
  const t = TROPHIES[code];
  const art = t.suit ? icon(t.suit) : h('span.combo', { 'aria-hidden': 'true' }, Array.from({ length: t.size }, () => h('i')));
  const label = `${t.name}: ${t.points} points; ${leaderName ? `${leaderName} leads` : 'nobody leads'}`;
  return h('li.trophy', { 'aria-label': label, title: label },
    h('span.art', { 'aria-hidden': 'true' }, art),
    h('span.tname', { 'aria-hidden': 'true' }, t.short),
    h('span.points', { 'aria-hidden': 'true' }, `${t.points}`),
    h('span.leader', { 'aria-hidden': 'true' }, leaderName ?? '—'));
}

/** The Star token; a toggle button when `onclick` is given. */
export function starToken({ used = false, onclick, selected = false, label, possible = null } = {}) {
  const star = h('svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true', class: 'star-svg' });
  const use = h('use', {});
  use.setAttribute('href', '#star');
  star.append(use);
  const classes = ['star', used && 'used', selected && 'selected', possible === true && 'possible',
    possible === false && 'impossible'].filter(Boolean).join(' ');
  if (onclick) {
    return h('button', { class: classes, type: 'button', onclick, 'aria-pressed': String(selected), 'aria-label': label ?? 'Use the Star', disabled: possible === false },
      star, h('span', 'Star'));
  }
  return h('span', { class: classes, role: 'img', 'aria-label': label ?? (used ? 'Star used' : 'Star not used') }, star);
}

/** A small inline card for sentences: "3♥". */
export function cardToken(code) {
  const { number, suit } = parseCard(code);
  return h(`span.token.suit-${suit}`, { role: 'img', 'aria-label': cardLabel(code) }, h('b', { 'aria-hidden': 'true' }, number), icon(suit));
}

/** A small inline contract for sentences. */
export function contractToken(id) {
  const c = contract(id);
  return h(`span.ctoken.suit-${c.suit}`, { title: contractLabel(id) }, `contract ${id}`);
}

/** Renders log/sentence parts (strings, {card}, {contract}). */
export function sentence(parts) {
  return parts.map((p) => (typeof p === 'string' ? p : p.card ? cardToken(p.card) : contractToken(p.contract)));
}
