// @ts-check
// The page's title says when it is the reader's turn, and a soft chime sounds as it becomes theirs, so
// that a player whose table is in another tab (or behind another window) knows it is their move. The
// table shell calls `turnTitle` at each redraw; the chime sounds on the change, not at every redraw.

import { t } from '../i18n.js';

/** Whether it was the reader's turn at the last redraw. */
let wasMyTurn = false;
/** How many chimes sounded (read by the end-to-end test through the page's hook). */
let chimes = 0;
/** @type {AudioContext | null} */
let audio = null;

/** Marks the title while it is the reader's turn, and chimes when it becomes theirs. @param {boolean} myTurn */
export function turnTitle(myTurn) {
  const title = myTurn ? `${t('title.yourTurn')} · ${t('app.title')}` : t('app.title');
  if (document.title !== title) document.title = title;
  if (myTurn && !wasMyTurn) chime();
  wasMyTurn = myTurn;
}

/** The plain title again, when the table's page closes. */
export function plainTitle() {
  document.title = t('app.title');
  wasMyTurn = false;
}

/** How many times the chime sounded since the page loaded. */
export function chimeCount() {
  return chimes;
}

/** Two short soft notes. A browser that allows no sound before a click on the page stays silent. */
function chime() {
  chimes += 1;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const start = audio.currentTime;
    [660, 880].forEach((frequency, i) => {
      if (!audio) return;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.06, start + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.12 + 0.11);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + i * 0.12);
      tone.stop(start + i * 0.12 + 0.12);
    });
  } catch {
    // No audio on this browser: the title still says it.
  }
}
