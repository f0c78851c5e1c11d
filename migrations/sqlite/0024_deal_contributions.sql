-- Romi Rami Online, SQLite schema, migration 24: a deal the players help make.
--
-- A game keeps its seats' contributions to the deal (`romirami_game::commitment::derive_seed`), 32 bytes
-- each in seat order, so that a game restored after a restart deals from the same derived seed and its
-- record, at the end, reveals them. `seed` stays the server's committed seed. NULL for a game dealt from
-- the server's seed alone (games stored before, and a duplicate tournament round's deals).
ALTER TABLE games ADD COLUMN contributions BLOB
    CHECK (contributions IS NULL OR (length(contributions) > 0 AND length(contributions) % 32 = 0));
