// The rummy board's harder corners, each a check of its own: 500 rummy's splayed discard pile, every card of
// which must be readable (rank and suit in sight) on a desktop and on a phone, without hover; and a Rami lay-off
// whose joker can stand for two cards, where the page must say which each button means and ask on a click on
// the meld rather than send the first.

import { BASE, check, chooseName, desktop, hook, log, openPage, phone, quiet, shot, timeLeft } from './support.mjs';
import { createTable, normalize, perform, state } from './rummy.mjs';

/** For each card of the splayed pile: whether its rank and suit can be seen (nothing over them, on screen). */
const pileReadable = (page) =>
  hook(page, () => {
    document.querySelector('.pile.splayed')?.scrollIntoView({ block: 'center' });
    const cards = [...document.querySelectorAll('.pile.splayed .pile-cards > .rcard')];
    return cards.map((card) => {
      const seen = [card.querySelector('.rank'), card.querySelector('.suit')].every((part) => {
        const r = part.getBoundingClientRect();
        const y = r.top + r.height / 2;
        return [r.left + 1, r.left + r.width / 2, r.right - 1].every((x) => {
          const at = document.elementFromPoint(x, y);
          return x >= 0 && x <= window.innerWidth && at != null && card.contains(at);
        });
      });
      return { card: card.getAttribute('data-card'), seen, width: Math.round(card.getBoundingClientRect().width) };
    });
  });

/**
 * Routes a page's WebSocket through the test, unchanged but for `your_turn` messages, which `hold()` keeps back
 * until `release()`: the moment between a move's answer (its events, the view, the ack) and the next
 * `your_turn`, which a loaded machine can make as long as it likes, is made to last.
 * @param {import('playwright-core').Page} page
 */
async function holdingTurns(page) {
  let holding = false;
  /** @type {string[]} */
  const held = [];
  /** @type {(m: string) => void} */
  let toPage = () => {};
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    toPage = (m) => ws.send(m);
    server.onMessage((m) => {
      if (holding && /"type":"your_turn"/.test(String(m))) held.push(String(m));
      else ws.send(m);
    });
  });
  return {
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const m of held.splice(0)) toPage(m);
    },
  };
}

// A move's answer comes as its events, the view, the ack, then the next `your_turn`: until that last one the
// page offers no move. The moves of the turn before are gone with its events (a draw is no longer legal once
// made): offered again, a click on them would find the button gone at the next message.
async function noMovesOfTheTurnBefore(page, turns) {
  const s = await state(page);
  const draw = s.legal.map(normalize).find((m) => m.kind === 'draw');
  check(draw, `the turn starts with a draw: ${JSON.stringify(s.legal)}`);
  turns.hold();
  await perform(page, draw);
  await page.waitForFunction((n) => {
    const p = window.__romirami.page;
    return p.eventCount() > n && p.pending() == null && !p.stale();
  }, s.n);
  const between = {
    legal: await hook(page, () => window.__romirami.page.legal()),
    stock: await page.locator('#act-stock').count(),
    moves: await page.locator('.actions button[id^="act-"]:not(#act-clear)').count(),
  };
  turns.release();
  check(
    between.legal == null && between.stock === 0 && between.moves === 0,
    `between a move's answer and the next your_turn the page offers no move: ${JSON.stringify(between)}`,
  );
  await page.waitForFunction(() => window.__romirami.page.legal()?.some((a) => a.type === 'discard'));
}

async function splayedPile(browser) {
  const [ana, ben] = await Promise.all([0, 1].map(() => openPage(browser, desktop)));
  const turns = new Map([
    [ana, await holdingTurns(ana)],
    [ben, await holdingTurns(ben)],
  ]);
  await ana.setViewportSize({ width: 1280, height: 800 });
  await ana.goto(`${BASE}/#/`);
  await chooseName(ana, 'Ana');
  await ana.waitForSelector('[data-testid=my-name]');
  const invite = await createTable(ana, 'rommi', 2, { '#opt-variant': '500', '#opt-target': '1' });
  await ben.goto(invite);
  await chooseName(ben, 'Ben');
  await ana.waitForSelector('.pile.splayed');
  const first = await Promise.race(
    [ana, ben].map((page) => page.waitForFunction(() => window.__romirami.page.legal() != null).then(() => page)),
  );
  await noMovesOfTheTurnBefore(first, turns.get(first));
  log('500 rummy: between a move and the next turn the page offers no move of the turn before');
  // Both draw from the stock and discard at once: the pile grows a card a turn.
  const PILE = 9;
  for (;;) {
    timeLeft();
    const pile = (await state(ana))?.view?.pile ?? [];
    if (pile.length >= PILE) break;
    let acted = false;
    for (const page of [ana, ben]) {
      const s = await state(page);
      if (!s?.legal) continue;
      const moves = s.legal.map(normalize);
      const move = moves.find((m) => m.kind === 'draw') ?? moves.find((m) => m.kind === 'discard');
      check(move, `a draw or a discard is legal: ${JSON.stringify(s.legal)}`);
      await perform(page, move);
      await page.waitForFunction((n) => window.__romirami.page.eventCount() > n, s.n);
      acted = true;
    }
    if (!acted) await ana.waitForTimeout(60);
  }
  const tableId = invite.match(/#\/table\/([0-9a-f-]+)/)[1];
  const cleo = await openPage(browser, phone);
  await cleo.goto(`${BASE}/#/table/${tableId}?watch=1`);
  await chooseName(cleo, 'Cleo');
  await cleo.waitForSelector('.pile.splayed');
  await cleo.waitForFunction((n) => document.querySelectorAll('.pile.splayed .pile-cards > .rcard').length >= n, PILE);
  for (const [who, page] of [
    ['Ana', ana],
    ['Ben', ben],
    ['Cleo', cleo],
  ])
    await quiet(page, `${who}'s page at the splayed pile`);
  for (const [who, page] of [
    ['at 1280×800', ana],
    ['on a phone', cleo],
  ]) {
    const cards = await pileReadable(page);
    check(cards.length >= PILE, `${who}: the pile shows its ${PILE} cards: ${cards.length}`);
    const hidden = cards.filter((c) => !c.seen);
    check(!hidden.length, `${who}: every pile card's rank and suit can be read: ${JSON.stringify(hidden)}`);
  }
  await shot(ana, 'table-rommi-500');
  await shot(cleo, 'table-rommi-500-phone');
  log(`500 rummy: the ${PILE} cards of the splayed pile can each be read, at 1280×800 and on a phone`);
  for (const page of [ana, ben, cleo]) {
    page.once('dialog', (dialog) => dialog.accept());
    await page.context().close();
  }
}

// Real play cannot reach this position when it likes, so the board's own modules are loaded in a page and
// fed a hand-made Rami turn: a joker picked, meld 4 (Ana's run 6♥ 7♥ 8♥ 9♥) on the table, and the server's
// legal list with the joker laid off as 5♥ or as 10♥ (crates/rummy: `lay_off` with `joker`).
async function jokerChoices(browser) {
  const page = await openPage(browser, desktop);
  await page.goto(`${BASE}/#/help/rami`);
  await page.waitForSelector('#rule-turn');
  const seen = await hook(page, async () => {
    const { actionPanel } = await import('/js/games/rummy/panel.js');
    const { boardPanel } = await import('/js/games/rummy/felt.js');
    const { normalize } = await import('/js/games/rummy/legal.js');
    const legal = [
      { lay_off: { id: 4, cards: ['X'], joker: '5h' } },
      { lay_off: { id: 4, cards: ['X'], joker: '10h' } },
      { discard: 'X' },
    ];
    const placed = (card) => ({ card, owner: 1, rank: card.slice(0, -1), position: null });
    const model = {
      game: 'rami',
      round: 1,
      dealer: 1,
      toAct: 0,
      step: 'play',
      hand: ['2c', 'X'],
      handSizes: [2, 5],
      stock: 30,
      pile: ['3d'],
      melds: [{ id: 4, owner: 1, kind: 'run', cards: ['6h', '7h', '8h', '9h'].map(placed), joker: null }],
      totals: [0, 0],
      seats: [{ opened: true }, { opened: true }],
      last: null,
      rounds: [],
      result: null,
      threshold: null,
      deadwood: null,
      splayed: false,
      options: {},
    };
    const sent = [];
    const box = document.createElement('div');
    document.body.append(box);
    const st = { result: null, pending: null, error: '', sel: new Set([1]), legal, stale: false, reclaiming: false };
    const ctx = {
      st,
      m: () => model,
      game: () => 'rami',
      mySeat: () => 0,
      nameOf: (seat) => ['You', 'Ana'][seat],
      who: (seat) => ['you', 'Ana'][seat],
      isBot: () => false,
      isBotPlayer: () => false,
      isStandIn: () => false,
      botPlaysForMe: () => false,
      myTurn: () => true,
      moves: () => legal.map(normalize),
      selected: () => ['X'],
      liveClocks: () => null,
      act: (raw) => sent.push(raw),
      draw: () => box.replaceChildren(boardPanel(ctx), actionPanel(ctx)),
    };
    ctx.draw();
    const buttons = [...box.querySelectorAll('.actions button[id^="act-lay_off-4"]')].map((b) => ({
      id: b.id,
      text: b.textContent,
    }));
    box.querySelector('.melds [data-meld="4"]').click();
    const sentOnMeld = sent.length;
    const choices = [...box.querySelectorAll('.meld-choice button[data-joker]')].map((b) => b.textContent);
    const focused = document.activeElement?.closest('.meld-choice') != null;
    box.querySelector('.meld-choice button[data-joker="10h"]')?.click();
    box.remove();
    return { buttons, sentOnMeld, choices, focused, sent };
  });
  const texts = seen.buttons.map((b) => b.text);
  check(
    texts.length === 2 && new Set(seen.buttons.map((b) => b.id)).size === 2,
    `a button for each meaning, each with its own id: ${JSON.stringify(seen.buttons)}`,
  );
  check(
    /5♥/.test(texts[0]) && /10♥/.test(texts[1]) && texts.every((x) => /Lay off on meld 4 \(Ana\)/.test(x)),
    `each button says what the joker stands for: ${JSON.stringify(texts)}`,
  );
  check(seen.sentOnMeld === 0, 'a click on a meld where the joker has two meanings sends nothing');
  check(
    seen.choices.length === 2 && /5♥/.test(seen.choices[0]) && /10♥/.test(seen.choices[1]) && seen.focused,
    `the click asks which one, the focus on the question: ${JSON.stringify(seen)}`,
  );
  check(
    seen.sent.length === 1 && seen.sent[0].lay_off?.joker === '10h',
    `the meaning chosen is sent: ${JSON.stringify(seen.sent)}`,
  );
  log('Rami: a joker with two meanings in a lay-off is said on each button, and a click on the meld asks');
  await page.context().close();
}

export async function rummyBoard(browser) {
  await jokerChoices(browser);
  await splayedPile(browser);
}
