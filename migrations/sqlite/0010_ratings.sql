-- Romi Rami Online, SQLite schema, migration 10: ratings.
--
-- * A table is rated or casual, as its host chose at creation (`rated`; the tables stored before are
--   rated, the protocol's default).
-- * A finished game says whether it counted for the ratings (`rated`): 1 or 0, set in the transaction
--   that stores its result; NULL for the games finished before this migration, which the server rates
--   at start-up by replaying them in the order they finished (`Store::connect`, then `rated` is set).
-- * `ratings` is each player's current rating in each game (Weng-Lin: `mu` and `sigma`) with the number
--   of rated games it rests on; `rating_changes` is each seat's rating before and after a rated game.
--   Both are written in the transaction that stores the game's result.
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE games ADD COLUMN rated INTEGER CHECK (rated IN (0, 1));

CREATE TABLE ratings (
    player_id  TEXT    NOT NULL REFERENCES players (id),
    game       TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    games      INTEGER NOT NULL CHECK (games >= 0),
    PRIMARY KEY (player_id, game)
);
-- The leaderboard: one game's players, best first, the id breaking ties, so that a cursor (mu, id)
-- pages through them without gaps or repeats.
CREATE INDEX ratings_board ON ratings (game, mu DESC, player_id);

CREATE TABLE rating_changes (
    table_id      TEXT    NOT NULL REFERENCES games (table_id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    player_id     TEXT    NOT NULL REFERENCES players (id),
    mu_before     REAL    NOT NULL,
    sigma_before  REAL    NOT NULL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
-- The finished games that the start-up replay has still to rate.
CREATE INDEX games_unrated ON games (finished_at, table_id) WHERE finished_at IS NOT NULL AND rated IS NULL;
