-- Romi Rami Online, PostgreSQL schema, migration 3: turn clocks and bots.
-- A table's clock (NULL for a table without one): the time per turn and the reserve, in milliseconds.
ALTER TABLE tables
    ADD COLUMN turn_ms bigint CHECK (turn_ms > 0),
    ADD COLUMN reserve_ms bigint CHECK (reserve_ms >= 0);
-- A seat the host gave to a bot before the start.
ALTER TABLE game_players ADD COLUMN bot boolean NOT NULL DEFAULT false;
-- Whether the server's bot played the action (for a bot seat, or a seat whose player ran out of time or
-- left), and the acting seat's reserve after it (NULL without a clock), which a restart restores.
ALTER TABLE actions
    ADD COLUMN by_bot boolean NOT NULL DEFAULT false,
    ADD COLUMN reserve_ms bigint CHECK (reserve_ms >= 0);
-- In a result: whether the seat was a bot's, and how many of its actions the bot played.
ALTER TABLE results
    ADD COLUMN bot boolean NOT NULL DEFAULT false,
    ADD COLUMN bot_actions integer NOT NULL DEFAULT 0 CHECK (bot_actions >= 0);
