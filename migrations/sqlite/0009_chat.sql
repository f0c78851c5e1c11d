-- Romi Rami Online, SQLite schema, migration 9: the tables' chat.
--
-- A table keeps its last 200 chat messages (the server deletes older ones as new ones come), so that a
-- reload, a late spectator or a restarted server shows the same history. `n` numbers a table's messages
-- from 0; `channel` says whether the players or the spectators wrote it. The writer's name is kept as it
-- was shown. Never part of a game's record, and never served by the REST API.
CREATE TABLE chat (
    table_id   TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n          INTEGER NOT NULL CHECK (n >= 0),
    player_id  TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    channel    TEXT    NOT NULL CHECK (channel IN ('players', 'spectators')),
    text       TEXT    NOT NULL CHECK (length(text) BETWEEN 1 AND 300),
    PRIMARY KEY (table_id, n)
);
