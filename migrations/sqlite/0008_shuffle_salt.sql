-- Romi Rami Online, SQLite schema, migration 8: a shuffle anyone can check.
--
-- A game keeps the salt of the commitment to its seed (`romirami_game::commitment`) that its members are
-- told at the start, so that a game restored after a restart keeps it and its record, at the end, reveals
-- the seed and the salt. 32 bytes; NULL for the games stored before, whose records carry no proof.
ALTER TABLE games ADD COLUMN salt BLOB CHECK (salt IS NULL OR length(salt) = 32);
