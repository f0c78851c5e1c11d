-- Romi Rami Online, SQLite schema, migration 22: each chat of a table numbers its own lines.
--
-- One number for both chats let the players count the spectators' lines from the gaps in theirs: now the
-- players' chat and the spectators' are numbered apart (`n` from 0 in each). The table is built again with
-- its new key (SQLite cannot change a key in place), its lines copied in the order they were said, which
-- the rowid keeps across both chats.
CREATE TABLE chat_by_channel (
    table_id   TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n          INTEGER NOT NULL CHECK (n >= 0),
    player_id  TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    channel    TEXT    NOT NULL CHECK (channel IN ('players', 'spectators')),
    text       TEXT    NOT NULL CHECK (length(text) BETWEEN 1 AND 300),
    PRIMARY KEY (table_id, channel, n)
);
INSERT INTO chat_by_channel (table_id, n, player_id, name, channel, text)
SELECT table_id, n, player_id, name, channel, text FROM chat ORDER BY table_id, n;
DROP TABLE chat;
ALTER TABLE chat_by_channel RENAME TO chat;
