-- Romi Rami Online, SQLite schema, migration 4: cheaper finishes. (The record is already TEXT here; the
-- PostgreSQL migration of the same number turns its jsonb into text.)
-- The actions the server's bot played, counted per seat when a game finishes: without this index the
-- count reads the game's whole log once per seat; with it, only the bot's actions.
CREATE INDEX actions_by_bot ON actions (table_id, seat) WHERE by_bot;
