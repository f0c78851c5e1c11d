// @ts-check
// Messages en français ; les clés sont celles d'en.js.
/** @type {import('../i18n.js').Catalog} */
export default {
};
