-- Romi Rami Online, PostgreSQL schema, migration 4: cheaper finishes.
-- A finished game's record is only ever read whole, so it is kept as the text the server wrote instead of
-- being parsed into jsonb at every finish; the records already stored become their jsonb's text, which
-- parses to the same record.
ALTER TABLE games ALTER COLUMN record TYPE text USING record::text;
-- A record (several KB of JSON) is compressed when stored: with lz4, where the server has it (PostgreSQL
-- 14 and later, built with lz4), which costs a fraction of the default pglz's time.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        EXECUTE 'ALTER TABLE games ALTER COLUMN record SET COMPRESSION lz4';
    END IF;
END
$$;
-- The actions the server's bot played, counted per seat when a game finishes: without this index the
-- count reads the game's whole log once per seat; with it, only the bot's actions.
CREATE INDEX actions_by_bot ON actions (table_id, seat) WHERE by_bot;
