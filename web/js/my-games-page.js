// @ts-check
// "My games" (`#/my-games`): every table the player sits at that is not over (GET /api/players/me/tables),
// theirs to play first, the soonest end of a turn next; each opens its table. Turn-based tables (a day or
// more a turn) are played from here over days. Below, the switch for turn notifications on this device (Web
// Push through the service worker, docs/push.md). The page title and the app's badge count the games that
// wait for the player's move, on every page (`watchMyTurns`).

import { h, replace } from './dom.js';
import { t, language } from './i18n.js';
import { identity } from './identity.js';
import { myTables, pushKey, subscribePush, unsubscribePush } from './api.js';
import { spanWords } from './clock.js';
import { gameName } from './game-options.js';
import { errorBox } from './widgets.js';

/** How often the list (and the count of games waiting for the player) is read again. */
const REFRESH_MS = 30_000;

/** One table of the list. @param {any} table */
function row(table) {
  const names = table.players.map((/** @type {any} */ p) => p?.name ?? '—').join(', ');
  const toAct = table.to_act != null ? table.players[table.to_act]?.name : null;
  const turn =
    table.state === 'waiting'
      ? t('mine.waiting')
      : table.your_turn
        ? t('mine.yourTurn')
        : toAct
          ? t('mine.theirTurn', { name: toAct })
          : '';
  const left = table.turn_ends_at ? Date.parse(table.turn_ends_at) - Date.now() : null;
  return h(
    'li.my-table',
    { 'data-table': table.table, 'data-your-turn': String(table.your_turn) },
    h(
      'a',
      { href: `#/table/${table.table}` },
      h('b', gameName(table.game)),
      ' · ',
      h(table.your_turn ? 'span.badge.your-turn' : 'span.turn', turn),
    ),
    h(
      'span.muted.small',
      ' ',
      names,
      left != null ? ` · ${t('mine.ends', { time: spanWords(Math.max(0, left)) })}` : '',
      table.asleep ? ` · ${t('mine.asleep')}` : '',
    ),
  );
}

/** The service worker's registration, if the browser has one. */
async function registration() {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return null;
  return navigator.serviceWorker.ready;
}

/** A base64url text as bytes, as `applicationServerKey` wants it. @param {string} text */
function bytes(text) {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** The switch for turn notifications on this device. @param {string} token */
function notificationSwitch(token) {
  const box = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'push-toggle' }));
  const status = h('p.muted.small', { id: 'push-status', role: 'status' });
  const say = (/** @type {string} */ text) => replace(status, text);
  const show = async () => {
    const reg = await registration();
    if (!reg) {
      box.disabled = true;
      return say(t('mine.notifyUnsupported'));
    }
    const subscription = await reg.pushManager.getSubscription();
    box.checked = !!subscription && Notification.permission === 'granted';
    say(t(box.checked ? 'mine.notifyOn' : 'mine.notifyOff'));
  };
  box.addEventListener('change', async () => {
    box.disabled = true;
    try {
      const reg = await registration();
      if (!reg) return say(t('mine.notifyUnsupported'));
      if (box.checked) {
        const permission = await Notification.requestPermission();
        if (permission !== 'granted') {
          box.checked = false;
          return say(t('mine.notifyDenied'));
        }
        const { public_key: key } = await pushKey();
        const subscription = await reg.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: bytes(key),
        });
        await subscribePush(token, subscription.toJSON(), language());
      } else {
        const subscription = await reg.pushManager.getSubscription();
        if (subscription) {
          await unsubscribePush(token, subscription.endpoint).catch(() => {});
          await subscription.unsubscribe();
        }
      }
      say(t(box.checked ? 'mine.notifyOn' : 'mine.notifyOff'));
    } catch (error) {
      box.checked = false;
      say(t('mine.notifyFailed', { why: error instanceof Error ? error.message : String(error) }));
    } finally {
      box.disabled = false;
    }
  });
  show().catch(() => say(t('mine.notifyUnsupported')));
  return h(
    'section.card-panel.notify',
    h('label.check', box, ' ', t('mine.notify')),
    h('p.muted.small', t('mine.notifyHelp')),
    status,
  );
}

/** @param {HTMLElement} root @returns {() => void} */
export function mountMyGames(root) {
  const list = h('ul.my-tables', { id: 'my-tables', 'aria-live': 'polite' });
  const { token } = identity();
  replace(
    root,
    h(
      'section.page.my-games',
      h('h1', t('mine.title')),
      h('p.muted', t('mine.intro')),
      list,
      token ? notificationSwitch(token) : null,
    ),
  );
  const load = async () => {
    if (!token) return replace(list, h('li.muted', t('mine.none')));
    try {
      const answer = await myTables(token);
      showCount(answer.your_turn);
      replace(list, answer.tables.length ? answer.tables.map(row) : h('li.muted', t('mine.none')));
    } catch (error) {
      replace(list, errorBox(error instanceof Error ? error : new Error(String(error)), load));
    }
  };
  load();
  const timer = setInterval(load, REFRESH_MS);
  return () => clearInterval(timer);
}

/** The count of games waiting for the player's move: in the page title, the nav link and the app's badge. */
let waiting = 0;

/** @param {number} count */
function showCount(count) {
  waiting = count;
  const base = t('app.title');
  document.title = count > 0 ? `(${count}) ${base}` : base;
  // The menu button of a phone carries the count too: the link is folded behind it.
  for (const link of document.querySelectorAll('[data-nav="mine"], #menu-toggle')) {
    link.setAttribute('data-count', count > 0 ? String(count) : '');
    link.setAttribute('title', count > 0 ? t('mine.count', { n: count }) : '');
  }
  const nav = /** @type {any} */ (navigator);
  if (count > 0) nav.setAppBadge?.(count)?.catch?.(() => {});
  else nav.clearAppBadge?.()?.catch?.(() => {});
}

/** The count as last read (the frame writes the title again after a language switch). */
export const waitingCount = () => waiting;

/** Keeps the count up to date on every page, for a player with a token. */
export function watchMyTurns() {
  const refresh = async () => {
    const { token } = identity();
    if (!token || document.hidden) return;
    try {
      showCount((await myTables(token)).your_turn);
    } catch {
      /* offline, or no such player yet: the count stays */
    }
  };
  refresh();
  setInterval(refresh, REFRESH_MS);
  document.addEventListener('visibilitychange', refresh);
  return refresh;
}
