// @ts-check
// The server's REST API for finished games, players and ratings (GET /api/games, /api/games/<id>,
// /api/games/<id>/record, /api/players/<id>, /api/players/<id>/ratings, /api/leaderboard). Errors come back as
// {"error":{"code","message"}}; they are
// thrown as ApiError with a sentence in the reader's language.

import { t } from './i18n.js';

export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
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
    throw new ApiError(
      response.status,
      code,
      response.status === 404 ? t('api.not_found') : t('api.status', { status: response.status }),
    );
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
/** @param {string} id */
export const getPlayer = (id) => get(`/api/players/${encodeURIComponent(id)}`);
/** {id, ratings: [{game, rating, uncertainty, games}]}: a player's rating in each game. @param {string} id */
export const getPlayerRatings = (id) => get(`/api/players/${encodeURIComponent(id)}/ratings`);
/**
 * {game, min_games, players: [{id, name, rating, games}], next}: game, limit, cursor.
 * @param {Record<string, any>} params
 */
export const getLeaderboard = (params) => get('/api/leaderboard', params);
