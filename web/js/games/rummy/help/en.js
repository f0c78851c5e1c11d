// @ts-check
// How to play the rummy family — Rommi, Rami, Rumino — in English, in the project's own words (the rule books
// are docs/rules/rommi.md, rami.md and rumino.md). help-page.js adds these books to en.js's.
/** @type {import('../../../help-page.js').HelpBook} */
export default {
  rommi: {
    title: 'Rommi',
    intro:
      'Rummy with one deck of 52 cards and no jokers, for 2 to 4 players: lay sets ' +
      'and runs on the table, add to any meld, and be the first to empty your hand.',
    sections: [
      {
        id: 'melds',
        title: 'Melds',
        body: [
          'A set is 3 or 4 cards of one rank (7♣ 7♦ 7♠). A run is 3 or more cards of one suit in a row (5♥ 6♥ 7♥). ' +
            'In basic rummy an ace is always low (A-2-3); in 500 rummy it may also be high (Q-K-A), but a ' +
            'run never goes round the corner (K-A-2).',
          'Every meld gets a number when it is laid, and the table shows who laid it. Anyone may add cards to any ' +
            'meld, as long as it stays a set or a run.',
        ],
      },
      {
        id: 'deal',
        title: 'The deal',
        body: [
          'Each player gets 13 cards with 2 players, 7 with 3 or 4. One card is turned up to start the discard ' +
            'pile; the rest is the stock. The dealer moves one seat on each round.',
        ],
      },
      {
        id: 'turn',
        title: 'Your turn',
        body: [
          'First take one card: the top of the stock, or the top of the discard pile (that card may not be ' +
            'discarded again this turn). In 500 rummy the discard pile is spread out and you may take a ' +
            'deeper card with all the cards above it, if you lay that card on the table at once.',
          'Then lay as many melds and add as many cards to melds as you like, and end your turn by discarding one ' +
            'card. Laying your last card, or discarding it, takes you out.',
          'When the stock is empty, take from the discard pile or end the round.',
        ],
      },
      {
        id: 'scoring',
        title: 'Scores',
        body: [
          'Cards count: 2 to 9 their number, 10 and faces 10, an ace 1 at the bottom of a run and 15 anywhere else ' +
            '(simple values: 5, 10 and 15).',
          'Positive scoring (basic rummy’s usual): whoever goes out scores what the others hold. Melds minus hand ' +
            '(500 rummy’s usual): everyone scores the cards they laid on the table, less those left in hand. ' +
            'Negative scoring: everyone takes what they hold as penalty points; lower is better.',
          'The match ends when a total reaches the target (100, or 500 with melds minus hand): the best total wins.',
        ],
      },
      {
        id: 'options',
        title: 'Table options',
        body: [
          'The host chooses the variant (basic or 500 rummy), the scoring, the target, simple card values, and the ' +
            'meld restriction (one new meld a turn, and lay off only after a meld of your own).',
        ],
      },
    ],
  },
  rami: {
    title: 'Rami',
    intro:
      'French rummy with two decks and four jokers, for 2 to 5 players: open with ' +
      'enough points, then meld and lay off until someone goes out.',
    sections: [
      {
        id: 'melds',
        title: 'Melds and jokers',
        body: [
          'A set is 3 or 4 cards of one rank in different suits; a run is 3 or more cards of one suit in a row, ' +
            'the ace low or high. A meld holds at most one joker, and the player says which card it stands ' +
            'for.',
          'Cards count 2 to 10 their number, faces 10, an ace 1 below a 2 and 11 elsewhere, a joker what it stands ' +
            'for. Left in hand at the end, an ace is 11 and a joker 20.',
        ],
      },
      {
        id: 'opening',
        title: 'Opening',
        body: [
          'Until you open you cannot lay anything else. You open by laying one or more melds in one go worth at ' +
            'least 51 points, with at least one run without a joker (Rami 51), or at least 30 points, sets ' +
            'allowed alone (Rami 30). The table shows your chosen cards’ points against that threshold.',
        ],
      },
      {
        id: 'turn',
        title: 'Your turn',
        body: [
          'Everyone gets 14 cards. Draw from the stock, or take the top discard if you lay it at once (you need ' +
            'two cards in hand for that). Then, once opened, meld, add to any meld, or take a joker from a ' +
            'run or a set of 4 by putting in the card it stands for — and lay a joker right after. End with ' +
            'a discard; a play may never empty your hand.',
          'With one card left you are “carte”: you must draw from the stock.',
        ],
      },
      {
        id: 'scoring',
        title: 'End of a round',
        body: [
          'Whoever discards their last card goes out and scores 0. The others take what they hold as penalty ' +
            'points, or 100 if they never opened.',
          '“Rami sec”: going out in the same turn as opening doubles everyone’s penalty (×4 when the last card ' +
            'discarded is a joker).',
          'The match lasts one round per player unless the host chose a number of rounds or a penalty limit; the ' +
            'lowest total wins.',
        ],
      },
    ],
  },
  rumino: {
    title: 'Rumino',
    intro:
      'An Italian gin rummy with two decks and four jokers, for 2 to 6 players: ' +
      'nothing is laid on the table; keep your hand’s deadwood low, knock or go gin, and stay under 101 ' +
      'points.',
    sections: [
      {
        id: 'lays',
        title: 'Lays and deadwood',
        body: [
          'A lay is 3 or 4 cards of one rank (suits may repeat) or 3 or 4 cards of one suit in a row, with at most ' +
            'one joker. Lays stay in your hand.',
          'Your deadwood is what your cards left over count, arranged in the best way: ace 1, 2 to 10 their ' +
            'number, faces and jokers 10. The table works it out for you. A hand of 7 that splits into a lay ' +
            'of 4 and a lay of 3 has no deadwood: gin.',
        ],
      },
      {
        id: 'turn',
        title: 'Your turn',
        body: [
          'Everyone gets 7 cards. With 7 cards, knock if your deadwood is 7 or less, or draw from the stock, or ' +
            'take the top discard (you may not discard the same card again this turn). Then discard one card ' +
            '— and declare gin with it if the 7 you keep have no deadwood.',
        ],
      },
      {
        id: 'scoring',
        title: 'Knock and gin',
        body: [
          'A knock or a gin ends the hand and every hand is shown. Everyone scores their deadwood; a gin scores ' +
            '−10 for the one who declared it.',
        ],
      },
      {
        id: 'rumino',
        title: 'Rumino!',
        body: [
          'Seven cards of one rank, or a run of seven in one suit (one joker at most), is a rumino: it wins the ' +
            'match at once. The table looks for one after the deal, after each draw or take, and when a ' +
            'discard completes someone’s seven.',
        ],
      },
      {
        id: 'end',
        title: 'Out, rebuys and the end',
        body: [
          'A total of 101 or more puts a player out. While two or more are still in, a player just out may rebuy ' +
            '(once by default, as the host chose), coming back with the highest total of those still in. The ' +
            'last player in wins; three gins in the first three hands also win.',
        ],
      },
    ],
  },
};
