-- Romi Rami Online, SQLite schema, migration 6: every table and every stored game names its game.
--
-- The server hosts more than one game of the rummy family; each table says which one it seats, and each
-- stored game which one was played, by the game's name (`romi-rami`, ...). Everything stored before
-- this migration was Romi Rami.
ALTER TABLE tables ADD COLUMN game TEXT NOT NULL DEFAULT 'romi-rami';
ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'romi-rami';
