-- Romi Rami Online, PostgreSQL schema, migration 11: ratings.
--
-- * A table is rated or casual, as its host chose at creation (`rated`; the tables stored before are
--   rated, the protocol's default).
-- * A finished game says whether it counted for the ratings (`rated`): true or false, set in the
--   transaction that stores its result; NULL for the games finished before this migration, which the
--   server rates at start-up by replaying them in the order they finished (`Store::connect`, then
--   `rated` is set).
-- * `ratings` is each player's current rating in each game (Weng-Lin: `mu` and `sigma`) with the number
--   of rated games it rests on; `rating_changes` is each seat's rating before and after a rated game.
--   Both are written in the transaction that stores the game's result; a finish locks the rows of its
--   players (`SELECT ... FOR UPDATE`), so two games that finish at once with a player in common are
--   rated one after the other.
ALTER TABLE tables ADD COLUMN rated boolean NOT NULL DEFAULT true;
ALTER TABLE games ADD COLUMN rated boolean;

CREATE TABLE ratings (
    player_id  uuid             NOT NULL REFERENCES players (id),
    game       text             NOT NULL,
    mu         double precision NOT NULL,
    sigma      double precision NOT NULL CHECK (sigma > 0),
    games      integer          NOT NULL CHECK (games >= 0),
    PRIMARY KEY (player_id, game)
);
-- The leaderboard: one game's players, best first, the id breaking ties, so that a cursor (mu, id)
-- pages through them without gaps or repeats.
CREATE INDEX ratings_board ON ratings (game, mu DESC, player_id);

-- Without foreign keys, as `results` (migration 5): its rows are written from the game's own rows.
CREATE TABLE rating_changes (
    table_id      uuid             NOT NULL,
    seat          smallint         NOT NULL CHECK (seat BETWEEN 0 AND 5),
    player_id     uuid             NOT NULL,
    mu_before     double precision NOT NULL,
    sigma_before  double precision NOT NULL,
    mu_after      double precision NOT NULL,
    sigma_after   double precision NOT NULL,
    PRIMARY KEY (table_id, seat)
);
-- The finished games that the start-up replay has still to rate.
CREATE INDEX games_unrated ON games (finished_at, table_id) WHERE finished_at IS NOT NULL AND rated IS NULL;
