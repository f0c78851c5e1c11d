// @ts-check
// The server's REST API for finished games, players and ratings (GET /api/games, /api/games/<id>,
// /api/games/<id>/record, /replay and /analysis, /api/players/<id>, /api/players/<id>/ratings, /api/leaderboard), for a table's invite
// page (GET /api/tables/<id>), and for names kept
// with a password (POST /api/players/claim, /api/sign-in). Errors come back as
// {"error":{"code","message"}}; they are
// thrown as ApiError with a sentence in the reader's language.

import { t } from './i18n.js';

/**
 * One table as its invite page tells it (GET /api/tables/<id>): {id, game, state, seats, public, spectators,
 * clock, options, rated}; a private table only with its invite key.
 * @param {string} id @param {string | null} invite
 */
export const tableInfo = (id, invite) => get(`/api/tables/${encodeURIComponent(id)}`, invite ? { invite } : {});

export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
    /** With too_many_attempts: seconds before the next try. @type {number | null} */
    this.retryAfter = null;
  }
}

/** @param {string} path @param {Record<string, any>} [params] @returns {Promise<any>} */
async function get(path, params = {}) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v != null && v !== ''));
  const url = query.toString() ? `${path}?${query}` : path;
  let response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError(0, 'network', t('api.network'));
  }
  const text = await response.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (!response.ok) {
    const code = body?.error?.code ?? 'http';
    const error = new ApiError(
      response.status,
      code,
      response.status === 404 ? t('api.not_found') : t('api.status', { status: response.status }),
    );
    error.retryAfter = body?.error?.retry_after ?? null;
    throw error;
  }
  if (body == null) throw new ApiError(response.status, 'bad_body', t('api.body'));
  return body;
}

/**
 * {games, next}: finished games, newest first. Filters: player, since, until, players, limit, cursor.
 * @param {Record<string, any>} filters
 */
export const listGames = (filters) => get('/api/games', filters);
/** @param {string} id */
export const getGame = (id) => get(`/api/games/${encodeURIComponent(id)}`);
/** @param {string} id */
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
/** A finished game's romirami-record/1. @param {string} id */
export const getRecord = (id) => get(recordUrl(id));
/** A finished game step by step, every game alike: {game, players, steps}. @param {string} id */
export const getReplay = (id) => get(`/api/games/${encodeURIComponent(id)}/replay`);
/**
 * The analysis of a seat of a finished game: {game, seat, state, progress, unit, thresholds, decisions, summary}.
 * Asking starts it (the server queues it); ask again until `state` is `done`.
 * @param {string} id @param {number} seat
 */
export const getAnalysis = (id, seat) => get(`/api/games/${encodeURIComponent(id)}/analysis`, { seat });
/** @param {string} id */
export const getPlayer = (id) => get(`/api/players/${encodeURIComponent(id)}`);
/** {id, ratings: [{game, rating, uncertainty, games}]}: a player's rating in each game. @param {string} id */
export const getPlayerRatings = (id) => get(`/api/players/${encodeURIComponent(id)}/ratings`);
/**
 * {game, min_games, players: [{id, name, rating, games}], next}: game, limit, cursor.
 * @param {Record<string, any>} params
 */
export const getLeaderboard = (params) => get('/api/leaderboard', params);

/**
 * POSTs `body` as JSON (with the player's token as a bearer token when given); the answer's JSON, or an
 * ApiError with the server's code (its sentence is for `accountError` to put in the reader's language).
 * @param {string} path @param {Record<string, any>} body @param {string | null} [token]
 */
async function post(path, body, token = null, method = 'POST') {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json', 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network', t('api.network'));
  }
  let answer = null;
  try {
    answer = JSON.parse(await response.text());
  } catch {
    /* not JSON */
  }
  if (!response.ok) {
    const error = new ApiError(
      response.status,
      answer?.error?.code ?? 'http',
      answer?.error?.message ?? t('api.status', { status: response.status }),
    );
    error.retryAfter = answer?.error?.retry_after ?? null;
    throw error;
  }
  if (answer == null && response.status !== 204) throw new ApiError(response.status, 'bad_body', t('api.body'));
  return answer;
}

/**
 * The player's tables not over, theirs to play first: {tables: [{table, game, state, turn_based, asleep, seat,
 * players, to_act, your_turn, turn_ends_at}], your_turn}. @param {string} token
 */
export async function myTables(token) {
  let response;
  try {
    response = await fetch('/api/players/me/tables', {
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
  } catch {
    throw new ApiError(0, 'network', t('api.network'));
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok || !answer) {
    throw new ApiError(response.status, answer?.error?.code ?? 'http', t('api.status', { status: response.status }));
  }
  return answer;
}

/** The server's VAPID public key, base64url: {public_key}. */
export const pushKey = () => get('/api/push/key');
/**
 * Gives the server this device's push subscription (`PushSubscription.toJSON()` and the language of its
 * notifications). @param {string} token @param {any} subscription @param {string} lang
 */
export const subscribePush = (token, subscription, lang) =>
  post('/api/push/subscriptions', { ...subscription, lang }, token);
/** Takes a device's subscription back. @param {string} token @param {string} endpoint */
export const unsubscribePush = (token, endpoint) => post('/api/push/subscriptions', { endpoint }, token, 'DELETE');

/** {player}: the player whose token this is keeps their name. @param {string} token @param {string} password */
export const claimName = (token, password) => post('/api/players/claim', { password }, token);
/** {player, token}: signs in with a kept name. @param {string} name @param {string} password */
export const signIn = (name, password) => post('/api/sign-in', { name, password });

/**
 * A GET with the player's token: the answer's JSON, or an ApiError with the server's code.
 * @param {string} path @param {string} token
 */
async function getMine(path, token) {
  let response;
  try {
    response = await fetch(path, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
  } catch {
    throw new ApiError(0, 'network', t('api.network'));
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok || !answer) {
    const code = answer?.error?.code ?? 'http';
    throw new ApiError(response.status, code, answer?.error?.message ?? t('api.status', { status: response.status }));
  }
  return answer;
}

/** {id, name, claimed, devices: [{signed_in_at, device, current}]}. @param {string} token */
export const getMe = (token) => getMine('/api/players/me', token);
/** Everything the site keeps of the player (romirami-export/1). @param {string} token */
export const exportMine = (token) => getMine('/api/players/me/export', token);
/** Ends this browser's token. @param {string} token */
export const signOut = (token) => post('/api/sign-out', {}, token);
/** Ends every token of the player's, this one too. @param {string} token */
export const signOutEverywhere = (token) => post('/api/sign-out-everywhere', {}, token);
/** A new password; the other devices are signed out. @param {string} token @param {string} old @param {string} next */
export const changePassword = (token, old, next) =>
  post('/api/players/me/password', { old_password: old, new_password: next }, token);
/**
 * Reports a player to the admins: {player, table?, chat?, reason}; {id}.
 * @param {string} token @param {{player: string, table?: string, chat?: number, reason: string}} report
 */
export const reportPlayer = (token, report) => post('/api/reports', report, token);
/** The open reports (admins only). @param {string} token */
export const adminReports = (token) => getMine('/api/admin/reports', token);
/** The bans in force (admins only). @param {string} token */
export const adminBans = (token) => getMine('/api/admin/bans', token);
/** The audit log (admins only). @param {string} token */
export const adminAudit = (token) => getMine('/api/admin/audit', token);
/**
 * Pairs of players who share an address and sat at rated tables together at least `minTables` times (admins only).
 * @param {string} token @param {number} minTables
 */
export const adminCollusion = (token, minTables) => getMine(`/api/admin/collusion?min_tables=${minTables}`, token);
/** Bans a player (admins only). @param {string} token @param {string} player @param {number} minutes @param {string} reason */
export const banPlayer = (token, player, minutes, reason) =>
  post('/api/admin/bans', { player, minutes, reason }, token);
/** Lifts a ban (admins only). @param {string} token @param {string} player */
export const unbanPlayer = (token, player) =>
  post(`/api/admin/bans/${encodeURIComponent(player)}`, {}, token, 'DELETE');
/** Removes a chat line (admins only). @param {string} token @param {string} table @param {string} channel @param {number} n */
export const removeLine = (token, table, channel, n) =>
  post(`/api/admin/tables/${encodeURIComponent(table)}/chat/${encodeURIComponent(channel)}/${n}`, {}, token, 'DELETE');
/** Closes a table (admins only). @param {string} token @param {string} table */
export const closeTable = (token, table) => post(`/api/admin/tables/${encodeURIComponent(table)}/close`, {}, token);
/** Deletes the account (the password, for a kept name). @param {string} token @param {string | null} password */
export const deleteAccount = (token, password) =>
  post('/api/players/me', password ? { password } : {}, token, 'DELETE');

/**
 * Tournaments, newest first: {tournaments: [tournament]}; `state` is waiting, running or finished (or all);
 * `winner`, a player's id: only the tournaments they won.
 * @param {string} [state] @param {string} [winner]
 */
export const listTournaments = (state, winner) => get('/api/tournaments', { state, winner });
/**
 * A tournament: {id, game, format, duplicate, state, seats, rounds_planned?, minutes?, max_players, starts_at?,
 * next_round_at?, ends_at?, clock, players: [{id, name, status}], rounds: [{n, seed_commitment?, contributions?: {players,
 * given, until}, tables: [{table,
 * seats, places?, points?}], byes?}], standings: [{player, points, games, tiebreak}]}. Times in ms since 1970.
 * @param {string} id
 */
export const getTournament = (id) => get(`/api/tournaments/${encodeURIComponent(id)}`);
/** {id}: creates a tournament (the player keeps their name). @param {Record<string, any>} body @param {string} token */
export const createTournament = (body, token) => post('/api/tournaments', body, token);
/** The tournament after the join. @param {string} id @param {string} token */
export const joinTournament = (id, token) => post(`/api/tournaments/${encodeURIComponent(id)}/join`, {}, token);
/** The tournament after the withdrawal. @param {string} id @param {string} token */
export const withdrawTournament = (id, token) => post(`/api/tournaments/${encodeURIComponent(id)}/withdraw`, {}, token);
/** Contributes to the deal of a duplicate round. @param {string} id @param {string} value @param {string} token */
export const contributeToTournament = (id, value, token) =>
  post(`/api/tournaments/${encodeURIComponent(id)}/contribute`, { value }, token);
/** Pauses in (or comes back to) a running arena. @param {string} id @param {boolean} paused @param {string} token */
export const pauseTournament = (id, paused, token) =>
  post(`/api/tournaments/${encodeURIComponent(id)}/pause`, { paused }, token);
