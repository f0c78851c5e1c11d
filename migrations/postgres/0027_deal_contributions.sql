-- Romi Rami Online, PostgreSQL schema, migration 27: a deal the players help make.
--
-- A game keeps its seats' contributions to the deal (`romirami_game::commitment::derive_seed`), 32 bytes
-- each in seat order, so that a game restored after a restart deals from the same derived seed and its
-- record, at the end, reveals them. `seed` stays the server's committed seed. NULL for a game dealt from
-- the server's seed alone (games stored before, and a duplicate tournament round's deals).
ALTER TABLE games ADD COLUMN contributions bytea
    CHECK (contributions IS NULL OR (octet_length(contributions) > 0 AND octet_length(contributions) % 32 = 0));
