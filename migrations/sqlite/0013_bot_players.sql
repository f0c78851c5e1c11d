-- Romi Rami Online, SQLite schema, migration 13: the bots' players.
--
-- Each level of the server's bot (`easy`, `normal`, `strong`) is a player of its own, so that it has a
-- rating in each game (`crates/server/src/bots.rs`): every seat a host gives to a bot of a level is that
-- player's. Their token hashes are no SHA-256 of any token anyone knows (a token is hashed before it is
-- looked up), so nobody can sign in as a bot.
INSERT OR IGNORE INTO players (id, name, token_hash, created_at) VALUES
    ('b0700000-0000-4000-8000-000000000001', 'Bot · easy',
     X'b070000000000000000000000000000000000000000000000000000000000001', CAST(strftime('%s', 'now') AS INTEGER) * 1000000),
    ('b0700000-0000-4000-8000-000000000002', 'Bot · normal',
     X'b070000000000000000000000000000000000000000000000000000000000002', CAST(strftime('%s', 'now') AS INTEGER) * 1000000),
    ('b0700000-0000-4000-8000-000000000003', 'Bot · strong',
     X'b070000000000000000000000000000000000000000000000000000000000003', CAST(strftime('%s', 'now') AS INTEGER) * 1000000);
