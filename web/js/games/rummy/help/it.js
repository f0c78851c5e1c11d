// @ts-check
// Come si gioca alla famiglia del ramino — Rommi, Rami, Rumino — in italiano, con parole del progetto (i
// regolamenti sono docs/rules/rommi.md, rami.md e rumino.md). help-page.js li aggiunge a quelli di it.js.
/** @type {import('../../../help-page.js').HelpBook} */
export default {
  rommi: {
    title: 'Rommi',
    intro:
      'Il ramino con un mazzo di 52 carte e senza jolly, da 2 a 4 giocatori: cala ' +
      'tris e scale, attacca a qualsiasi combinazione e svuota per primo la mano.',
    sections: [
      {
        id: 'melds',
        title: 'Combinazioni',
        body: [
          'Un tris (o poker) è di 3 o 4 carte dello stesso valore (7♣ 7♦ 7♠). Una scala è di 3 o più carte dello ' +
            'stesso seme in fila (5♥ 6♥ 7♥). Nel ramino base l’asso è sempre basso (A-2-3); nel ramino 500 ' +
            'può essere anche alto (Q-K-A), ma una scala non gira mai l’angolo (K-A-2).',
          'Ogni combinazione riceve un numero quando viene calata, e il tavolo mostra chi l’ha calata. Chiunque ' +
            'può attaccare carte a qualsiasi combinazione, purché resti un tris o una scala.',
        ],
      },
      {
        id: 'deal',
        title: 'La distribuzione',
        body: [
          'Ogni giocatore riceve 13 carte in 2, 7 in 3 o 4. Una carta si scopre e apre il pozzo; il resto è il ' +
            'tallone. Il mazziere avanza di un posto a ogni smazzata.',
        ],
      },
      {
        id: 'turn',
        title: 'Il tuo turno',
        body: [
          'Prima prendi una carta: dal tallone, o la prima del pozzo (quella carta non si può riscartare in questo ' +
            'turno). Nel ramino 500 il pozzo è aperto a ventaglio e puoi prendere una carta più in basso con ' +
            'tutte quelle sopra, se la cali subito.',
          'Poi cala tutte le combinazioni e attacca tutte le carte che vuoi, e chiudi il turno scartando una ' +
            'carta. Calare o scartare l’ultima carta ti fa chiudere.',
          'Quando il tallone è vuoto, prendi dal pozzo o chiudi la smazzata.',
        ],
      },
      {
        id: 'scoring',
        title: 'Punteggi',
        body: [
          'Le carte valgono: da 2 a 9 il loro numero, 10 e figure 10, l’asso 1 in fondo a una scala e 15 altrove ' +
            '(valori semplici: 5, 10 e 15).',
          'Punteggio positivo (il solito del ramino base): chi chiude segna quanto tengono gli altri. Combinazioni ' +
            'meno mano (il solito del 500): ognuno segna le carte messe sul tavolo meno quelle rimaste in ' +
            'mano. Punteggio negativo: ognuno prende come penalità quanto tiene in mano; meno è meglio.',
          'La partita finisce quando un totale raggiunge il traguardo (100, o 500 con combinazioni meno mano): ' +
            'vince il totale migliore.',
        ],
      },
      {
        id: 'options',
        title: 'Opzioni del tavolo',
        body: [
          'Chi apre il tavolo sceglie la variante (base o 500), il punteggio, il traguardo, i valori semplici e la ' +
            'restrizione (una sola nuova combinazione per turno, e si attacca solo dopo aver calato una ' +
            'propria combinazione).',
        ],
      },
    ],
  },
  rami: {
    title: 'Rami',
    intro:
      'Il ramino francese con due mazzi e quattro jolly, da 2 a 5 giocatori: apri ' +
      'con abbastanza punti, poi cala e attacca finché qualcuno chiude.',
    sections: [
      {
        id: 'melds',
        title: 'Combinazioni e jolly',
        body: [
          'Un tris è di 3 o 4 carte dello stesso valore in semi diversi; una scala è di 3 o più carte dello stesso ' +
            'seme in fila, l’asso basso o alto. Una combinazione tiene al più un jolly, e il giocatore dice ' +
            'quale carta sostituisce.',
          'Le carte valgono da 2 a 10 il loro numero, le figure 10, l’asso 1 sotto un 2 e 11 altrove, il jolly ' +
            'quanto la carta che sostituisce. Rimasti in mano alla fine, l’asso vale 11 e il jolly 20.',
        ],
      },
      {
        id: 'opening',
        title: 'L’apertura',
        body: [
          'Finché non apri non puoi calare altro. Apri calando in una volta una o più combinazioni che valgono ' +
            'almeno 51 punti, con almeno una scala senza jolly (Rami 51), o almeno 30 punti, anche con soli ' +
            'tris (Rami 30). Il tavolo mostra i punti delle carte scelte rispetto alla soglia.',
        ],
      },
      {
        id: 'turn',
        title: 'Il tuo turno',
        body: [
          'Ognuno riceve 14 carte. Pesca dal tallone, o prendi lo scarto se lo cali subito (servono due carte in ' +
            'mano). Poi, se hai aperto, cala, attacca a qualsiasi combinazione, o prendi un jolly da una ' +
            'scala o da un poker mettendo al suo posto la carta che sostituisce — e cala subito un jolly. ' +
            'Chiudi con uno scarto; nessuna giocata può svuotarti la mano.',
          'Con una sola carta sei “carte”: devi pescare dal tallone.',
        ],
      },
      {
        id: 'scoring',
        title: 'Fine della smazzata',
        body: [
          'Chi scarta l’ultima carta chiude e segna 0. Gli altri prendono come penalità quanto tengono, o 100 se ' +
            'non hanno mai aperto.',
          '“Rami sec”: chiudere nello stesso turno dell’apertura raddoppia le penalità di tutti (×4 se l’ultima ' +
            'carta scartata è un jolly).',
          'La partita dura una smazzata per giocatore, salvo che chi ha aperto il tavolo abbia scelto un numero di ' +
            'smazzate o un limite di penalità; vince il totale più basso.',
        ],
      },
    ],
  },
  rumino: {
    title: 'Rumino',
    intro:
      'Un gin rummy italiano con due mazzi e quattro jolly, da 2 a 6 giocatori: ' +
      'nulla si cala sul tavolo; tieni bassi i punti morti, bussa o fai gin, e resta sotto i 101 punti.',
    sections: [
      {
        id: 'lays',
        title: 'Combinazioni e punti morti',
        body: [
          'Una combinazione è di 3 o 4 carte dello stesso valore (i semi possono ripetersi) o di 3 o 4 carte dello ' +
            'stesso seme in fila, con al più un jolly. Le combinazioni restano in mano.',
          'I punti morti sono quanto valgono le carte che avanzano, sistemate nel modo migliore: asso 1, da 2 a 10 ' +
            'il loro numero, figure e jolly 10. Il tavolo li calcola per te. Una mano di 7 che si divide in ' +
            'una combinazione di 4 e una di 3 non ha punti morti: gin.',
        ],
      },
      {
        id: 'turn',
        title: 'Il tuo turno',
        body: [
          'Ognuno riceve 7 carte. Con 7 carte bussa se hai 7 punti morti o meno, oppure pesca dal tallone, o ' +
            'prendi lo scarto (non puoi riscartare la stessa carta in questo turno). Poi scarta una carta — ' +
            'e dichiara gin se le 7 che tieni non hanno punti morti.',
        ],
      },
      {
        id: 'scoring',
        title: 'Bussare e gin',
        body: [
          'Una bussata o un gin chiudono la mano e si mostrano tutte le mani. Ognuno segna i propri punti morti; ' +
            'chi fa gin segna −10.',
        ],
      },
      {
        id: 'rumino',
        title: 'Rumino!',
        body: [
          'Sette carte dello stesso valore, o una scala di sette dello stesso seme (al più un jolly), sono un ' +
            'rumino: vince subito la partita. Il tavolo lo cerca dopo la distribuzione, dopo ogni pescata o ' +
            'presa, e quando uno scarto completa i sette di qualcuno.',
        ],
      },
      {
        id: 'end',
        title: 'Fuori, rientri e fine',
        body: [
          'Con un totale di 101 o più si è fuori. Finché restano almeno due giocatori, chi è appena uscito può ' +
            'rientrare (una volta di norma, come scelto al tavolo), tornando con il totale più alto di chi è ' +
            'ancora in gioco. Vince l’ultimo rimasto; vince anche chi fa gin nelle prime tre mani.',
        ],
      },
    ],
  },
};
