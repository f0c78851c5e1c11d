// End-to-end test of the web client in a real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core, which never downloads a browser of its own).
//
//   ROMIRAMI_URL=http://127.0.0.1:8080 node e2e.mjs [--screenshots DIR]
//
// Two players (a desktop and a phone-sized window) create and join a three-seat table through the
// invite link, the host starts it with two, and they play a complete game by clicking the page's controls; a third
// session watches from the lobby. On the
// way it takes a move back, sends a move the server refuses (and checks the refusal is shown), and
// drops one player's connection (and checks the page says so and plays on). At the end every page shows
// the scores, and the finished game is on the past-results pages with its record.
//
// Then a host alone plays against two bots on a clocked table: she adds them with the page's button
// (removing one on the way), the table starts by itself, she lets her time run out once (the bot plays
// for her; she takes her seat back), and plays on to the end; the bots and the bot's moves for her are
// marked on the end screen and the game page. Last, a game against a bot that she leaves: it ends as
// abandoned and is shown so.
//
// The test asks the page which moves are possible (window.__romirami.page.legal()) but acts only by
// clicking.

import { chromium } from 'playwright-core';
import {
  BASE,
  CHROME,
  check,
  chooseName,
  desktop,
  hook,
  log,
  logShows,
  logText,
  openGamePage,
  openPage,
  phone,
  shot,
  startSeed,
  tabTo,
  timeLeft,
} from './support.mjs';
import { caughtUp, choose, pageState, perform, settled } from './moves.mjs';
import { again } from './again.mjs';
import { rummy } from './rummy.mjs';
import { together } from './together.mjs';

// The parts of a view that the page keeps current from events, to compare with a fresh view.
function essentials(view) {
  const {
    phase,
    last_round,
    trophies,
    trophy_leaders,
    number_market,
    contract_market,
    number_deck,
    contract_deck,
    discard_pile,
    seats,
    result,
  } = view;
  const hand = view.hand ? [...view.hand].sort() : null;
  const bonus = view.suit_bonus ? [...view.suit_bonus].sort() : null;
  const sorted = (value) =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, sorted(value[k])]),
          )
        : value;
  return JSON.stringify(
    sorted({
      phase,
      last_round,
      trophies,
      trophy_leaders,
      number_market,
      contract_market,
      number_deck,
      contract_deck,
      discard_pile,
      seats,
      result,
      hand,
      bonus,
    }),
  );
}

// Opens the table afresh in another tab of the same browser (the same player) and checks that the view
// the page built from events (markets, piles, seats, scores, trophy leaders, hand) matches the view the
// server sends the new tab.
async function sameAsFresh(watcher, tableId) {
  const fresh = await watcher.context().newPage();
  const role = (await pageState(watcher)).role;
  await fresh.goto(`${BASE}/#/table/${tableId}${role === 'spectator' ? '?watch=1' : ''}`);
  await fresh.waitForSelector('.board');
  const [built, server] = await Promise.all([watcher, fresh].map((p) => pageState(p).then((s) => essentials(s.view))));
  await fresh.close();
  check(built === server, `the view built from events matches the server's:\n${built}\n${server}`);
}

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

// The phone: the market and the hand are on the first screen, and the action bar covers neither.
async function phoneFits(page) {
  const boxes = await page.evaluate(() => {
    window.scrollTo(0, 0);
    const rect = (sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r ? { top: r.top, bottom: r.bottom } : null;
    };
    return {
      market: rect('.number-market'),
      hand: rect('.hand'),
      actions: rect('.actions'),
      height: innerHeight,
      width: innerWidth,
      pageWidth: document.documentElement.scrollWidth,
    };
  });
  // Nothing (the top bar's links, say) makes the page wider than the phone: it would be zoomed out.
  check(boxes.pageWidth <= boxes.width, `the page is no wider than the phone: ${JSON.stringify(boxes)}`);
  check(
    boxes.market && boxes.market.bottom <= boxes.height,
    `the market is above the fold on the phone: ${JSON.stringify(boxes)}`,
  );
  check(
    boxes.hand && boxes.hand.bottom <= boxes.height,
    `the hand is above the fold on the phone: ${JSON.stringify(boxes)}`,
  );
  const overlap = boxes.actions && boxes.actions.top < boxes.hand.bottom && boxes.actions.bottom > boxes.hand.top;
  check(!overlap, `the action bar covers no part of the hand: ${JSON.stringify(boxes)}`);
}

// English words of the table page; none may be left once another language is chosen.
const ENGLISH = new RegExp(
  String.raw`(?<!\p{L})(Your|turn|Market|Contracts|Trophies|hand|Pass|Take|Game log|Deck|Discard|took|passed|` +
    String.raw`completed|cards|Leave|Invite|watching|reserve)(?!\p{L})`,
  'iu',
);

// Switches the page's language with the switch in the top bar and checks the table page is in it.
async function speaks(page, lang, words) {
  await page.selectOption('#lang-select', lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  const text = await page.evaluate(() =>
    document.querySelector('.table-page').innerText.replace(/\b(Ana|Ben|Cleo|Eve)\b/g, ''),
  );
  check(words.test(text), `the table page speaks ${lang}: ${text.slice(0, 300)}`);
  const english = text.match(ENGLISH);
  check(!english, `no English is left on the table page in ${lang}: “${english?.[0]}” in ${text}`);
}

async function twoPlayers(browser) {
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
      timeLeft();
      const view = (await pageState(ana)).view;
      if (view.phase.state === 'over') break;
      const page = seats.get(view.phase.seat);
      await page.waitForFunction(
        () => {
          const p = window.__romirami.page;
          return p.legal() != null || p.result() != null;
        },
        null,
        { timeout: Math.min(20000, timeLeft()) },
      );
      let state = await pageState(page);
      if (state.over) break;
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
    const vector = await hook(ana, () =>
      import('/js/shuffle-proof.js').then((m) =>
        m.commitmentOf(
          '1234567890123456789',
          Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join(''),
        ),
      ),
    );
    check(vector === '8172b88cfc15a4642043f9a7e644221bd959cd1057625a00a13e07b037182384', `the test vector: ${vector}`);
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
    await Promise.all([ana, ben, cleo].map((p) => p.context().close()));
  }
}

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

  // A bot, removed again; then two bots, and the full table starts by itself.
  await dora.click('#add-bot');
  await dora.waitForSelector('.waiting .seats li.bot[data-seat="1"] .badge.bot');
  await dora.click('.waiting .seats li[data-seat="1"] button:has-text("Remove")');
  await dora.waitForSelector('.waiting .seats li.free[data-seat="1"]');
  await dora.click('#add-bot');
  await dora.waitForSelector('.waiting .seats li.bot[data-seat="1"]');
  await shot(dora, 'waiting-room-bot');
  await dora.click('#add-bot');
  await dora.waitForSelector('.board');
  const summary = await hook(dora, () => window.__romirami.page.summary());
  const me = (await pageState(dora)).role.seat;
  check(
    summary.bots.filter(Boolean).length === 2 && !summary.bots[me],
    `two bots and Dora: ${JSON.stringify(summary.bots)}`,
  );
  check((await dora.locator('.player.bot .badge.bot').count()) === 2, 'the bot seats are marked');
  log('Dora plays against two bots');

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
      // Out of time (once on purpose, maybe again on a slow machine): take the seat back.
      await dora.click('#take-seat-back');
      reclaims += 1;
      log('Dora takes her seat back');
      continue;
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
  log(`the game against the bots is over; Dora played ${moves} moves`);
  await shot(dora, 'end-bots');

  const game = await openGamePage(dora);
  const bots = game.players.filter((p) => p.bot).length;
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

  await dora.click('#add-bot');
  await dora.waitForSelector('.board');
  check((await dora.textContent('.table-info .table-clock')).includes('No clock'), 'the table says it has no clock');
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
    /(Dora|Bot 2)( and (Dora|Bot 2))? (was|were) ahead/.test(notice),
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
    /stood: (Dora|Bot 2)( and (Dora|Bot 2))? (was|were) ahead/.test(standing),
    `the abandoned game says who was ahead: ${standing}`,
  );
  check((await dora.locator('table.scores tr:has-text("Dora") .badge.bot').count()) === 0, 'Dora, who left, is no bot');
  check((await dora.locator('table.scores .badge.bot').count()) === 1, 'the bot is marked');

  await dora.goto(`${BASE}/#/games`);
  await dora.waitForSelector(`.game-row[data-game="${tableId}"] .badge.abandoned`);
  await shot(dora, 'past-games-abandoned');
  log('the game left by its only player is shown as abandoned');
}

// The scenarios, in the order they run; E2E_ONLY=name[,name] runs only those. A scenario is a function of the
// browser; a new one lives in a module of its own beside this file and shares ./support.mjs.
const SCENARIOS = [
  ['players', twoPlayers],
  ['bots', async (browser) => abandoned(await againstBots(browser))],
  ['rummy', rummy],
  ['together', together],
  ['again', again],
];
const ONLY = process.env.E2E_ONLY ? process.env.E2E_ONLY.split(',') : null;

async function main() {
  log(`server ${BASE}, browser ${CHROME}, seed ${startSeed}`);
  const browser = await chromium.launch({ executablePath: CHROME, headless: true, args: ['--no-sandbox'] });
  try {
    for (const [name, run] of SCENARIOS) {
      if (ONLY && !ONLY.includes(name)) continue;
      log(`scenario ${name}`);
      await run(browser);
    }
  } finally {
    await browser.close();
  }
}

main().then(
  () => {
    log('PASSED');
    process.exit(0);
  },
  (error) => {
    console.error(`[e2e] FAILED: ${error.stack ?? error}`);
    process.exit(1);
  },
);
