// Moderation: Lea keeps her name and is made a moderator from the command line (`romirami admin grant Lea`, on
// the server's database); at a table, Mo writes a rude line and Nia reports it from the chat; Lea's moderation
// page shows the report with the line; she removes the line from the table and bans Mo for an hour; Mo's page is
// told at once that he is banned, for how long and why, and the audit log shows the ban. Nia and Mo, who share an
// address (every browser here does) and sat at a rated table together, are listed by the collusion signal.

import { execFileSync } from 'node:child_process';
import { BASE, check, chooseName, desktop, log, openPage, shot, timeLeft } from './support.mjs';

const BIN = process.env.ROMIRAMI_BIN;
const DATABASE = process.env.ROMIRAMI_DATABASE_URL;
const PASSWORD = 'moderate all things';
const RUDE = 'you play like a potato';

export async function moderation(browser) {
  check(BIN && DATABASE, 'ROMIRAMI_BIN and ROMIRAMI_DATABASE_URL name the server and its database (scripts/e2e.sh)');
  const [lea, nia, mo] = await Promise.all([0, 1, 2].map(() => openPage(browser, desktop)));

  // Lea keeps her name; the command line makes her a moderator.
  await lea.goto(`${BASE}/#/`);
  await chooseName(lea, 'Lea');
  await lea.waitForSelector('#account-status[data-state="guest"]');
  await lea.fill('#claim-password', PASSWORD);
  await lea.fill('#claim-password-again', PASSWORD);
  await lea.click('#claim-submit');
  await lea.waitForSelector('#account-status[data-state="claimed"]');
  const said = execFileSync(BIN, ['admin', 'grant', 'lea', '--database-url', DATABASE], { encoding: 'utf8' });
  check(/Lea .* is an admin now/.test(said), `the command line names Lea: ${said}`);

  // Nia and Mo at a table; Mo is rude in the chat; Nia reports the line.
  await nia.goto(`${BASE}/#/`);
  await chooseName(nia, 'Nia');
  await nia.waitForSelector('[data-testid=my-name]');
  await nia.selectOption('#opt-seats', '2');
  await nia.selectOption('#opt-public', 'false');
  await nia.click('#create-table');
  await nia.waitForSelector('#invite-link');
  const link = await nia.inputValue('#invite-link');
  await mo.goto(link);
  await chooseName(mo, 'Mo');
  for (const p of [nia, mo]) await p.waitForSelector('.board');
  await mo.fill('#chat-input', RUDE);
  await mo.click('#chat-send');
  const line = `.chat li:has-text("${RUDE}")`;
  await nia.waitForSelector(line, { timeout: Math.min(20000, timeLeft()) });
  nia.once('dialog', (dialog) => dialog.accept('an insult'));
  await nia.click(`${line} .chat-report`);
  await nia.waitForSelector(`${line} .chat-report[disabled]`);
  log('moderation: Nia reported a line of Mo’s');

  // Lea's moderation page shows it; she bans Mo for an hour.
  await lea.goto(`${BASE}/#/account`);
  await lea.click('#admin-link');
  const report = `li.report:has-text("${RUDE}")`;
  await lea.waitForSelector(report);
  check(/Nia reported Mo/.test(await lea.textContent(report)), 'the report says who reported whom');
  // She removes the line: gone from the table's chat for everyone there.
  await lea.click(`${report} button[id^="remove-line-"]`);
  await nia.waitForFunction((rude) => !document.querySelector('.chat')?.textContent?.includes(rude), RUDE, {
    timeout: Math.min(20000, timeLeft()),
  });
  await lea.waitForSelector(report);
  log('moderation: Lea removed the line from the table');
  await lea.selectOption(`${report} select`, '60');
  await shot(lea, 'moderation');
  await lea.click(`${report} button.danger`);
  await lea.waitForSelector('ul.bans li');
  check((await lea.locator(report).count()) === 0, 'the report is resolved by the ban');

  // Mo is told at once: banned, for how long and why.
  await mo.waitForFunction(() => /banned/.test(document.getElementById('conn')?.textContent ?? ''), null, {
    timeout: Math.min(20000, timeLeft()),
  });
  const banner = (await mo.textContent('#conn')) ?? '';
  check(
    /60 more minute/.test(banner) && /an insult/.test(banner),
    `Mo reads the ban's time left and reason: ${banner}`,
  );
  await shot(mo, 'banned');
  log(`moderation: Mo is banned: ${banner}`);

  // The audit log shows the grant from the command line and the ban.
  await lea.reload();
  await lea.waitForSelector('#audit li[data-action="ban"]');
  const audit = await lea.textContent('#audit');
  check(/Lea banned Mo/.test(audit) && /command line made Lea/.test(audit), `the audit log: ${audit}`);
  log('moderation: the audit log shows the grant and the ban');

  // The collusion signal: Nia and Mo connect from one address (every browser here does) and sat at a rated
  // table together; with the threshold at one table, the pair is listed, without the address.
  await lea.selectOption('#collusion-min', '1');
  await lea.waitForFunction(() =>
    [...document.querySelectorAll('#collusion li')].some(
      (li) => /\bNia\b/.test(li.textContent ?? '') && /\bMo\b/.test(li.textContent ?? ''),
    ),
  );
  const pairs = (await lea.textContent('#collusion')) ?? '';
  check(!/127\.0\.0\.1/.test(pairs), `no address is shown: ${pairs}`);
  await shot(lea, 'collusion');
  log('moderation: Nia and Mo are listed as sharing an address at a rated table');
  for (const p of [lea, nia, mo]) await p.context().close();
}
