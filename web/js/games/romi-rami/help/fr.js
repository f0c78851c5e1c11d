// @ts-check
// Comment jouer, en français, avec les mots du projet (les règles sont dans docs/rules/).
/** @type {import('../../../help-page.js').HelpBook} */
export default {
  'romi-rami': {
    title: 'Romi Rami',
    intro:
      'Un jeu de cartes pour 2 à 4 joueurs : prenez des cartes numéro à un marché commun, servez-vous-en ' +
      'pour réaliser des contrats, et gagnez des trophées pour les sortes de contrats que vous ' +
      'réunissez.',
    sections: [
      {
        id: 'material',
        title: 'Les cartes',
        body: [
          'Les cartes numéro portent un numéro de 1 à 5 et l’une des quatre couleurs : cerise, carreau, cœur et ' +
            'trèfle. Il y en a 92, avec plusieurs exemplaires de chacune.',
          'Chaque contrat demande un à trois groupes de cartes : une série (des cartes de même numéro, comme une ' +
            'paire ou un brelan, parfois d’un numéro donné) ou une suite (des numéros qui se suivent, ' +
            'comme 2-3-4 ; le 1 ne suit jamais le 5). Un contrat montre aussi ses points et une couleur.',
          'Quatre trophées sont en jeu, chacun pour le plus de contrats d’une couleur ou le plus de groupes ' +
            'd’une taille.',
        ],
      },
      {
        id: 'setup',
        title: 'Le début',
        body: [
          'Chacun reçoit 3 cartes numéro, que lui seul voit, et une Étoile. Six cartes numéro sont posées face ' +
            'visible comme marché, et quatre contrats à côté. On tire au sort qui commence.',
        ],
      },
      {
        id: 'take',
        title: 'Votre tour, étape 1 : prendre',
        body: [
          'Prenez 1, 2 ou 3 cartes au marché des numéros. Les cartes prises doivent toutes avoir le même numéro, ' +
            'ou toutes la même couleur. Le marché n’est pas réassorti pendant votre tour.',
        ],
      },
      {
        id: 'contracts',
        title: 'Étape 2 : réaliser des contrats',
        body: [
          'Ensuite vous pouvez réaliser des contrats du marché, l’un après l’autre : jouez de votre main ' +
            'exactement les cartes que ses groupes demandent. Puis passez.',
          'Les cartes jouées de la couleur du contrat vont face cachée sur votre pile de bonus de couleur (1 ' +
            'point chacune à la fin) ; les autres vont à la défausse. Le contrat reste devant vous.',
        ],
      },
      {
        id: 'star',
        title: 'L’Étoile',
        body: [
          'Une fois par partie, votre Étoile peut remplacer n’importe quelle carte d’un contrat, qui prend alors ' +
            'une carte de moins dans votre main. Une Étoile inutilisée vaut 1 point à la fin.',
        ],
      },
      {
        id: 'refill',
        title: 'Étape 3 : réassort',
        body: [
          'Quand vous passez, le marché des contrats revient à quatre et celui des numéros à six. Quand la ' +
            'pioche des numéros est vide, la défausse est mélangée en une nouvelle pioche.',
        ],
      },
      {
        id: 'limit',
        title: 'Étape 4 : la limite de main',
        body: ['Si vous avez plus de 10 cartes, défaussez jusqu’à 10. Si vous en avez moins de 3, piochez jusqu’à 3.'],
      },
      {
        id: 'end',
        title: 'La fin',
        body: [
          'Quand un joueur possède 7 contrats (6 à trois, 5 à quatre), on finit le tour de table et la partie ' +
            'est terminée. Elle se termine aussi quand un marché ne peut plus être réassorti.',
        ],
      },
      {
        id: 'scoring',
        title: 'Le score',
        body: [
          'Additionnez les points de vos contrats, les trophées gagnés (un trophée va au seul joueur qui a le ' +
            'plus de son icône ; en cas d’égalité personne ne le gagne), 1 point par carte de bonus de ' +
            'couleur et 1 point pour une Étoile inutilisée. Le plus haut total gagne ; à égalité, le plus ' +
            'de cartes de bonus l’emporte.',
        ],
      },
      {
        id: 'online',
        title: 'Jouer ici',
        body: [
          'Choisissez les cartes d’un clic ou au clavier (Tab puis Entrée ou Espace) ; la page ne laisse envoyer ' +
            'que les coups que les règles permettent. Pendant votre tour, avant le réassort, vous pouvez ' +
            'annuler votre prise ou un contrat.',
          'Avec une pendule, le temps au-delà du tour est pris sur votre réserve ; quand les deux sont épuisés, ' +
            'ou si vous partez, le bot du serveur joue pour vous jusqu’à votre retour.',
        ],
      },
    ],
  },
};
