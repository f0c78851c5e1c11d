// Turns the server's events (docs/protocol.md section 7) into sentences for the game log:
// "Ana took 3♥ and 3♣", "Ben completed contract 12 (pair of 4s + pair) with the Star".
// A sentence is a list of parts: strings, and {card} or {contract} that the page draws as small tokens.

import { contract, contractText, ENDED_BY_WORDS } from './rules-data.js';

function cards(list) {
  return list.flatMap((code, i) => (i ? [' ', { card: code }] : [{ card: code }]));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One log entry for an event, {parts, kind}, or null for events not worth a line.
 * `who(seat)` gives a name ("You" for the reader's own seat).
 */
export function describe(event, who) {
  const line = (kind, ...parts) => ({ kind, parts });
  switch (event.type) {
    case 'to_act':
      if (event.step === 'discard') return line('', `${who(event.seat)} must discard down to 10 cards.`);
      if (event.step === 'take') return line('turn', `${who(event.seat)}'s turn.`.replace("You's", 'Your'));
      return null;
    case 'took':
      return line('', `${who(event.seat)} took `, ...cards(event.cards), '.');
    case 'completed': {
      const c = contract(event.contract);
      return line('good', `${who(event.seat)} completed `, { contract: event.contract },
        ` (${contractText(c)}, ${plural(c.score, 'point')}) with `, ...cards(event.cards), event.star ? ' and the Star.' : '.');
    }
    case 'took_back':
      return event.contract == null
        ? line('', `${who(event.seat)} took back the take: `, ...cards(event.cards), ' went back to the market.')
        : line('', `${who(event.seat)} took back `, { contract: event.contract }, event.star ? ' and the Star.' : '.');
    case 'passed':
      return line('', `${who(event.seat)} passed.`);
    case 'reshuffled':
      return line('', `The discard pile was shuffled into a new deck of ${event.deck} cards.`);
    case 'drew':
      return event.cards
        ? line('', `${who(event.seat)} drew `, ...cards(event.cards), '.')
        : line('', `${who(event.seat)} drew ${plural(event.count, 'card')}.`);
    case 'discarded':
      return event.cards
        ? line('', `${who(event.seat)} discarded `, ...cards(event.cards), '.')
        : line('', `${who(event.seat)} discarded ${plural(event.count, 'card')}.`);
    case 'last_round':
      return line('alert', event.started ? 'Last round! A player reached the contract target.' : 'The last round was called off.');
    case 'game_over': {
      const names = event.result.winners.map(who);
      const verb = names.length === 1 && names[0] !== 'You' ? 'wins' : 'win';
      return line('alert', `Game over: ${ENDED_BY_WORDS[event.result.ended_by]}. ${names.join(' and ')} ${verb}!`);
    }
    default:
      return null;
  }
}
