-- Romi Rami Online, PostgreSQL schema, migration 18: tournaments (docs/tournaments.md).
--
-- A tournament is its director, stored whole as JSON after every change (`director`: its players, rounds,
-- tables and results, and the secret its duplicate deals come from, which no answer ever shows), with the
-- columns the lists filter on beside it. Its games are ordinary games at ordinary tables, which point
-- back to it (`tables.tournament`): such a table is not abandoned when its players are away (the bot
-- plays for them) and offers no rematch.
CREATE TABLE tournaments (
    id          uuid        PRIMARY KEY,
    game        text        NOT NULL,
    -- The game's options, as the JSON text the game wrote.
    options     text        NOT NULL,
    turn_ms     bigint      NOT NULL CHECK (turn_ms > 0),
    reserve_ms  bigint      NOT NULL CHECK (reserve_ms >= 0),
    rated       boolean     NOT NULL,
    created_by  uuid        NOT NULL,
    created_at  timestamptz NOT NULL,
    state       text        NOT NULL CHECK (state IN ('waiting', 'running', 'finished')),
    director    text        NOT NULL
);
CREATE INDEX tournaments_by_state ON tournaments (state, created_at DESC);

ALTER TABLE tables ADD COLUMN tournament uuid;
