// @ts-check
// Messaggi in italiano; le chiavi sono quelle di en.js.
/** @type {import('../i18n.js').Catalog} */
export default {
};
