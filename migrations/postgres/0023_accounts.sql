-- Romi Rami Online, PostgreSQL schema, migration 23: accounts people control.
--
-- * Every live token is a row of `player_tokens`, a guest's first one too (copied here from
--   `players.token_hash`, which keeps the first token's hash as a record and is no longer read): signing
--   out deletes the row, signing out everywhere deletes the player's rows. `device` is how the browser
--   named itself when the token was given (its User-Agent, cut to 200 characters), shown to the player
--   among their signed-in devices.
-- * `players.deleted_at`: set when a player deleted their account; their name is then "deleted player"
--   everywhere (`players.name`, `game_players.name`, `results.name`), their kept name freed, their tokens, chat lines and
--   push subscriptions removed. The row stays: games and ratings refer to it.
INSERT INTO player_tokens (token_hash, player_id, created_at)
SELECT token_hash, id, created_at FROM players
ON CONFLICT (token_hash) DO NOTHING;

ALTER TABLE player_tokens ADD COLUMN device text CHECK (length(device) <= 200);
CREATE INDEX player_tokens_by_player ON player_tokens (player_id);

ALTER TABLE players ADD COLUMN deleted_at timestamptz;
