// Being at a table together: two players chat during a game while a spectator's
// chat stays apart, a player whose page closes shows as away to the other (and the log says so, and that
// they came back), and once the game is over the spectator's words reach the players too; then both play
// again, and everyone, the old link too, moves on to the new table. The moves are
// sent through the page's test hook (the quickest way to the end of a game; the `players` scenario
// plays by clicking); the chat is typed and sent with the keyboard.

import { BASE, check, chooseName, desktop, hook, log, logShows, openPage, shot, timeLeft } from './support.mjs';

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

// Types a message into the chat and sends it with Enter.
async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

// The next move from the page's list: the biggest contract, else a discard, else the biggest take.
function choose(legal) {
  const by = (type) => legal.filter((a) => a.type === type);
  const most = (list) => list.reduce((a, b) => ((b.cards?.length ?? 0) > (a.cards?.length ?? 0) ? b : a));
  const completes = by('complete').filter((a) => !a.star);
  if (completes.length) return most(completes);
  if (by('discard').length) return by('discard')[0];
  if (by('take').length) return most(by('take'));
  return by('pass')[0] ?? legal.find((a) => a.type !== 'take_back') ?? legal[0];
}

// Plays the game to its end through the hook, whoever's turn it is.
async function playToEnd(pages) {
  let moves = 0;
  for (;;) {
    timeLeft();
    const states = await Promise.all(
      pages.map((p) =>
        hook(p, () => {
          const page = window.__romirami.page;
          return { legal: page.legal(), over: page.result() != null, n: page.eventCount() };
        }),
      ),
    );
    if (states.some((s) => s.over)) return moves;
    const i = states.findIndex((s) => s.legal?.length);
    if (i < 0) {
      await pages[0].waitForTimeout(50);
      continue;
    }
    await hook(pages[i], (action) => window.__romirami.page.actUnchecked(action), choose(states[i].legal));
    await pages[i].waitForFunction(
      (n) => {
        const p = window.__romirami.page;
        return p.eventCount() > n || p.result() != null || (p.error() && p.pending() == null);
      },
      states[i].n,
      { timeout: Math.min(20000, timeLeft()) },
    );
    moves += 1;
  }
}

export async function together(browser) {
  const ana = await openPage(browser, desktop);
  const ben = await openPage(browser, desktop);
  const cleo = await openPage(browser, desktop);

  // Ana opens a private two-seat table that people with the link may watch; Ben sits, Cleo watches.
  await ana.goto(`${BASE}/#/`);
  await chooseName(ana, 'Ana');
  await ana.waitForSelector('[data-testid=my-name]');
  await ana.selectOption('#opt-seats', '2');
  await ana.selectOption('#opt-public', 'false');
  await ana.selectOption('#opt-spectators', 'link');
  await ana.selectOption('#opt-clock', 'none');
  await ana.click('#create-table');
  await ana.waitForSelector('#invite-link');
  const link = await ana.inputValue('#invite-link');
  const tableId = link.match(/#\/table\/([0-9a-f-]+)/)[1];
  await ben.goto(link);
  // Before he has a name, the page says what the private table plays (the server tells it for the link's key).
  await ben.waitForSelector('#invited #wait-game');
  const invited = await ben.textContent('#invited');
  check(/Romi Rami.*2 seats · No clock/.test(invited ?? ''), `the invite page tells the private table: ${invited}`);
  await chooseName(ben, 'Ben');
  for (const p of [ana, ben]) await p.waitForSelector('.board');
  await cleo.goto(`${link}&watch=1`);
  await chooseName(cleo, 'Cleo');
  await cleo.waitForSelector('.board');
  log(`together: table ${tableId} in play, Cleo watching`);

  // The players talk; Cleo reads them, and her words stay with the spectators while the game is on.
  await say(ana, 'Good luck, Ben!');
  for (const p of [ana, ben, cleo]) await chatShows(p, 'Ana: Good luck, Ben!', 'everyone reads the players');
  await say(cleo, 'Ana holds the Star');
  await chatShows(cleo, 'Cleo: Ana holds the Star', 'Cleo reads her own message');
  await say(ben, '<img src=x onerror=alert(1)> thanks');
  for (const p of [ana, cleo])
    await chatShows(p, 'Ben: <img src=x onerror=alert(1)> thanks', 'markup is shown as text');
  // The server sends in order: had Cleo's message reached Ana, it would have come before Ben's.
  const anaChat = await chatOf(ana);
  check(
    !anaChat.some((l) => l.startsWith('Cleo:')),
    `the spectators' chat stays apart during the game: ${anaChat.join(' | ')}`,
  );
  check((await ana.locator('.chat img').count()) === 0, 'no markup from the chat reaches the page');
  log('together: chat apart during the game');

  // Ben's page closes: Ana sees him away and the log says so; he comes back through the link.
  const benContext = ben.context();
  await ben.close();
  await ana.waitForSelector('.player[data-seat="1"] .badge.offline, .player[data-seat="0"] .badge.offline');
  await logShows(ana, /Ben lost their connection/, 'Ana is told Ben is away');
  const benAgain = await benContext.newPage();
  benAgain.setDefaultTimeout(20000);
  await benAgain.goto(`${BASE}/#/table/${tableId}`);
  await benAgain.waitForSelector('.board');
  await logShows(ana, /Ben is back/, 'Ana is told Ben came back');
  check((await ana.locator('.badge.offline').count()) === 0, 'Ben no longer shows as away');
  await chatShows(benAgain, 'Ana: Good luck, Ben!', 'Ben, back, reads the chat so far');
  log('together: away and back');

  // At 1280×800 with a long chat, the log keeps room for its lines, and the log and the chat show their
  // newest lines; a reader who scrolled the chat back keeps their place through a redraw.
  await ana.setViewportSize({ width: 1280, height: 800 });
  for (const word of ['one', 'two', 'three', 'four']) {
    await say(ana, `line ${word}`);
    await say(benAgain, `reply ${word}`);
  }
  await chatShows(ana, 'Ben: reply four', 'Ana reads the whole conversation');
  const atEnd = (selector) =>
    ana.evaluate((s) => {
      const list = document.querySelector(s);
      return list != null && list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    }, selector);
  const logHeight = await ana.evaluate(() => document.querySelector('.log ol')?.clientHeight ?? 0);
  check(logHeight >= 120, `the log keeps room for its lines beside a long chat: ${logHeight} px`);
  check(await atEnd('.log ol'), 'the log shows its newest line');
  const chatScroll = await ana.evaluate(() => {
    const list = document.getElementById('chat-lines');
    return { height: list?.clientHeight ?? 0, content: list?.scrollHeight ?? 0 };
  });
  check(chatScroll.content > chatScroll.height, `the chat is long enough to scroll: ${JSON.stringify(chatScroll)}`);
  const rows = await ana.evaluate(() => {
    const line = document.querySelector('#chat-lines li');
    const top = (s) => Math.round(line?.querySelector(s)?.getBoundingClientRect().top ?? -1);
    return [top('.chat-name'), top('.chat-text')];
  });
  check(rows[0] >= 0 && rows[0] === rows[1], `a chat line's name and words share a row: ${rows}`);
  check(await atEnd('#chat-lines'), 'the chat shows its newest line');
  // A sixth message in ten seconds is refused as too fast: it stays in the input, and the redraw that
  // says so leaves the chat where Ana scrolled it. How many of Ana's messages are still within the ten
  // seconds depends on the machine's speed, so she talks on until one is refused: at the latest the
  // sixth, as long as each takes under two seconds.
  const saidTooMany = () => chatOf(ana).then((lines) => lines.filter((l) => l === 'Ana: one too many').length);
  for (let tries = 0; !(await ana.isVisible('#chat-error')); tries++) {
    check(tries < 6, 'the chat refuses a sixth message within ten seconds');
    const accepted = await saidTooMany();
    await ana.evaluate(() => {
      const list = document.getElementById('chat-lines');
      if (list) list.scrollTop = 0;
    });
    await say(ana, 'one too many');
    await ana.waitForFunction(
      (before) =>
        document.getElementById('chat-error') != null ||
        window.__romirami.page.chat().filter((l) => l === 'Ana: one too many').length > before,
      accepted,
    );
  }
  check((await ana.inputValue('#chat-input')) === 'one too many', 'a message refused as too fast is not lost');
  const top = await ana.evaluate(() => document.getElementById('chat-lines')?.scrollTop);
  check(top === 0, `the chat stays where its reader scrolled it: ${top}`);
  await ana.fill('#chat-input', '');
  await shot(ana, 'table-side-1280');
  log('together: the log and the chat show their newest lines');

  // They play to the end; then the spectators' chat is the players' too.
  const moves = await playToEnd([ana, benAgain]);
  log(`together: game over after ${moves} moves`);
  for (const p of [ana, benAgain]) await chatShows(p, 'Cleo: Ana holds the Star', 'after the game the chats are one');
  await say(benAgain, 'well played');
  await chatShows(cleo, 'Ben: well played', 'Cleo reads the players after the game');

  // Both say yes to playing again: all three move on to the new table, the link's invite kept.
  for (const p of [ana, benAgain, cleo]) await p.waitForSelector('#rematch-status');
  check((await cleo.locator('#rematch-accept').count()) === 0, 'a spectator is not asked to play again');
  await ana.click('#rematch-accept');
  await benAgain.waitForFunction(() => /Ana/.test(document.getElementById('rematch-status')?.textContent ?? ''));
  await benAgain.click('#rematch-accept');
  // On the new table: its address, and the page's own state of it (not the old page's, still on show until
  // the address change is handled).
  const movedOn = (old) => {
    const m = location.hash.match(/#\/table\/([0-9a-f-]+)/);
    const page = window.__romirami.page;
    return (
      m != null &&
      m[1] !== old &&
      document.querySelector('.board') != null &&
      page?.summary?.()?.id === m[1] &&
      page.role() != null
    );
  };
  for (const p of [ana, benAgain, cleo]) await p.waitForFunction(movedOn, tableId);
  const next = (await ana.evaluate(() => location.hash)).match(/#\/table\/([0-9a-f-]+)/)[1];
  for (const p of [ana, cleo]) check((await p.evaluate(() => location.hash)).includes('invite='), 'the invite is kept');
  const roles = await Promise.all([ana, benAgain, cleo].map((p) => hook(p, () => window.__romirami.page.role())));
  check(
    JSON.stringify(roles) === JSON.stringify([{ seat: 0 }, { seat: 1 }, 'spectator']),
    `the same seats: ${JSON.stringify(roles)}`,
  );
  // The old link leads to the new game.
  const late = await openPage(browser, desktop);
  await late.goto(`${link}&watch=1`);
  await chooseName(late, 'Dora');
  await late.waitForFunction(movedOn, tableId);
  check((await late.evaluate(() => location.hash)).includes(next), 'the old link leads to the rematch');
  log(`together: rematch at ${next}`);
  for (const p of [ana, benAgain, cleo, late]) await p.context().close();
}
