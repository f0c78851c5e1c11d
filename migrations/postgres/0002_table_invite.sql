-- Romi Rami Online, PostgreSQL schema, migration 2: a table keeps its invite key, so that a private table
-- restored after a restart still admits the people who hold its link.
ALTER TABLE tables ADD COLUMN invite TEXT NOT NULL DEFAULT '';
