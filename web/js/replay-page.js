// @ts-check
// The replay of a finished game (`#/replay/<id>?move=N`, and `/embed/<id>` for other sites' frames), any
// game: its game's replay board (games/index.js) loads the game step by step and draws a step with the table
// page's own parts, every hand shown (the game is over); this page steps through it — first, back, forward,
// last, a slider, the arrow keys — with the game log beside it. The address always names the move shown,
// so a link opens that move. The analysis of a seat (`?seat=N`, or the "Analyse" button) marks its decisions
// on the slider, says at a marked move what the strong bot would have played, and sums them up at the end.

import { h, replace } from './dom.js';
import { ApiError, getGame } from './api.js';
import { t, onLanguage } from './i18n.js';
import { sentence } from './cards-ui.js';
import { replayFor } from './games/index.js';
import { errorBox, shownName } from './widgets.js';
import { follow, sliderMarks, decisionBox, summaryBox, stateText } from './analysis.js';

/**
 * A game's part of the replay viewer.
 * @typedef {object} ReplayBoard
 * @property {number} steps how many steps: the deal (0), then one after each action
 * @property {(n: number) => number | null} seatOf the seat whose action step `n` is
 * @property {(n: number) => import('./game-log.js').Line[]} lines the log lines of step `n`
 * @property {(n: number) => {top: any[], main: any[], side: any[]}} draw the game at step `n`
 * @property {(n: number) => any} view the game at step `n` as the page's test hook shows it
 * @property {(entry: any) => import('./game-log.js').Line | null} entryLine a record's log entry in words
 */

/**
 * @param {HTMLElement} root
 * @param {string} id
 * @param {URLSearchParams} params `move`: the step to open; `seat` (repeatable): seats whose analysis to show
 * @param {{embed?: boolean}} [options] `embed`: the page framed on another site (no address changes)
 */
export function mountReplay(root, id, params, { embed = false } = {}) {
  let alive = true;
  const box = h('div.replay-page', h('p.muted', t('loading')));
  root.append(box);
  /** @type {ReplayBoard | null} */
  let board = null;
  /** @type {any} */
  let game = null;
  let at = 0;
  /** Analyses shown, by seat, once done; and what those under way say. */
  /** @type {Map<number, import('./analysis.js').Analysis>} */
  const analyses = new Map();
  /** @type {Map<number, string>} */
  const pending = new Map();
  let pick = 0;

  /** @param {number} seat */
  const nameOf = (seat) => {
    const p = game?.players?.find((/** @type {any} */ x) => x.seat === seat);
    return p ? shownName(p.name, p.level) : t('seat.n', { n: seat + 1 });
  };

  function address() {
    const query = new URLSearchParams({ move: String(at) });
    for (const seat of [...analyses.keys(), ...pending.keys()]) query.append('seat', String(seat));
    return `#/replay/${id}?${query}`;
  }

  /** @param {number} n */
  function go(n) {
    if (!board) return;
    at = Math.max(0, Math.min(board.steps - 1, n));
    if (!embed) history.replaceState(null, '', address());
    draw();
    /** @type {HTMLElement | null} */ (box.querySelector('[data-key="focus"]'))?.focus();
  }

  /** Asks for the analysis of `seat` and follows it to its end. @param {number} seat */
  async function analyse(seat) {
    if (analyses.has(seat) || pending.has(seat)) return;
    pending.set(seat, t('an.queued'));
    if (!embed) history.replaceState(null, '', address());
    draw();
    try {
      const done = await follow(
        id,
        seat,
        (a, wait) => {
          pending.set(seat, stateText(a, wait));
          draw();
        },
        () => alive,
      );
      pending.delete(seat);
      if (done) analyses.set(seat, done);
    } catch (error) {
      pending.set(seat, error instanceof Error ? error.message : String(error));
    }
    if (alive) draw();
  }

  function analysisControls() {
    if (!game) return null;
    const select = /** @type {HTMLSelectElement} */ (
      h(
        'select',
        {
          id: 'analyse-seat',
          'aria-label': t('an.whose'),
          'data-key': 'analyse-seat',
          onchange: () => (pick = Number(select.value)),
        },
        game.players.map((/** @type {any} */ p) =>
          h('option', { value: p.seat, selected: p.seat === pick }, nameOf(p.seat)),
        ),
      )
    );
    return h(
      'div.row.analyse-row',
      select,
      h(
        'button',
        { type: 'button', id: 'analyse', 'data-key': 'analyse', onclick: () => analyse(pick) },
        t('an.analyse'),
      ),
      [...pending].map(([seat, words]) =>
        h('span.muted.analysis-state', { 'data-seat': seat, role: 'status' }, `${nameOf(seat)}: ${words}`),
      ),
    );
  }

  function draw() {
    if (!board) return;
    const focusKey = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.key;
    const total = board.steps - 1;
    const shown = [...analyses.values()];
    const slider = /** @type {HTMLInputElement} */ (
      h('input', {
        type: 'range',
        id: 'replay-slider',
        min: 0,
        max: total,
        value: at,
        'aria-label': t('replay.slider'),
        'data-key': 'slider',
        oninput: () => go(Number(slider.value)),
      })
    );
    const button = (/** @type {string} */ key, /** @type {number} */ to, /** @type {boolean} */ off) =>
      h(
        'button',
        { type: 'button', id: `replay-${key}`, 'data-key': key, disabled: off, onclick: () => go(to) },
        t(`replay.${key}`),
      );
    const lines = [];
    for (let n = 0; n <= at; n += 1) for (const line of board.lines(n)) lines.push({ n, line });
    const step = board.draw(at);
    replace(
      box,
      embed
        ? h('p', h('a', { href: `/#/games/${id}`, target: '_blank', rel: 'noopener' }, t('embed.open')))
        : h('p', h('a', { href: `#/games/${id}` }, t('replay.back.game'))),
      h('h1', t('replay.title')),
      h(
        'div.replay-controls.card-panel',
        h(
          'div.row',
          button('first', 0, at === 0),
          button('back', at - 1, at === 0),
          button('forward', at + 1, at === total),
          button('last', total, at === total),
          h(
            'span.replay-at',
            { id: 'replay-at', role: 'status', 'aria-live': 'polite' },
            at ? t('replay.step', { n: at, total }) : t('replay.start'),
          ),
        ),
        h('div.slider-wrap', slider, sliderMarks(shown, total, nameOf, go)),
        embed ? null : analysisControls(),
      ),
      decisionBox(shown, at, nameOf, board.entryLine),
      at === total ? summaryBox(shown, nameOf) : null,
      h(
        'div.game.replay',
        ...step.top,
        h('div.game-main', ...step.main),
        h(
          'aside.side',
          ...step.side,
          h(
            'section.log',
            h('h2.label', t('log.title')),
            h(
              'ol',
              { id: 'replay-log' },
              lines.map(({ n, line }) =>
                h('li', { class: `${line.kind}${n === at ? ' now' : ''}`, 'data-move': n }, sentence(line.parts)),
              ),
            ),
          ),
        ),
      ),
    );
    const log = box.querySelector('#replay-log');
    if (log) log.scrollTop = log.scrollHeight;
    if (focusKey) /** @type {HTMLElement | null} */ (box.querySelector(`[data-key="${focusKey}"]`))?.focus();
  }

  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    const tag = /** @type {HTMLElement} */ (e.target).tagName;
    if (!board || tag === 'INPUT' || tag === 'SELECT') return;
    if (e.key === 'ArrowRight') go(at + 1);
    else if (e.key === 'ArrowLeft') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(board.steps - 1);
  };
  document.addEventListener('keydown', onKey);
  const offLang = onLanguage(() => draw());

  async function load() {
    try {
      game = await getGame(id);
      const replay = replayFor(game.game ?? 'romi-rami');
      if (!replay) throw new Error(t('replay.cannot'));
      const loaded = await replay.loadReplay(id, nameOf, draw);
      if (!alive) return;
      board = loaded;
      // A replay starts at the deal, as one watches a game from its start; a link names another step.
      const wanted = Number(params.get('move') ?? 0);
      at = Math.max(0, Math.min(board.steps - 1, Number.isFinite(wanted) ? wanted : 0));
      draw();
      for (const seat of params.getAll('seat').map(Number)) {
        if (Number.isInteger(seat) && seat >= 0 && seat < game.players.length) analyse(seat);
      }
    } catch (error) {
      if (!alive) return;
      board = null;
      // A record this viewer cannot replay is said in the reader's language; the REST API's refusals already are.
      if (!(error instanceof ApiError)) console.warn('replay:', error);
      const shown = error instanceof ApiError ? error : new Error(t('replay.cannot'));
      replace(box, h('section.card-panel', h('h1', t('replay.title')), errorBox(shown, load)));
    }
  }
  load();
  window.__romirami.page = {
    name: 'replay',
    at: () => at,
    steps: () => board?.steps ?? 0,
    view: () => board?.view(at) ?? null,
    analyses: () => [...analyses.values()],
  };
  return () => {
    alive = false;
    document.removeEventListener('keydown', onKey);
    offLang();
  };
}
