// The site as an app people install and come back to (docs/push.md): the web app manifest and its icons;
// the service worker installs and keeps the client's files, so that the page opens with no network, says
// it is offline, and reconnects by itself when the network is back; turn notifications are turned on from
// "My games" (Chromium's own push service is out of reach here: only `pushManager.subscribe`'s answer is
// stubbed, with a real P-256 key, and the server takes the subscription as it would any other); and a
// turn-based game (a day a turn) is played from "My games": each player finds the table there when it is
// theirs to play, opens it, plays their turn by clicks and goes back, two turns in all, on a desktop and a
// phone.

import { BASE, check, chooseName, desktop, log, openPage, phone, shot, timeLeft } from './support.mjs';
import { choose, pageState, perform, settled } from './moves.mjs';

// Names of their own, so that no other scenario's players share their rows.
const HOST = 'Jana';
const GUEST = 'Kofi';

/** Replaces the browser's push subscription with one the test makes: a real P-256 key and secret, a push
 * service's endpoint (the server never reaches it here). */
async function stubPushSubscribe(page) {
  await page.evaluate(async () => {
    const keys = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const raw = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey));
    const b64url = (bytes) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
    const auth = crypto.getRandomValues(new Uint8Array(16));
    const endpoint = `https://fcm.googleapis.com/fcm/send/e2e-${crypto.randomUUID()}`;
    const json = { endpoint, expirationTime: null, keys: { p256dh: b64url(raw), auth: b64url(auth) } };
    const subscription = { endpoint, toJSON: () => json, unsubscribe: async () => true };
    window.__e2ePushSubscribed = null;
    PushManager.prototype.subscribe = async function (options) {
      window.__e2ePushSubscribed = options.applicationServerKey.byteLength;
      return subscription;
    };
  });
}

/** Plays the turn of the page's seat by clicks, move after move, until the turn is the other seat's. */
async function playOneTurn(page) {
  const seat = (await pageState(page)).role.seat;
  let moves = 0;
  for (;;) {
    await page.waitForFunction(
      (mine) => {
        const p = window.__romirami.page;
        return p.legal() != null || p.result() != null || (p.view() && p.view().phase.seat !== mine);
      },
      seat,
      { timeout: Math.min(20000, timeLeft()) },
    );
    let state = await pageState(page);
    if (state.over || state.view.phase.seat !== seat) return moves;
    const action = choose(state.legal);
    await perform(page, action);
    state = await settled(page, state.n);
    check(!state.error, `the server accepted ${JSON.stringify(action)}: ${state.error}`);
    moves += 1;
  }
}

export async function install(browser) {
  const jana = await openPage(browser, desktop);
  await jana.context().grantPermissions(['notifications'], { origin: BASE });
  await jana.goto(`${BASE}/#/`);
  await chooseName(jana, HOST);
  await jana.waitForSelector('[data-testid=my-name]');

  // The manifest: linked from the page, standalone, with its two icons served as PNG.
  const manifest = await jana.evaluate(async () => {
    const link = /** @type {HTMLLinkElement} */ (document.querySelector('link[rel=manifest]'));
    const m = await (await fetch(link.href)).json();
    const icons = await Promise.all(
      m.icons.map(async (i) => {
        const r = await fetch(i.src);
        return { sizes: i.sizes, ok: r.ok, type: r.headers.get('content-type') };
      }),
    );
    return { ...m, icons };
  });
  check(
    manifest.display === 'standalone' &&
      manifest.short_name &&
      manifest.start_url &&
      manifest.theme_color &&
      ['192x192', '512x512'].every((s) => manifest.icons.some((i) => i.sizes === s && i.ok && i.type === 'image/png')),
    `the manifest makes an installable app: ${JSON.stringify(manifest)}`,
  );

  // The service worker installs and takes the page; it keeps the client's files.
  await jana.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await jana.reload();
  await jana.waitForFunction(() => navigator.serviceWorker.controller != null, null, { timeout: 20000 });
  const cached = await jana.evaluate(async () => (await caches.keys()).length);
  check(cached === 1, `the service worker keeps one cache of the client's files: ${cached}`);

  // No network: the page opens from the cache and says it is offline; with the network back, it
  // reconnects by itself.
  await jana.context().setOffline(true);
  await jana.reload();
  await jana.waitForSelector('#conn.offline:not([hidden])', { timeout: 20000 });
  const notice = (await jana.textContent('#conn')) ?? '';
  check(/offline/i.test(notice), `the page says it is offline: “${notice}”`);
  check(await jana.isVisible('#app'), 'the page itself is there, from the cache');
  await shot(jana, 'offline');
  await jana.context().setOffline(false);
  await jana.waitForFunction(() => window.__romirami.status() === 'open', null, { timeout: 30000 });
  log('install: the page opened offline with its notice and reconnected by itself');

  // Turn notifications on, from My games.
  await jana.click('a[data-nav=mine]');
  await jana.waitForSelector('#push-toggle');
  await stubPushSubscribe(jana);
  await jana.check('#push-toggle');
  await jana.waitForFunction(
    () => document.querySelector('#push-status')?.textContent === 'Notifications are on for this device.',
    null,
    { timeout: 20000 },
  );
  const keyBytes = await jana.evaluate(() => window.__e2ePushSubscribed);
  check(keyBytes === 65, `the browser was asked to subscribe with the server's VAPID key: ${keyBytes} bytes`);
  log('install: notifications are on for this device (the server kept the subscription)');

  // A turn-based game: Jana opens a private two-seat table with a day a turn; Kofi joins on his phone.
  await jana.goto(`${BASE}/#/`);
  await jana.selectOption('#opt-game', 'romi-rami');
  await jana.selectOption('#opt-seats', '2');
  await jana.selectOption('#opt-public', 'false');
  await jana.selectOption('#opt-rated', 'false');
  await jana.selectOption('#opt-clock', 'daily');
  check(await jana.isVisible('.turn-based-help'), 'the form says what a turn-based table is');
  await jana.click('#create-table');
  await jana.waitForSelector('#invite-link');
  const link = await jana.inputValue('#invite-link');
  const tableId = link.match(/#\/table\/([0-9a-f-]+)/)[1];
  const kofi = await openPage(browser, phone);
  await kofi.goto(link);
  await chooseName(kofi, GUEST);
  for (const p of [jana, kofi]) await p.waitForSelector('.board');

  // Two turns, each played from My games: both go there; the one whose turn it is finds the table marked
  // as theirs, opens it and plays.
  // (A page that shows My games already reads it again when loaded anew; else every 30 s.)
  const toMyGames = async (p) => {
    if (p.url().endsWith('#/my-games')) await p.reload();
    else await p.goto(`${BASE}/#/my-games`);
  };
  // On the phone the top bar is one row; its links unfold from the menu button, and fold again on the next page.
  const bar = await kofi.evaluate(() => ({
    height: document.querySelector('.topbar')?.getBoundingClientRect().height ?? 0,
    links: [...document.querySelectorAll('.topbar nav a')].filter((a) => a.getClientRects().length > 0).length,
  }));
  check(
    bar.height <= 64 && bar.links === 0,
    `the phone's top bar is one row, its links folded: ${JSON.stringify(bar)}`,
  );
  await kofi.click('#menu-toggle');
  await kofi.click('nav a[data-nav="mine"]');
  await kofi.waitForFunction(() => location.hash === '#/my-games');
  const folded = await kofi.getAttribute('#menu-toggle', 'aria-expanded');
  check(folded === 'false', `the menu folds on the next page: aria-expanded=${folded}`);
  log('install: the phone reached My games through the menu button');
  for (let turn = 1; turn <= 2; turn += 1) {
    for (const p of [jana, kofi]) await toMyGames(p);
    const mine = `li.my-table[data-table="${tableId}"]`;
    for (const p of [jana, kofi]) await p.waitForSelector(mine, { timeout: 20000 });
    const marked = await Promise.all(
      [jana, kofi].map((p) => p.getAttribute(mine, 'data-your-turn').then((v) => v === 'true')),
    );
    const lists = await Promise.all([jana, kofi].map((p) => p.textContent('#my-tables')));
    check(marked.filter(Boolean).length === 1, `exactly one of them has the turn: ${marked} ${JSON.stringify(lists)}`);
    const [mover, other] = marked[0] ? [jana, kofi] : [kofi, jana];
    const otherText = (await other.textContent(mine)) ?? '';
    check(!/Your turn/.test(otherText), `the other one waits: “${otherText}”`);
    if (turn === 1) await shot(mover, 'my-games');
    await mover.click(`${mine} a`);
    await mover.waitForSelector('.board');
    const moves = await playOneTurn(mover);
    check(moves > 0, 'a turn was played');
    log(`install: turn ${turn} played from My games (${moves} moves, ${mover === jana ? HOST : GUEST})`);
  }
  // The title counts the games waiting for the player's move.
  for (const p of [jana, kofi]) await toMyGames(p);
  await Promise.race(
    [jana, kofi].map((p) => p.waitForFunction(() => /^\(1\) /.test(document.title), null, { timeout: 40000 })),
  );
  for (const p of [jana, kofi]) await p.context().close();
}
