// @ts-check
// The page's languages: English, Italian and French. Each language is a plain module of messages
// (i18n/en.js, it.js, fr.js, with each game's own beside its board: games/<name>/i18n/, gathered by
// games/strings.js) keyed the same way;
// `t(key, params)` gives the message in the chosen language (English when a key is missing), with `{name}`
// filled in, or calls the message when it is a function (plurals, sentences built from parts). The language
// comes from the browser the first time, can be switched on every page, and is remembered in localStorage.
// Numbers and dates are written the locale's way (Intl).

import en from './i18n/en.js';
import it from './i18n/it.js';
import fr from './i18n/fr.js';
import { GAME_STRINGS } from './games/strings.js';

/** @typedef {'en' | 'it' | 'fr'} Lang */
/** @typedef {Record<string, string | ((p: any) => string)>} Catalog */

/** @type {Record<Lang, Catalog>} */
const CATALOGS = {
  en: Object.assign({}, en, ...GAME_STRINGS.en),
  it: Object.assign({}, it, ...GAME_STRINGS.it),
  fr: Object.assign({}, fr, ...GAME_STRINGS.fr),
};

/** The languages offered, each named in itself. */
export const LANGUAGES = /** @type {const} */ ([
  { code: 'en', name: 'English' },
  { code: 'it', name: 'Italiano' },
  { code: 'fr', name: 'Français' },
]);

const KEY = 'romirami.lang';

/** @param {unknown} code @returns {code is Lang} */
const known = (code) => typeof code === 'string' && code in CATALOGS;

/** The stored choice, else the browser's first language we have, else English. @returns {Lang} */
function initial() {
  let stored = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    /* storage off */
  }
  if (known(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (known(code)) return code;
  }
  return 'en';
}

/** @type {Lang} */
let lang = initial();
document.documentElement.lang = lang;

/** @type {Set<() => void>} */
const listeners = new Set();

/** The current language. */
export const language = () => lang;

/** Switches the language, remembers it and tells every listener (the pages redraw). @param {string} code */
export function setLanguage(code) {
  if (!known(code) || code === lang) return;
  lang = code;
  try {
    localStorage.setItem(KEY, code);
  } catch {
    /* storage off */
  }
  document.documentElement.lang = code;
  for (const fn of [...listeners]) fn();
}

/** Calls `fn` after every language switch; returns the unsubscribe. @param {() => void} fn */
export function onLanguage(fn) {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

/** A number the locale's way. @param {number} n */
export const num = (n) => new Intl.NumberFormat(lang).format(n);

/**
 * The message `key` in the current language.
 * @param {string} key
 * @param {Record<string, any>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const msg = CATALOGS[lang][key] ?? CATALOGS.en[key];
  if (msg == null) return key;
  if (typeof msg === 'function') return msg(params);
  return msg.replace(/\{(\w+)\}/g, (_, k) => {
    const v = params[k];
    return typeof v === 'number' ? num(v) : String(v ?? '');
  });
}

/**
 * The message `key` as a list of parts, where a parameter may itself be a list of parts (card tokens,
 * contract tokens) placed where the message puts it.
 * @param {string} key
 * @param {Record<string, any>} [params]
 * @returns {any[]}
 */
export function tParts(key, params = {}) {
  /** @type {any[][]} */
  const tokens = [];
  /** @type {Record<string, any>} */
  const flat = {};
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) {
      flat[k] = `\u0001${tokens.length}\u0001`;
      tokens.push(v);
    } else flat[k] = v;
  }
  return t(key, flat)
    .split(/\u0001(\d+)\u0001/)
    .flatMap((s, i) => (i % 2 ? tokens[Number(s)] : s ? [s] : []));
}

/** Whether the current catalogue has this key (for optional messages). @param {string} key */
export const has = (key) => CATALOGS[lang][key] != null || CATALOGS.en[key] != null;

/** A date and time the locale's way. @param {string | null | undefined} iso */
export function dateTime(iso) {
  if (!iso) return '';
  return new Date(iso).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Names joined the locale's way: "Ana and Ben", "Ana, Ben e Cleo". @param {string[]} names */
export function list(names) {
  return new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(names);
}
