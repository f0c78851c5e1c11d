// Tournaments (docs/tournaments.md): Hanna keeps her name and creates a one-round duplicate Swiss of four
// from the tournaments page; she and Ivan join by clicking, two bot players join from the command line (`romirami bots
// --tournament`), and the tournament starts when full; each person is taken to their table ("your table is
// ready"), they play their game by clicks, and the standings update on every page — Jules's too, who follows
// it on a phone without reloading — in English and in French.

import { spawn } from 'node:child_process';
import { BASE, check, chooseName, desktop, hook, log, openPage, phone, shot } from './support.mjs';
import { pageState, playByClicks } from './moves.mjs';

const BIN = process.env.ROMIRAMI_BIN;

/** The standings a tournament page shows: [[name, points]]. */
const standings = (page) =>
  page.$$eval('#t-standings tbody tr', (rows) =>
    rows.map((r) => [r.querySelector('th a')?.textContent ?? '', r.querySelectorAll('td')[1]?.textContent ?? '']),
  );

export async function tournaments(browser) {
  const [hanna, ivan] = await Promise.all([0, 1].map(() => openPage(browser, desktop)));
  const jules = await openPage(browser, phone);

  // Hanna keeps her name, then creates the tournament from the form.
  await hanna.goto(`${BASE}/#/`);
  await chooseName(hanna, 'Hanna');
  await hanna.waitForSelector('#account-status[data-state="guest"]');
  await hanna.fill('#claim-password', 'a long walk home');
  await hanna.fill('#claim-password-again', 'a long walk home');
  await hanna.click('#claim-submit');
  await hanna.waitForSelector('#account-status[data-state="claimed"]');
  await hanna.click('nav a[data-nav="tournaments"]');
  await hanna.waitForSelector('#tournament-create');
  await hanna.selectOption('#t-game', 'romi-rami');
  await hanna.selectOption('#t-format', 'swiss');
  await hanna.selectOption('#t-seats', '2');
  await hanna.fill('#t-rounds', '1');
  await hanna.fill('#t-max', '4');
  await hanna.selectOption('#t-clock', 'relaxed');
  // Duplicate: both tables of the round play one deal, which its four players make together.
  await hanna.check('#t-duplicate');
  await shot(hanna, 'tournament-create');
  await hanna.click('#t-submit');
  await hanna.waitForSelector('#t-join');
  const id = /#\/tournaments\/([0-9a-f-]{36})/.exec(hanna.url())?.[1];
  check(id, `the new tournament's page opens: ${hanna.url()}`);
  check((await hanna.textContent('#t-state')) === 'Taking players', 'it takes players');
  await hanna.click('#t-join');
  await hanna.waitForSelector('#t-withdraw');

  // Ivan finds it in the list and joins; Jules (a guest on a phone, in French) follows it.
  await ivan.goto(`${BASE}/#/`);
  await chooseName(ivan, 'Ivan');
  await ivan.waitForSelector('[data-testid=my-name]');
  await ivan.goto(`${BASE}/#/tournaments`);
  await ivan.click(`li.tournament-item[data-tournament="${id}"] a`);
  await ivan.click('#t-join');
  await ivan.waitForSelector('#t-withdraw');
  await jules.goto(`${BASE}/#/`);
  await chooseName(jules, 'Jules');
  await jules.waitForSelector('[data-testid=my-name]');
  await jules.selectOption('#lang-select', 'fr');
  await jules.waitForFunction(() => document.documentElement.lang === 'fr');
  await jules.goto(`${BASE}/#/tournaments/${id}`);
  await jules.waitForSelector('#t-standings');
  check((await jules.textContent('#t-state')) === 'Inscriptions ouvertes', 'Jules reads it in French');
  check(
    (await jules.locator('#t-standings tbody tr').count()) === 2,
    "Jules's page shows both players without a reload",
  );
  await shot(jules, 'tournament-phone-waiting');

  // Two bot players fill it from the command line: it starts, and the people are taken to their table.
  const bots = spawn(BIN, ['bots', '--server', BASE, '--tournament', id, '--players', '2'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const botsDone = new Promise((resolve) => bots.on('exit', resolve));
  await Promise.all([hanna, ivan].map((p) => p.waitForSelector('.board', { timeout: 30000 })));
  const tables = await Promise.all([hanna, ivan].map((p) => hook(p, () => window.__romirami.page.summary().id)));
  check(tables[0] === tables[1], `Hanna and Ivan, paired first, share a table: ${tables}`);
  log(`tournaments: Hanna and Ivan play at ${tables[0]}`);
  check(
    (await hanna.getAttribute('#tournament-link', 'href')) === `#/tournaments/${id}`,
    'the table leads back to its tournament',
  );
  // Jules follows it live as a large tournament is told (scripts/e2e.sh): its leaders and the tables counted.
  // (A view told while the round's deal was being made showed no table yet; the next one shows them.)
  await jules.waitForSelector('#t-partial');
  const inPlay = /^(2 tables en cours, 0 terminée|1 table en cours, 1 terminée)$/;
  await jules
    .waitForFunction(
      (source) => new RegExp(source).test(document.querySelector('.in-play')?.textContent ?? ''),
      inPlay.source,
      {
        timeout: 30000,
      },
    )
    .catch(() => {});
  check(
    inPlay.test(await jules.textContent('.in-play')),
    `Jules reads the tables in play in French: ${await jules.textContent('.in-play')}`,
  );
  check((await jules.locator('#t-standings tbody tr').count()) === 4, 'the four players lead live');
  await jules.click('#t-show-all');
  await jules.waitForSelector('.round-tables li');
  check((await jules.locator('.round-tables li').count()) === 2, 'asked for, every table shows');
  const seats = new Map();
  for (const page of [hanna, ivan]) seats.set((await pageState(page)).role.seat, page);
  const moves = await playByClicks(seats);
  log(`tournaments: their game took ${moves} moves`);

  // The round is over when the bots' game is too: every page shows the final standings.
  check((await botsDone) === 0, 'the bot players played their game and saw the tournament end');
  for (const page of [hanna, ivan]) await page.goto(`${BASE}/#/tournaments/${id}`);
  for (const [page, finished] of [
    [hanna, 'Finished'],
    [ivan, 'Finished'],
    [jules, 'Terminé'],
  ]) {
    await page.waitForFunction((text) => document.querySelector('#t-state')?.textContent === text, finished, {
      timeout: 30000,
    });
    const lines = await standings(page);
    check(lines.length === 4, `four players in the standings: ${JSON.stringify(lines)}`);
    const points = lines.map(([, p]) => Number(p.replace(',', '.')));
    check(
      points.reduce((a, b) => a + b, 0) === 2,
      `two games, a point each, in the standings: ${JSON.stringify(lines)}`,
    );
    check((await page.locator('#t-standings .trophy').count()) === 1, 'the winner has the trophy');
  }
  // Hanna's game: its record proves the round's deal, made from the contributions of the round's four players
  // (in the round's order), and checks out in her browser.
  await hanna.goto(`${BASE}/#/games/${tables[0]}`);
  await hanna.waitForSelector('#shuffle-check[data-status]');
  check(
    (await hanna.getAttribute('#shuffle-check', 'data-status')) === 'verified',
    `the duplicate deal checks out: ${await hanna.textContent('#shuffle-check')}`,
  );
  const record = await hook(hanna, (table) => fetch(`/api/games/${table}/record`).then((r) => r.json()), tables[0]);
  check(record.contributions?.length === 4, `the round's four contributions: ${JSON.stringify(record.contributions)}`);
  const round = await hook(hanna, (tour) => fetch(`/api/tournaments/${tour}`).then((r) => r.json()), id);
  log(`tournaments: the deal's contributions were given by ${round.rounds[0].contributions.given.join(', ')}`);
  await hanna.goto(`${BASE}/#/tournaments/${id}`);
  await hanna.waitForSelector('#t-standings');
  // The winner's page shows the trophy.
  await hanna.click('#t-standings tbody tr:first-child th a');
  await hanna.waitForSelector('#player-trophies .trophy-list li');
  check(
    (await hanna.textContent('#player-trophies h2')) === 'A tournament won',
    `the winner's page counts the tournament: ${await hanna.textContent('#player-trophies h2')}`,
  );
  await hanna.goto(`${BASE}/#/tournaments/${id}`);
  await hanna.waitForSelector('#t-standings');
  const names = (await standings(hanna)).map(([name]) => name);
  check(names.includes('Hanna') && names.includes('Ivan'), `both people are in the standings: ${names}`);
  await shot(jules, 'tournament-phone-finished', { fullPage: true });
  await Promise.all([hanna, ivan, jules].map((p) => p.context().close()));
}
