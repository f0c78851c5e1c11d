// What every part of the end-to-end test shares: the server's address, the browser, checks, logging, the
// time limit, screenshots, the seeded choices and pages of their own. Each scenario is a module of its own
// (players.mjs's two players, ...) that e2e.mjs runs in turn.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const BASE = (process.env.ROMIRAMI_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
export const CHROME = process.env.CHROME ?? '/usr/bin/chromium';
const shotsArg = process.argv.indexOf('--screenshots');
export const SHOTS = shotsArg > 0 ? process.argv[shotsArg + 1] : (process.env.E2E_SCREENSHOTS ?? null);
export const LIMIT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 10 * 60 * 1000);
const started = Date.now();
/** Which lane of scripts/e2e.sh this run is (the lanes run at once, each against a server of its own). */
const LANE = process.env.E2E_LANE ? ` L${process.env.E2E_LANE}` : '';

export function log(...args) {
  console.log(`[e2e${LANE} ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...args);
}

export function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

export function timeLeft() {
  const left = LIMIT_MS - (Date.now() - started);
  if (left <= 0) throw new Error(`the test took longer than ${LIMIT_MS / 1000} s`);
  return left;
}

export async function shot(page, name, { fullPage = false } = {}) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
  log(`screenshot ${name}.png`);
}

// A small seeded generator, so a failing run can be repeated with the same E2E_SEED.
let seed = Number(process.env.E2E_SEED ?? Date.now() % 100000);
export function random() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

export const hook = (page, fn, arg) => page.evaluate(fn, arg);

/**
 * Every text frame a page's WebSockets send, and the bytes they receive, from now on: to count what a page
 * asks the server for and what following a game costs it.
 * @param {import('playwright-core').Page} page
 */
export function frames(page) {
  const seen = { sent: /** @type {any[]} */ ([]), receivedBytes: 0 };
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => {
      try {
        seen.sent.push(JSON.parse(String(frame.payload)));
      } catch {
        seen.sent.push(String(frame.payload));
      }
    });
    ws.on('framereceived', (frame) => (seen.receivedBytes += String(frame.payload).length));
  });
  return seen;
}

export const logText = (page) => hook(page, () => window.__romirami.page.log().join('\n'));

// Waits until the page's log has a line matching `pattern`.
export async function logShows(page, pattern, what) {
  const ok = await page
    .waitForFunction((source) => new RegExp(source).test(window.__romirami.page.log().join('\n')), pattern.source, {
      timeout: Math.min(20000, timeLeft()),
    })
    .then(
      () => true,
      () => false,
    );
  check(ok, `${what}: the log says ${pattern}\n${await logText(page)}`);
}

// Presses Tab until the focus is on an element matching `selector` (keyboard only).
export async function tabTo(page, selector) {
  for (let i = 0; i < 200; i += 1) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`check failed: Tab never reached ${selector}`);
}

export async function chooseName(page, name) {
  await page.fill('#name-input', name);
  await page.click('.name-form button[type=submit]');
}

export const desktop = { viewport: { width: 1366, height: 900 } };

export const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** Every page the test opened, with the frames it sent and received: what a failure reports. */
const opened = [];

// A page in a browser context of its own (a player of their own), failing the test on a page error.
export async function openPage(browser, options) {
  // Without the page's transitions (`prefers-reduced-motion`, which the style honours): each would paint
  // frames for nothing, and the two lanes are short of CPU.
  const page = await (await browser.newContext({ reducedMotion: 'reduce', ...options })).newPage();
  opened.push({ page, seen: frames(page), received: countReceived(page) });
  page.setDefaultTimeout(20000);
  page.on('pageerror', (e) => {
    throw new Error(`page error: ${e.message}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') log(`console error: ${m.text()}`);
  });
  return page;
}

// Follows a finished game's link to its page. The server stores a game just after its end: the page asks
// again by itself while the game is not there yet (`?fresh=1`), with no reload.
export async function openGamePage(page) {
  await page.click('#game-page-link');
  await page.waitForSelector('#download-record', { timeout: 20000 });
  return hook(page, () => window.__romirami.page.game());
}

/** How many frames a page receives, from now on. @param {import('playwright-core').Page} page */
function countReceived(page) {
  const seen = { n: 0, types: /** @type {Record<string, number>} */ ({}) };
  page.on('websocket', (ws) =>
    ws.on('framereceived', (frame) => {
      seen.n += 1;
      const type = /"type":"([a-z_]+)"/.exec(String(frame.payload))?.[1] ?? '?';
      seen.types[type] = (seen.types[type] ?? 0) + 1;
    }),
  );
  return seen;
}

/**
 * Checks that a page at rest (no move being made, nothing new from the server) neither redraws itself nor
 * sends frames more than a couple of times over `ms`: a loop between the page and the server (an answer
 * that asks again, a redraw that asks for something) would redraw the board under every click.
 * @param {import('playwright-core').Page} page @param {string} what @param {number} [ms]
 */
export async function quiet(page, what, ms = 1500) {
  const entry = opened.find((o) => o.page === page);
  check(entry, `${what}: the page was opened with openPage`);
  const draws = () => hook(page, () => window.__romirami.page?.draws?.() ?? 0);
  const before = { draws: await draws(), sent: entry.seen.sent.length, received: entry.received.n };
  await page.waitForTimeout(ms);
  const after = { draws: await draws(), sent: entry.seen.sent.length, received: entry.received.n };
  const drawn = after.draws - before.draws;
  const sent = entry.seen.sent.slice(before.sent);
  check(
    drawn <= 2 && sent.length <= 2,
    `${what}: a page at rest redrew ${drawn} times and sent ${sent.length} frames in ${ms} ms ` +
      `(received ${after.received - before.received}): ${JSON.stringify(sent.slice(0, 5))}`,
  );
}

/** What each open page does over a second (its redraws, the frames it sends and receives): printed on a failure. */
export async function diagnose() {
  for (const [i, { page, seen, received }] of opened.entries()) {
    if (page.isClosed()) continue;
    try {
      const draws = () => hook(page, () => window.__romirami.page?.draws?.() ?? null);
      const before = {
        draws: await draws(),
        sent: seen.sent.length,
        received: received.n,
        types: { ...received.types },
      };
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = { draws: await draws(), sent: seen.sent.length, received: received.n };
      const types = Object.entries(received.types)
        .map(([type, n]) => [type, n - (before.types[type] ?? 0)])
        .filter(([, n]) => n > 0);
      log(
        `page ${i} (${page.url()}): in one second ${after.draws - before.draws} redraws (of ${after.draws}), ` +
          `${after.sent - before.sent} frames sent (${JSON.stringify(seen.sent.slice(before.sent).slice(0, 5))}), ` +
          `${after.received - before.received} received ${JSON.stringify(types)}; ` +
          `last sent: ${JSON.stringify(seen.sent.slice(-5))}`,
      );
    } catch (e) {
      log(`page ${i}: ${e}`);
    }
  }
}

/** The seed the run started with, to repeat its choices with E2E_SEED. */
export const startSeed = seed;
