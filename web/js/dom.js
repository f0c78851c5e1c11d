// @ts-check
// Small DOM helpers shared by every page: `h` builds elements, `icon` draws a suit symbol from the
// SVG sprite in index.html, `toast` shows a short message. No framework: pages rebuild their parts.

import { t } from './i18n.js';

/** @typedef {Node | string | number | null | undefined | false | any[]} Child */

/**
 * Builds an element: h('button.primary', {onclick, type: 'button'}, 'Take').
 * Attributes: `class`, `dataset`, `style`, event handlers as `on<event>`, booleans, aria-*.
 * @param {string} tag
 * @param {Record<string, any> | Child} [attrs]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split('.');
  const svg = name === 'svg' || name === 'use';
  const el = /** @type {HTMLElement} */ (
    svg ? document.createElementNS('http://www.w3.org/2000/svg', name) : document.createElement(name || 'div')
  );
  if (classes.length) el.setAttribute('class', classes.join(' '));
  if (attrs == null || typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs)) {
    children.unshift(/** @type {Child} */ (attrs));
    attrs = {};
  }
  for (const [key, value] of Object.entries(/** @type {Record<string, any>} */ (attrs))) {
    if (value == null || value === false) continue;
    if (key === 'class') el.setAttribute('class', [el.getAttribute('class'), value].filter(Boolean).join(' '));
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/** @param {Element} el @param {Child[]} children */
function append(el, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * A suit symbol (ch, di, he, cl) from the sprite; decorative unless given a label.
 * @param {string} suit
 * @param {string | null} [label]
 */
export function icon(suit, label = null) {
  const svg = h('svg', {
    class: `suit-icon suit-${suit}`,
    viewBox: '0 0 24 24',
    'aria-hidden': label ? null : 'true',
    role: label ? 'img' : null,
    'aria-label': label,
  });
  const use = h('use', {});
  use.setAttribute('href', `#suit-${suit}`);
  svg.append(use);
  return svg;
}

/** Replaces an element's children. @param {Element} el @param {...Child} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Where a scrolled list stands before a redraw replaces it: at its end (its newest lines), or where its
 * reader scrolled to.
 * @param {Element | null} list
 * @returns {{atEnd: boolean, top: number} | null}
 */
export function scrollState(list) {
  if (!list) return null;
  return { atEnd: list.scrollTop + list.clientHeight >= list.scrollHeight - 8, top: list.scrollTop };
}

/**
 * Puts a redrawn list where its reader left it: at its end (the newest lines) when it was there or is new,
 * else where they scrolled to.
 * @param {Element | null} list @param {{atEnd: boolean, top: number} | null} was
 */
export function restoreScroll(list, was) {
  if (!list) return;
  list.scrollTop = !was || was.atEnd ? list.scrollHeight : was.top;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;
/**
 * A short message at the bottom of the screen, read out by screen readers.
 * @param {string} text
 * @param {string} [kind]
 */
export function toast(text, kind = 'info') {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = text;
  el.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.className = 'toast';
  }, 3500);
}

/**
 * Copies text to the clipboard, falling back to selecting it.
 * @param {string} text
 * @param {HTMLInputElement} [input]
 */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t('copy.done'));
  } catch {
    if (input) {
      input.select();
      document.execCommand?.('copy');
    }
    toast(t('copy.select'));
  }
}
