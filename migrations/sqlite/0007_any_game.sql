-- Romi Rami Online, SQLite schema, migration 7: the store holds any game of the rummy family.
--
-- * A table keeps its game's options (`options`, the JSON text the game wrote; `{}` for Romi Rami, which
--   has none), so that a game restored after a restart is dealt with the same options.
-- * Tables and games seat 2 to 6 players (the rummy games seat up to 6), and a game ends for any reason
--   its game gives (`ended_by` in the game's words).
-- * A result is the same for every game: the seat's score, its place (1 to 6) and whether it won, and
--   the score's parts in the game's words as a JSON object (`details`). Romi Rami's results become
--   their score breakdown's JSON, the fields the engine writes (in its order), so that the REST API
--   shows the same scores as before.
--
-- SQLite cannot change a column's CHECK in place: each of these tables is rebuilt (created anew, filled
-- from the old one, the old one dropped, the new one renamed). Migrations run in a transaction with
-- foreign keys enforced, so a table another one refers to is dropped only once the tables that refer
-- to it are gone (dropping it first would delete their rows, ON DELETE CASCADE); renaming a new table
-- makes the new tables that refer to it refer to its new name. `players` keeps its rows and index.

CREATE TABLE new_tables (
    id          TEXT    PRIMARY KEY,
    host        TEXT    NOT NULL REFERENCES players (id),
    seat_count  INTEGER NOT NULL CHECK (seat_count BETWEEN 2 AND 6),
    public      INTEGER NOT NULL CHECK (public IN (0, 1)),
    spectators  TEXT    NOT NULL CHECK (spectators IN ('everyone', 'link', 'nobody')),
    created_at  INTEGER NOT NULL,
    invite      TEXT    NOT NULL DEFAULT '',
    turn_ms     INTEGER CHECK (turn_ms > 0),
    reserve_ms  INTEGER CHECK (reserve_ms >= 0),
    game        TEXT    NOT NULL DEFAULT 'romi-rami',
    options     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options))
);
INSERT INTO new_tables (id, host, seat_count, public, spectators, created_at, invite, turn_ms, reserve_ms, game)
    SELECT id, host, seat_count, public, spectators, created_at, invite, turn_ms, reserve_ms, game FROM tables;

CREATE TABLE new_seats (
    table_id   TEXT    NOT NULL REFERENCES new_tables (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    player_id  TEXT    NOT NULL REFERENCES players (id),
    bot        INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1)),
    PRIMARY KEY (table_id, seat)
);
INSERT INTO new_seats (table_id, seat, player_id, bot) SELECT table_id, seat, player_id, bot FROM seats;

CREATE TABLE new_games (
    table_id      TEXT    PRIMARY KEY REFERENCES new_tables (id),
    seed          INTEGER NOT NULL,
    player_count  INTEGER NOT NULL CHECK (player_count BETWEEN 2 AND 6),
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    ended_by      TEXT    CHECK (ended_by <> ''),
    -- The game's record, as JSON text.
    record        TEXT,
    game          TEXT    NOT NULL DEFAULT 'romi-rami',
    CHECK ((finished_at IS NULL) = (record IS NULL) AND (finished_at IS NULL) = (ended_by IS NULL))
);
INSERT INTO new_games (table_id, seed, player_count, started_at, finished_at, ended_by, record, game)
    SELECT table_id, seed, player_count, started_at, finished_at, ended_by, record, game FROM games;

CREATE TABLE new_game_players (
    table_id   TEXT    NOT NULL REFERENCES new_games (table_id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    player_id  TEXT    NOT NULL REFERENCES players (id),
    name       TEXT    NOT NULL,
    bot        INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1)),
    PRIMARY KEY (table_id, seat)
);
INSERT INTO new_game_players (table_id, seat, player_id, name, bot)
    SELECT table_id, seat, player_id, name, bot FROM game_players;

CREATE TABLE new_actions (
    table_id    TEXT    NOT NULL REFERENCES new_games (table_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    -- The game's action as JSON text.
    action      TEXT    NOT NULL,
    by_bot      INTEGER NOT NULL DEFAULT 0 CHECK (by_bot IN (0, 1)),
    reserve_ms  INTEGER CHECK (reserve_ms >= 0),
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
INSERT INTO new_actions (table_id, seq, seat, action, by_bot, reserve_ms)
    SELECT table_id, seq, seat, action, by_bot, reserve_ms FROM actions;

-- One row per seat of a finished game: its score, its place (1 = best; ties share a place, as in
-- 1, 1, 3), whether it is among the winners, and the score's parts as the game gives them.
CREATE TABLE new_results (
    table_id     TEXT    NOT NULL REFERENCES new_games (table_id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    player_id    TEXT    NOT NULL REFERENCES players (id),
    name         TEXT    NOT NULL,
    score        INTEGER NOT NULL,
    -- A JSON object, as the text the server wrote.
    details      TEXT    NOT NULL CHECK (json_valid(details)),
    place        INTEGER NOT NULL CHECK (place BETWEEN 1 AND 6),
    winner       INTEGER NOT NULL CHECK (winner IN (0, 1)),
    bot          INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1)),
    bot_actions  INTEGER NOT NULL DEFAULT 0 CHECK (bot_actions >= 0),
    PRIMARY KEY (table_id, seat)
);
-- Romi Rami's score breakdown, as the engine's `ScoreBreakdown` writes it.
INSERT INTO new_results (table_id, seat, player_id, name, score, details, place, winner, bot, bot_actions)
    SELECT table_id, seat, player_id, name, total,
           json_object('seat', seat, 'total', total, 'contracts', contracts, 'trophies', trophies,
                       'suit_bonus', suit_bonus, 'star', star),
           place, winner, bot, bot_actions
    FROM results;

-- The old tables, each after every table that refers to it.
DROP TABLE actions;
DROP TABLE results;
DROP TABLE game_players;
DROP TABLE seats;
DROP TABLE games;
DROP TABLE tables;

ALTER TABLE new_tables RENAME TO tables;
ALTER TABLE new_seats RENAME TO seats;
ALTER TABLE new_games RENAME TO games;
ALTER TABLE new_game_players RENAME TO game_players;
ALTER TABLE new_actions RENAME TO actions;
ALTER TABLE new_results RENAME TO results;

-- The indexes dropped with the old tables (migrations 1 and 4), as they were.
CREATE INDEX games_finished ON games (finished_at DESC, table_id DESC) WHERE finished_at IS NOT NULL;
CREATE INDEX games_unfinished ON games (table_id) WHERE finished_at IS NULL;
CREATE INDEX actions_by_bot ON actions (table_id, seat) WHERE by_bot;
CREATE INDEX results_by_player ON results (player_id, table_id);
CREATE INDEX results_by_name ON results (name, table_id);
