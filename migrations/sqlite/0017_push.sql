-- Romi Rami Online, SQLite schema, migration 17: Web Push (docs/push.md).
--
-- * `server_secrets`: secrets the server makes once; today the VAPID private key (`vapid_private_key`,
--   base64url of its 32 bytes) with which pushes are signed.
-- * `push_subscriptions`: a browser's push subscription (RFC 8030 endpoint, the RFC 8291 keys `p256dh` and
--   `auth`, base64url as the browser gives them) for a player, with the language its notifications are
--   written in. One row per endpoint: a device that subscribes again, or for another player, replaces its
--   row. A player may have several devices.
CREATE TABLE server_secrets (
    name        TEXT    PRIMARY KEY,
    value       TEXT    NOT NULL,
    -- Microseconds since the Unix epoch, as every instant of this schema.
    created_at  INTEGER NOT NULL DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER))
);

CREATE TABLE push_subscriptions (
    endpoint    TEXT    PRIMARY KEY CHECK (length(endpoint) BETWEEN 1 AND 2048),
    player_id   TEXT    NOT NULL REFERENCES players (id),
    p256dh      TEXT    NOT NULL,
    auth        TEXT    NOT NULL,
    lang        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER))
);
CREATE INDEX push_subscriptions_player ON push_subscriptions (player_id, created_at);
