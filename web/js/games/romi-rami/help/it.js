// @ts-check
// Come si gioca, in italiano, con parole del progetto (i regolamenti sono in docs/rules/).
/** @type {import('../../../help-page.js').HelpBook} */
export default {
  'romi-rami': {
    title: 'Romi Rami',
    intro:
      'Un gioco di carte da 2 a 4 giocatori: prendi carte numero da un mercato comune, usale per ' +
      'completare contratti, e vinci trofei per i tipi di contratti che raccogli.',
    sections: [
      {
        id: 'material',
        title: 'Le carte',
        body: [
          'Le carte numero mostrano un numero da 1 a 5 e uno dei quattro semi: ciliegie, quadri, cuori e fiori. ' +
            'Sono 92, con più copie di ciascuna.',
          'Ogni contratto chiede da uno a tre gruppi di carte: una serie (carte dello stesso numero, come una ' +
            'coppia o un tris, a volte di un numero dato) o una scala (numeri consecutivi, come 2-3-4; ' +
            'dopo il 5 non viene l’1). Un contratto mostra anche i suoi punti e un seme.',
          'Sono in gioco quattro trofei, ciascuno per chi ha più contratti di un seme o più gruppi di una certa ' +
            'grandezza.',
        ],
      },
      {
        id: 'setup',
        title: 'L’inizio',
        body: [
          'Ognuno riceve 3 carte numero, che vede solo lui, e una Stella. Sei carte numero sono scoperte come ' +
            'mercato, e quattro contratti accanto. Si sceglie chi comincia.',
        ],
      },
      {
        id: 'take',
        title: 'Il tuo turno, fase 1: prendere',
        body: [
          'Prendi 1, 2 o 3 carte dal mercato dei numeri. Le carte prese devono avere tutte lo stesso numero, o ' +
            'tutte lo stesso seme. Il mercato non si riempie durante il tuo turno.',
        ],
      },
      {
        id: 'contracts',
        title: 'Fase 2: completare contratti',
        body: [
          'Poi puoi completare i contratti del mercato, uno dopo l’altro: gioca dalla mano esattamente le carte ' +
            'che i suoi gruppi chiedono. Poi passa.',
          'Le carte giocate del seme del contratto vanno coperte sulla tua pila del bonus di seme (1 punto ' +
            'ciascuna alla fine); le altre vanno negli scarti. Il contratto resta davanti a te.',
        ],
      },
      {
        id: 'star',
        title: 'La Stella',
        body: [
          'Una volta per partita la tua Stella può sostituire una carta qualsiasi di un contratto, che allora ' +
            'prende una carta in meno dalla mano. Una Stella non usata vale 1 punto alla fine.',
        ],
      },
      {
        id: 'refill',
        title: 'Fase 3: rifornire',
        body: [
          'Quando passi, il mercato dei contratti torna a quattro e quello dei numeri a sei. Quando il mazzo dei ' +
            'numeri finisce, gli scarti vengono mescolati in un nuovo mazzo.',
        ],
      },
      {
        id: 'limit',
        title: 'Fase 4: il limite della mano',
        body: ['Se hai più di 10 carte, scarta fino a 10. Se ne hai meno di 3, pesca fino a 3.'],
      },
      {
        id: 'end',
        title: 'La fine',
        body: [
          'Quando un giocatore ha 7 contratti (6 in tre, 5 in quattro), si finisce il giro e la partita è ' +
            'finita. Finisce anche quando un mercato non si può più riempire.',
        ],
      },
      {
        id: 'scoring',
        title: 'Il punteggio',
        body: [
          'Somma i punti dei tuoi contratti, i trofei che vinci (un trofeo va all’unico giocatore con più icone ' +
            'del suo tipo; in caso di pareggio nessuno lo vince), 1 punto per carta del bonus di seme e 1 ' +
            'punto per la Stella non usata. Vince il totale più alto; a parità vince chi ha più carte ' +
            'bonus.',
        ],
      },
      {
        id: 'online',
        title: 'Giocare qui',
        body: [
          'Scegli le carte con un clic o con la tastiera (Tab e Invio o Spazio); la pagina ti lascia mandare ' +
            'solo le mosse che le regole permettono. Durante il tuo turno, prima del rifornimento, puoi ' +
            'annullare la presa o un contratto.',
          'Con l’orologio, il tempo oltre il turno si prende dalla riserva; quando sono finiti entrambi, o se te ' +
            'ne vai, il bot del server gioca per te finché non torni.',
        ],
      },
    ],
  },
};
