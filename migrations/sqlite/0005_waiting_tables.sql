-- Romi Rami Online, SQLite schema, migration 5: tables that wait for their game survive a restart.
--
-- A waiting table is restored from its `tables` row and its `seats` rows; a seat the host gave to a bot
-- must come back as a bot's, so each seat row says whether it is one. A table that closes before its
-- start has no seat rows left, and is not restored.
ALTER TABLE seats ADD COLUMN bot INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1));
