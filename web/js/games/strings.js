// @ts-check
// The messages of every game's board, by language: each game keeps its own beside its board
// (games/<name>/i18n/), and i18n.js merges them over the site's. A game with strings of its own adds its three
// catalogs here, as it adds its board to index.js.

import romiRamiEn from './romi-rami/i18n/en.js';
import romiRamiIt from './romi-rami/i18n/it.js';
import romiRamiFr from './romi-rami/i18n/fr.js';
import rummyEn from './rummy/i18n/en.js';
import rummyIt from './rummy/i18n/it.js';
import rummyFr from './rummy/i18n/fr.js';

/** @type {Record<'en' | 'it' | 'fr', import('../i18n.js').Catalog[]>} */
export const GAME_STRINGS = {
  en: [romiRamiEn, rummyEn],
  it: [romiRamiIt, rummyIt],
  fr: [romiRamiFr, rummyFr],
};
