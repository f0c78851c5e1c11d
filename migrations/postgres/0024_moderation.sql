-- Romi Rami Online, PostgreSQL schema, migration 24: moderation.
--
-- * `admins`: the players who may moderate, named from the command line (`romirami admin grant NAME`),
--   never over the web.
-- * `reports`: a player's report of another (at a table, of a chat line there when `chat_n` is given, whose
--   text is kept as it was: `line`), with the reporter's reason; `resolved_at` once an admin acted on it.
-- * `bans`: a banned player, until when and why; refused at `hello` and at sign-in until then.
-- * `audit_log`: every act of an admin (and of the command line: `admin_id` null), newest last.
CREATE TABLE admins (
    player_id   uuid        PRIMARY KEY REFERENCES players (id),
    granted_at  timestamptz NOT NULL
);

CREATE TABLE reports (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reporter_id  uuid        NOT NULL REFERENCES players (id),
    player_id    uuid        NOT NULL REFERENCES players (id),
    table_id     uuid,
    chat_n       bigint,
    line         text,
    reason       text        NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
    created_at   timestamptz NOT NULL,
    resolved_at  timestamptz
);
CREATE INDEX reports_open ON reports (created_at) WHERE resolved_at IS NULL;
CREATE INDEX reports_by_reporter ON reports (reporter_id, created_at);

CREATE TABLE bans (
    player_id   uuid        PRIMARY KEY REFERENCES players (id),
    until       timestamptz NOT NULL,
    reason      text        NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
    admin_id    uuid        REFERENCES players (id),
    created_at  timestamptz NOT NULL
);

CREATE TABLE audit_log (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at         timestamptz NOT NULL,
    admin_id   uuid        REFERENCES players (id),
    action     text        NOT NULL,
    target_id  uuid        REFERENCES players (id),
    detail     text        NOT NULL
);
