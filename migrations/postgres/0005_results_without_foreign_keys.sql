-- A game's results are written by one statement only (`PgStore`'s finish): it updates the unfinished
-- game and inserts one row per seat from the rows it updated, joined with the game's players. Each
-- result therefore names a game that exists and a player of it by construction, and the two foreign
-- keys only checked that again, row by row: about a third of PostgreSQL's time per finished game
-- (4,900 finished games/s with them, 7,100 without, in `romirami load --persist`, median of 3).
-- Games are never deleted by the server; whoever deletes one by hand deletes its results too.
-- SQLite, the single-process default, keeps them: dropping a constraint there means rebuilding the
-- table, and it is not where thousands of games finish a second.
ALTER TABLE results
    DROP CONSTRAINT results_table_id_fkey,
    DROP CONSTRAINT results_player_id_fkey;
