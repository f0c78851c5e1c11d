// End-to-end test of the web client in a real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core, which never downloads a browser of its own).
//
//   ROMIRAMI_URL=http://127.0.0.1:8080 node e2e.mjs [--screenshots DIR]
//
// It runs the scenarios listed below, each a module of its own beside this file: two players and a spectator
// through a whole game of Romi Rami (players.mjs), a host against bots (bots.mjs), the rummy family
// (rummy.mjs), being at a table together (together.mjs), playing together again (again.mjs), the table
// shell apart from any game (shell.mjs), the rummy board's harder corners (rummy-board.mjs), and the replays and
// analyses of the rummy family's matches (replays.mjs), a tournament played by people and bots
// (tournaments.mjs), the installable app, offline, push and a turn-based game (install.mjs), and accounts people
// control: devices, signing out everywhere, deleting an account (accounts.mjs), and moderation: a report,
// a ban, the audit log (moderation.mjs). They share
// ./support.mjs, and the scenarios that play Romi Rami by clicking share ./moves.mjs.

import { chromium } from 'playwright-core';
import { BASE, CHROME, diagnose, log, startSeed } from './support.mjs';
import { twoPlayers } from './players.mjs';
import { bots } from './bots.mjs';
import { rummy } from './rummy.mjs';
import { together } from './together.mjs';
import { again } from './again.mjs';
import { shell } from './shell.mjs';
import { rummyBoard } from './rummy-board.mjs';
import { replays } from './replays.mjs';
import { tournaments } from './tournaments.mjs';
import { install } from './install.mjs';
import { accounts } from './accounts.mjs';
import { moderation } from './moderation.mjs';

// The scenarios, in the order they run; E2E_ONLY=name[,name] runs only those. A scenario is a function of the
// browser; a new one lives in a module of its own beside this file and shares ./support.mjs.
const SCENARIOS = [
  ['players', twoPlayers],
  ['bots', bots],
  ['rummy', rummy],
  ['together', together],
  ['again', again],
  ['shell', shell],
  ['rummy-board', rummyBoard],
  ['replays', replays],
  ['tournaments', tournaments],
  ['install', install],
  ['accounts', accounts],
  ['moderation', moderation],
];
const ONLY = process.env.E2E_ONLY ? process.env.E2E_ONLY.split(',') : null;
const unknown = (ONLY ?? []).filter((name) => !SCENARIOS.some(([known]) => known === name));
if (unknown.length > 0) throw new Error(`E2E_ONLY names no scenario: ${unknown.join(', ')}`);

async function main() {
  log(`server ${BASE}, browser ${CHROME}, seed ${startSeed}`);
  const browser = await chromium.launch({ executablePath: CHROME, headless: true, args: ['--no-sandbox'] });
  try {
    for (const [name, run] of SCENARIOS) {
      if (ONLY && !ONLY.includes(name)) continue;
      log(`scenario ${name}`);
      await run(browser);
    }
  } catch (error) {
    log(`FAILED (seed ${startSeed}): what the open pages do`);
    await diagnose();
    throw error;
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
