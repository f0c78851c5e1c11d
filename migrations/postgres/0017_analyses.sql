-- Romi Rami Online, PostgreSQL schema, migration 17: analyses of finished games.
--
-- The analysis of one seat of a finished game (GET /api/games/{id}/analysis?seat=N) is computed once,
-- on request, and kept here as the JSON the API serves, so that asking again costs nothing. No foreign
-- key, as for the results (migration 5): a game's rows are written by other transactions.
CREATE TABLE analyses (
    game_id uuid NOT NULL,
    seat smallint NOT NULL CHECK (seat >= 0),
    analysis text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat)
);
