-- Romi Rami Online, PostgreSQL schema, migration 19: a finished tournament's winner (the first of its
-- standings), kept beside its director so that a player's page lists the tournaments they won.
ALTER TABLE tournaments ADD COLUMN winner uuid;
CREATE INDEX tournaments_by_winner ON tournaments (winner, created_at DESC) WHERE winner IS NOT NULL;
