// @ts-check
// The player's identity in this browser: the display name and the guest token the server handed out
// (docs/protocol.md section 3), kept in localStorage so the same player comes back after a reload.
// Also remembers invite keys of tables this browser created or was invited to.

const KEY = 'romirami.identity';
const INVITES = 'romirami.invites';
const SIGNED_OUT = 'romirami.signedOut';

/** @param {string} key @param {any} fallback */
function read(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') ?? fallback;
  } catch {
    return fallback;
  }
}

/** {name, token, id} or an empty object. @returns {{name?: string, token?: string, id?: string}} */
export function identity() {
  return read(KEY, {});
}

/** @param {{name?: string, token?: string, id?: string}} update */
export function saveIdentity(update) {
  sessionStorage.removeItem(SIGNED_OUT);
  localStorage.setItem(KEY, JSON.stringify({ ...identity(), ...update }));
}

export function forgetToken() {
  const { name } = identity();
  localStorage.setItem(KEY, JSON.stringify({ name }));
}

/** Forgets the player entirely (signed out, or their account deleted): the next visit starts with a name. */
export function forgetIdentity() {
  localStorage.removeItem(KEY);
}

/**
 * This browser was signed out (here, from another device, or by a deleted account): forget the player and
 * open the lobby afresh, which says so (`wasSignedOut`) until a name is chosen or a sign-in made. @param {'signed_out' | 'deleted'} [why]
 */
export function signedOutHere(why = 'signed_out') {
  forgetIdentity();
  sessionStorage.setItem(SIGNED_OUT, why);
  location.replace(`${location.pathname}#/`);
  location.reload();
}

/** Whether this page is ending its own token (a request in flight), and whether the server told it meanwhile. */
const ending = { requests: 0, told: false };

/**
 * Ends this browser's token by `request` (sign out, sign out everywhere, delete the account), then signs out
 * here for `why`. The connection hears `signed_out` as soon as the server ends the token, often before the
 * request's own answer; reloading then would lose that answer (and the reason "deleted"), so meanwhile the
 * connection's notice waits for it (`signedOutByServer`). A refused request throws, as it was.
 * @param {Promise<unknown>} request @param {'signed_out' | 'deleted'} why
 */
export async function endHere(request, why) {
  ending.requests += 1;
  try {
    await request;
  } catch (err) {
    ending.requests -= 1;
    if (ending.told && ending.requests === 0) signedOutHere();
    throw err;
  }
  signedOutHere(why);
}

/** The server ended this browser's token (`signed_out`): sign out here, unless this page's own request did it. */
export function signedOutByServer() {
  if (ending.requests > 0) ending.told = true;
  else signedOutHere();
}

/** Why this browser was signed out, until it is someone again (`saveIdentity`); null when it was not. */
export function wasSignedOut() {
  return sessionStorage.getItem(SIGNED_OUT);
}

/** @param {string} table @param {string | null} key */
export function rememberInvite(table, key) {
  if (!key) return;
  const all = read(INVITES, {});
  all[table] = key;
  const ids = Object.keys(all);
  for (const id of ids.slice(0, Math.max(0, ids.length - 50))) delete all[id];
  localStorage.setItem(INVITES, JSON.stringify(all));
}

/** @param {string} table @returns {string | null} */
export function inviteFor(table) {
  return read(INVITES, {})[table] ?? null;
}
