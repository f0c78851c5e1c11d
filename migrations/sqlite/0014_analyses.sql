-- Romi Rami Online, SQLite schema, migration 14: analyses of finished games.
--
-- The analysis of one seat of a finished game (GET /api/games/{id}/analysis?seat=N) is computed once,
-- on request, and kept here as the JSON the API serves, so that asking again costs nothing.
CREATE TABLE analyses (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL CHECK (seat >= 0),
    analysis TEXT NOT NULL,
    -- Microseconds since the Unix epoch, as every instant of this schema.
    created_at INTEGER NOT NULL DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER)),
    PRIMARY KEY (game_id, seat)
);
