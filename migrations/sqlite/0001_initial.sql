-- Romi Rami Online, SQLite schema, migration 1: players, tables, games, their action logs and results.
--
-- Applied once at start-up by `Store::connect`; never edit it once applied, add a new numbered file.
-- Conventions of this backend (the PostgreSQL one uses native types instead):
--   * ids are UUIDs written as hyphenated lower-case TEXT;
--   * instants are INTEGER microseconds since the Unix epoch (UTC), so they sort and compare as numbers
--     and have the precision of PostgreSQL's timestamptz;
--   * booleans are INTEGER 0 or 1; JSON is TEXT.
-- A table's game shares the table's id: a table hosts one game, and that id is the game's id everywhere
-- (in the REST API and in the record's `id`).

-- Every player: a guest with a display name. The secret token is never stored, only its SHA-256 hash.
CREATE TABLE players (
    id          TEXT    PRIMARY KEY,
    name        TEXT    NOT NULL,
    token_hash  BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at  INTEGER NOT NULL
);
-- Looking a player up by name (the `player` filter of the game list accepts a name).
CREATE INDEX players_by_name ON players (name);

-- Every table, from its creation on.
CREATE TABLE tables (
    id          TEXT    PRIMARY KEY,
    host        TEXT    NOT NULL REFERENCES players (id),
    seat_count  INTEGER NOT NULL CHECK (seat_count BETWEEN 2 AND 4),
    public      INTEGER NOT NULL CHECK (public IN (0, 1)),
    spectators  TEXT    NOT NULL CHECK (spectators IN ('everyone', 'link', 'nobody')),
    created_at  INTEGER NOT NULL
);

-- Who sits where while the table waits for its game; a free seat has no row.
CREATE TABLE seats (
    table_id   TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id  TEXT    NOT NULL REFERENCES players (id),
    PRIMARY KEY (table_id, seat)
);

-- A game, from its start. `seed` (a u64 stored as the i64 with the same bits) and `player_count` give
-- the whole initial state: `Game::new(player_count, seed)`. `finished_at`, `ended_by` and `record` are
-- set together when the game ends; until then the game is unfinished and is restored at start-up.
CREATE TABLE games (
    table_id      TEXT    PRIMARY KEY REFERENCES tables (id),
    seed          INTEGER NOT NULL,
    player_count  INTEGER NOT NULL CHECK (player_count BETWEEN 2 AND 4),
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    ended_by      TEXT    CHECK (ended_by IN ('contracts', 'market', 'abandoned')),
    -- The romirami-record/1 document, as JSON text.
    record        TEXT,
    CHECK ((finished_at IS NULL) = (record IS NULL) AND (finished_at IS NULL) = (ended_by IS NULL))
);
-- The game list: finished games newest first, the id breaking ties, so that a cursor
-- (finished_at, table_id) pages through them without gaps or repeats.
CREATE INDEX games_finished ON games (finished_at DESC, table_id DESC) WHERE finished_at IS NOT NULL;
-- The games to restore at start-up.
CREATE INDEX games_unfinished ON games (table_id) WHERE finished_at IS NULL;

-- The players of a game as it started, with the names shown in it.
CREATE TABLE game_players (
    table_id   TEXT    NOT NULL REFERENCES games (table_id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id  TEXT    NOT NULL REFERENCES players (id),
    name       TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);

-- The append-only log of every action applied to a game, take-backs included, numbered from 0 per game
-- without gaps: with the seed, it reproduces the game. An action is acknowledged only once its row is
-- committed.
CREATE TABLE actions (
    table_id  TEXT    NOT NULL REFERENCES games (table_id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL CHECK (seq >= 0),
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    -- The engine's `Action` as JSON text.
    action    TEXT    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

-- One row per seat of a finished game: its score breakdown (§5), its place (1 = best; ties share a
-- place, as in 1, 1, 3) and whether it is among the winners.
CREATE TABLE results (
    table_id    TEXT    NOT NULL REFERENCES games (table_id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id   TEXT    NOT NULL REFERENCES players (id),
    name        TEXT    NOT NULL,
    total       INTEGER NOT NULL,
    contracts   INTEGER NOT NULL,
    trophies    INTEGER NOT NULL,
    suit_bonus  INTEGER NOT NULL,
    star        INTEGER NOT NULL,
    place       INTEGER NOT NULL CHECK (place BETWEEN 1 AND 4),
    winner      INTEGER NOT NULL CHECK (winner IN (0, 1)),
    PRIMARY KEY (table_id, seat)
);
-- A player's games and statistics, and the `player` filter by id.
CREATE INDEX results_by_player ON results (player_id, table_id);
-- The `player` filter by the name shown in a game.
CREATE INDEX results_by_name ON results (name, table_id);
