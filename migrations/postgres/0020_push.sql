-- Romi Rami Online, PostgreSQL schema, migration 20: Web Push (docs/push.md).
--
-- * `server_secrets`: secrets the server makes once and every node shares; today the VAPID private key
--   (`vapid_private_key`, base64url of its 32 bytes) with which pushes are signed. The first node to start
--   writes it; the others read that one.
-- * `push_subscriptions`: a browser's push subscription (RFC 8030 endpoint, the RFC 8291 keys `p256dh` and
--   `auth`, base64url as the browser gives them) for a player, with the language its notifications are
--   written in. One row per endpoint: a device that subscribes again, or for another player, replaces its
--   row. A player may have several devices.
CREATE TABLE server_secrets (
    name        text        PRIMARY KEY,
    value       text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE push_subscriptions (
    endpoint    text        PRIMARY KEY CHECK (length(endpoint) BETWEEN 1 AND 2048),
    player_id   uuid        NOT NULL REFERENCES players (id),
    p256dh      text        NOT NULL,
    auth        text        NOT NULL,
    lang        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_player ON push_subscriptions (player_id, created_at);
