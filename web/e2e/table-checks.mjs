// Checks of the classic table page that the `players` scenario makes during its game: the view the page built
// from events against the one the server sends a fresh tab, the layout on a phone, and the page in another
// language.

import { BASE, check } from './support.mjs';
import { pageState } from './moves.mjs';

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
export async function sameAsFresh(watcher, tableId) {
  const fresh = await watcher.context().newPage();
  const role = (await pageState(watcher)).role;
  await fresh.goto(`${BASE}/#/table/${tableId}${role === 'spectator' ? '?watch=1' : ''}`);
  await fresh.waitForSelector('.board');
  const [built, server] = await Promise.all([watcher, fresh].map((p) => pageState(p).then((s) => essentials(s.view))));
  await fresh.close();
  check(built === server, `the view built from events matches the server's:\n${built}\n${server}`);
}

// The phone: the market and the hand are on the first screen, and the action bar covers neither.
export async function phoneFits(page) {
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
export async function speaks(page, lang, words) {
  await page.selectOption('#lang-select', lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  const text = await page.evaluate(() =>
    document.querySelector('.table-page').innerText.replace(/\b(Ana|Ben|Cleo|Eve)\b/g, ''),
  );
  check(words.test(text), `the table page speaks ${lang}: ${text.slice(0, 300)}`);
  const english = text.match(ENGLISH);
  check(!english, `no English is left on the table page in ${lang}: “${english?.[0]}” in ${text}`);
}
