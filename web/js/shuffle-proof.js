// @ts-check
// A shuffle anyone can check, in the browser. When a game starts the server sends every member a commitment
// (the table summary's `shuffle`): the SHA-256 of `romirami-shuffle/1` ‖ the server's seed (8 bytes,
// big-endian) ‖ a 32-byte salt (docs/rules/record-format.md, "Shuffle proof"). Then each seat adds 32 random
// bytes of its own (`contribute`, drawn here with Web Crypto), and the game is dealt from the seed derived
// from them all: the first 8 bytes of HMAC-SHA256 keyed by the server's seed ‖ salt over `romirami-deal/1` ‖
// the contributions in seat order. The finished game's record reveals the server's seed, the salt and the
// contributions; this module recomputes the commitment and the derivation, compares them with the record's and
// with the commitment this browser was sent, and checks that this browser's own contribution is in it.

const DOMAIN = 'romirami-shuffle/1';
const SEEN_KEY = 'romirami.shuffles';
const SEEN_KEEP = 100;
const DEAL_DOMAIN = 'romirami-deal/1';
const MINE_KEY = 'romirami.contributions';

/** @param {Uint8Array} bytes */
function toHex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {string} text @returns {Uint8Array | null} the bytes of lower-case hex digits */
function hexBytes(text) {
  if (!/^([0-9a-f]{2})*$/.test(text)) return null;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * The commitment to a seed (a decimal string: a u64 does not fit a JavaScript number) and a salt (64 hex
 * digits), as 64 lower-case hex digits; null when either is malformed.
 * @param {string} seed @param {string} salt @returns {Promise<string | null>}
 */
export async function commitmentOf(seed, salt) {
  const saltBytes = hexBytes(salt);
  if (!/^\d{1,20}$/.test(seed) || !saltBytes || saltBytes.length !== 32) return null;
  const value = BigInt(seed);
  if (value >= 1n << 64n) return null;
  const bytes = new Uint8Array(DOMAIN.length + 8 + 32);
  bytes.set(new TextEncoder().encode(DOMAIN), 0);
  new DataView(bytes.buffer).setBigUint64(DOMAIN.length, value, false);
  bytes.set(saltBytes, DOMAIN.length + 8);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return toHex(digest);
}

/**
 * The game's seed (decimal) derived from the server's seed (decimal), the salt and the contributions (64 hex
 * digits each, in seat order); null when one is malformed.
 * @param {string} serverSeed @param {string} salt @param {unknown[]} contributions @returns {Promise<string | null>}
 */
export async function derivedSeed(serverSeed, salt, contributions) {
  const saltBytes = hexBytes(salt);
  if (!/^\d{1,20}$/.test(serverSeed) || !saltBytes || saltBytes.length !== 32) return null;
  const value = BigInt(serverSeed);
  if (value >= 1n << 64n || contributions.length === 0) return null;
  const parts = contributions.map((c) => (typeof c === 'string' && c.length === 64 ? hexBytes(c) : null));
  if (parts.some((p) => p == null)) return null;
  const key = new Uint8Array(8 + 32);
  new DataView(key.buffer).setBigUint64(0, value, false);
  key.set(saltBytes, 8);
  const message = new Uint8Array(DEAL_DOMAIN.length + 32 * parts.length);
  message.set(new TextEncoder().encode(DEAL_DOMAIN), 0);
  parts.forEach((p, i) => message.set(/** @type {Uint8Array} */ (p), DEAL_DOMAIN.length + 32 * i));
  const hmac = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, message));
  return new DataView(mac.buffer).getBigUint64(0, false).toString();
}

/** The contributions this browser sent, by commitment. @returns {Record<string, string>} */
function sentContributions() {
  try {
    const sent = JSON.parse(localStorage.getItem(MINE_KEY) ?? '{}');
    return sent && typeof sent === 'object' ? sent : {};
  } catch {
    return {};
  }
}

/**
 * On a `table` message whose deal waits for this browser's seat: draws 32 random bytes with Web Crypto,
 * remembers them beside the commitment (for the check at the end) and sends them with `send`.
 * @param {any} msg @param {(msg: object) => void} send
 */
export function contributeIfAsked(msg, send) {
  const seat = msg.role?.seat;
  const commitment = msg.table?.shuffle;
  if (typeof seat !== 'number' || typeof commitment !== 'string') return;
  const value = contributionFor(commitment, msg.table?.contributions?.seats?.[seat]);
  if (value) send({ type: 'contribute', table: msg.table.id, value });
}

/**
 * This browser's contribution to the deal committed to by `commitment`, given where its seat stands
 * (`waiting`, `player` or `server`): a new one (drawn with Web Crypto and kept for the check at the end)
 * while the deal waits for it and none was sent, else none. A kept value is forgotten when the server drew
 * the seat's (it came after the wait, or never left): the record will not hold it.
 * @param {string} commitment @param {string | null | undefined} state @returns {string | null}
 */
function contributionFor(commitment, state) {
  const sent = sentContributions();
  if (state === 'server' && sent[commitment]) {
    delete sent[commitment];
    keepContributions(sent);
    return null;
  }
  if (state !== 'waiting' || sent[commitment]) return null;
  const value = toHex(crypto.getRandomValues(new Uint8Array(32)));
  sent[commitment] = value;
  keepContributions(sent);
  return value;
}

/**
 * On a tournament's view (whole or partial) with a duplicate round whose deal waits for this player's
 * contribution: draws it as at a table, remembers it beside the round's commitment (every table of the
 * round tells that commitment) and posts it with `post`. A value the server did not take (the deal was
 * made meanwhile, or the player is not of the round) is forgotten, as is one the server drew instead.
 * @param {any} tour @param {string | null} me @param {(value: string) => Promise<any>} post
 */
export function contributeToRounds(tour, me, post) {
  if (!me) return;
  for (const round of tour?.rounds ?? []) {
    const asked = round.contributions;
    const commitment = round.seed_commitment;
    if (!asked || typeof commitment !== 'string') continue;
    // A partial view counts what is awaited; a whole one says whose.
    const at = Array.isArray(asked.players) ? asked.players.indexOf(me) : -1;
    const state = at >= 0 ? asked.given[at] : asked.waiting > 0 && !asked.players ? 'waiting' : null;
    const value = contributionFor(commitment, state);
    if (!value) continue;
    post(value).catch((/** @type {any} */ error) => {
      if (error?.code === 'already_contributed') return;
      const now = sentContributions();
      if (now[commitment] === value) delete now[commitment];
      keepContributions(now);
    });
  }
}

/** Keeps the contributions this browser sent (the last hundred). @param {Record<string, string>} sent */
function keepContributions(sent) {
  try {
    const kept = Object.entries(sent).slice(-SEEN_KEEP);
    localStorage.setItem(MINE_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    /* storage full or disabled: the check then cannot find this browser's contribution */
  }
}

/**
 * Remembers a commitment this browser was sent when a game started.
 * @param {string} commitment
 */
export function rememberCommitment(commitment) {
  if (!/^[0-9a-f]{64}$/.test(commitment)) return;
  try {
    const seen = seenCommitments().filter((c) => c !== commitment);
    seen.push(commitment);
    localStorage.setItem(SEEN_KEY, JSON.stringify(seen.slice(-SEEN_KEEP)));
  } catch {
    /* storage full or disabled: the check then says only what the record shows */
  }
}

/** @returns {string[]} */
function seenCommitments() {
  try {
    const seen = JSON.parse(localStorage.getItem(SEEN_KEY) ?? '[]');
    return Array.isArray(seen) ? seen.filter((c) => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * @typedef {'verified' | 'mismatch' | 'absent'} ShuffleStatus
 * @typedef {'in' | 'missing' | null} MineStatus
 * @typedef {{status: ShuffleStatus, seen: boolean, commitment: string | null, mine: MineStatus}} ShuffleCheck
 */

/**
 * Checks a finished game's record: `verified` when its server's seed and salt give its commitment and its seed
 * is the one derived from them and the contributions (or, for a game dealt before players contributed, its
 * seed and salt give the commitment), `mismatch` when not (or malformed), `absent` for a record without the
 * proof. `seen` tells whether this browser was sent that commitment when the game started; `mine` whether the
 * contribution this browser sent to that deal is in the record (`null` when it sent none).
 * @param {{seed?: unknown, salt?: unknown, commitment?: unknown, server_seed?: unknown, contributions?: unknown}} record
 * @returns {Promise<ShuffleCheck>}
 */
export async function checkShuffle(record) {
  const { seed, salt, commitment, server_seed: serverSeed, contributions } = record;
  if (seed == null && salt == null && commitment == null) {
    return { status: 'absent', seen: false, commitment: null, mine: null };
  }
  if (typeof seed !== 'string' || typeof salt !== 'string' || typeof commitment !== 'string') {
    return { status: 'mismatch', seen: false, commitment: null, mine: null };
  }
  const seen = seenCommitments().includes(commitment);
  const sent = sentContributions()[commitment] ?? null;
  if (serverSeed == null && contributions == null) {
    const computed = await commitmentOf(seed, salt);
    return { status: computed === commitment ? 'verified' : 'mismatch', seen, commitment, mine: null };
  }
  if (typeof serverSeed !== 'string' || !Array.isArray(contributions)) {
    return { status: 'mismatch', seen, commitment, mine: null };
  }
  const committed = (await commitmentOf(serverSeed, salt)) === commitment;
  const derived = (await derivedSeed(serverSeed, salt, contributions)) === seed;
  const mine = sent == null ? null : contributions.includes(sent) ? 'in' : 'missing';
  const status = committed && derived && mine !== 'missing' ? 'verified' : 'mismatch';
  return { status, seen, commitment, mine };
}
