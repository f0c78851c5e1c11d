// A host alone plays against a strong and an easy bot on a clocked table: she adds them with the page's
// button at the levels she picks (removing one on the way), the table starts by itself, she lets her time
// run out once (the bot plays for her; she takes her seat back), and plays on to the end; the bots, their
// levels and the bot's moves for her are shown on the table, the end screen and the game page, and the
// game counts for the ratings of all three. Last, a game against a bot that she leaves: it ends as
// abandoned and is shown so; and "Play against a bot" in the lobby starts a game at once.

import {
  BASE,
  check,
  chooseName,
  desktop,
  hook,
  log,
  logShows,
  openGamePage,
  openPage,
  shot,
  timeLeft,
} from './support.mjs';
import { choose, pageState, perform, settled } from './moves.mjs';

// Dora plays against two bots on a clocked table, to the end.
async function againstBots(browser) {
  const dora = await openPage(browser, desktop);
  await dora.goto(`${BASE}/#/`);
  await chooseName(dora, 'Dora');
  await dora.waitForSelector('[data-testid=my-name]');
  // A custom clock: 12 s a turn and 3 s of reserve, short enough to run out of once on purpose.
  await dora.selectOption('#opt-seats', '3');
  await dora.selectOption('#opt-clock', 'custom');
  await dora.fill('#opt-turn-s', '12');
  await dora.fill('#opt-reserve-s', '3');
  await dora.click('#create-table');
  await dora.waitForSelector('#add-bot:not([disabled])');
  const clockText = await dora.textContent('.waiting .table-clock');
  check(/12 s a turn \+ 3 s reserve/.test(clockText), `the waiting room shows the clock: ${clockText}`);

  // The waiting room says which game is about to be played, rated as the form's default.
  const before = await dora.textContent('#wait-game');
  check(/^Romi Rami · Rated$/.test(before ?? ''), `the waiting room names the game: ${before}`);
  // A bot (normal, the level offered first), removed again; then a strong and an easy bot, and the full
  // table starts by itself.
  check((await dora.inputValue('#bot-level')) === 'normal', 'the level offered first is normal');
  await dora.click('#add-bot');
  await dora.waitForSelector('.waiting .seats li.bot[data-seat="1"] .badge.bot');
  const first = await dora.textContent('.waiting .seats li[data-seat="1"] .pname');
  check(first === 'Bot · normal', `the bot's level shows beside its name: ${first}`);
  const withBot = await dora.textContent('#wait-game');
  check(/Rated$/.test(withBot ?? ''), `the host's bots are rated players, and the game still counts: ${withBot}`);
  await dora.click('.waiting .seats li[data-seat="1"] button:has-text("Remove")');
  await dora.waitForSelector('.waiting .seats li.free[data-seat="1"]');
  await dora.selectOption('#bot-level', 'strong');
  await dora.click('#add-bot');
  await dora.waitForSelector('.waiting .seats li.bot[data-seat="1"]');
  check(
    (await dora.textContent('.waiting .seats li[data-seat="1"] .pname')) === 'Bot · strong',
    'the strong bot is named with its level',
  );
  check((await dora.inputValue('#bot-level')) === 'strong', 'the chosen level stays chosen');
  await shot(dora, 'waiting-room-bot');
  await dora.selectOption('#bot-level', 'easy');
  await dora.click('#add-bot');
  await dora.waitForSelector('.board');
  const summary = await hook(dora, () => window.__romirami.page.summary());
  const me = (await pageState(dora)).role.seat;
  check(
    summary.bots.filter(Boolean).length === 2 && !summary.bots[me],
    `two bots and Dora: ${JSON.stringify(summary.bots)}`,
  );
  const levels = summary.levels.filter(Boolean).sort().join(',');
  check(levels === 'easy,strong' && summary.levels[me] === null, `a strong and an easy bot: ${summary.levels}`);
  check((await dora.locator('.player.bot .badge.bot').count()) === 2, 'the bot seats are marked');
  const table = await dora.textContent('.table-page');
  check(table.includes('Bot · strong') && table.includes('Bot · easy'), 'the table names the bots with their levels');
  check(summary.rated === true, 'a rated table with the host’s bots is rated');
  log('Dora plays against a strong and an easy bot');

  let moves = 0;
  let ranOut = false;
  let reclaims = 0;
  for (;;) {
    timeLeft();
    await dora.waitForFunction(
      () => {
        const p = window.__romirami.page;
        return (
          p.result() != null || p.legal() != null || document.querySelector('#take-seat-back:not([disabled])') != null
        );
      },
      null,
      { timeout: Math.min(60000, timeLeft()) },
    );
    let state = await pageState(dora);
    if (state.over) break;
    if (await dora.locator('#take-seat-back:not([disabled])').count()) {
      // Out of time (once on purpose, maybe again on a slow machine): take the seat back. The bots keep
      // playing meanwhile and every move redraws the page, so a pointer click (which waits for the button
      // to hold still between its checks) may never land: the button's own click is sent.
      const clicked = await dora.evaluate(() => {
        const button = /** @type {HTMLButtonElement | null} */ (
          document.querySelector('#take-seat-back:not([disabled])')
        );
        button?.click();
        return button != null;
      });
      if (clicked) {
        reclaims += 1;
        log('Dora takes her seat back');
      }
      continue;
    }

    if (moves === 0) {
      // Her turn shows in the page's title, for a player whose table is in another tab.
      const title = await dora.title();
      check(title.startsWith('▶ Your turn'), `the title says it is Dora's turn: ${title}`);
      // A stray click on the top bar asks before it takes her away from her game; she stays.
      const asked = new Promise((resolve) =>
        dora.once('dialog', (dialog) => {
          resolve(dialog.message());
          dialog.dismiss();
        }),
      );
      await dora.click('nav a[data-nav="games"]');
      const question = await asked;
      check(/You are playing at this table/.test(question), `leaving a game in play is asked first: ${question}`);
      await dora.waitForFunction(() => location.hash.startsWith('#/table/'));
      check((await dora.locator('.board').count()) === 1, 'she stays at her game');
    }
    // Once, a few moves in: the clocks count down, then Dora lets her time run out.
    if (!ranOut && moves >= 6) {
      await dora.waitForSelector(`.player[data-seat="${me}"] .seat-clock.running`);
      const turnClock = await dora.textContent('[data-clock-turn]');
      check(/^\d+:\d\d (left|of reserve left)$/.test(turnClock.trim()), `the turn's countdown is shown: ${turnClock}`);
      const clocks = await hook(dora, () => window.__romirami.page.clocks());
      check(clocks.toAct === me && clocks.reserves.length === 3, `the clocks are live: ${JSON.stringify(clocks)}`);
      await shot(dora, 'table-bots-clock');
      await dora.waitForSelector('#bot-notice', { timeout: Math.min(30000, timeLeft()) });
      check(
        (await dora.locator(`.player[data-seat="${me}"] .badge.bot`).count()) === 1,
        'Dora’s seat is marked as the bot’s',
      );
      await shot(dora, 'table-bot-for-you');
      await logShows(dora, /The bot is playing your seat/, 'Dora is told the bot plays for her');
      log('Dora ran out of time: the bot plays for her');
      ranOut = true;
      continue;
    }

    const action = choose(state.legal);
    await perform(dora, action);
    state = await settled(dora, state.n);
    if (state.error) {
      // Only a move sent as the clock ran out may be refused.
      check(/bot/.test(state.error), `the server accepted ${JSON.stringify(action)}: ${state.error}`);
      continue;
    }
    moves += 1;
  }
  check(ranOut && reclaims >= 1, 'Dora ran out of time and took her seat back');
  await dora.waitForSelector('#end-title');
  check(!(await dora.title()).startsWith('▶'), 'the title is plain once the game is over');
  check(
    (await dora.locator('table.scores .badge.bot').count()) === 2,
    'the end screen marks the two bots, and only them',
  );
  check(
    (await dora.locator('table.scores tr:has-text("Dora") .badge.bot').count()) === 0,
    'Dora, back at her seat, is no bot',
  );
  check(
    (await dora.locator(`.player[data-seat="${me}"] .badge.bot`).count()) === 0,
    'Dora’s seat has no bot mark at the end',
  );
  await logShows(dora, /Your seat is yours again/, 'Dora is told she has her seat back');
  // The game counted: for Dora and for each bot's level, a player of its own.
  await dora.waitForSelector('[data-testid=rating-changes]', { timeout: Math.min(20000, timeLeft()) });
  const changes = await dora.textContent('[data-testid=rating-changes]');
  check(
    /Dora/.test(changes) && /Bot · strong/.test(changes) && /Bot · easy/.test(changes),
    `the end screen shows the ratings of Dora and both bots: ${changes}`,
  );
  log(`the game against the bots is over; Dora played ${moves} moves`);
  await shot(dora, 'end-bots');

  const game = await openGamePage(dora);
  const bots = game.players.filter((p) => p.bot).length;
  const gameLevels = game.players.map((p) => p.level ?? '-').join(',');
  check(/strong/.test(gameLevels) && /easy/.test(gameLevels), `the stored game keeps the levels: ${gameLevels}`);
  const doraIndex = game.players.findIndex((p) => p.name === 'Dora');
  check(
    bots === 2 && game.bot_actions[doraIndex] > 0,
    `the game page knows the bots and the bot's moves for Dora: ${JSON.stringify(game.bot_actions)}`,
  );
  const played = await dora.textContent('.game-page');
  check(
    played.includes(`bot played ${game.bot_actions[doraIndex]} move`),
    'the game page says how many moves the bot played for Dora',
  );
  await shot(dora, 'game-page-bots');
  // The strong bot is a player of its own, marked as a bot on its page.
  await dora.click('.game-page a:has-text("Bot · strong")');
  await dora.waitForSelector('h1 .badge.bot');
  const heading = await dora.textContent('h1');
  check(/^Bot · strong/.test(heading ?? ''), `the strong bot's page names it and marks it: ${heading}`);
  return dora;
}

// Dora starts a game against a bot and leaves it: every player has left, so it ends as abandoned.
async function abandoned(dora) {
  await dora.goto(`${BASE}/#/`);
  await dora.waitForSelector('#create-table:not([disabled])');
  await dora.selectOption('#opt-seats', '2');
  await dora.selectOption('#opt-clock', 'none');
  await dora.click('#create-table');
  await dora.waitForSelector('#add-bot:not([disabled])');
  const tableId = (await dora.inputValue('#invite-link')).match(/#\/table\/([0-9a-f-]+)/)[1];
  // A private table watched without its invite link says it is private.
  const fay = await openPage(dora.context().browser(), desktop);
  await fay.goto(`${BASE}/#/`);
  await chooseName(fay, 'Fay');
  await fay.waitForSelector('[data-testid=my-name]');
  await fay.goto(`${BASE}/#/table/${tableId}?watch=1`);
  await fay.waitForSelector('.gone');
  const gone = await fay.textContent('.gone');
  check(/private/.test(gone) && /invite link/.test(gone), `watching a private table without its link says so: ${gone}`);
  await fay.context().close();

  // The level chosen last is offered again.
  check((await dora.inputValue('#bot-level')) === 'easy', 'the level chosen last is kept');
  await dora.click('#add-bot');
  await dora.waitForSelector('.board');
  check((await dora.textContent('.table-info .table-clock')).includes('No clock'), 'the table says it has no clock');
  // On her turn, when the bots' moves do not redraw the page (and fold the menu) under her clicks.
  await dora.waitForFunction(() => window.__romirami.page.legal() != null, null, {
    timeout: Math.min(60000, timeLeft()),
  });
  await dora.click('details.leave summary');
  await dora.click('#leave-game');
  await dora.waitForFunction(() => location.hash === '#/');

  // No focus ring around the whole page after a route change.
  await dora.click('nav a[data-nav="games"]');
  await dora.waitForSelector('.results');
  const ring = await dora.evaluate(() => {
    const app = document.getElementById('app');
    const style = getComputedStyle(app);
    return { focused: document.activeElement === app, outline: `${style.outlineStyle} ${style.outlineWidth}` };
  });
  check(
    ring.focused && /^none/.test(ring.outline),
    `the page region has the focus without a ring: ${JSON.stringify(ring)}`,
  );
  await dora.goto(`${BASE}/#/games/${tableId}`);
  for (let attempt = 0; ; attempt += 1) {
    const ok = await dora.waitForSelector('#game-title', { timeout: 3000 }).then(
      () => true,
      () => false,
    );
    if (ok) break;
    check(attempt < 10, 'the abandoned game appears on its page');
    await dora.reload();
  }
  check((await dora.textContent('#game-title')) === 'Abandoned game', 'the game page says the game was abandoned');
  const notice = await dora.textContent('.game-page .notice');
  check(
    /(Dora|Bot · easy)( and (Dora|Bot · easy))? (was|were) ahead/.test(notice),
    `the game page says who was ahead: ${notice}`,
  );
  // The table opened again shows the end as it stood: who was ahead, by name, and no bot mark on Dora.
  await dora.goto(`${BASE}/#/table/${tableId}`);
  for (let attempt = 0; ; attempt += 1) {
    await dora.waitForSelector('#end-title, .gone', { timeout: 8000 }).catch(() => {});
    if (await dora.locator('#end-title').count()) break;
    check(attempt < 10, `the abandoned table opens again: ${await dora.textContent('.table-page')}`);
    await dora.waitForTimeout(500);
    await dora.reload();
  }
  const standing = await dora.textContent('.end p');
  check(
    /stood: (Dora|Bot · easy)( and (Dora|Bot · easy))? (was|were) ahead/.test(standing),
    `the abandoned game says who was ahead: ${standing}`,
  );
  check((await dora.locator('table.scores tr:has-text("Dora") .badge.bot').count()) === 0, 'Dora, who left, is no bot');
  check((await dora.locator('table.scores .badge.bot').count()) === 1, 'the bot is marked');

  await dora.goto(`${BASE}/#/games`);
  await dora.waitForSelector(`.game-row[data-game="${tableId}"] .badge.abandoned`);
  await shot(dora, 'past-games-abandoned');
  log('the game left by its only player is shown as abandoned');
}

// "Play against a bot" in the lobby: a game of Rommi against two strong bots starts at once, their level
// shown in French on the board; Dora leaves it again.
async function playNow(dora) {
  await dora.goto(`${BASE}/#/`);
  await dora.selectOption('#lang-select', 'fr');
  await dora.waitForSelector('#play-bot:not([disabled])');
  check((await dora.textContent('#play-bot-title')) === 'Jouer contre un bot', 'the box speaks French');
  await dora.selectOption('#bot-game', 'rommi');
  await dora.selectOption('#bot-game-level', 'strong');
  await dora.selectOption('#bot-count', '2');
  await shot(dora, 'lobby-play-bot');
  await dora.click('#play-bot');
  await dora.waitForSelector('.board');
  const summary = await hook(dora, () => window.__romirami.page.summary());
  check(
    summary.game === 'rommi' && summary.state === 'playing' && summary.levels.join(',') === ',strong,strong',
    `one click started a game of Rommi against two strong bots: ${JSON.stringify(summary.levels)}`,
  );
  check(summary.public === false, 'a table of one’s own, not listed in the lobby');
  const board = await dora.textContent('.table-page');
  check(board.includes('Bot · fort'), 'the level is shown in the reader’s language');
  // On her turn, when the bots' moves do not redraw the page (and fold the menu) under her clicks.
  await dora.waitForFunction(() => window.__romirami.page.legal() != null, null, {
    timeout: Math.min(60000, timeLeft()),
  });
  await dora.click('details.leave summary');
  await dora.click('#leave-game');
  await dora.waitForFunction(() => location.hash === '#/');
  await dora.selectOption('#lang-select', 'en');
  log('a game against the bots started from the lobby in one click');
}

export async function bots(browser) {
  const dora = await againstBots(browser);
  await abandoned(dora);
  await playNow(dora);
}
