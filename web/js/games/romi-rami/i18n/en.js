// @ts-check
// English messages of Romi Rami's board (its seats, hand, market, contracts, actions and end panel). Kept
// beside the board; games/strings.js gives them to i18n.js.

/** @param {number} n @param {string} one @param {string} many */
const pl = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** @type {import('../../../i18n.js').Catalog} */
export default {
  'star.help': 'The Star replaces any one card, once per game.',
  'seat.first': 'First player',
  'seat.firstShort': '1st',
  'seat.noteBot': ' (the server’s bot)',
  'seat.noteAway': ' (away: the bot plays for them)',
  'seat.label': (p) =>
    `${p.who}${p.note}: ${pl(p.contracts, 'contract', 'contracts')}, ` +
    `${pl(p.cards, 'card', 'cards')} in hand, ${p.star}, score ${p.score}`,
  'seat.scoreTitle': 'Public score (the suit bonus stays hidden until the end)',
  'seat.scoreMine': 'Score with your suit bonus',
  'seat.bonus': ' ({n} bonus)',
  'seat.contracts': 'Completed contracts',
  'seat.noContracts': 'No contracts yet',
  'seat.leads': 'Leads: {list}',
  'board.label': 'Table',
  'board.trophies': 'Trophies',
  'board.contracts': 'Contracts',
  'board.market': 'Market',
  'board.piles': 'Decks and discard pile',
  'board.deck': 'Deck',
  'board.deckLabel': 'Number deck: {n} cards',
  'board.contractDeck': 'Contracts',
  'board.contractDeckLabel': 'Contract deck: {n} cards',
  'board.discard': 'Discard',
  'board.discardLabel': 'Discard pile: {n} cards',
  'hand.watching': 'You are watching: hands stay hidden.',
  'hand.title': 'Your hand ({n})',
  'hand.byNumber': 'Sorted by number',
  'hand.bySuit': 'Sorted by suit',
  'hand.bonus': 'Suit bonus: {n}',
  'hand.bonusTitle': 'Your suit bonus pile: 1 point per card at the end, hidden from the others',
  'hand.none': 'No cards',
  'status.theBot': 'The bot',
  'status.take': 'Take 1 to 3 cards from the market that share a number or a suit.',
  'status.takeOther': '{who} is taking cards from the market.',
  'status.contracts': 'Complete contracts, then pass.',
  'status.contractsOther': '{who} may complete contracts, then passes.',
  'status.discard': 'You hold {n} cards: discard down to 10.',
  'status.discardOther': '{who} is discarding down to 10 cards.',
  'status.lastRound': 'Last round',
  'act.pickMarket': 'Pick the cards in the market.',
  'act.selected': (p) => `Selected: ${pl(p.n, 'card', 'cards')}${p.ok ? '' : ' — this take is not possible'}`,
  'act.take': (p) => (p.n ? `Take ${pl(p.n, 'card', 'cards')}` : 'Take'),
  'act.pickContract': 'Pick a contract and the cards that complete it, or pass.',
  'act.ready': 'Contract {id}: ready. Complete it.',
  'act.moreOrStar': (p) => `Contract ${p.id}: pick one more card, or the Star to complete it with these ${p.n}.`,
  'act.needsStar': (p) =>
    `Contract ${p.id} needs the Star: pick the Star to complete it with these ` + `${pl(p.n, 'card', 'cards')}.`,
  'act.cannot': 'These cards cannot complete contract {id}.',
  'act.selectFor': (p) =>
    `Contract ${p.id}: select ${pl(p.need, 'card', 'cards')} from your hand (${p.n} ` +
    `selected)${p.star ? ' + the Star' : ''}.`,
  'act.complete': 'Complete contract',
  'act.pass': 'Pass',
  'act.discardHint': (p) => `Select ${pl(p.need, 'card', 'cards')} to discard (${p.n} selected).`,
  'act.discard': (p) => (p.n ? `Discard ${p.n}` : 'Discard'),
  'act.takeBackTitle': 'Undo your last take or contract of this turn',
  'act.rule': 'The rule for this step',
  'end.abandoned': 'Game abandoned',
  'end.shared': 'A shared win!',
  'end.youWin': 'You win!',
  'end.wins': (p) => `${p.names} ${p.count > 1 ? 'win' : 'wins'}!`,
  'end.abandonedNote': (p) =>
    `Every player left, so the game stopped here. The scores as they stood: ` +
    `${p.names} ${p.count > 1 ? 'were' : 'was'} ahead.`,
  'end.because': 'The game ended because {why}.',
  'end.nobody': 'nobody (tie)',
  'end.gamePage': 'Game page and record',
  'announce.yourTurn': 'Your turn: {what}.',
  'seat.noteOffline': ' (disconnected)',
};
