// @ts-check
// A shuffle anyone can check, in the browser. When a game starts the server sends every member a commitment
// (the table summary's `shuffle`): the SHA-256 of `romirami-shuffle/1` ‖ the seed (8 bytes, big-endian) ‖ a
// 32-byte salt (docs/rules/record-format.md, "Shuffle proof"). The finished game's record reveals the seed and
// the salt; this module recomputes the commitment with Web Crypto and compares it with the record's and with
// the one this browser was sent at the start. The pages remember the commitments they were sent, so that the
// game page can say the record matches what the players saw before the first card was dealt.

const DOMAIN = 'romirami-shuffle/1';
const SEEN_KEY = 'romirami.shuffles';
const SEEN_KEEP = 100;

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
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
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
 * @typedef {{status: ShuffleStatus, seen: boolean, commitment: string | null}} ShuffleCheck
 */

/**
 * Checks a finished game's record: `verified` when its seed and salt give its commitment, `mismatch` when they
 * do not (or are malformed), `absent` for a record without the proof (games stored before it existed).
 * `seen` tells whether this browser was sent that commitment when the game started.
 * @param {{seed?: unknown, salt?: unknown, commitment?: unknown}} record @returns {Promise<ShuffleCheck>}
 */
export async function checkShuffle(record) {
  const { seed, salt, commitment } = record;
  if (seed == null && salt == null && commitment == null) return { status: 'absent', seen: false, commitment: null };
  if (typeof seed !== 'string' || typeof salt !== 'string' || typeof commitment !== 'string') {
    return { status: 'mismatch', seen: false, commitment: null };
  }
  const computed = await commitmentOf(seed, salt);
  const seen = seenCommitments().includes(commitment);
  return { status: computed === commitment ? 'verified' : 'mismatch', seen, commitment };
}
