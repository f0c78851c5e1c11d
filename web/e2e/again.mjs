// Playing together, start to end: two named players meet at a rated two-seat table
// through its invite link while a third watches; they chat during the game (the spectator's words stay with
// the spectators while it is in play) and finish it by clicking the page's controls; the end screen shows
// each player's rating change. Both press "Play again": the second game starts at a new table that every page
// follows, its deal made afresh, and the old invite link leads there. The game's
// leaderboard lists them both. Then one of them keeps his name with a password, and a fresh browser signs in
// with it and sees his page: his finished game and his rating.

import { BASE, check, chooseName, desktop, hook, log, openPage, shot, timeLeft } from './support.mjs';
import { pageState, playByClicks } from './moves.mjs';

// Names of their own, so that no other scenario's players share their leaderboard rows.
const HOST = 'Greta';
const GUEST = 'Hugo';
const WATCHER = 'Ivo';

const chatOf = (page) => hook(page, () => window.__romirami.page.chat());

// Waits until the page's chat shows `line` (`Name: text`).
async function chatShows(page, line, what) {
  const ok = await page
    .waitForFunction((l) => window.__romirami.page.chat().includes(l), line, { timeout: Math.min(20000, timeLeft()) })
    .then(
      () => true,
      () => false,
    );
  check(ok, `${what}: the chat shows “${line}”\n${(await chatOf(page)).join('\n')}`);
}

// Types a message into the chat and sends it with its button.
async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
}

// The player id this browser was given (the identity the page keeps in localStorage).
const playerId = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('romirami.identity') ?? '{}').id);

// The name of the player whose turn it is (the first to act, right after a game starts).
const toAct = (page) =>
  hook(page, () => {
    const p = window.__romirami.page;
    return p.summary().seats[p.view().phase.seat].name;
  });

// Two players and a spectator play one rated game to its end; returns their pages and the table.
async function firstGame(browser) {
  const [greta, hugo, ivo] = await Promise.all([0, 1, 2].map(() => openPage(browser, desktop)));
  await sayToPage(hugo);

  // Greta names herself and creates a private two-seat table, rated (the form's default), that people
  // with the link may watch.
  await greta.goto(`${BASE}/#/`);
  await chooseName(greta, HOST);
  await greta.waitForSelector('[data-testid=my-name]');
  check((await greta.inputValue('#opt-rated')) === 'true', 'a new table is rated unless chosen otherwise');
  await greta.selectOption('#opt-game', 'romi-rami');
  await greta.selectOption('#opt-seats', '2');
  await greta.selectOption('#opt-rated', 'true');
  await greta.selectOption('#opt-public', 'false');
  await greta.selectOption('#opt-spectators', 'link');
  await greta.selectOption('#opt-clock', 'none');
  await greta.click('#create-table');
  await greta.waitForSelector('#invite-link');
  const link = await greta.inputValue('#invite-link');
  const tableId = link.match(/#\/table\/([0-9a-f-]+)/)[1];

  // Hugo follows the link and names himself: that seats him, and the full two-seat table starts at once,
  // so the signal that he is seated is the board (the waiting room may never be drawn on his page).
  await hugo.goto(link);
  await chooseName(hugo, GUEST);
  for (const p of [greta, hugo]) await p.waitForSelector('.board');
  await ivo.goto(`${link}&watch=1`);
  await chooseName(ivo, WATCHER);
  await ivo.waitForSelector('.board');
  const [gretaRole, hugoRole, ivoRole] = await Promise.all([greta, hugo, ivo].map((p) => pageState(p)));
  check(
    gretaRole.role.seat != null && hugoRole.role.seat != null && gretaRole.role.seat !== hugoRole.role.seat,
    `${HOST} and ${GUEST} have a seat each: ${JSON.stringify([gretaRole.role, hugoRole.role])}`,
  );
  check(ivoRole.role === 'spectator', `${WATCHER} watches: ${JSON.stringify(ivoRole.role)}`);
  const firstToAct = await toAct(greta);
  log(`again: table ${tableId} in play, ${firstToAct} first, ${WATCHER} watching`);

  // They talk before the first move and during the game; the spectator's words stay with the spectators.
  await say(greta, `Good luck, ${GUEST}!`);
  for (const p of [greta, hugo, ivo]) await chatShows(p, `${HOST}: Good luck, ${GUEST}!`, 'everyone reads the players');
  let talked = false;
  const seats = new Map([
    [gretaRole.role.seat, greta],
    [hugoRole.role.seat, hugo],
  ]);
  const moves = await playByClicks(seats, [ivo], async (n) => {
    if (talked || n < 6) return;
    talked = true;
    await say(ivo, `${HOST} is ahead`);
    await chatShows(ivo, `${WATCHER}: ${HOST} is ahead`, 'the spectator reads his own message');
    await say(hugo, 'not for long');
    for (const p of [greta, ivo]) await chatShows(p, `${GUEST}: not for long`, 'a player is read mid-game');
    // The server sends in order: had the spectator's message reached a player, it would have come first.
    for (const p of [greta, hugo]) {
      const lines = await chatOf(p);
      check(
        !lines.some((l) => l.startsWith(`${WATCHER}:`)),
        `the spectators' chat stays apart while the game is on: ${lines.join(' | ')}`,
      );
    }
    log('again: the players chatted mid-game, the spectator apart');
  });
  check(talked, `the game lasted long enough to chat during it (${moves} moves)`);
  log(`again: game over after ${moves} moves`);

  // The end screen, on every page, shows both players' rating changes once the game is stored.
  const result = (await pageState(greta)).view.result;
  check(result.ended_by !== 'abandoned', `the game ended normally: ${result.ended_by}`);
  for (const p of [greta, hugo, ivo]) {
    await p.waitForSelector('#end-title');
    await p.waitForSelector('[data-testid=rating-changes] li', { timeout: Math.min(20000, timeLeft()) });
    const changes = await p.$$eval('[data-testid=rating-changes] li', (items) =>
      items.map((li) => ({
        name: li.querySelector('.name').textContent,
        delta: li.querySelector('.delta').textContent,
        up: li.classList.contains('up'),
      })),
    );
    check(
      changes.length === 2 && [HOST, GUEST].every((name) => changes.some((c) => c.name === name)),
      `the end screen lists both players' rating changes: ${JSON.stringify(changes)}`,
    );
    check(
      changes.every((c) => /^(\+|−|±)\d/.test(c.delta)),
      `each change is shown as a signed number: ${JSON.stringify(changes)}`,
    );
    if (result.winners.length === 1) {
      const winner = seats.get(result.winners[0]) === greta ? HOST : GUEST;
      check(
        changes
          .filter((c) => c.up)
          .map((c) => c.name)
          .join() === winner,
        `${winner} won: their rating rose, and only theirs: ${JSON.stringify(changes)}`,
      );
    }
  }
  log('again: the end screen shows the rating changes');
  return { greta, hugo, ivo, link, tableId, firstToAct };
}

/** What the test tells a page as if the server said it (`sayToPage`), per page. */
const toPage = new Map();

// Routes the page's WebSocket through the test, unchanged, so that the test can add a message of the server's
// (the rematch offer's time running out, which takes the server a minute).
async function sayToPage(page) {
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => ws.send(m));
    toPage.set(page, (msg) => ws.send(JSON.stringify(msg)));
  });
}

// The offer's time runs out for Hugo (as the server tells every member): his end screen says so, in each
// language, and lets him offer again; his offer is the server's open one, which Greta then sees him accept.
async function offerAgain({ greta, hugo, ivo, tableId }) {
  toPage.get(hugo)({ type: 'rematch_closed', table: tableId, reason: 'timed_out' });
  await hugo.waitForSelector('#rematch[data-state="closed"] #rematch-offer');
  check((await hugo.locator('#rematch-accept').count()) === 0, 'no "Play again" once the offer closed');
  const said = {};
  for (const lang of ['it', 'fr', 'en']) {
    await hugo.selectOption('#lang-select', lang);
    await hugo.waitForFunction((l) => document.documentElement.lang === l, lang);
    said[lang] = [await hugo.textContent('#rematch-status'), await hugo.textContent('#rematch-offer')];
  }
  check(
    /ran out/.test(said.en[0]) && /écoulé/.test(said.fr[0]) && /scaduto/.test(said.it[0]),
    `the end screen says the time to answer ran out: ${JSON.stringify(said)}`,
  );
  check(
    said.en[1] === 'Offer to play again' && /rejouer/.test(said.fr[1]) && /ancora/.test(said.it[1]),
    `and offers to play again: ${JSON.stringify(said)}`,
  );
  await hugo.click('#rematch-offer');
  for (const p of [greta, hugo, ivo])
    await p.waitForSelector(`#rematch[data-state="open"] #rematch-status:has-text("${GUEST}")`);
  await hugo.waitForSelector('#rematch-decline');
  log(
    `again: the offer timed out for ${GUEST}, who offered again: ${(await greta.textContent('#rematch-status')).trim()}`,
  );
}

// Both players press "Play again" on the end screen: the second game starts at a new table that every page,
// the spectator's too, moves to; its deal made afresh, and the old invite link leads to the
// new game.
async function playAgain({ greta, hugo, ivo, link, tableId, firstToAct }) {
  for (const p of [greta, hugo]) await p.waitForSelector('#rematch-accept:not([disabled])');
  check((await ivo.locator('#rematch-accept').count()) === 0, 'a spectator has no "Play again"');
  await offerAgain({ greta, hugo, ivo, tableId });
  await shot(greta, 'rematch');
  await greta.click('#rematch-accept');

  // Every page moves on to the new table, where the game is on.
  const moved = (page) =>
    page.waitForFunction(
      (old) => /^#\/table\/[0-9a-f-]+/.test(location.hash) && !location.hash.includes(old),
      tableId,
      { timeout: Math.min(20000, timeLeft()) },
    );
  for (const p of [greta, hugo, ivo]) {
    await moved(p);
    await p.waitForSelector('.board');
  }
  const newId = greta.url().match(/#\/table\/([0-9a-f-]+)/)[1];
  const states = await Promise.all([greta, hugo, ivo].map(pageState));
  check(
    [hugo, ivo].every((p) => p.url().includes(newId)),
    `every page is at the new table ${newId}: ${[hugo, ivo].map((p) => p.url())}`,
  );
  check(
    states.every((s) => !s.over) && states[0].role.seat != null && states[1].role.seat != null,
    `${HOST} and ${GUEST} are seated in a game in play: ${JSON.stringify(states.map((s) => s.role))}`,
  );
  check(states[2].role === 'spectator', `${WATCHER} watches the new game: ${JSON.stringify(states[2].role)}`);
  // Who begins is drawn by the new deal, the players' contributions in it, as every rule book draws it.
  const second = await toAct(greta);
  log(`again: the second game is on at ${newId}, ${second} first (${firstToAct} began the first)`);

  // The old invite link leads to the new game: Greta's seat in another tab, the spectator's watch.
  const gretaTab = await greta.context().newPage();
  await gretaTab.goto(link);
  await moved(gretaTab);
  await gretaTab.waitForSelector('.board');
  check(gretaTab.url().includes(newId), `the old link leads ${HOST} to the new game: ${gretaTab.url()}`);
  check((await pageState(gretaTab)).role.seat === states[0].role.seat, `${HOST} has her seat there`);
  await gretaTab.close();
  const ivoTab = await ivo.context().newPage();
  await ivoTab.goto(`${link}&watch=1`);
  await moved(ivoTab);
  await ivoTab.waitForSelector('.board');
  check(ivoTab.url().includes(newId), `the old link leads the spectator to the new game: ${ivoTab.url()}`);
  await ivoTab.close();
  log('again: the old invite link leads to the new game');
}

// The game's leaderboard lists both players (the e2e server counts a single rated game for it).
async function leaderboardLists(page, ids) {
  await page.goto(`${BASE}/#/leaderboard?game=romi-rami`);
  for (const id of ids) await page.waitForSelector(`table.standings tr[data-player="${id}"]`);
  const names = await hook(page, () => window.__romirami.page.names());
  check(
    [HOST, GUEST].every((name) => names.includes(name)),
    `the leaderboard lists ${HOST} and ${GUEST}: ${names.join(', ')}`,
  );
  // A table drawn as a table: the rows under the header, not beside it.
  const layout = await page.evaluate(() => {
    const box = (sel) => document.querySelector(sel).getBoundingClientRect();
    return { head: box('table.standings thead'), row: box('table.standings tbody tr') };
  });
  check(
    layout.row.top >= layout.head.bottom - 1 && layout.row.left <= layout.head.left + 1,
    `the leaderboard's rows are under its header: ${JSON.stringify(layout)}`,
  );
  await shot(page, 'leaderboard');
  log(`again: the leaderboard lists ${names.join(', ')}`);
}

// The player's page shows their history: the finished game among their recent games, and their rating.
async function seesHistory(page, id, name, tableId) {
  await page.goto(`${BASE}/#/players/${id}`);
  await page.waitForSelector(`.player-page li.game-row[data-game="${tableId}"]`);
  const title = await page.textContent('.player-page h1');
  check(title.startsWith(name), `the page is ${name}'s: ${title}`);
  await page.waitForSelector('.player-page .player-ratings li[data-game="romi-rami"] .rating');
  // The figures are per game (scores of different games do not compare): a row for Romi Rami, with its games,
  // wins and average score, and no average over every game.
  const rows = await page.$$eval('.player-page table.player-games tbody tr', (trs) =>
    trs.map((r) => ({ game: r.getAttribute('data-game'), cells: [...r.children].map((c) => c.textContent) })),
  );
  const romi = rows.find((r) => r.game === 'romi-rami');
  check(
    romi && Number(romi.cells[1]) >= 1 && /\d/.test(romi.cells[3] ?? ''),
    `${name}'s page shows their figures per game: ${JSON.stringify(rows)}`,
  );
  const overall = await page.$$eval('.player-page dl.stats dt', (dts) => dts.map((d) => d.textContent));
  check(!overall.includes('Average score'), `no average score over every game: ${overall}`);
  log(`again: ${name}'s page shows the finished game, the Romi Rami rating and the figures per game`);
}

// Hugo keeps his name with a password; a fresh browser signs in with it and is Hugo there: the same player,
// with his finished game and his rating.
async function keepsName(browser, hugo, id, tableId) {
  const password = 'a long walk home';
  // Hugo leaves his second game, still in play, for the lobby: the page asks first, and he says yes.
  hugo.once('dialog', (dialog) => dialog.accept());
  await hugo.goto(`${BASE}/#/`);
  await hugo.waitForSelector('#account-status[data-state="guest"]');
  await hugo.fill('#claim-password', password);
  await hugo.fill('#claim-password-again', password);
  await hugo.click('#claim-submit');
  await hugo.waitForSelector('#account-status[data-state="claimed"]');
  log(`again: ${GUEST} keeps his name`);

  const elsewhere = await openPage(browser, desktop);
  await elsewhere.goto(`${BASE}/#/`);
  await elsewhere.waitForSelector('#account-status[data-state="none"]');
  await elsewhere.fill('#signin-name', GUEST);
  await elsewhere.fill('#signin-password', password);
  await elsewhere.click('#signin-submit');
  await elsewhere.waitForSelector('#account-status[data-state="claimed"]');
  check((await elsewhere.textContent('[data-testid=my-name]')) === GUEST, `the fresh browser is ${GUEST}'s`);
  check((await playerId(elsewhere)) === id, `signing in gives the same player: ${id}`);
  await shot(elsewhere, 'signed-in');
  await seesHistory(elsewhere, id, GUEST, tableId);
  check(
    (await elsewhere.locator('.player-page h1 .badge.claimed').count()) === 1,
    `${GUEST}'s page says he keeps his name`,
  );
  await elsewhere.context().close();
}

export async function again(browser) {
  const first = await firstGame(browser);
  const { greta, hugo, ivo, tableId } = first;
  await playAgain(first);
  const ids = await Promise.all([greta, hugo].map(playerId));
  await leaderboardLists(ivo, ids);
  await keepsName(browser, hugo, ids[1], tableId);
  for (const p of [greta, hugo, ivo]) await p.context().close();
}
