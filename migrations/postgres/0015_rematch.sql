-- Romi Rami Online, PostgreSQL schema, migration 15: rematches.
--
-- When every player of a finished game says yes to playing again, the next game is played at a new
-- table (a table's game shares its id). The finished table points to it (`rematch`), so that its id and
-- its invite link lead there after the finished table closed; NULL when its players did not play again.
ALTER TABLE tables ADD COLUMN rematch uuid;
