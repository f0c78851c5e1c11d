-- Romi Rami Online, PostgreSQL schema, migration 8: the store holds any game of the rummy family.
--
-- * A table keeps its game's options (`options`, the JSON text the game wrote; `{}` for Romi Rami, which
--   has none), so that a game restored after a restart is dealt with the same options. It is text, not
--   jsonb: it goes back to the game as it was written.
-- * Tables and games seat 2 to 6 players (the rummy games seat up to 6), and a game ends for any reason
--   its game gives (`ended_by` in the game's words).
-- * A result is the same for every game: the seat's score, its place (1 to 6) and whether it won, and
--   the score's parts in the game's words as a JSON object (`details`), kept as the text the server
--   wrote (like SQLite, so that both read back the same; it is only read whole). Romi Rami's results
--   become their score breakdown's JSON, the fields the engine writes (in its order); the columns of
--   its breakdown go.
ALTER TABLE tables
    ADD COLUMN options text NOT NULL DEFAULT '{}',
    DROP CONSTRAINT tables_seat_count_check,
    ADD CONSTRAINT tables_seat_count_check CHECK (seat_count BETWEEN 2 AND 6);
ALTER TABLE seats
    DROP CONSTRAINT seats_seat_check,
    ADD CONSTRAINT seats_seat_check CHECK (seat BETWEEN 0 AND 5);
ALTER TABLE games
    DROP CONSTRAINT games_player_count_check,
    ADD CONSTRAINT games_player_count_check CHECK (player_count BETWEEN 2 AND 6),
    DROP CONSTRAINT games_ended_by_check,
    ADD CONSTRAINT games_ended_by_check CHECK (ended_by <> '');
ALTER TABLE game_players
    DROP CONSTRAINT game_players_seat_check,
    ADD CONSTRAINT game_players_seat_check CHECK (seat BETWEEN 0 AND 5);
ALTER TABLE actions
    DROP CONSTRAINT actions_seat_check,
    ADD CONSTRAINT actions_seat_check CHECK (seat BETWEEN 0 AND 5);

ALTER TABLE results
    ADD COLUMN score bigint,
    ADD COLUMN details text;
UPDATE results SET
    score = total,
    details = json_build_object('seat', seat, 'total', total, 'contracts', contracts, 'trophies', trophies,
                                'suit_bonus', suit_bonus, 'star', star)::text;
ALTER TABLE results
    ALTER COLUMN score SET NOT NULL,
    ALTER COLUMN details SET NOT NULL,
    DROP COLUMN total,
    DROP COLUMN contracts,
    DROP COLUMN trophies,
    DROP COLUMN suit_bonus,
    DROP COLUMN star,
    DROP CONSTRAINT results_seat_check,
    ADD CONSTRAINT results_seat_check CHECK (seat BETWEEN 0 AND 5),
    DROP CONSTRAINT results_place_check,
    ADD CONSTRAINT results_place_check CHECK (place BETWEEN 1 AND 6);
