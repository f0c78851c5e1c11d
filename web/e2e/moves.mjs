// Playing Romi Rami at the table by clicking, as a player would: what the page knows (its state through the
// test hook), which move to make (from the server's own list of legal moves), making it with the page's
// controls, and waiting for the server's answer to reach every page. Shared by the scenarios that play the
// classic game (players.mjs, bots.mjs, again.mjs, tournaments.mjs), with a whole game played by clicks
// (`playByClicks`).

import { check, hook, random, timeLeft } from './support.mjs';

export const pageState = (page) =>
  hook(page, () => {
    const p = window.__romirami?.page;
    if (!p || p.name !== 'table' || p.board() !== 'romi-rami') return null;
    return {
      legal: p.legal(),
      over: p.result() != null,
      n: p.eventCount(),
      error: p.error(),
      role: p.role(),
      view: p.view(),
    };
  });

// Picks the next move from the server's list: the biggest contract, else the biggest take.
export function choose(legal) {
  const completes = legal.filter((a) => a.type === 'complete');
  if (completes.length) {
    const best = Math.max(...completes.map((a) => a.cards.length + (a.star ? 1 : 0)));
    const pool = completes.filter((a) => a.cards.length + (a.star ? 1 : 0) === best);
    return pool.find((a) => !a.star) ?? pool[0];
  }
  const discard = legal.find((a) => a.type === 'discard');
  if (discard) return discard;
  const takes = legal.filter((a) => a.type === 'take');
  if (takes.length) {
    const most = Math.max(...takes.map((a) => a.cards.length));
    const pool = takes.filter((a) => a.cards.length === most);
    return pool[Math.floor(random() * pool.length)];
  }
  return legal.find((a) => a.type === 'pass') ?? legal[0];
}

// Builds the move with the page's controls, as a player would.
export async function perform(page, action, beforeConfirm = async () => {}) {
  const pick = async (scope, card) =>
    page.locator(`${scope} button.card[data-card="${card}"][aria-pressed="false"]`).first().click();
  switch (action.type) {
    case 'take':
      for (const card of action.cards) await pick('.number-market', card);
      await page.click('#act-take');
      break;
    case 'complete':
      await page.click(`.contract-market button.contract[data-contract="${action.contract}"]`);
      if (action.star) await page.click('.star-row button.star');
      for (const card of action.cards) await pick('.hand', card);
      await beforeConfirm();
      await page.click('#act-complete');
      break;
    case 'discard':
      for (const card of action.cards) await pick('.hand', card);
      await page.click('#act-discard');
      break;
    case 'pass':
      await page.click('#act-pass');
      break;
    case 'take_back':
      await page.click('#act-take-back');
      break;
    default:
      throw new Error(`unknown action ${action.type}`);
  }
}

// Waits until the page has applied new events (the move went through) or shows a refusal.
export async function settled(page, before) {
  await page.waitForFunction(
    (n) => {
      const p = window.__romirami.page;
      return p.eventCount() > n || (p.error() && p.pending() == null);
    },
    before,
    { timeout: Math.min(20000, timeLeft()) },
  );
  return pageState(page);
}

// Waits until every page has every event the acting page has, so the next turn is read from the truth.
export async function caughtUp(pages, n) {
  for (const p of pages) {
    await p.waitForFunction((count) => window.__romirami.page.eventCount() >= count, n, {
      timeout: Math.min(20000, timeLeft()),
    });
  }
}

// The page whose turn it is (`seats`: a Map from seat to page, `first` any page at the table) once it
// offers its moves, with its state; null when the game is over.
export async function nextTurn(first, seats) {
  timeLeft();
  const view = (await pageState(first)).view;
  if (view.phase.state === 'over') return null;
  const page = seats.get(view.phase.seat);
  await page.waitForFunction(
    () => {
      const p = window.__romirami.page;
      return p.legal() != null || p.result() != null;
    },
    null,
    { timeout: Math.min(20000, timeLeft()) },
  );
  const state = await pageState(page);
  return state.over ? null : { page, state };
}

// Plays the game to its end by clicking, on whichever seat's turn it is (`seats`: a Map from seat to page);
// every page catches up after each move. `during(moves)` runs between moves (the chat). Returns how many moves were made.
export async function playByClicks(seats, watchers = [], during = async () => {}) {
  const everyone = [...seats.values(), ...watchers];
  const first = seats.values().next().value;
  let moves = 0;
  for (;;) {
    const turn = await nextTurn(first, seats);
    if (!turn) return moves;
    const { page } = turn;
    let { state } = turn;
    const action = choose(state.legal);
    await perform(page, action);
    state = await settled(page, state.n);
    check(!state.error, `the server accepted ${JSON.stringify(action)}: ${state.error}`);
    await caughtUp(everyone, state.n);
    moves += 1;
    await during(moves);
  }
}
