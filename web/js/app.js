// @ts-check
// The client's entry point: routes the URL's hash to a page (lobby, table, past games, game, replay,
// player, tournaments, a tournament, leaderboard, help) — or, at `/embed/<id>`, shows that game's replay alone, for other sites'
// frames —, shows the connection's state in a banner, offers the language switch on every page, and
// exposes a small read-only hook, window.__romirami, that the end-to-end test uses to ask what the page
// shows (it still plays by clicking and typing).

import { connection } from './connection.js';
import { h, replace } from './dom.js';
import { t, LANGUAGES, language, setLanguage, onLanguage } from './i18n.js';
import { mountLobby } from './lobby-page.js';
import { mountTable } from './shell/page.js';
import { mountGames, mountPlayer } from './results-page.js';
import { mountGame } from './game-page.js';
import { mountReplay } from './replay-page.js';
import { mountHelp } from './help-page.js';
import { mountLeaderboard } from './ratings.js';
import { mountTournaments } from './tournaments-page.js';
import { mountTournament } from './tournament-page.js';
import { mountMyGames, waitingCount, watchMyTurns } from './my-games-page.js';
import { mountAccount } from './account-page.js';
import { mountAdmin } from './admin-page.js';

const root = /** @type {HTMLElement} */ (document.getElementById('app'));
/** @type {(() => void) | null} */
let unmount = null;
/** Whether the page on show redraws itself on a language switch (the table keeps its state). */
let redrawsItself = false;

/** @type {any} */
export const hook = {
  page: null,
  status: () => connection.status,
  player: () => connection.player,
  drop: () => connection.drop(),
};
window.__romirami = hook;

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [where, query = ''] = raw.split('?');
  const [path, anchor = ''] = where.split('#');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(query), anchor };
}

/** The replay framed on another site (`/embed/<id>`): that page alone, without the site's frame. */
const embedded = /^\/embed\/([0-9a-fA-F-]{36})\/?$/.exec(location.pathname);

function route() {
  unmount?.();
  unmount = null;
  hook.page = null;
  redrawsItself = false;
  root.replaceChildren();
  const { parts, params, anchor } = parseHash();
  if (embedded) {
    document.body.classList.add('embed');
    unmount = mountReplay(root, embedded[1], new URLSearchParams(location.search), { embed: true });
    redrawsItself = true;
    return;
  }
  const [first, second] = parts;
  /** @type {string | null} */
  let nav = 'lobby';
  if (first === 'table' && second) {
    // The table's game is known from its first `table` message: the shell then finds the game's board.
    unmount = mountTable(root, second, params);
    redrawsItself = true;
    nav = null;
  } else if (first === 'games' && second) {
    unmount = mountGame(root, second, params);
    nav = 'games';
  } else if (first === 'games') {
    unmount = mountGames(root, params);
    nav = 'games';
  } else if (first === 'replay' && second) {
    unmount = mountReplay(root, second, params);
    redrawsItself = true;
    nav = 'games';
  } else if (first === 'players' && second) {
    unmount = mountPlayer(root, second);
    nav = 'games';
  } else if (first === 'tournaments' && second) {
    unmount = mountTournament(root, second);
    nav = 'tournaments';
  } else if (first === 'tournaments') {
    unmount = mountTournaments(root);
    nav = 'tournaments';
  } else if (first === 'account') {
    unmount = mountAccount(root);
    nav = 'account';
  } else if (first === 'admin') {
    unmount = mountAdmin(root);
    nav = 'account';
  } else if (first === 'my-games') {
    unmount = mountMyGames(root);
    nav = 'mine';
  } else if (first === 'leaderboard') {
    unmount = mountLeaderboard(root, params);
    nav = 'leaderboard';
  } else if (first === 'help') {
    unmount = mountHelp(root, second ?? 'romi-rami', anchor);
    nav = 'help';
  } else {
    unmount = mountLobby(root);
  }
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (/** @type {HTMLElement} */ (a).dataset.nav === nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  showMenu(false);
  root.focus({ preventScroll: true });
  if (!anchor) window.scrollTo(0, 0);
}

// On a phone the links fold behind the menu button, so that the top bar is one row and a table's hand stays on
// the first screen; every page change folds them again.
const menuButton = /** @type {HTMLButtonElement} */ (document.getElementById('menu-toggle'));
/** @param {boolean} open */
function showMenu(open) {
  menuButton.setAttribute('aria-expanded', String(open));
  menuButton.closest('.topbar')?.classList.toggle('menu-open', open);
}
menuButton.addEventListener('click', () => showMenu(menuButton.getAttribute('aria-expanded') !== 'true'));

// The frame's words and the language switch.
const select = /** @type {HTMLSelectElement} */ (document.getElementById('lang-select'));
function frameWords() {
  document.title = waitingCount() > 0 ? `(${waitingCount()}) ${t('app.title')}` : t('app.title');
  for (const el of document.querySelectorAll('[data-i18n]'))
    el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n ?? '');
  document.querySelector('nav[aria-label]')?.setAttribute('aria-label', t('nav.main'));
  menuButton.setAttribute('aria-label', t('nav.menu'));
  select.setAttribute('aria-label', t('lang.label'));
  replace(
    select,
    LANGUAGES.map((l) => h('option', { value: l.code, selected: l.code === language(), lang: l.code }, l.name)),
  );
}
select.addEventListener('change', () => setLanguage(select.value));
onLanguage(() => {
  frameWords();
  if (!redrawsItself) route();
});
frameWords();

/** Why the server refused the connection, in the reader's language. */
function refusalWords() {
  if (connection.refusalCode !== 'banned') return t('conn.too_many');
  // "you are banned for N more minute(s): REASON" (the server's sentence): the minutes and the reason.
  const said = /banned for (\d+) more minute\(s\): ([\s\S]*)$/.exec(connection.refusal ?? '');
  return t('conn.banned', { minutes: said?.[1] ?? '?', reason: said?.[2] ?? '' });
}

// The connection banner: says when the connection is lost and when it is back.
const banner = /** @type {HTMLElement} */ (document.getElementById('conn'));
/** @type {ReturnType<typeof setTimeout> | undefined} */
let hideTimer;
let wasLost = false;
connection.on('status', ({ status, player }) => {
  const me = /** @type {HTMLElement} */ (document.getElementById('me'));
  // The name leads to the account page (devices, signing out, password, the player's data).
  if (player) {
    replace(
      me,
      h('span.dot', { 'aria-hidden': 'true' }),
      h('a.name', { href: '#/account', title: t('account.title') }, player.name),
    );
  }
  me.classList.toggle('offline', status !== 'open');
  clearTimeout(hideTimer);
  if (status !== 'open' && !navigator.onLine) {
    // No network at all (the page came from the service worker's cache, or the device lost it): say so
    // rather than "connection lost"; the page reconnects by itself when the browser says it is back.
    wasLost = true;
    banner.hidden = false;
    banner.className = 'conn lost offline';
    banner.textContent = t('conn.offline');
  } else if (status === 'reconnecting') {
    wasLost = true;
    banner.hidden = false;
    banner.className = 'conn lost';
    banner.textContent = t('conn.lost');
  } else if (status === 'refused') {
    wasLost = true;
    banner.hidden = false;
    banner.className = 'conn lost';
    banner.textContent =
      connection.refusalCode === 'banned' ? refusalWords() : t('conn.refused', { why: refusalWords() });
  } else if (status === 'open' && wasLost) {
    wasLost = false;
    banner.hidden = false;
    banner.className = 'conn back';
    banner.textContent = t('conn.back');
    hideTimer = setTimeout(() => {
      banner.hidden = true;
    }, 2500);
  } else if (status === 'open') {
    banner.hidden = true;
  }
});

window.addEventListener('offline', () => connection.setStatus(connection.status));
window.addEventListener('online', () => connection.reconnectNow());

// The service worker keeps the client's files for offline use and shows pushed notifications (docs/push.md).
if ('serviceWorker' in navigator && !embedded) {
  navigator.serviceWorker.register('/sw.js').catch(() => {});
}

// A click elsewhere (the top bar, a link) while seated at a game in play asks first: leaving the page keeps
// the seat, but the player's clock runs and the bot may take over.
let shownHash = location.hash;
let restoring = false;
window.addEventListener('hashchange', () => {
  if (restoring) {
    restoring = false;
    return;
  }
  const question = hook.page?.leaving?.();
  if (question && !window.confirm(question)) {
    restoring = true;
    location.hash = shownHash;
    return;
  }
  shownHash = location.hash;
  route();
});
window.addEventListener('beforeunload', (e) => {
  if (hook.page?.leaving?.()) e.preventDefault();
});
route();
// Greet the server on every page, so the top bar shows who is playing (pages that need a name ask); a replay
// framed on another site plays nothing and greets nobody.
if (!embedded) connection.ready().catch(() => {});
// The games waiting for the player's move, counted in the title and the app's badge on every page.
if (!embedded) watchMyTurns();
