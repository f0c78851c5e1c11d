// Replays and analysis of every game of the rummy family: a Rommi, a Rami and a Rumino match, each played to its
// end on the server by the command line's bot clients (`romirami bots`), is opened from its game page, replayed
// to its last step (whose totals are the record's result) and opened at a step by its link; a player's
// decisions are analysed from the game page and shown in the replay (marks, the bot's move, the counts), in
// English, French and on a phone; and the replay framed by another site shows, while the lobby refuses it.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BASE, check, desktop, hook, log, openPage, phone, shot } from './support.mjs';

const BIN = process.env.ROMIRAMI_BIN;
const runBin = promisify(execFile);

/** Plays one match of `game` with bots on the server, and returns its id (the newest of its game). */
async function botMatch(game, options) {
  const newest = () => fetch(`${BASE}/api/games?game=${game}&limit=1`).then((r) => r.json());
  const before = (await newest()).games[0]?.id;
  const args = ['bots', '--server', BASE, '--games', '1', '--players', '2', '--game', game, '--concurrency', '1'];
  if (options) args.push('--options', JSON.stringify(options));
  // Run without blocking this process's event loop: a blocked loop keeps the HTTP client's idle connection
  // past its own keep-alive time, and the server (which closes idle connections after 10 s) may close it just
  // as the next request takes it ("fetch failed" when a match took long on a busy machine).
  const { stderr } = await runBin(BIN, args, { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (stderr.trim()) process.stderr.write(stderr);
  // The server stores a finished game just after its end: the list may not have it at once.
  for (let tries = 0; tries < 100; tries += 1) {
    const id = (await newest()).games[0]?.id;
    if (id && id !== before) return id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${game}: the bots' match is not listed`);
}

/** Whether two JSON values are the same, whatever the order of their objects' keys. */
const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const sorted = (v) =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted(v[k])]),
        )
      : v;

/** The entries of a rummy-record/1's logs that are a seat's actions (not a reshuffle nor a player going out). */
const actions = (record) =>
  record.rounds.flatMap((r) => r.log).filter((e) => !('out' in e) && !('reshuffle' in e) && !('rumino' in e));

/** Opens the replay of `id` from its game page, steps to the end and back, and checks it against the record. */
async function replayFromGamePage(p, game, id) {
  await p.goto(`${BASE}/#/games/${id}`);
  await p.waitForSelector('#replay-link');
  const record = await fetch(`${BASE}/api/games/${id}/record`).then((r) => r.json());
  await p.click('#replay-link');
  await p.waitForSelector('#replay-at');
  const steps = await hook(p, () => window.__romirami.page.steps());
  check(steps === actions(record).length + 1, `${game}: one step per action and the deal: ${steps}`);
  check((await hook(p, () => window.__romirami.page.at())) === 0, `${game}: the replay opens at the deal`);
  await p.click('#replay-forward');
  await p.keyboard.press('ArrowRight');
  check((await hook(p, () => window.__romirami.page.at())) === 2, `${game}: forward and the arrow key step on`);
  check((await p.locator('.replay-hand').count()) === 2, `${game}: both hands are shown`);
  await p.click('#replay-last');
  const last = await hook(p, () => window.__romirami.page.view());
  check(
    JSON.stringify(last.totals) === JSON.stringify(record.result.totals),
    `${game}: the last step's totals are the record's result: ${last.totals} vs ${record.result.totals}`,
  );
  await p.waitForSelector('#match-end');
  // A link opens a given step.
  const at = Math.min(5, steps - 1);
  await p.goto(`${BASE}/#/replay/${id}?move=${at}`);
  await p.waitForFunction((n) => window.__romirami.page?.name === 'replay' && window.__romirami.page.at() === n, at);
  await p.waitForSelector(`#replay-log li.now[data-move="${at}"], #replay-at`);
  check((await p.textContent('#replay-at')) === `Move ${at} of ${steps - 1}`, `${game}: the link opens move ${at}`);
  log(`${game}: replayed ${steps - 1} moves to the result ${record.result.totals}`);
  return steps;
}

/** Analyses seat 0 of `id` from its game page, then follows the link into the replay. */
async function analyse(p, game, id, steps) {
  await p.goto(`${BASE}/#/games/${id}`);
  await p.waitForSelector('.analyse-seat[data-seat="0"]');
  // The Share box: the game's link, and the frame that puts its replay in another page.
  await p.click('#share summary');
  const frame = await p.inputValue('#share-embed');
  check(frame.includes(`/embed/${id}`) && frame.startsWith('<iframe'), `the Share box gives the frame: ${frame}`);
  check((await p.inputValue('#share-link')).endsWith(`/#/games/${id}`), 'the Share box gives the link');
  await p.click('.analyse-seat[data-seat="0"]');
  await p.waitForSelector('.analysis-state[data-seat="0"][data-state="done"]', { timeout: 120_000 });
  const said = await p.textContent('.analysis-state[data-seat="0"]');
  check(/\d+ decisions: /.test(said), `${game}: the game page sums the analysis up: ${said}`);
  const served = await fetch(`${BASE}/api/games/${id}/analysis?seat=0`).then((r) => r.json());
  const record = await fetch(`${BASE}/api/games/${id}/record`).then((r) => r.json());
  const own = actions(record).filter((e) => e.seat === 0);
  let i = 0;
  for (const d of served.decisions) {
    while (i < own.length && same(own[i], d.played) === false) i += 1;
    check(i < own.length, `${game}: every decision analysed is seat 0's own, in order: ${JSON.stringify(d.played)}`);
  }
  await p.click('.analysis-link');
  await p.waitForFunction(() => window.__romirami.page?.name === 'replay' && window.__romirami.page.analyses().length);
  const flagged = served.decisions.filter((d) => d.class !== 'good');
  check(
    (await p.locator('.replay-mark').count()) === flagged.length,
    `${game}: a mark under the slider for each decision that was not good (${flagged.length})`,
  );
  const shown = flagged[0] ?? served.decisions[0];
  // The mark's own click: in a long game, a later mark can lie over it (a few pixels apart on the slider).
  if (flagged.length) await p.locator(`.replay-mark[data-step="${shown.step}"]`).evaluate((mark) => mark.click());
  else await p.goto(`${BASE}/#/replay/${id}?move=${shown.step}&seat=0`);
  await p.waitForSelector(`#analysis-box .decision[data-seat="0"]`);
  const box = await p.textContent('#analysis-box');
  check(/Played:/.test(box), `${game}: the move's analysis says what was played: ${box}`);
  if (shown.loss > 0) check(/would have played/.test(box), `${game}: and what the bot would have played: ${box}`);
  await p.selectOption('#lang-select', 'fr');
  await p.waitForSelector('#analysis-box:has-text("Joué :")');
  await p.selectOption('#lang-select', 'en');
  await p.click('#replay-last');
  await p.waitForSelector('#analysis-summary');
  log(`${game}: analysed ${served.decisions.length} decisions of seat 0, ${flagged.length} flagged`);
  return steps;
}

/** The replay can be framed by another site; the lobby cannot. */
async function framing(browser, id) {
  const p = await openPage(browser, desktop);
  // Another site: the same server under another name is another origin (a public page, say about:blank, may
  // not frame a local address at all in Chromium).
  const other = new URL(BASE);
  other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  await p.goto(`${other.origin}/api/health`);
  await p.setContent(
    `<iframe id="embed" src="${BASE}/embed/${id}?move=3" width="900" height="700"></iframe>` +
      `<iframe id="lobby" src="${BASE}/" width="400" height="300"></iframe>`,
  );
  const embed = p.frameLocator('#embed');
  await embed.locator('#replay-at').waitFor();
  check(
    (await embed.locator('#replay-at').textContent()) === 'Move 3 of ' + (await stepsOf(id)),
    'the embed opens its move',
  );
  check((await embed.locator('.topbar').isVisible()) === false, 'the embed shows no top bar');
  const back = await embed.locator('a[target="_blank"]').getAttribute('href');
  check(back === `/#/games/${id}`, `the embed links back to the game's page: ${back}`);
  const headers = await fetch(`${BASE}/`).then((r) => r.headers);
  check(headers.get('content-security-policy') === "frame-ancestors 'none'", 'the lobby refuses frames');
  check(headers.get('x-frame-options') === 'DENY', 'the lobby says so to old browsers too');
  const lobby = p.frames().find((f) => f.parentFrame() && !f.url().includes('/embed/'));
  check(lobby != null, 'the lobby’s frame is there');
  const shown = await lobby.evaluate(() => document.querySelector('#app') != null).catch(() => false);
  check(!shown, `the lobby does not show in another site’s frame (${lobby.url()})`);
  await shot(p, 'embed');
  await p.context().close();
  log('the replay can be framed by another site, the lobby cannot');
}

async function stepsOf(id) {
  const replay = await fetch(`${BASE}/api/games/${id}/replay`).then((r) => r.json());
  return replay.steps.length - 1;
}

export async function replays(browser) {
  check(BIN, 'ROMIRAMI_BIN names the server binary (scripts/e2e.sh sets it)');
  const matches = [
    ['rommi', await botMatch('rommi', { target: 40 })],
    ['rami', await botMatch('rami', { match_end: { rounds: 2 } })],
    ['rumino', await botMatch('rumino', { max_rebuys: 0 })],
  ];
  const p = await openPage(browser, desktop);
  for (const [game, id] of matches) {
    const steps = await replayFromGamePage(p, game, id);
    if (game === 'rommi') await analyse(p, game, id, steps);
  }
  await shot(p, 'replay-rommi');
  await p.context().close();
  // On a phone, the replay of the Rami match with its analysis.
  const small = await openPage(browser, phone);
  await small.goto(`${BASE}/#/replay/${matches[1][1]}?move=1`);
  await small.waitForSelector('#replay-at');
  await small.click('#analyse');
  await small.waitForFunction(() => window.__romirami.page?.analyses?.().length === 1, null, { timeout: 120_000 });
  const wide = await small.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
  check(wide, 'the replay fits a phone’s width');
  await shot(small, 'replay-phone');
  await small.context().close();
  await framing(browser, matches[0][1]);
}
