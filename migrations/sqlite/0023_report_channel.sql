-- Romi Rami Online, SQLite schema, migration 23: a reported chat line's chat (`players` or `spectators`),
-- which with its table and number names the line an admin may remove (each chat numbers its own lines).
ALTER TABLE reports ADD COLUMN channel TEXT CHECK (channel IN ('players', 'spectators'));
