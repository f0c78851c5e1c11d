// @ts-check
// Comment jouer à la famille du rami — Rommi, Rami, Rumino — en français, avec les mots du projet (les règles
// sont docs/rules/rommi.md, rami.md et rumino.md). help-page.js les ajoute à celles de fr.js.
/** @type {import('../../../help-page.js').HelpBook} */
export default {
  rommi: {
    title: 'Rommi',
    intro:
      'Le rami avec un jeu de 52 cartes et sans joker, de 2 à 4 joueurs : posez ' +
      'brelans et suites, ajoutez à n’importe quelle combinaison, et videz votre main le premier.',
    sections: [
      {
        id: 'melds',
        title: 'Combinaisons',
        body: [
          'Un brelan (ou carré) est fait de 3 ou 4 cartes de même valeur (7♣ 7♦ 7♠). Une suite est faite de 3 ' +
            'cartes ou plus d’une même couleur qui se suivent (5♥ 6♥ 7♥). Au rami de base l’as est toujours ' +
            'bas (A-2-3) ; au rami 500 il peut aussi être haut (D-R-A), mais une suite ne fait jamais le ' +
            'tour (R-A-2).',
          'Chaque combinaison reçoit un numéro quand elle est posée, et la table montre qui l’a posée. Chacun peut ' +
            'ajouter des cartes à n’importe quelle combinaison, tant qu’elle reste un brelan ou une suite.',
        ],
      },
      {
        id: 'deal',
        title: 'La donne',
        body: [
          'Chaque joueur reçoit 13 cartes à 2, 7 à 3 ou 4. Une carte est retournée pour commencer la défausse ; le ' +
            'reste forme le talon. Le donneur avance d’une place à chaque manche.',
        ],
      },
      {
        id: 'turn',
        title: 'Votre tour',
        body: [
          'Prenez d’abord une carte : celle du talon, ou celle du dessus de la défausse (elle ne peut pas être ' +
            'redéfaussée ce tour-ci). Au rami 500 la défausse est étalée et vous pouvez prendre une carte ' +
            'plus profonde avec toutes celles du dessus, si vous la posez aussitôt.',
          'Posez ensuite autant de combinaisons et ajoutez autant de cartes que vous voulez, puis finissez le tour ' +
            'en défaussant une carte. Poser ou défausser votre dernière carte vous fait terminer.',
          'Quand le talon est vide, prenez dans la défausse ou finissez la manche.',
        ],
      },
      {
        id: 'scoring',
        title: 'Scores',
        body: [
          'Les cartes valent : de 2 à 9 leur nombre, le 10 et les figures 10, l’as 1 au bas d’une suite et 15 ' +
            'ailleurs (valeurs simples : 5, 10 et 15).',
          'Décompte positif (l’habituel du rami de base) : qui termine marque ce que les autres ont en main. ' +
            'Combinaisons moins main (l’habituel du 500) : chacun marque les cartes qu’il a posées, moins ' +
            'celles restées en main. Décompte négatif : chacun prend ce qu’il a en main comme pénalité ; le ' +
            'moins est le mieux.',
          'La partie finit quand un total atteint l’objectif (100, ou 500 avec combinaisons moins main) : le ' +
            'meilleur total gagne.',
        ],
      },
      {
        id: 'options',
        title: 'Options de la table',
        body: [
          'L’hôte choisit la variante (rami de base ou 500), le décompte, l’objectif, les valeurs simples et la ' +
            'restriction (une seule nouvelle combinaison par tour, et ajouter seulement après avoir posé une ' +
            'combinaison à soi).',
        ],
      },
    ],
  },
  rami: {
    title: 'Rami',
    intro:
      'Le rami français avec deux jeux et quatre jokers, de 2 à 5 joueurs : ouvrez ' +
      'avec assez de points, puis posez et ajoutez jusqu’à ce que quelqu’un termine.',
    sections: [
      {
        id: 'melds',
        title: 'Combinaisons et jokers',
        body: [
          'Un brelan est fait de 3 ou 4 cartes de même valeur en couleurs différentes ; une suite de 3 cartes ou ' +
            'plus d’une même couleur qui se suivent, l’as bas ou haut. Une combinaison tient au plus un ' +
            'joker, et le joueur dit quelle carte il remplace.',
          'Les cartes valent de 2 à 10 leur nombre, les figures 10, l’as 1 sous un 2 et 11 ailleurs, le joker ce ' +
            'qu’il remplace. Restés en main à la fin, l’as vaut 11 et le joker 20.',
        ],
      },
      {
        id: 'opening',
        title: 'L’ouverture',
        body: [
          'Tant que vous n’avez pas ouvert, vous ne pouvez rien poser d’autre. Vous ouvrez en posant d’un coup une ' +
            'ou plusieurs combinaisons qui valent au moins 51 points, dont une suite sans joker (Rami 51), ' +
            'ou au moins 30 points, brelans seuls permis (Rami 30). La table montre les points des cartes ' +
            'choisies face à ce seuil.',
        ],
      },
      {
        id: 'turn',
        title: 'Votre tour',
        body: [
          'Chacun reçoit 14 cartes. Piochez dans le talon, ou prenez la carte de la défausse si vous la posez ' +
            'aussitôt (il faut deux cartes en main pour cela). Ensuite, une fois ouvert, posez, ajoutez à ' +
            'n’importe quelle combinaison, ou prenez un joker dans une suite ou un carré en mettant à sa ' +
            'place la carte qu’il remplace — et posez un joker juste après. Finissez par une défausse ; ' +
            'aucun coup ne peut vider votre main.',
          'Avec une seule carte vous êtes « carte » : vous devez piocher dans le talon.',
        ],
      },
      {
        id: 'scoring',
        title: 'Fin de manche',
        body: [
          'Qui défausse sa dernière carte termine et marque 0. Les autres prennent ce qu’ils ont en main comme ' +
            'pénalité, ou 100 s’ils n’ont jamais ouvert.',
          '« Rami sec » : terminer dans le tour même de l’ouverture double la pénalité de tous (×4 si la dernière ' +
            'carte défaussée est un joker).',
          'La partie dure une manche par joueur, sauf si l’hôte a choisi un nombre de manches ou une limite de ' +
            'pénalités ; le plus petit total gagne.',
        ],
      },
    ],
  },
  rumino: {
    title: 'Rumino',
    intro:
      'Un gin rami italien avec deux jeux et quatre jokers, de 2 à 6 joueurs : ' +
      'rien n’est posé sur la table ; gardez peu de points morts, frappez ou faites gin, et restez sous ' +
      '101 points.',
    sections: [
      {
        id: 'lays',
        title: 'Combinaisons et points morts',
        body: [
          'Une combinaison est faite de 3 ou 4 cartes de même valeur (les couleurs peuvent se répéter) ou de 3 ou ' +
            '4 cartes d’une même couleur qui se suivent, avec au plus un joker. Les combinaisons restent en ' +
            'main.',
          'Vos points morts sont ce que valent les cartes qui restent, rangées au mieux : as 1, de 2 à 10 leur ' +
            'nombre, figures et jokers 10. La table les calcule pour vous. Une main de 7 qui se range en une ' +
            'combinaison de 4 et une de 3 n’a pas de points morts : gin.',
        ],
      },
      {
        id: 'turn',
        title: 'Votre tour',
        body: [
          'Chacun reçoit 7 cartes. Avec 7 cartes, frappez si vous avez 7 points morts ou moins, ou piochez dans le ' +
            'talon, ou prenez la carte de la défausse (vous ne pourrez pas redéfausser la même carte ce ' +
            'tour-ci). Puis défaussez une carte — et annoncez gin avec elle si les 7 que vous gardez n’ont ' +
            'aucun point mort.',
        ],
      },
      {
        id: 'scoring',
        title: 'Frapper et gin',
        body: [
          'Un coup frappé ou un gin finit la main et toutes les mains sont montrées. Chacun marque ses points ' +
            'morts ; qui fait gin marque −10.',
        ],
      },
      {
        id: 'rumino',
        title: 'Rumino !',
        body: [
          'Sept cartes de même valeur, ou une suite de sept d’une même couleur (un joker au plus), font un rumino ' +
            ': il gagne la partie aussitôt. La table en cherche un après la donne, après chaque pioche ou ' +
            'prise, et quand une défausse complète les sept de quelqu’un.',
        ],
      },
      {
        id: 'end',
        title: 'Éliminations, recaves et fin',
        body: [
          'Un total de 101 ou plus élimine. Tant qu’il reste au moins deux joueurs, un joueur qui vient d’être ' +
            'éliminé peut se recaver (une fois par défaut, selon l’hôte) et revient avec le plus haut total ' +
            'de ceux encore en jeu. Le dernier en jeu gagne ; trois gins dans les trois premières mains ' +
            'gagnent aussi.',
        ],
      },
    ],
  },
};
