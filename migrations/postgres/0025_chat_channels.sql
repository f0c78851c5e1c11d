-- Romi Rami Online, PostgreSQL schema, migration 25: each chat of a table numbers its own lines.
--
-- One number for both chats let the players count the spectators' lines from the gaps in theirs: now the
-- players' chat and the spectators' are numbered apart (`n` from 0 in each), and `seq` keeps the order the
-- lines were said in across both, for a table brought back after a restart.
ALTER TABLE chat DROP CONSTRAINT chat_pkey;
ALTER TABLE chat ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE chat ADD PRIMARY KEY (table_id, channel, n);
CREATE INDEX chat_in_order ON chat (table_id, seq);
