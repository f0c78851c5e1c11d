// @ts-check
// Messages en français du plateau de Romi Rami ; les clés sont celles d'en.js.

/** @param {number} n @param {string} one @param {string} many */
const pl = (n, one, many) => `${n} ${n <= 1 ? one : many}`;

/** @type {import('../../../i18n.js').Catalog} */
export default {
  'star.help': 'L’Étoile remplace une carte quelconque, une fois par partie.',
  'seat.first': 'Premier joueur',
  'seat.firstShort': '1er',
  'seat.noteBot': ' (le bot du serveur)',
  'seat.noteAway': ' (absent : le bot joue à sa place)',
  'seat.label': (p) =>
    `${p.who}${p.note} : ${pl(p.contracts, 'contrat', 'contrats')}, ` +
    `${pl(p.cards, 'carte', 'cartes')} en main, ${p.star}, score ${p.score}`,
  'seat.scoreTitle': 'Score public (le bonus de couleur reste caché jusqu’à la fin)',
  'seat.scoreMine': 'Score avec votre bonus de couleur',
  'seat.bonus': ' ({n} de bonus)',
  'seat.contracts': 'Contrats réalisés',
  'seat.noContracts': 'Pas encore de contrat',
  'seat.leads': 'En tête : {list}',
  'board.label': 'Table',
  'board.trophies': 'Trophées',
  'board.contracts': 'Contrats',
  'board.market': 'Marché',
  'board.piles': 'Pioches et défausse',
  'board.deck': 'Pioche',
  'board.deckLabel': 'Pioche des numéros : {n} cartes',
  'board.contractDeck': 'Contrats',
  'board.contractDeckLabel': 'Pioche des contrats : {n} cartes',
  'board.discard': 'Défausse',
  'board.discardLabel': 'Défausse : {n} cartes',
  'hand.watching': 'Vous regardez : les mains restent cachées.',
  'hand.title': 'Votre main ({n})',
  'hand.byNumber': 'Triée par numéro',
  'hand.bySuit': 'Triée par couleur',
  'hand.bonus': 'Bonus de couleur : {n}',
  'hand.bonusTitle': 'Votre pile de bonus de couleur : 1 point par carte à la fin, cachée aux autres',
  'hand.none': 'Aucune carte',
  'status.theBot': 'Le bot',
  'status.take': 'Prenez 1 à 3 cartes du marché de même numéro ou de même couleur.',
  'status.takeOther': '{who} prend des cartes au marché.',
  'status.contracts': 'Réalisez des contrats, puis passez.',
  'status.contractsOther': '{who} peut réaliser des contrats, puis passe.',
  'status.discard': 'Vous avez {n} cartes : défaussez jusqu’à 10.',
  'status.discardOther': '{who} défausse jusqu’à 10 cartes.',
  'status.lastRound': 'Dernier tour',
  'act.pickMarket': 'Choisissez les cartes au marché.',
  'act.selected': (p) => `Choisies : ${pl(p.n, 'carte', 'cartes')}${p.ok ? '' : ' — cette prise n’est pas possible'}`,
  'act.take': (p) => (p.n ? `Prendre ${pl(p.n, 'carte', 'cartes')}` : 'Prendre'),
  'act.pickContract': 'Choisissez un contrat et les cartes qui le réalisent, ou passez.',
  'act.ready': 'Contrat {id} : prêt. Réalisez-le.',
  'act.moreOrStar': (p) =>
    `Contrat ${p.id} : choisissez une carte de plus, ou l’Étoile pour le réaliser ` + `avec ces ${p.n}.`,
  'act.needsStar': (p) =>
    `Le contrat ${p.id} demande l’Étoile : choisissez-la pour le réaliser avec ces ` + `${pl(p.n, 'carte', 'cartes')}.`,
  'act.cannot': 'Ces cartes ne peuvent pas réaliser le contrat {id}.',
  'act.selectFor': (p) =>
    `Contrat ${p.id} : choisissez ${pl(p.need, 'carte', 'cartes')} de votre main ` +
    `(${p.n} choisies)${p.star ? ' + l’Étoile' : ''}.`,
  'act.complete': 'Réaliser le contrat',
  'act.pass': 'Passer',
  'act.discardHint': (p) => `Choisissez ${pl(p.need, 'carte', 'cartes')} à défausser (${p.n} choisies).`,
  'act.discard': (p) => (p.n ? `Défausser ${p.n}` : 'Défausser'),
  'act.takeBackTitle': 'Annuler votre dernière prise ou votre dernier contrat de ce tour',
  'act.rule': 'La règle de cette étape',
  'end.abandoned': 'Partie abandonnée',
  'end.shared': 'Victoire partagée !',
  'end.youWin': 'Vous avez gagné !',
  'end.wins': (p) => `${p.names} ${p.count > 1 ? 'gagnent' : 'gagne'} !`,
  'end.abandonedNote': (p) =>
    `Tous les joueurs sont partis, la partie s’est donc arrêtée ici. Les scores ` +
    `à ce moment : ${p.names} ${p.count > 1 ? 'étaient' : 'était'} en tête.`,
  'end.because': 'La partie s’est terminée parce que {why}.',
  'end.nobody': 'personne (égalité)',
  'end.gamePage': 'Page de la partie et enregistrement',
  'announce.yourTurn': 'À vous : {what}.',
  'seat.noteOffline': ' (déconnecté)',
};
