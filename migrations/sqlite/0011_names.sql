-- Romi Rami Online, SQLite schema, migration 11: names you keep.
--
-- * `claimed_names`: a guest who claimed their name with a password. `name_key` is the name as it is
--   compared (Unicode compatibility form NFKC, lower case: `players::name_key`), unique, so that nobody
--   else can take it in any case or width; `password_hash` is an argon2id PHC string (the password itself
--   is never stored). A player claims one name, once.
-- * `player_tokens`: the tokens given at a sign-in, each kept as its SHA-256 hash as `players.token_hash`
--   is. A player keeps their first token there and one more per browser they signed in from, so that a
--   sign-in somewhere does not sign them out anywhere else.
CREATE TABLE claimed_names (
    player_id      TEXT    PRIMARY KEY REFERENCES players (id),
    name_key       TEXT    NOT NULL UNIQUE CHECK (length(name_key) > 0),
    password_hash  TEXT    NOT NULL,
    claimed_at     INTEGER NOT NULL
);

CREATE TABLE player_tokens (
    token_hash  BLOB    PRIMARY KEY CHECK (length(token_hash) = 32),
    player_id   TEXT    NOT NULL REFERENCES players (id),
    created_at  INTEGER NOT NULL
);
