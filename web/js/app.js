// The client's entry point: routes the URL's hash to a page (lobby, table, past games, game, player),
// shows the connection's state in a banner, and exposes a small read-only hook, window.__romirami,
// that the end-to-end test uses to ask what the page shows (it still plays by clicking).

import { connection } from './connection.js';
import { h, replace } from './dom.js';
import { mountLobby } from './lobby-page.js';
import { mountTable } from './table-page.js';
import { mountGames, mountGame, mountPlayer } from './results-page.js';

const root = document.getElementById('app');
let unmount = null;

export const hook = {
  page: null,
  status: () => connection.status,
  player: () => connection.player,
  drop: () => connection.drop(),
};
window.__romirami = hook;

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = raw.split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(query) };
}

function route() {
  unmount?.();
  unmount = null;
  hook.page = null;
  root.replaceChildren();
  const { parts, params } = parseHash();
  const [first, second] = parts;
  let nav = 'lobby';
  if (first === 'table' && second) {
    unmount = mountTable(root, second, params);
    nav = null;
  } else if (first === 'games' && second) {
    unmount = mountGame(root, second);
    nav = 'games';
  } else if (first === 'games') {
    unmount = mountGames(root, params);
    nav = 'games';
  } else if (first === 'players' && second) {
    unmount = mountPlayer(root, second);
    nav = 'games';
  } else {
    unmount = mountLobby(root, params);
  }
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (a.dataset.nav === nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  root.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

// The connection banner: says when the connection is lost and when it is back.
const banner = document.getElementById('conn');
let hideTimer = null;
let wasLost = false;
connection.on('status', ({ status, player }) => {
  const me = document.getElementById('me');
  if (player) replace(me, h('span.dot', { 'aria-hidden': 'true' }), player.name);
  me.classList.toggle('offline', status !== 'open');
  clearTimeout(hideTimer);
  if (status === 'reconnecting') {
    wasLost = true;
    banner.hidden = false;
    banner.className = 'conn lost';
    banner.textContent = 'Connection lost. Reconnecting…';
  } else if (status === 'refused') {
    wasLost = true;
    banner.hidden = false;
    banner.className = 'conn lost';
    banner.textContent = `${connection.refusal} Trying again in a few seconds…`;
  } else if (status === 'open' && wasLost) {
    wasLost = false;
    banner.hidden = false;
    banner.className = 'conn back';
    banner.textContent = 'Reconnected.';
    hideTimer = setTimeout(() => { banner.hidden = true; }, 2500);
  } else if (status === 'open') {
    banner.hidden = true;
  }
});

window.addEventListener('hashchange', route);
route();
// Greet the server on every page, so the top bar shows who is playing (pages that need a name ask).
connection.ready().catch(() => {});
