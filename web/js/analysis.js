// @ts-check
// The analysis of a finished game's seat (GET /api/games/<id>/analysis?seat=N, docs/analysis.md): asked for on
// the reader's request, followed while the server queues and runs it, and drawn — the decisions marked on the
// replay's slider by class, what the strong bot would have played at a marked move, the counts per player.
// Values are in the game's points: the final lead over the best other player (Romi Rami), or the points gained
// in the round against the others' average (the rummy family).

import { h } from './dom.js';
import { t } from './i18n.js';
import { ApiError, getAnalysis } from './api.js';
import { sentence } from './cards-ui.js';

/**
 * @typedef {object} Decision
 * @property {number} step @property {any} played @property {any} best @property {number} value_played
 * @property {number} value_best @property {number} loss @property {string} class
 */
/**
 * @typedef {object} Analysis
 * @property {string} game @property {number} seat @property {string} state @property {number} progress
 * @property {string} [unit] @property {Decision[]} decisions
 * @property {{decisions: number, inaccuracies: number, mistakes: number, blunders: number, points_lost: number}} summary
 */

/**
 * Asks for the analysis of `seat` and follows it until it is done: `onUpdate` after each answer (and with the
 * seconds to wait when the server's queue is full). Resolves with the analysis done, or null once `alive` says
 * the page is gone.
 * @param {string} id @param {number} seat
 * @param {(analysis: Analysis | null, waitSeconds?: number) => void} onUpdate
 * @param {() => boolean} alive
 * @returns {Promise<Analysis | null>}
 */
export async function follow(id, seat, onUpdate, alive) {
  for (;;) {
    let wait = 1;
    try {
      /** @type {Analysis} */
      const analysis = await getAnalysis(id, seat);
      if (!alive()) return null;
      onUpdate(analysis);
      if (analysis.state === 'done') return analysis;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429) throw error;
      wait = Math.min(60, Math.max(1, error.retryAfter ?? 5));
      onUpdate(null, wait);
    }
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    if (!alive()) return null;
  }
}

/** A value in points. @param {number} value */
export function valueText(value) {
  const n = new Intl.NumberFormat(document.documentElement.lang, { maximumFractionDigits: 1 });
  return t('an.points', { n: `${value > 0 ? '+' : ''}${n.format(value)}` });
}

/** A loss in points. @param {number} loss */
const lossText = (loss) => t('an.lossPoints', { n: loss.toFixed(1) });

/** Where an analysis stands, in words. @param {Analysis | null} a @param {number} [wait] */
export function stateText(a, wait) {
  if (!a) return t('an.busy', { n: wait ?? 5 });
  if (a.state === 'queued') return t('an.queued');
  if (a.state === 'running') return t('an.running', { n: Math.round(100 * a.progress) });
  return t('an.done');
}

/** The counts of an analysis, in a sentence. @param {Analysis} a */
export const summaryText = (a) =>
  t('an.summary', {
    n: a.summary.decisions,
    inaccuracies: a.summary.inaccuracies,
    mistakes: a.summary.mistakes,
    blunders: a.summary.blunders,
    lost: lossText(a.summary.points_lost),
  });

/**
 * The analysed decisions that were not good, as marks under the replay's slider: each at its step, coloured by
 * class, a button that goes there.
 * @param {Analysis[]} analyses @param {number} total the last step
 * @param {(seat: number) => string} nameOf @param {(step: number) => void} go
 */
export function sliderMarks(analyses, total, nameOf, go) {
  const marks = analyses.flatMap((a) =>
    a.decisions
      .filter((d) => d.class !== 'good')
      .map((d) =>
        h('button.replay-mark', {
          type: 'button',
          class: `replay-mark mark-${d.class}`,
          style: `left: ${(100 * d.step) / Math.max(1, total)}%`,
          'data-step': d.step,
          'data-class': d.class,
          title: t('an.markTitle', { who: nameOf(a.seat), n: d.step, class: t(`an.class.${d.class}`) }),
          'aria-label': t('an.markTitle', { who: nameOf(a.seat), n: d.step, class: t(`an.class.${d.class}`) }),
          onclick: () => go(d.step),
        }),
      ),
  );
  return marks.length ? h('div.replay-marks', { id: 'replay-marks' }, marks) : null;
}

/**
 * What the analysis says of the move at `step`, for each analysed seat that moved there: its class and, when a
 * better move was found, what the strong bot would have played, with both values.
 * @param {Analysis[]} analyses @param {number} step
 * @param {(seat: number) => string} nameOf @param {(entry: any) => import('./game-log.js').Line | null} entryLine
 */
export function decisionBox(analyses, step, nameOf, entryLine) {
  const found = analyses.flatMap((a) => a.decisions.filter((d) => d.step === step).map((d) => ({ a, d })));
  if (!found.length) return null;
  const words = (/** @type {any} */ entry) => {
    const line = entryLine(entry);
    return line ? sentence(line.parts) : JSON.stringify(entry);
  };
  return h(
    'section.card-panel.analysis-box',
    { id: 'analysis-box', 'aria-live': 'polite' },
    found.map(({ a, d }) =>
      h(
        'div.decision',
        { 'data-class': d.class, 'data-seat': a.seat },
        h(
          'h2.label',
          t('an.moveOf', { who: nameOf(a.seat) }),
          ' ',
          h(`span.badge.class-${d.class}`, t(`an.class.${d.class}`)),
        ),
        h('p', h('b', t('an.played')), ' ', words(d.played), ` (${valueText(d.value_played)})`),
        d.loss > 0
          ? h(
              'p.would',
              h('b', t('an.wouldHave')),
              ' ',
              words(d.best),
              ` (${valueText(d.value_best)}; ${lossText(d.loss)})`,
            )
          : h('p.muted', t('an.bestPlayed')),
      ),
    ),
  );
}

/**
 * The counts of each analysed player, for the end of the replay.
 * @param {Analysis[]} analyses @param {(seat: number) => string} nameOf
 */
export function summaryBox(analyses, nameOf) {
  if (!analyses.length) return null;
  return h(
    'section.card-panel.analysis-summary',
    { id: 'analysis-summary' },
    h('h2.label', t('an.title')),
    h(
      'ul',
      analyses.map((a) => h('li', { 'data-seat': a.seat }, h('b', nameOf(a.seat)), ': ', summaryText(a))),
    ),
    h('p.muted.small', t('an.caveat')),
  );
}
