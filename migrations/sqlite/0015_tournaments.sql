-- Romi Rami Online, SQLite schema, migration 15: tournaments (docs/tournaments.md).
--
-- A tournament is its director, stored whole as JSON after every change (`director`: its players, rounds,
-- tables and results, and the secret its duplicate deals come from, which no answer ever shows), with the
-- columns the lists filter on beside it. Its games are ordinary games at ordinary tables, which point
-- back to it (`tables.tournament`): such a table is not abandoned when its players are away (the bot
-- plays for them) and offers no rematch.
CREATE TABLE tournaments (
    id          TEXT    PRIMARY KEY,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL,
    turn_ms     INTEGER NOT NULL CHECK (turn_ms > 0),
    reserve_ms  INTEGER NOT NULL CHECK (reserve_ms >= 0),
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    created_by  TEXT    NOT NULL,
    -- Microseconds since the Unix epoch, as every instant of this schema.
    created_at  INTEGER NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('waiting', 'running', 'finished')),
    director    TEXT    NOT NULL
);
CREATE INDEX tournaments_by_state ON tournaments (state, created_at DESC);

ALTER TABLE tables ADD COLUMN tournament TEXT;
