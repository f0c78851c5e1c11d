// Accounts people control: Kai plays a game against a bot from the lobby and leaves it (it ends, abandoned),
// keeps his name and signs in from his phone; the account page (reached from his name in the top bar) lists
// both devices; "Sign out everywhere" signs out both browsers, the phone told so at once. He signs in again
// and deletes his account: his past game shows "deleted player" (in the reader's language), and his name is
// anybody's again.

import { BASE, check, chooseName, desktop, log, openPage, phone, shot, timeLeft } from './support.mjs';

const NAME = 'Kai';
const PASSWORD = 'kites over the bay';

// Signs `page` in as Kai from the lobby's form.
async function signIn(page) {
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('#account-status[data-state="none"]');
  await page.fill('#signin-name', NAME);
  await page.fill('#signin-password', PASSWORD);
  await page.click('#signin-submit');
  await page.waitForSelector('#account-status[data-state="claimed"]');
}

// A finished game of Kai's: "Play against a bot", left at once (a game with no player left ends, abandoned).
async function finishedGame(kai) {
  await kai.waitForSelector('#play-bot:not([disabled])');
  await kai.selectOption('#bot-game', 'romi-rami');
  await kai.selectOption('#bot-count', '1');
  await kai.click('#play-bot');
  await kai.waitForSelector('.board');
  const tableId = kai.url().match(/#\/table\/([0-9a-f-]+)/)[1];
  // On his turn, when the bot's moves do not redraw the page under his clicks.
  await kai.waitForFunction(() => window.__romirami.page.legal() != null, null, {
    timeout: Math.min(20000, timeLeft()),
  });
  await kai.click('details.leave summary');
  await kai.click('#leave-game');
  await kai.waitForFunction(() => location.hash === '#/');
  // Stored in the background once over.
  for (let attempt = 0; ; attempt += 1) {
    const status = await kai.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.status), tableId);
    if (status === 200) break;
    check(attempt < 40, `the game left is stored: ${status}`);
    await kai.waitForTimeout(250);
  }
  return tableId;
}

export async function accounts(browser) {
  const kai = await openPage(browser, desktop);
  await kai.goto(`${BASE}/#/`);
  await chooseName(kai, NAME);
  await kai.waitForSelector('[data-testid=my-name]');
  const tableId = await finishedGame(kai);
  await kai.waitForSelector('#account-status[data-state="guest"]');
  await kai.fill('#claim-password', PASSWORD);
  await kai.fill('#claim-password-again', PASSWORD);
  await kai.click('#claim-submit');
  await kai.waitForSelector('#account-status[data-state="claimed"]');

  // His phone signs in too; the account page, from his name in the top bar, lists both.
  const kaiPhone = await openPage(browser, phone);
  await signIn(kaiPhone);
  await kai.click('#me a.name');
  await kai.waitForSelector('#devices li[data-current="false"]');
  const devices = await kai.$$eval('#devices li', (items) => items.map((li) => li.getAttribute('data-current')));
  check(devices.length === 2 && devices.filter((c) => c === 'true').length === 1, `two devices: ${devices}`);
  await shot(kai, 'account');
  await kaiPhone.goto(`${BASE}/#/account`);
  await kaiPhone.waitForSelector('#devices li');
  await shot(kaiPhone, 'account-phone');
  log('accounts: the account page lists both devices');

  // Signing out everywhere: both browsers are signed out, the phone told so by the server at once.
  await kai.click('#sign-out-everywhere');
  for (const page of [kai, kaiPhone]) {
    await page.waitForSelector('#signed-out', { timeout: Math.min(20000, timeLeft()) });
    await page.waitForSelector('#account-status[data-state="none"]');
    const kept = await page.evaluate(() => localStorage.getItem('romirami.identity'));
    check(kept == null, `the browser forgot the player: ${kept}`);
  }
  log('accounts: signed out everywhere, the other browser too');
  await kaiPhone.context().close();

  // Deleting the account: the password is asked; then his game shows "deleted player", in each language.
  await signIn(kai);
  await kai.goto(`${BASE}/#/account`);
  await kai.waitForSelector('#delete-account');
  kai.once('dialog', (dialog) => dialog.accept());
  await kai.fill('#delete-password', 'not my password');
  await kai.click('#delete-account');
  await kai.waitForSelector('.account-delete .error:has-text("Wrong password")');
  // The connection hears `signed_out` before the page hears its DELETE's answer (held back here until then,
  // as happens by chance on a busy machine): the notice must still say why.
  let heard = () => {};
  const signedOutHeard = new Promise((resolve) => (heard = resolve));
  kai.on('websocket', (ws) =>
    ws.on('framereceived', (frame) => String(frame.payload).includes('"signed_out"') && heard()),
  );
  await kai.reload();
  await kai.waitForSelector('#delete-account');
  await kai.route('**/api/players/me', async (route) => {
    if (route.request().method() !== 'DELETE') return route.continue();
    const answer = await route.fetch();
    await signedOutHeard;
    await route.fulfill({ response: answer });
  });
  kai.once('dialog', (dialog) => dialog.accept());
  await kai.fill('#delete-password', PASSWORD);
  await kai.click('#delete-account');
  await kai.waitForSelector('#signed-out');
  check(/deleted/.test(await kai.textContent('#signed-out')), 'the lobby says the account is deleted');
  await kai.goto(`${BASE}/#/games/${tableId}`);
  await kai.waitForSelector('#game-title');
  const shown = await kai.textContent('.game-page');
  check(shown.includes('deleted player') && !shown.includes(NAME), `the game shows "deleted player": ${shown}`);
  await kai.selectOption('#lang-select', 'fr');
  await kai.waitForFunction(() => document.querySelector('.game-page')?.textContent?.includes('joueur supprimé'));
  await kai.selectOption('#lang-select', 'en');
  log('accounts: the deleted account shows as "deleted player" in its past game');

  // The name is free again.
  await kai.goto(`${BASE}/#/`);
  await chooseName(kai, NAME);
  await kai.waitForSelector('#account-status[data-state="guest"]');
  await kai.context().close();
  log('accounts: the name is anybody’s again');
}
