// What a finished game of Romi Rami offers, seen from the `players` scenario: its page with the result and
// the record to download, the shuffle checked in the browser, the replay stepped with buttons, keys and a
// link, and the past-results list filtered by player.

import { BASE, check, hook, log, openGamePage, shot } from './support.mjs';

/** Follows Ana's page, at the end screen of the game of table `tableId`, through the finished game's pages. */
export async function finishedGame(ana, tableId) {
  // The game's page (REST): result and a record to download.
  await openGamePage(ana);
  const href = await ana.getAttribute('#download-record', 'href');
  const record = await hook(ana, (url) => fetch(url).then((r) => r.json()), href);
  check(record.format === 'romirami-record/1', `the record downloads (${record.format})`);
  // The shuffle, checked in the browser: the record's seed and salt give the commitment Ana's page was sent
  // when the game started; and the browser's SHA-256 gives the test vector of docs/rules/record-format.md.
  await ana.waitForSelector('#shuffle-check[data-status]');
  const shuffle = await ana.textContent('#shuffle-check');
  check(
    (await ana.getAttribute('#shuffle-check', 'data-status')) === 'verified',
    `the shuffle is verified: ${shuffle}`,
  );
  check(/received that commitment/.test(shuffle), `Ana's browser was sent the same commitment: ${shuffle}`);
  // Her browser contributed to the deal (Web Crypto's random bytes): the record holds her value, and the seed
  // is the one derived from the server's seed, the salt and every seat's contribution.
  check(
    (await ana.getAttribute('#shuffle-check', 'data-mine')) === 'in' && /own contribution/.test(shuffle),
    `Ana's own contribution is in the record: ${shuffle}`,
  );
  check(record.contributions?.length === record.players.length, `one contribution a seat: ${record.contributions}`);
  const vector = await hook(ana, () =>
    import('/js/shuffle-proof.js').then((m) =>
      m.commitmentOf(
        '1234567890123456789',
        Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join(''),
      ),
    ),
  );
  check(vector === '8172b88cfc15a4642043f9a7e644221bd959cd1057625a00a13e07b037182384', `the test vector: ${vector}`);
  const derived = await hook(ana, () =>
    import('/js/shuffle-proof.js').then((m) =>
      m.derivedSeed(
        '1234567890123456789',
        Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join(''),
        ['11'.repeat(32), '22'.repeat(32)],
      ),
    ),
  );
  check(derived === '14750675990998364322', `the derivation's test vector: ${derived}`);
  const changed = await hook(
    ana,
    (r) =>
      import('/js/shuffle-proof.js').then((m) =>
        m.checkShuffle({ ...r, contributions: r.contributions.map((c, i) => (i === 0 ? 'ab'.repeat(32) : c)) }),
      ),
    record,
  );
  check(
    changed.status === 'mismatch',
    `a record with another contribution does not check out: ${JSON.stringify(changed)}`,
  );
  const forged = await hook(
    ana,
    (r) => import('/js/shuffle-proof.js').then((m) => m.checkShuffle({ ...r, seed: '1' })),
    record,
  );
  check(forged.status === 'mismatch', `a record with another seed does not check out: ${JSON.stringify(forged)}`);
  await shot(ana, 'game-page');

  // The replay: stepped with its buttons and keys, every hand shown, a link opens a given move, and
  // its last step adds up to the game's result.
  await ana.click('#replay-link');
  await ana.waitForSelector('#replay-at');
  const steps = await hook(ana, () => window.__romirami.page.steps());
  check(steps === record.log.filter((e) => !e.shuffle).length + 1, `one step per move and the deal: ${steps}`);
  check((await hook(ana, () => window.__romirami.page.at())) === 0, 'the replay opens at the deal');
  await ana.click('#replay-last');
  const last = await hook(ana, () => window.__romirami.page.view());
  check(
    record.result.scores.every((s) => last.seats[s.seat].score.total === s.total),
    `the replay's last step adds up to the result: ${JSON.stringify(last.seats.map((s) => s.score))}`,
  );
  await ana.click('#replay-first');
  check((await hook(ana, () => window.__romirami.page.at())) === 0, 'first goes to the deal');
  await ana.click('#replay-forward');
  await ana.click('#replay-forward');
  await ana.keyboard.press('ArrowRight');
  await ana.click('#replay-back');
  check(
    (await hook(ana, () => window.__romirami.page.at())) === 2,
    'forward, forward, the right arrow and back make move 2',
  );
  check(ana.url().endsWith('?move=2'), `the address names the move: ${ana.url()}`);
  await ana.goto(`${BASE}/#/replay/${tableId}?move=7`);
  await ana.waitForSelector('#replay-at');
  check((await hook(ana, () => window.__romirami.page.at())) === 7, 'a link opens move 7');
  check((await ana.textContent('#replay-at')).includes('7'), 'the page says which move it shows');
  check((await ana.locator('.replay-hand').count()) === 2, 'every hand is shown');
  const move7 = record.log.filter((e) => !e.shuffle)[6];
  const lastLine = await ana.locator('#replay-log li.now').last().textContent();
  check(lastLine.length > 0, `the log beside the replay marks the move: ${JSON.stringify(move7)} ${lastLine}`);
  await ana.focus('#replay-slider');
  await ana.keyboard.press('Home');
  for (let i = 0; i < 3; i += 1) await ana.keyboard.press('ArrowRight');
  check((await hook(ana, () => window.__romirami.page.at())) === 3, 'the slider steps');
  await shot(ana, 'replay');
  log(`the replay steps through ${steps} steps`);

  // The past-results list, filtered by player through the form.
  await ana.goto(`${BASE}/#/games`);
  await ana.waitForSelector(`.game-row[data-game="${tableId}"]`);
  await ana.fill('#f-player', 'Ben');
  await ana.click('#filter-games');
  await ana.waitForFunction(() => location.hash.includes('player=Ben'));
  await ana.waitForSelector(`.game-row[data-game="${tableId}"]`);
  await shot(ana, 'past-games');
  log('the finished game is on the past-results page');
}
