-- Romi Rami Online, SQLite schema, migration 18: turn-based tables asleep (docs/architecture.md,
-- "Turn-based tables").
--
-- A turn-based table (a turn longer than ten minutes) that nobody is at holds no memory: its task stops and
-- it is brought back from the store on the next join, move or timer. Its row here says when the running
-- turn started (`turn_since`, so that the turn's clock runs on while it sleeps), when it must wake by itself
-- (`wake_at`: the running turn's end, reserve included; NULL: only when someone comes), the seat to act
-- (`to_act`; NULL while the table waits for players), its players (`players`, a JSON array of ids) and its
-- summary as it fell asleep (`summary`, the JSON of the protocol's table summary), for the players' "my
-- games". A table is asleep while it has a row here; waking deletes the row.
CREATE TABLE sleeping_tables (
    table_id    TEXT    PRIMARY KEY REFERENCES tables (id),
    -- Microseconds since the Unix epoch, as every instant of this schema.
    turn_since  INTEGER NOT NULL,
    wake_at     INTEGER,
    to_act      INTEGER CHECK (to_act BETWEEN 0 AND 3),
    players     TEXT    NOT NULL,
    summary     TEXT    NOT NULL,
    slept_at    INTEGER NOT NULL DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER))
);
CREATE INDEX sleeping_tables_wake_at ON sleeping_tables (wake_at) WHERE wake_at IS NOT NULL;
