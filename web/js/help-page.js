// @ts-check
// "How to play": the rules of each game in the reader's language, in the project's own words (the rule
// books are docs/rules/), each game's beside its board (games/<board>/help/). Each section has an id, so the
// table links the rule of the current step (`#/help/romi-rami#take`).

import { h } from './dom.js';
import { t, language } from './i18n.js';
import en from './games/romi-rami/help/en.js';
import it from './games/romi-rami/help/it.js';
import fr from './games/romi-rami/help/fr.js';
import rummyEn from './games/rummy/help/en.js';
import rummyIt from './games/rummy/help/it.js';
import rummyFr from './games/rummy/help/fr.js';

/** @typedef {{id: string, title: string, body: string[]}} Section */
/** @typedef {Record<string, {title: string, intro: string, sections: Section[]}>} HelpBook */

/** @type {Record<string, HelpBook>} */
const BOOKS = { en: { ...en, ...rummyEn }, it: { ...it, ...rummyIt }, fr: { ...fr, ...rummyFr } };

/** @param {HTMLElement} root @param {string} game @param {string} [anchor] */
export function mountHelp(root, game, anchor = '') {
  const book = BOOKS[language()] ?? en;
  const page = book[game] ?? book['romi-rami'];
  const games = Object.entries(book);
  root.append(
    h(
      'div.help-page',
      h(
        'nav.help-games',
        { 'aria-label': t('nav.help') },
        games.map(([id, g]) => h('a', { href: `#/help/${id}`, 'aria-current': id === game ? 'page' : null }, g.title)),
      ),
      h(
        'article.card-panel',
        h('h1', page.title),
        h('p.lead', page.intro),
        h(
          'nav.toc',
          h(
            'ol',
            page.sections.map((s) => h('li', h('a', { href: `#/help/${game}#${s.id}` }, s.title))),
          ),
        ),
        page.sections.map((s) =>
          h(
            'section',
            { id: `rule-${s.id}`, class: anchor === s.id ? 'help-section current' : 'help-section' },
            h('h2', s.title),
            s.body.map((p) => h('p', p)),
          ),
        ),
      ),
    ),
  );
  if (anchor) setTimeout(() => document.getElementById(`rule-${anchor}`)?.scrollIntoView({ block: 'start' }), 0);
  window.__romirami.page = { name: 'help', game };
  return () => {};
}
