// @ts-check
// Messaggi in italiano del tavolo di Romi Rami; le chiavi sono quelle di en.js.

/** @param {number} n @param {string} one @param {string} many */
const pl = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** @type {import('../../../i18n.js').Catalog} */
export default {
  'star.help': 'La Stella sostituisce una carta qualsiasi, una volta per partita.',
  'seat.first': 'Primo giocatore',
  'seat.firstShort': '1°',
  'seat.noteBot': ' (il bot del server)',
  'seat.noteAway': ' (assente: il bot gioca per lui)',
  'seat.label': (p) =>
    `${p.who}${p.note}: ${pl(p.contracts, 'contratto', 'contratti')}, ` +
    `${pl(p.cards, 'carta', 'carte')} in mano, ${p.star}, punteggio ${p.score}`,
  'seat.scoreTitle': 'Punteggio pubblico (il bonus di seme resta nascosto fino alla fine)',
  'seat.scoreMine': 'Punteggio con il tuo bonus di seme',
  'seat.bonus': ' ({n} di bonus)',
  'seat.contracts': 'Contratti completati',
  'seat.noContracts': 'Ancora nessun contratto',
  'seat.leads': 'In testa: {list}',
  'board.label': 'Tavolo',
  'board.trophies': 'Trofei',
  'board.contracts': 'Contratti',
  'board.market': 'Mercato',
  'board.piles': 'Mazzi e scarti',
  'board.deck': 'Mazzo',
  'board.deckLabel': 'Mazzo dei numeri: {n} carte',
  'board.contractDeck': 'Contratti',
  'board.contractDeckLabel': 'Mazzo dei contratti: {n} carte',
  'board.discard': 'Scarti',
  'board.discardLabel': 'Pila degli scarti: {n} carte',
  'hand.watching': 'Stai guardando: le mani restano nascoste.',
  'hand.title': 'La tua mano ({n})',
  'hand.byNumber': 'Ordinata per numero',
  'hand.bySuit': 'Ordinata per seme',
  'hand.bonus': 'Bonus di seme: {n}',
  'hand.bonusTitle': 'La tua pila del bonus di seme: 1 punto per carta alla fine, nascosta agli altri',
  'hand.none': 'Nessuna carta',
  'status.theBot': 'Il bot',
  'status.take': 'Prendi da 1 a 3 carte dal mercato con lo stesso numero o lo stesso seme.',
  'status.takeOther': '{who} prende carte dal mercato.',
  'status.contracts': 'Completa contratti, poi passa.',
  'status.contractsOther': '{who} può completare contratti, poi passa.',
  'status.discard': 'Hai {n} carte: scarta fino a 10.',
  'status.discardOther': '{who} scarta fino a 10 carte.',
  'status.lastRound': 'Ultimo giro',
  'act.pickMarket': 'Scegli le carte nel mercato.',
  'act.selected': (p) => `Scelte: ${pl(p.n, 'carta', 'carte')}${p.ok ? '' : ' — questa presa non è possibile'}`,
  'act.take': (p) => (p.n ? `Prendi ${pl(p.n, 'carta', 'carte')}` : 'Prendi'),
  'act.pickContract': 'Scegli un contratto e le carte che lo completano, o passa.',
  'act.ready': 'Contratto {id}: pronto. Completalo.',
  'act.moreOrStar': (p) => `Contratto ${p.id}: scegli un’altra carta, o la Stella per completarlo con queste ${p.n}.`,
  'act.needsStar': (p) =>
    `Il contratto ${p.id} richiede la Stella: sceglila per completarlo con queste ` + `${pl(p.n, 'carta', 'carte')}.`,
  'act.cannot': 'Queste carte non possono completare il contratto {id}.',
  'act.selectFor': (p) =>
    `Contratto ${p.id}: scegli ${pl(p.need, 'carta', 'carte')} dalla mano (${p.n} ` +
    `scelte)${p.star ? ' + la Stella' : ''}.`,
  'act.complete': 'Completa il contratto',
  'act.pass': 'Passa',
  'act.discardHint': (p) => `Scegli ${pl(p.need, 'carta', 'carte')} da scartare (${p.n} scelte).`,
  'act.discard': (p) => (p.n ? `Scarta ${p.n}` : 'Scarta'),
  'act.takeBackTitle': 'Annulla l’ultima presa o l’ultimo contratto di questo turno',
  'act.rule': 'La regola di questa fase',
  'end.abandoned': 'Partita abbandonata',
  'end.shared': 'Vittoria condivisa!',
  'end.youWin': 'Hai vinto!',
  'end.wins': (p) => `${p.count > 1 ? 'Vincono' : 'Vince'} ${p.names}!`,
  'end.abandonedNote': (p) =>
    `Tutti i giocatori se ne sono andati, quindi la partita si è fermata qui. ` +
    `Punteggi a quel momento: ${p.count > 1 ? 'erano in testa' : 'era in testa'} ${p.names}.`,
  'end.because': 'La partita è finita perché {why}.',
  'end.nobody': 'nessuno (pareggio)',
  'end.gamePage': 'Pagina della partita e registrazione',
  'announce.yourTurn': 'Tocca a te: {what}.',
  'seat.noteOffline': ' (disconnesso)',
};
