-- Romi Rami Online, SQLite schema, migration 25: where players connect from, for the collusion signal.
--
-- `player_addresses`: each address a player said hello from, as a key (SHA-256 of the address, an IPv6
-- address cut to its /64 network, which a home's devices share), never the address itself; first and last
-- seen. Admins are shown pairs of players who share a key and sit at the same rated tables again and again,
-- never the keys. A deleted account's rows go with it.
CREATE TABLE player_addresses (
    player_id    TEXT    NOT NULL REFERENCES players (id),
    address_key  BLOB    NOT NULL CHECK (length(address_key) = 32),
    first_seen   INTEGER NOT NULL,
    last_seen    INTEGER NOT NULL,
    PRIMARY KEY (player_id, address_key)
);
CREATE INDEX player_addresses_by_key ON player_addresses (address_key);
