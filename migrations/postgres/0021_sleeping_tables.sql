-- Romi Rami Online, PostgreSQL schema, migration 21: turn-based tables asleep (docs/architecture.md,
-- "Turn-based tables").
--
-- A turn-based table (a turn longer than ten minutes) that nobody is at holds no memory: its task stops and
-- it is brought back from the store on the next join, move or timer. Its row here says when the running
-- turn started (`turn_since`, so that the turn's clock runs on while it sleeps), when it must wake by itself
-- (`wake_at`: the running turn's end, reserve included; NULL: only when someone comes), the seat to act
-- (`to_act`; NULL while the table waits for players), its players (`players`) and its summary as it fell
-- asleep (`summary`, the JSON of the protocol's table summary), for the players' "my games". A table is
-- asleep while it has a row here; waking deletes the row. No node holds its lease while it sleeps.
CREATE TABLE sleeping_tables (
    table_id    uuid        PRIMARY KEY REFERENCES tables (id),
    turn_since  timestamptz NOT NULL,
    wake_at     timestamptz,
    to_act      smallint    CHECK (to_act BETWEEN 0 AND 3),
    players     uuid[]      NOT NULL,
    summary     jsonb       NOT NULL,
    slept_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sleeping_tables_wake_at ON sleeping_tables (wake_at) WHERE wake_at IS NOT NULL;
CREATE INDEX sleeping_tables_players ON sleeping_tables USING gin (players);
