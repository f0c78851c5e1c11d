// The server's REST API for finished games and players (GET /api/games, /api/games/<id>,
// /api/players/<id>, /api/tables). Errors come back as {"error":{"code","message"}}; they are thrown
// as ApiError with the server's sentence, for the page to show as is.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function get(path, params = {}) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v != null && v !== ''));
  const url = query.toString() ? `${path}?${query}` : path;
  let response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let body = null;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  if (!response.ok) {
    const error = body?.error;
    throw new ApiError(response.status, error?.code ?? 'http', error?.message ?? `The server answered ${response.status}.`);
  }
  if (body == null) throw new ApiError(response.status, 'bad_body', 'The server sent something that is not JSON.');
  return body;
}

/** {games, next}: finished games, newest first. Filters: player, since, until, players, limit, cursor. */
export const listGames = (filters) => get('/api/games', filters);
export const getGame = (id) => get(`/api/games/${encodeURIComponent(id)}`);
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
export const getPlayer = (id) => get(`/api/players/${encodeURIComponent(id)}`);
