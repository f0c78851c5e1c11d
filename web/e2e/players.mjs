// Two players (a desktop and a phone-sized window) create and join a three-seat table through the invite link,
// the host starts it with two, and they play a complete game by clicking the page's controls; a third session
// watches from the lobby. On the way it takes a move back, sends a move the server refuses (and checks the
// refusal is shown), and drops one player's connection (and checks the page says so and plays on). At the end
// every page shows the scores, and the finished game is on the past-results pages with its record
// (finished.mjs).
//
// The test asks the page which moves are possible (window.__romirami.page.legal()) but acts only by clicking.

import {
  BASE,
  check,
  chooseName,
  desktop,
  hook,
  log,
  logShows,
  logText,
  openPage,
  phone,
  shot,
  tabTo,
  timeLeft,
} from './support.mjs';
import { caughtUp, choose, nextTurn, pageState, perform, settled } from './moves.mjs';
import { phoneFits, sameAsFresh, speaks } from './table-checks.mjs';
import { finishedGame } from './finished.mjs';

// Multisets of card codes, as the protocol treats lists of cards.
function covers(big, small) {
  const left = [...big];
  for (const card of small) {
    const i = left.indexOf(card);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

// How many of the log's lines tell moves (taken, completed, passed).
const moveLines = (text) => text.split('\n').filter((l) => /\b(took|completed|passed)\b/.test(l)).length;

export async function twoPlayers(browser) {
  {
    const ana = await openPage(browser, desktop);
    const ben = await openPage(browser, phone);
    const cleo = await openPage(browser, desktop);

    // Ana names herself and creates a public three-seat table with a relaxed clock.
    await ana.goto(`${BASE}/#/`);
    await chooseName(ana, 'Ana');
    await ana.waitForSelector('[data-testid=my-name]');
    await ana.selectOption('#opt-seats', '3');
    await ana.selectOption('#opt-public', 'true');
    await ana.selectOption('#opt-spectators', 'everyone');
    await ana.selectOption('#opt-clock', 'relaxed');
    await ana.click('#create-table');
    await ana.waitForSelector('#invite-link');
    const inviteLink = await ana.inputValue('#invite-link');
    const tableId = inviteLink.match(/#\/table\/([0-9a-f-]+)/)[1];
    check(inviteLink.includes('invite='), `the invite link carries the key: ${inviteLink}`);
    log(`table ${tableId}, invite link ${inviteLink}`);
    await shot(ana, 'waiting-room');

    // Cleo opens the lobby, sees the table and watches it.
    await cleo.goto(`${BASE}/#/`);
    await chooseName(cleo, 'Cleo');
    await cleo.waitForSelector(`.table-row[data-table="${tableId}"]`);
    const rowClock = await cleo.textContent(`.table-row[data-table="${tableId}"] .clock-words`);
    check(
      rowClock.startsWith('Relaxed: 1 min 30 s a turn + 5 min reserve'),
      `the lobby shows the table's clock: ${rowClock}`,
    );
    await cleo.selectOption('#opt-clock', 'normal');
    await shot(cleo, 'lobby');
    await cleo.click(`.table-row[data-table="${tableId}"] [data-action=watch]`);
    await cleo.waitForSelector('.waiting');

    // Ben follows the invite link on his phone, names himself, and sits down; Ana starts the game.
    await ben.goto(inviteLink);
    await chooseName(ben, 'Ben');
    await ben.waitForSelector('.waiting .seats li.taken >> nth=1');
    check((await ben.locator('#start-game').count()) === 0, 'only the host has a start button');
    await ana.waitForSelector('#start-game:not([disabled])');
    await ana.click('#start-game');
    for (const p of [ana, ben, cleo]) await p.waitForSelector('.board');
    const roles = await Promise.all([ana, ben, cleo].map((p) => pageState(p).then((s) => s.role)));
    check(roles[2] === 'spectator', 'Cleo watches as a spectator');
    const seats = new Map([
      [roles[0].seat, ana],
      [roles[1].seat, ben],
    ]);
    check(seats.size === 2, 'Ana and Ben have two seats');
    for (const p of [ana, ben, cleo]) await p.waitForSelector('.player.turn .seat-clock.running');
    const cleoView = (await pageState(cleo)).view;
    check(
      cleoView.hand === undefined && (await cleo.locator('.hand .card').count()) === 0,
      'the spectator sees no hand',
    );

    // Play the whole game by clicking.
    let moves = 0;
    const kinds = {};
    let tookBack = false;
    let refused = false;
    let dropped = false;
    let midShot = false;
    let starHint = false;
    let reloaded = false;
    let lateSpectator = false;
    let benAway = false;
    let switched = false;
    let keyboard = false;
    for (;;) {
      const turn = await nextTurn(ana, seats);
      if (!turn) break;
      const { page } = turn;
      let { state } = turn;
      // The table as Ana sees it as the turn begins.
      const { view } = await pageState(ana);
      const legal = state.legal;

      // Once: an impossible take cannot be built (a card sharing neither number nor suit with the one
      // picked is dimmed and cannot be picked); sent anyway, the refusal is shown in plain words.
      if (!refused && moves > 4 && legal.some((a) => a.type === 'take')) {
        const market = state.view.number_market;
        let pair = null;
        for (let i = 0; i < market.length && !pair; i += 1) {
          for (let j = i + 1; j < market.length && !pair; j += 1) {
            const [a, b] = [market[i], market[j]];
            if (a && b && a[0] !== b[0] && a.slice(1) !== b.slice(1)) pair = [i, j];
          }
        }
        if (pair) {
          const [first, second] = pair.map((slot) => `.number-market button.card[data-slot="${slot}"]`);
          await page.click(first);
          check(
            (await page.locator(`${second}[disabled]`).count()) === 1,
            'a card that cannot join the take is disabled',
          );
          await page.click(second, { force: true }).catch(() => {});
          check((await page.locator(`${second}[aria-pressed="true"]`).count()) === 0, 'the dimmed card was not picked');
          check((await page.locator('#act-take:not([disabled])').count()) === 1, 'one card is a take');
          await page.click('#act-clear');
          check((await page.locator('#act-take[disabled]').count()) === 1, 'nothing picked: no take to send');
          await hook(
            page,
            (cards) => window.__romirami.page.actUnchecked({ type: 'take', cards }),
            pair.map((i) => market[i]),
          );
          state = await settled(page, state.n);
          check(state.error, 'the server refused a take of mixed cards');
          const shown = await page.textContent('#action-error');
          check(
            /same number or all have the same suit/.test(shown) && !/§|share neither|illegal_action/.test(shown),
            `the refusal is shown in plain words: ${shown}`,
          );
          log(`refusal shown: ${shown.trim()}`);
          refused = true;
          continue;
        }
      }

      // Once: a contract that needs the Star says so, and cannot be sent before its cards are all picked.
      const needsStar = legal.find(
        (a) =>
          a.type === 'complete' &&
          a.star &&
          a.cards.length > 1 &&
          !legal.some((b) => b.type === 'complete' && !b.star && b.contract === a.contract && covers(b.cards, a.cards)),
      );
      if (!starHint && needsStar) {
        await page.click(`.contract-market button.contract[data-contract="${needsStar.contract}"]`);
        const pick = (card) =>
          page.locator(`.hand button.card[data-card="${card}"][aria-pressed="false"]`).first().click();
        await pick(needsStar.cards[0]);
        check(
          (await page.locator('#act-complete[disabled]').count()) === 1,
          'a contract with too few cards cannot be sent',
        );
        for (const card of needsStar.cards.slice(1)) await pick(card);
        const hint = await page.textContent('#hint');
        check(/needs the Star/.test(hint), `the hint says the Star is needed: ${hint}`);
        check((await page.locator('.star-row button.star.possible').count()) === 1, 'the Star is highlighted');
        check(
          (await page.locator('#act-complete[disabled]').count()) === 1,
          'without the Star the contract cannot be sent',
        );
        await page.click('.star-row button.star');
        check(
          (await page.locator('#act-complete:not([disabled])').count()) === 1,
          'with the Star the contract can be sent',
        );
        await page.click('#act-clear');
        log(`star hint shown: ${hint.trim()}`);
        starHint = true;
      }

      // Once: a reload mid-game keeps the log (rebuilt from the events the server replays).
      if (!reloaded && moves > 8) {
        const before = moveLines(await logText(ana));
        await ana.reload();
        await ana.waitForSelector('.board');
        await ana
          .waitForFunction(
            (n) => window.__romirami.page.log().filter((l) => /\b(took|completed|passed)\b/.test(l)).length >= n,
            before,
            { timeout: 10000 },
          )
          .catch(() => {});
        const after = moveLines(await logText(ana));
        check(after >= before && before > 4, `the log survives a reload: ${before} move lines before, ${after} after`);
        log(`reloaded: the log has ${after} move lines`);
        reloaded = true;
        continue;
      }

      // Once: a spectator who arrives mid-game sees the game's history.
      if (!lateSpectator && moves > 10) {
        const eve = await openPage(browser, desktop);
        await eve.goto(`${BASE}/#/`);
        await chooseName(eve, 'Eve');
        await eve.waitForSelector('[data-testid=my-name]');
        await eve.goto(`${BASE}/#/table/${tableId}?watch=1`);
        await eve.waitForSelector('.board');
        await logShows(eve, /\btook\b/, 'a late spectator sees the history');
        check(
          moveLines(await logText(eve)) >= moveLines(await logText(ana)) - 2,
          'the late spectator has the whole history',
        );
        await eve.context().close();
        log('a late spectator saw the history');
        lateSpectator = true;
      }

      // Once: the spectator switches to Italian, then French, mid-game, and back to English.
      if (!switched && moves > 6) {
        await speaks(cleo, 'it', /Mercato/i);
        await speaks(cleo, 'fr', /Marché/i);
        await cleo.selectOption('#lang-select', 'en');
        await cleo.waitForSelector('.number-market h2:has-text("Market")');
        log('the spectator read the table in Italian and in French');
        switched = true;
      }

      // Once: Ana plays a whole turn with the keyboard only (Tab to a control, Space or Enter on it).
      if (!keyboard && moves > 18 && page === ana && legal.some((a) => a.type === 'take')) {
        const take = choose(legal);
        for (const card of take.cards) {
          await tabTo(ana, `.number-market button.card[data-card="${card}"][aria-pressed="false"]`);
          await ana.keyboard.press('Space');
        }
        await tabTo(ana, '#act-take');
        await ana.keyboard.press('Enter');
        state = await settled(ana, state.n);
        check(!state.error, `the keyboard take was played: ${state.error}`);
        await ana.waitForFunction(() => window.__romirami.page.legal() != null);
        // The focus stays in the action panel after a move, and the key A brings it there from anywhere.
        const inPanel = () => ana.evaluate(() => document.activeElement?.closest('.actions') != null);
        check(await inPanel(), 'after the take the focus is in the action panel');
        await tabTo(ana, '.log ol');
        await ana.keyboard.press('a');
        check(await inPanel(), 'the key A brings the focus to the action panel');
        // It is her turn: the title says so, and the chime sounded as it became hers.
        const cue = await ana.evaluate(() => ({ title: document.title, chimes: window.__romirami.page.chimes() }));
        check(
          cue.title.startsWith('▶') && cue.chimes >= 1,
          `her turn shows in the title and chimed: ${JSON.stringify(cue)}`,
        );
        await tabTo(ana, '#act-pass');
        const beforePass = (await pageState(ana)).n;
        await ana.keyboard.press('Enter');
        state = await settled(ana, beforePass);
        check(!state.error, `the keyboard pass was played: ${state.error}`);
        await caughtUp([ana, ben, cleo], state.n);
        log(`Ana played a turn with the keyboard: took ${take.cards.join(' ')} and passed`);
        moves += 2;
        keyboard = true;
        continue;
      }

      // Once, on Ana's turn: Ben leaves the game (the bot would play for him) and comes back; Ana is told.
      if (!benAway && moves > 14 && page === ana) {
        await ben.click('details.leave summary');
        await ben.click('#leave-game');
        await ben.waitForFunction(() => location.hash === '#/');
        await logShows(ana, /Ben left the game/, 'Ana is told Ben left');
        await ben.goto(`${BASE}/#/table/${tableId}`);
        await ben.waitForSelector('.board');
        await logShows(ana, /Ben is back/, 'Ana is told Ben came back');
        await logShows(ben, /\btook\b/, 'Ben, back at the table, sees the history');
        log('Ben left and came back');
        benAway = true;
      }

      const action = choose(legal);
      // The mid-game pictures: Ana about to complete a contract, Ben and Cleo watching it happen.
      const picture =
        !midShot && page === ana && action.type === 'complete' && view.seats.some((s) => s.contracts.length >= 2);
      await perform(page, action, async () => {
        if (!picture) return;
        await shot(ana, 'table-desktop');
        await phoneFits(ben);
        await shot(ben, 'table-phone');
        await shot(cleo, 'table-spectator');
        for (const p of [ana, ben, cleo]) await sameAsFresh(p, tableId);
        await sameAsFresh(ben, tableId);
        midShot = true;
      });
      state = await settled(page, state.n);
      check(!state.error, `the server accepted ${JSON.stringify(action)}: ${state.error}`);
      await caughtUp([ana, ben, cleo], state.n);
      moves += 1;
      kinds[action.type] = (kinds[action.type] ?? 0) + 1;

      // Once: take the first take back, then play on.
      if (!tookBack && action.type === 'take') {
        await page.waitForFunction(() => (window.__romirami.page.legal() ?? []).some((a) => a.type === 'take_back'));
        const before = (await pageState(page)).n;
        await page.click('#act-take-back');
        state = await settled(page, before);
        check(!state.error && state.view.phase.step === 'take', 'the take was taken back');
        await caughtUp([ana, ben, cleo], state.n);
        tookBack = true;
        log('took a take back');
      }

      // Once: Ben's connection drops; the page says so, reconnects by itself and catches up.
      if (!dropped && moves > 12) {
        await hook(ben, () => window.__romirami.drop());
        await ben.waitForSelector('#conn.lost, #conn.back');
        await ben.waitForFunction(() => window.__romirami.status() === 'open');
        await ben.waitForSelector('#conn.back');
        log('Ben reconnected');
        dropped = true;
      }
    }
    log(`game over after ${moves} moves: ${JSON.stringify(kinds)}`);
    const ran = { tookBack, dropped, refused, reloaded, lateSpectator, benAway, switched, keyboard };
    check(Object.values(ran).every(Boolean), `every mid-game check ran: ${JSON.stringify(ran)}`);
    if (!starHint) log('no contract needing the Star came up in this game');

    // Everybody sees the end screen with the breakdown and the winner; the spectator too.
    for (const p of [ana, ben, cleo]) {
      await p.waitForSelector('#end-title');
      await p.waitForSelector('table.scores tr.winner');
    }
    const [a, , c] = await Promise.all([ana, ben, cleo].map(pageState));
    check(JSON.stringify(a.view.result) === JSON.stringify(c.view.result), 'the spectator sees the same result');
    for (const p of [ana, ben, cleo]) await sameAsFresh(p, tableId);
    await shot(ana, 'end-desktop');
    await shot(ben, 'end-phone');
    const words = await logText(ana);
    check(/took/.test(words) && /completed/.test(words) && /Game over/.test(words), 'the log tells the game in words');

    await finishedGame(ana, tableId);
    await Promise.all([ana, ben, cleo].map((p) => p.context().close()));
  }
}
