// The rummy family at the table: a complete Rommi match between two players who meet through the
// invite link, with a low target so that it ends soon, watched by a spectator; then one complete Rami round
// and one complete Rumino hand, each against a bot. Every move is made by clicking the page's controls (the
// stock, the discard pile, the hand's cards, the move buttons, a meld to lay off on); the test asks the page
// which moves are legal (window.__romirami.page.legal(), the server's own list) only to choose one.

import {
  frames,
  BASE,
  check,
  chooseName,
  desktop,
  hook,
  log,
  openGamePage,
  openPage,
  quiet,
  random,
  shot,
  timeLeft,
} from './support.mjs';

/** The server's legal actions in one shape (the page's own js/games/rummy/legal.js does the same). */
export function normalize(raw) {
  if (typeof raw === 'string') return { kind: raw, cards: [], raw };
  if (raw.type) {
    const cards = raw.cards ?? (raw.type === 'discard' ? [raw.card] : []);
    return { kind: raw.type, cards, id: raw.id, card: raw.card, gin: raw.gin, rebuy: raw.rebuy, raw };
  }
  const [kind] = Object.keys(raw);
  const v = raw[kind];
  if (kind === 'open') return { kind, cards: v.flatMap((m) => m.cards), raw };
  if (kind === 'discard') return { kind, cards: [v], card: v, raw };
  if (kind === 'exchange') return { kind, cards: [v.card], id: v.id, raw };
  return { kind, cards: v.cards, id: v.id, raw };
}

export const state = (page) =>
  hook(page, () => {
    const p = window.__romirami?.page;
    if (!p || p.name !== 'table' || p.board() !== 'rummy') return null;
    return {
      legal: p.legal(),
      over: p.result() != null,
      n: p.eventCount(),
      error: p.error(),
      role: p.role(),
      view: p.view(),
    };
  });

// The move a hurried player makes: lay down whatever can be laid down, else draw, then discard at random.
const PREFERENCE = ['rebuy', 'knock', 'open', 'meld', 'lay_off', 'exchange', 'draw', 'end_round', 'take', 'discard'];
function choose(legal) {
  const moves = legal.map(normalize);
  const gin = moves.find((m) => m.kind === 'discard' && m.gin);
  if (gin) return gin;
  for (const kind of PREFERENCE) {
    const pool = moves.filter((m) => m.kind === kind && (kind !== 'rebuy' || m.rebuy));
    if (pool.length) return pool[Math.floor(random() * pool.length)];
  }
  return moves[0];
}

// Makes the move with the page's controls: picks its cards in the hand, then the button (or the meld) that
// plays them.
export async function perform(page, move) {
  for (const card of move.cards.filter(() => !['take', 'draw'].includes(move.kind))) {
    await page.locator(`.meld-hand button.rcard[data-card="${card}"][aria-pressed="false"]`).first().click();
  }
  switch (move.kind) {
    case 'draw':
      return page.click('#act-stock');
    case 'take':
      return move.card ? page.locator('.pile button.rcard').last().click() : page.click('#act-take');
    case 'end_round':
      return page.click('#act-end-round');
    case 'knock':
      return page.click('#act-knock');
    case 'rebuy':
      return page.click('#act-rebuy');
    case 'open':
      return page.click('#act-open');
    case 'meld':
      return page.click('#act-meld');
    case 'lay_off': {
      await page.click(`.melds button.meld[data-meld="${move.id}"]`);
      // A joker that may stand for two cards there: the page asks which (rummy-board.mjs checks it).
      const joker = move.raw.lay_off?.joker;
      const choice = page.locator(`.meld-choice button[data-joker="${joker}"]`);
      if (joker && (await choice.count())) await choice.click();
      return undefined;
    }
    case 'exchange':
      return page.click(`#act-exchange-${move.id}`);
    case 'discard':
      return page.click(move.gin ? '#act-gin' : '#act-discard');
    default:
      throw new Error(`unknown move ${JSON.stringify(move.raw)}`);
  }
}

// Plays every seat these pages hold until `done` says so; returns how many moves were made.
async function playUntil(pages, done, what) {
  let moves = 0;
  for (;;) {
    timeLeft();
    if (await done()) return moves;
    let acted = false;
    for (const page of pages) {
      const s = await state(page);
      if (!s?.legal || s.over) continue;
      const move = choose(s.legal);
      await perform(page, move);
      await page.waitForFunction(
        (n) => window.__romirami.page.eventCount() > n || window.__romirami.page.error(),
        s.n,
        { timeout: Math.min(20000, timeLeft()) },
      );
      const error = await hook(page, () => window.__romirami.page.error());
      check(!error, `${what}: the move ${JSON.stringify(move.raw)} was played, not refused: ${error}`);
      moves += 1;
      acted = true;
    }
    if (!acted) await pages[0].waitForTimeout(60);
  }
}

// A host creates a table of `game` with its options set in the lobby's form; returns the invite link.
export async function createTable(page, game, seats, options) {
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('#opt-game');
  await page.selectOption('#opt-game', game);
  await page.selectOption('#opt-seats', String(seats));
  for (const [selector, value] of Object.entries(options)) {
    if ((await page.locator(selector).evaluate((el) => el.tagName)) === 'SELECT')
      await page.selectOption(selector, value);
    else await page.fill(selector, value);
  }
  await page.selectOption('#opt-public', 'true');
  await page.click('#create-table');
  await page.waitForSelector('#invite-link');
  return page.inputValue('#invite-link');
}

async function rommiMatch(browser) {
  const [ana, ben, cleo] = await Promise.all([0, 1, 2].map(() => openPage(browser, desktop)));
  const cleoFrames = frames(cleo);
  await ana.goto(`${BASE}/#/`);
  await chooseName(ana, 'Ana');
  await ana.waitForSelector('[data-testid=my-name]');
  // The lobby offers each game's player range and its options with the rule book's defaults.
  await ana.selectOption('#opt-game', 'rumino');
  check((await ana.locator('#opt-seats option').count()) === 5, 'Rumino seats 2 to 6');
  check((await ana.inputValue('#opt-rebuys')) === '1', 'one rebuy by default (rumino §2)');
  await ana.selectOption('#opt-game', 'rami');
  check((await ana.locator('#opt-seats option').count()) === 4, 'Rami seats 2 to 5');
  check((await ana.inputValue('#opt-opening')) === '51', 'Rami 51 by default (rami §2)');
  const invite = await createTable(ana, 'rommi', 2, { '#opt-target': '1' });
  const tableId = invite.match(/#\/table\/([0-9a-f-]+)/)[1];
  const waiting = await ana.textContent('#wait-game');
  check(/^Rommi · Basic rummy.* · to 1 · Rated$/.test(waiting ?? ''), `the waiting room names the game: ${waiting}`);

  // The lobby lists the table with its game and options.
  await cleo.goto(`${BASE}/#/`);
  await chooseName(cleo, 'Cleo');
  const row = cleo.locator(`.table-row[data-table="${tableId}"]`);
  await row.waitFor();
  const rowText = await row.textContent();
  check(
    /Rommi/.test(rowText) && /Basic rummy/.test(rowText) && /to 1/.test(rowText),
    `the lobby names the game and options: ${rowText}`,
  );
  await shot(cleo, 'lobby-rummy');

  await ben.goto(invite);
  // Before he has a name, the page says which game and options he is invited to.
  await ben.waitForSelector('#invited #wait-game');
  const invited = await ben.textContent('#invited');
  check(/Rommi · Basic rummy.* · to 1/.test(invited ?? ''), `the invite page names the game: ${invited}`);
  await chooseName(ben, 'Ben');
  await ana.waitForSelector('.meld-board');
  await ben.waitForSelector('.meld-board');
  // Cleo comes by the invite link after the start: she watches, and follows the match to its end.
  await cleo.goto(invite);
  await cleo.waitForSelector('.meld-board');
  const cleoFrom = { sent: cleoFrames.sent.length, bytes: cleoFrames.receivedBytes };
  log('Ana and Ben play Rommi to 1 point, Cleo watches');

  // Ben's page goes: Ana sees him away (his seat is still his); he comes back by the table's address.
  // (Closing a page at a game in play asks first: Ben says yes.)
  ben.once('dialog', (dialog) => dialog.accept());
  await ben.goto('about:blank');
  await ana.waitForSelector('.meld-game .player.offline .badge.offline');
  await ben.goto(`${BASE}/#/table/${tableId}`);
  await ben.waitForSelector('.meld-board');
  await ana.waitForFunction(() => document.querySelector('.meld-game .player.offline') == null);
  log('Ben was away and is back');
  // Nobody moves yet: the three pages rest (no redraw loop, no request asked again and again).
  for (const [who, page] of [
    ['Ana', ana],
    ['Ben', ben],
    ['Cleo', cleo],
  ])
    await quiet(page, `${who}'s page after Ben came back`);

  // The first player takes the top discard by clicking it, then takes it back (the online tables allow taking
  // back the steps of one's turn, protocol "Taking back in the rummy family").
  await ana.waitForFunction(() => window.__romirami.page.legal() != null, null, { timeout: 20000 }).catch(() => {});
  const first = (await state(ana))?.legal ? ana : ben;
  await first.waitForFunction(() => window.__romirami.page.legal() != null, null, { timeout: 20000 });
  const before = (await state(first)).n;
  await first.locator('.pile button.rcard').last().click();
  await first.waitForFunction(() => window.__romirami.page.legal()?.some((a) => a.type === 'take_back'), null, {
    timeout: 20000,
  });
  await first.click('#act-take-back');
  await first.waitForFunction(
    (n) =>
      window.__romirami.page.log().some((l) => /took a move back/.test(l)) &&
      window.__romirami.page.legal() != null &&
      window.__romirami.page.eventCount() >= n + 2,
    before,
    { timeout: 20000 },
  );
  log('a take from the discard pile was taken back');
  for (const [who, page] of [
    ['Ana', ana],
    ['Ben', ben],
    ['Cleo', cleo],
  ])
    await quiet(page, `${who}'s page after the take-back`);

  let shotTaken = false;
  const moves = await playUntil(
    [ana, ben],
    async () => {
      const s = await state(ana);
      if (!shotTaken && s?.view?.melds?.length >= 2 && s.legal && s.view.step === 'play') {
        shotTaken = true;
        await shot(ana, 'table-rommi');
      }
      return s?.over === true;
    },
    'rommi',
  );
  log(`the Rommi match is over after ${moves} moves`);
  await cleo.waitForSelector('#match-end');
  // The spectator follows the match from what the server sends: she asks once, and never again.
  const asked = cleoFrames.sent
    .slice(cleoFrom.sent)
    .filter((m) => m?.table === tableId && /^(join|watch)$/.test(m.type));
  const events = await hook(cleo, () => window.__romirami.page.eventCount?.() ?? null);
  log(
    `Cleo, watching, sent ${asked.length} join/watch after the first and received ` +
      `${cleoFrames.receivedBytes - cleoFrom.bytes} bytes over ${moves} moves ` +
      `(${Math.round((cleoFrames.receivedBytes - cleoFrom.bytes) / moves)} a move; events ${events})`,
  );
  check(asked.length === 0, `the spectator asked for the table again ${asked.length} times`);
  await ana.setViewportSize({ width: 1280, height: 800 });
  for (const page of [ana, ben, cleo]) {
    await page.waitForSelector('#match-end');
    // The side column's panels (moves, scores, log, chat, table info) each keep to their own place.
    const overlaps = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll('.side > *')].map((e) => [e.className, e.getBoundingClientRect()]);
      const found = [];
      for (let i = 1; i < boxes.length; i += 1) {
        const [name, box] = boxes[i];
        const [above, prev] = boxes[i - 1];
        if (box.height > 0 && prev.height > 0 && box.top < prev.bottom - 1) found.push(`${above} / ${name}`);
      }
      return found;
    });
    check(overlaps.length === 0, `the side column's panels do not overlap at the match's end: ${overlaps}`);
    const text = await page.textContent('#match-end');
    check(/wins? the match/.test(text), `the match end names the winner: ${text}`);
    check(
      (await page.locator('#match-end .round-scores tbody tr').count()) === 2,
      'the last round scores both players',
    );
    check((await page.locator('#match-end .totals li').count()) === 2, 'the totals of both players');
    // Two named players, no bot, rated (the form's default): the match counts for their Rommi ratings.
    await page.waitForSelector('#match-end [data-testid=rating-changes] li >> nth=1');
  }
  const watched = await state(cleo);
  check(watched.role === 'spectator' && watched.view.hand === null, 'the spectator is sent no hand');
  check(
    (await cleo.locator('.meld-hand').count()) === 0 && (await cleo.locator('.hand-watch').count()) === 1,
    'the spectator sees no hand',
  );
  // The scores in Italian and French, as the rest of the page.
  await cleo.selectOption('#lang-select', 'it');
  await cleo.waitForSelector('#match-end:has-text("La partita è finita")');
  await cleo.selectOption('#lang-select', 'fr');
  await cleo.waitForSelector('#match-end:has-text("La partie est finie")');
  await cleo.selectOption('#lang-select', 'en');
  if (!shotTaken) await shot(ana, 'table-rommi');
  // The finished match has its page, with its record.
  const stored = await openGamePage(ana);
  check(
    stored.game === 'rommi' && stored.players.length === 2,
    `the game page shows the match: ${JSON.stringify(stored).slice(0, 200)}`,
  );
  log(`the game page: ${await ana.textContent('#game-title')}`);
  const meta = await ana.textContent('.game-page');
  check(
    /a total reached the target/.test(meta) && (await ana.locator('table.round-scores tbody tr').count()) === 2,
    `the game page says how the match ended and scores its rounds: ${meta.slice(0, 300)}`,
  );
  check((await ana.locator('#replay-link').count()) === 1, 'the match has its replay (replays.mjs steps through one)');
  const named = await ana.textContent('#game-name');
  check(/^Rommi · .*to 1\b/.test(named ?? ''), `the game page names the game and its options: ${named}`);
  await shot(ana, 'game-page-rommi');
  await pastResultsNameTheGame(ana, stored.id);
  await refusalsInTheReadersLanguage(browser, ana, stored.id);
  await Promise.all([ana, ben, cleo].map((p) => p.context().close()));
}

// What the page cannot do is said in the reader's language: a game that is not there has no replay (in
// Italian), and a name that reads as a bot's is refused (in French).
async function refusalsInTheReadersLanguage(browser, page, id) {
  await page.selectOption('#lang-select', 'it');
  await page.goto(`${BASE}/#/replay/${id.replace(/^.{8}/, '00000000')}`);
  await page.waitForSelector('.error-box');
  const replayError = await page.textContent('.error-box p');
  check(
    replayError === 'Questa partita non esiste, o non è ancora finita.',
    `the replay's refusal in Italian: ${replayError}`,
  );
  await page.selectOption('#lang-select', 'en');
  const eve = await openPage(browser, desktop);
  await eve.goto(`${BASE}/#/`);
  await eve.waitForSelector('#name-input');
  await eve.selectOption('#lang-select', 'fr');
  await chooseName(eve, 'Bot 1');
  await eve.waitForFunction(() => /\S/.test(document.querySelector('.name-form .error')?.textContent ?? ''));
  const refused = await eve.textContent('.name-form .error');
  check(/^Ce nom n’est pas possible/.test(refused ?? ''), `a bot's name is refused in French: ${refused}`);
  await eve.context().close();
  log('refusals in the reader’s language');
}

// The past results name each game, and a game filter shows one game's matches only; the players filter
// reaches the largest table (Rumino's 6).
async function pastResultsNameTheGame(page, id) {
  await page.goto(`${BASE}/#/games`);
  const row = `.game-row[data-game="${id}"]`;
  await page.waitForSelector(row);
  const name = await page.textContent(`${row} .game-name`);
  check(/^Rommi/.test(name ?? ''), `the past results name the game: ${name}`);
  const counts = await page.$$eval('#f-players option', (options) => options.map((o) => o.value));
  check(counts.join(',') === ',2,3,4,5,6', `the players filter goes to 6: ${counts}`);
  await page.selectOption('#f-game', 'rami');
  await page.click('#filter-games');
  await page.waitForFunction(
    () =>
      location.hash.includes('game=rami') &&
      window.__romirami.page?.name === 'games' &&
      window.__romirami.page.loaded(),
  );
  check((await page.locator(row).count()) === 0, 'the Rommi match is not among the Rami games');
  await page.selectOption('#f-game', 'rommi');
  await page.click('#filter-games');
  await page.waitForFunction(() => location.hash.includes('game=rommi'));
  await page.waitForSelector(row);
  const games = await page.$$eval('.game-row .game-name', (names) => names.map((n) => n.getAttribute('data-game')));
  check(games.length > 0 && games.every((g) => g === 'rommi'), `the filter shows Rommi only: ${games}`);
  log('the past results name the game and filter by it');
}

// One round (or hand) against a bot, from the host's seat: `done` says when it is complete.
async function againstBot(browser, name, game, options, doneWhat) {
  const page = await openPage(browser, desktop);
  await page.goto(`${BASE}/#/`);
  await chooseName(page, name);
  await page.waitForSelector('[data-testid=my-name]');
  await createTable(page, game, 2, options);
  await page.click('#add-bot');
  await page.waitForSelector('.meld-board');
  log(`${name} plays ${game} against a bot`);
  let shotTaken = false;
  const moves = await playUntil(
    [page],
    async () => {
      const s = await state(page);
      const ready =
        game === 'rumino' ? s?.view?.step === 'discard' : s?.view?.melds.length >= 2 && s.view.step === 'play';
      if (!shotTaken && s?.legal && ready) {
        shotTaken = true;
        await shot(page, `table-${game}`);
      }
      return s?.over || s?.view?.last != null;
    },
    game,
  );
  await page.waitForSelector('#round-end, #match-end');
  const text = await page.textContent('#round-end, #match-end');
  log(`${doneWhat} after ${moves} moves: ${text.slice(0, 120)}`);
  check((await page.locator('.round-scores tbody tr').count()) === 2, `${game}: the scores of both players`);
  check(
    (await page.locator('.scores .totals li').count()) === 2 ||
      (await page.locator('#match-end .totals li').count()) === 2,
    `${game}: the running totals`,
  );
  // A rated game against the host's bot counts for both: the end shows the rating changes.
  if (await page.locator('#match-end').count())
    await page.waitForSelector('#match-end [data-testid=rating-changes]:has-text("Bot · normal")');
  if (!shotTaken) await shot(page, `table-${game}`);
  // The table links the game's own rules.
  const help = await page.getAttribute('#help-link', 'href');
  check(help === `#/help/${game}`, `the table links ${game}'s rules: ${help}`);
  // The match may go on after this round: leaving it is asked first, and said yes to.
  page.once('dialog', (dialog) => dialog.accept());
  await page.goto(`${BASE}/#/help/${game}`);
  await page.waitForSelector('#rule-turn');
  await page.context().close();
}

export async function rummy(browser) {
  await rommiMatch(browser);
  await againstBot(browser, 'Dora', 'rami', { '#opt-end': 'rounds', '#opt-end-n': '1' }, 'the Rami round is over');
  await againstBot(browser, 'Eli', 'rumino', {}, 'the Rumino hand is over');
}
