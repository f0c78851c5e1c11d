// @ts-check
// How to play, in English, in the project's own words (the rule books are docs/rules/).
/** @type {import('../../../help-page.js').HelpBook} */
export default {
  'romi-rami': {
    title: 'Romi Rami',
    intro:
      'A card game for 2 to 4 players: take number cards from a shared market, use them to complete ' +
      'contracts, and win trophies for the kinds of contracts you collect.',
    sections: [
      {
        id: 'material',
        title: 'The cards',
        body: [
          'Number cards show a number from 1 to 5 and one of four suits: cherry, diamond, heart and clover. ' +
            'There are 92 of them, with several copies of each.',
          'Each contract card asks for one to three groups of cards: a set (cards of the same number, such as a ' +
            'pair or three of a kind, sometimes of a given number) or a run (consecutive numbers, such as ' +
            '2-3-4; 5 is never followed by 1). A contract also shows its points and a suit.',
          'Four trophies are in play, each for the most contracts of a suit or for the most groups of a size.',
        ],
      },
      {
        id: 'setup',
        title: 'The start',
        body: [
          'Everyone gets 3 number cards, which only they see, and a Star. Six number cards lie face up as the ' +
            'market, and four contracts lie face up beside them. One player is chosen to start.',
        ],
      },
      {
        id: 'take',
        title: 'Your turn, step 1: take',
        body: [
          'Take 1, 2 or 3 cards from the number market. The cards you take must all show the same number, or all ' +
            'have the same suit. The market is not refilled during your turn.',
        ],
      },
      {
        id: 'contracts',
        title: 'Step 2: complete contracts',
        body: [
          'Then you may complete any contracts of the market, one after the other: play from your hand exactly ' +
            'the cards its groups ask for. Then pass.',
          'Played cards of the contract’s suit go face down onto your suit bonus pile (1 point each at the end); ' +
            'the others go to the discard pile. The contract stays in front of you.',
        ],
      },
      {
        id: 'star',
        title: 'The Star',
        body: [
          'Once per game your Star can stand in for any one card of a contract, which then takes one card fewer ' +
            'from your hand. An unused Star is worth 1 point at the end.',
        ],
      },
      {
        id: 'refill',
        title: 'Step 3: refill',
        body: [
          'After you pass, the contract market is refilled to four and the number market to six. When the number ' +
            'deck runs out, the discard pile is shuffled into a new deck.',
        ],
      },
      {
        id: 'limit',
        title: 'Step 4: the hand limit',
        body: ['If you hold more than 10 cards, discard down to 10. If you hold fewer than 3, draw up to 3.'],
      },
      {
        id: 'end',
        title: 'The end',
        body: [
          'When a player owns 7 contracts (6 with three players, 5 with four), the round is played to its end ' +
            'and the game is over. It also ends when a market cannot be refilled.',
        ],
      },
      {
        id: 'scoring',
        title: 'Scoring',
        body: [
          'Add the points of your contracts, the trophies you win (a trophy goes to the one player with the most ' +
            'of its icon; a tie wins nothing), 1 point per suit bonus card, and 1 point for an unused ' +
            'Star. The highest total wins; the most suit bonus cards break a tie.',
        ],
      },
      {
        id: 'online',
        title: 'Playing here',
        body: [
          'Pick cards by clicking or with the keyboard (Tab and Enter or Space); the page only lets you send ' +
            'moves the rules allow. During your turn, before the refill, you may take back your take or a ' +
            'contract.',
          'With a clock, time beyond your turn comes out of your reserve; when both are gone, or when you leave, ' +
            'the server’s bot plays for you until you come back.',
        ],
      },
    ],
  },
};
