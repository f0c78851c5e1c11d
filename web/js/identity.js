// @ts-check
// The player's identity in this browser: the display name and the guest token the server handed out
// (docs/protocol.md section 3), kept in localStorage so the same player comes back after a reload.
// Also remembers invite keys of tables this browser created or was invited to.

const KEY = 'romirami.identity';
const INVITES = 'romirami.invites';

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
  localStorage.setItem(KEY, JSON.stringify({ ...identity(), ...update }));
}

export function forgetToken() {
  const { name } = identity();
  localStorage.setItem(KEY, JSON.stringify({ name }));
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
