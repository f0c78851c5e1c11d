// @ts-check
// The replay of a finished game (`#/replay/<id>?move=N`): its record (GET /api/games/<id>/record,
// only for finished games) is replayed in the browser (replayer.js), and the page steps through it —
// first, back, forward, last, a slider, the arrow keys — with every hand shown (the game is over) and
// the game log beside it. The address always names the move shown, so a link opens that move.

import { h, replace } from './dom.js';
import { ApiError, getRecord } from './api.js';
import { t, onLanguage } from './i18n.js';
import { numberCard } from './cards-ui.js';
import { describe } from './game-log.js';
import { sentence } from './cards-ui.js';
import { sortCards } from './rules-data.js';
import { replay, viewOf } from './replayer.js';
import { playersPanel } from './games/romi-rami/seats.js';
import { board } from './games/romi-rami/market.js';
import { errorBox, scoreTable, aheadAt, shownName } from './widgets.js';

/**
 * @param {HTMLElement} root
 * @param {string} id
 * @param {URLSearchParams} params
 */
export function mountReplay(root, id, params) {
  let alive = true;
  const box = h('div.replay-page', h('p.muted', t('loading')));
  root.append(box);
  /** @type {import('./replayer.js').GameRecord | null} */
  let record = null;
  /** @type {import('./replayer.js').Step[]} */
  let steps = [];
  let at = 0;

  /** @param {number} seat */
  const nameOf = (seat) =>
    record?.players[seat] ? shownName(record.players[seat].name) : t('seat.n', { n: seat + 1 });

  /** @returns {import('./games/romi-rami/state.js').Ctx} */
  function ctxOf() {
    const v = viewOf(/** @type {any} */ (record), steps[at].state, at === steps.length - 1);
    /** @type {any} */
    const ctx = {
      st: {
        result: v.result ?? null,
        sel: { market: new Set(), hand: new Set(), contract: null, star: false },
        clocks: null,
        log: [],
      },
      tableId: id,
      invite: null,
      view: () => v,
      mySeat: () => null,
      nameOf,
      who: nameOf,
      isBot: () => false,
      isBotPlayer: () => false,
      isStandIn: () => false,
      botPlaysForMe: () => false,
      myTurn: () => false,
      legalOf: () => [],
      sortedHand: () => [],
      selectedMarketCards: () => [],
      selectedHandCards: () => [],
      draw,
      act: () => {},
      clearSelection: () => {},
      toggle: () => {},
      send: () => {},
      leave: () => {},
      reclaim: () => {},
      sit: () => {},
      liveClocks: () => null,
    };
    return ctx;
  }

  /** @param {number} n */
  function go(n) {
    at = Math.max(0, Math.min(steps.length - 1, n));
    history.replaceState(null, '', `#/replay/${id}?move=${at}`);
    draw();
    /** @type {HTMLElement | null} */ (box.querySelector('[data-key="focus"]'))?.focus();
  }

  function draw() {
    if (!record) return;
    const focusKey = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.key;
    const ctx = ctxOf();
    const v = ctx.view();
    const total = steps.length - 1;
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
    const lines = steps
      .slice(0, at + 1)
      .flatMap((step, n) => step.events.map((event) => ({ n, line: describe(event, nameOf, null) })))
      .filter((x) => x.line);
    const hands = v.seats.map((s) =>
      h(
        'section.replay-hand',
        { 'data-seat': s.seat },
        h(
          'h2.label',
          t('replay.hand', { name: nameOf(s.seat) }),
          ' · ',
          t('replay.bonus', { n: v.bonuses?.[s.seat]?.length ?? 0 }),
        ),
        h(
          'div.hand',
          sortCards(v.hands?.[s.seat] ?? []).map((code) => numberCard(code)),
        ),
      ),
    );
    replace(
      box,
      h('p', h('a', { href: `#/games/${id}` }, t('replay.back.game'))),
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
        slider,
      ),
      h(
        'div.game.replay',
        v.result
          ? h(
              'section.card-panel.end',
              scoreTable({ ...v.result, winners: v.result.ended_by === 'abandoned' ? [] : v.result.winners }, nameOf),
              h('p.muted', aheadAt(v.result).map(nameOf).join(', ')),
            )
          : null,
        h('div.game-main', playersPanel(ctx), board(ctx), hands),
        h(
          'aside.side',
          h(
            'section.log',
            h('h2.label', t('log.title')),
            h(
              'ol',
              { id: 'replay-log' },
              lines.map(({ n, line }) =>
                h(
                  'li',
                  { class: `${/** @type {any} */ (line).kind}${n === at ? ' now' : ''}`, 'data-move': n },
                  sentence(/** @type {any} */ (line).parts),
                ),
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
    if (!record || /** @type {HTMLElement} */ (e.target).tagName === 'INPUT') return;
    if (e.key === 'ArrowRight') go(at + 1);
    else if (e.key === 'ArrowLeft') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(steps.length - 1);
  };
  document.addEventListener('keydown', onKey);
  const offLang = onLanguage(() => draw());

  async function load() {
    try {
      record = await getRecord(id);
      if (!alive || !record) return;
      steps = replay(record);
      // A replay starts at the deal, as one watches a game from its start; a link names another step.
      const wanted = Number(params.get('move') ?? 0);
      at = Math.max(0, Math.min(steps.length - 1, Number.isFinite(wanted) ? wanted : 0));
      draw();
    } catch (error) {
      if (!alive) return;
      // Nothing to step through: a redraw (a language switch, a key) draws no step of it.
      record = null;
      // A record this viewer cannot replay (another game's, or one that breaks a rule) is said in the
      // reader's language; the REST API's refusals already are.
      if (!(error instanceof ApiError)) console.warn('replay:', error);
      const shown = error instanceof ApiError ? error : new Error(t('replay.cannot'));
      replace(box, h('section.card-panel', h('h1', t('replay.title')), errorBox(shown, load)));
    }
  }
  load();
  window.__romirami.page = {
    name: 'replay',
    at: () => at,
    steps: () => steps.length,
    view: () => (record ? viewOf(record, steps[at].state, at === steps.length - 1) : null),
  };
  return () => {
    alive = false;
    document.removeEventListener('keydown', onKey);
    offLang();
  };
}
