-- Romi Rami Online, SQLite schema, migration 21: moderation.
--
-- * `admins`: the players who may moderate, named from the command line (`romirami admin grant NAME`),
--   never over the web.
-- * `reports`: a player's report of another (at a table, of a chat line there when `chat_n` is given, whose
--   text is kept as it was: `line`), with the reporter's reason; `resolved_at` once an admin acted on it.
-- * `bans`: a banned player, until when and why; refused at `hello` and at sign-in until then.
-- * `audit_log`: every act of an admin (and of the command line: `admin_id` null), newest last.
CREATE TABLE admins (
    player_id   TEXT    PRIMARY KEY REFERENCES players (id),
    granted_at  INTEGER NOT NULL
);

CREATE TABLE reports (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    reporter_id  TEXT    NOT NULL REFERENCES players (id),
    player_id    TEXT    NOT NULL REFERENCES players (id),
    table_id     TEXT,
    chat_n       INTEGER,
    line         TEXT,
    reason       TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    created_at   INTEGER NOT NULL,
    resolved_at  INTEGER
);
CREATE INDEX reports_open ON reports (created_at) WHERE resolved_at IS NULL;
CREATE INDEX reports_by_reporter ON reports (reporter_id, created_at);

CREATE TABLE bans (
    player_id   TEXT    PRIMARY KEY REFERENCES players (id),
    until       INTEGER NOT NULL,
    reason      TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    admin_id    TEXT    REFERENCES players (id),
    created_at  INTEGER NOT NULL
);

CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    at         INTEGER NOT NULL,
    admin_id   TEXT    REFERENCES players (id),
    action     TEXT    NOT NULL,
    target_id  TEXT    REFERENCES players (id),
    detail     TEXT    NOT NULL
);
