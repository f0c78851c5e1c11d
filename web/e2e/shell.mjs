// The table shell apart from any one game: a table whose game this client has no board for gets a page that
// says so, in the reader's language, never another game's board. No server game lacks a board, so the page's
// WebSocket is routed through the test, which renames the table's game in every `table` message. And a browser
// that floods the server is closed cleanly.

import { BASE, check, chooseName, desktop, hook, log, openPage } from './support.mjs';

async function noBoard(browser) {
  const page = await openPage(browser, desktop);
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const msg = JSON.parse(String(m));
      if (msg.type === 'table' && msg.table) msg.table.game = 'cribbage';
      ws.send(JSON.stringify(msg));
    });
  });
  await page.goto(`${BASE}/#/`);
  await chooseName(page, 'Ida');
  await page.waitForSelector('[data-testid=my-name]');
  await page.click('#create-table');
  await page.waitForSelector('.gone h1');
  const shown = async () => ({
    title: await page.textContent('.gone h1'),
    text: await page.textContent('.gone p'),
    boards: await page.locator('.game, .board, .meld-board, .waiting').count(),
  });
  const en = await shown();
  check(/cannot be shown/.test(en.title) && /cribbage/.test(en.text), `a game without a board says so: ${en.text}`);
  check(en.boards === 0, 'a game without a board is drawn with no board and no waiting room');
  check((await hook(page, () => window.__romirami.page.board())) === null, 'no board was mounted');
  await page.selectOption('#lang-select', 'fr');
  const fr = await shown();
  check(/affiché/.test(fr.title) && /cribbage/.test(fr.text), `in French: ${fr.text}`);
  await page.selectOption('#lang-select', 'it');
  const it = await shown();
  check(/mostrare/.test(it.title) && /cribbage/.test(it.text), `in Italian: ${it.text}`);
  await page.selectOption('#lang-select', 'en');
  // The lookup itself: one function, a board or nothing.
  const lookup = await hook(page, async () => {
    const { boardFor } = await import('/js/games/index.js');
    return {
      unknown: boardFor('cribbage'),
      proto: boardFor('__proto__'),
      shared: boardFor('rommi') === boardFor('rumino') && boardFor('rami') === boardFor('rommi'),
      own: boardFor('romi-rami') !== boardFor('rommi'),
    };
  });
  check(lookup.unknown === null && lookup.proto === null, 'an unknown game has no board');
  check(lookup.shared && lookup.own, 'the rummy family shares one board, Romi Rami has its own');
  log('a game without a board is told so (en, fr, it)');
  await page.context().close();
}

/**
 * A browser that floods the server with 400 bad frames at once is closed with 1008 after the error replies to
 * the frames before its close, and sees the close frame (not a reset, 1006): the server reads on after its close
 * frame until the client answers it.
 */
async function flood(browser) {
  const page = await openPage(browser, desktop);
  await page.goto(`${BASE}/#/`);
  const seen = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws`);
        const got = { welcome: false, errors: 0, code: 0, reason: '' };
        ws.onopen = () => {
          ws.send(JSON.stringify({ type: 'hello', protocol: 1, name: 'Flood' }));
          for (let i = 0; i < 400; i++) ws.send('{');
        };
        ws.onmessage = (e) => {
          const msg = JSON.parse(e.data);
          if (msg.type === 'welcome') got.welcome = true;
          if (msg.type === 'error' && msg.code === 'malformed') got.errors += 1;
        };
        ws.onclose = (e) => resolve({ ...got, code: e.code, reason: e.reason });
      }),
  );
  check(
    seen.code === 1008 && seen.reason === 'too many bad messages',
    `a flood is closed with 1008: ${JSON.stringify(seen)}`,
  );
  check(seen.welcome && seen.errors >= 20, `the replies before the close arrive: ${JSON.stringify(seen)}`);
  log(`a flooding browser: ${seen.errors} errors, then close ${seen.code}`);
  await page.context().close();
}

export async function shell(browser) {
  await noBoard(browser);
  await flood(browser);
}
