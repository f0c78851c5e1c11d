//! The store holds any game: a game it knows nothing of (six seats, places tied, scores below zero, its
//! own options, actions, record and score details) is stored and read back as it was given, on SQLite
//! and on PostgreSQL. And a Romi Rami game finished before the store knew other games reads back after
//! the migration as the REST API showed it, on both backends.

#[path = "support/pg.rs"]
mod pg;

use pg::PgDatabase;
use romirami_engine::{Game, RandomPlayer, Record, RecordMeta, ScoreBreakdown, Seat};
use romirami_game::{Outcome, SeatOutcome, TableGame};
use romirami_server::api;
use romirami_server::protocol::{PlayerId, PlayerInfo, SpectatorPolicy, TableId};
use romirami_server::store::{
    ActionRow, FinishedGame, GameFilter, GamePlayer, PlayerFilter, Store, StoreError, TableRow,
};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::macros::datetime;
use uuid::Uuid;

const STARTED: OffsetDateTime = datetime!(2026-03-01 10:00 UTC);
const FINISHED: OffsetDateTime = datetime!(2026-03-01 10:48 UTC);

fn player(name: &str) -> PlayerInfo {
    PlayerInfo { id: PlayerId(Uuid::new_v4()), name: name.to_owned() }
}

fn token_hash(player: &PlayerInfo) -> [u8; 32] {
    let mut hash = [7u8; 32];
    hash[..16].copy_from_slice(player.id.0.as_bytes());
    hash
}

fn table_row(game: &str, host: PlayerId, seats: u8, options: &str) -> TableRow {
    TableRow {
        id: TableId(Uuid::new_v4()),
        game: game.into(),
        host,
        seats,
        public: true,
        spectators: SpectatorPolicy::Everyone,
        created_at: STARTED,
        invite: "key".into(),
        clock: None,
        options: options.into(),
    }
}

fn seated(players: &[PlayerInfo]) -> Vec<GamePlayer> {
    (0u8..)
        .zip(players)
        .map(|(seat, p)| GamePlayer { seat: Seat(seat), id: p.id, name: p.name.clone(), bot: false })
        .collect()
}

/// A record as a game of the rummy family writes one: only `id` and `finished_at` mean anything to the
/// store. Written with spaces and fields in no particular order, to see it come back byte for byte.
fn record_text(table: TableId) -> String {
    format!(
        "{{ \"format\": \"rummy-record/1\", \"game\": \"rommi\",\n  \"id\": \"{}\", \"started_at\": \"2026-03-01T10:00:00Z\", \
         \"finished_at\": \"2026-03-01T10:48:00Z\", \"rounds\": [ {{ \"zeta\": 1, \"alpha\": [2, 3] }} ] }}",
        table.0
    )
}

/// Six seats: two share first place, two share fourth; scores below zero; details of the game's own.
fn six_seat_outcome() -> Outcome {
    let scores = [(-20, 1, true), (-20, 1, true), (15, 3, false), (40, 4, false), (40, 4, false), (212, 6, false)];
    Outcome {
        ended_by: "target".into(),
        seats: scores
            .iter()
            .zip(0..)
            .map(|(&(score, place, winner), seat)| SeatOutcome {
                score,
                place,
                winner,
                details: json!({ "total": score, "rounds": [score / 2, score - score / 2], "seat": seat, "went_out": winner }),
            })
            .collect(),
    }
}

/// The game the store knows nothing of, told against one store.
async fn any_game(store: &Store) {
    let people: Vec<PlayerInfo> = ["Ana", "Bo", "Cy", "Dee", "Eli", "Flo"].into_iter().map(player).collect();
    for p in &people {
        store.save_player(p, &token_hash(p)).await.expect("save a player");
    }

    // A table of six with options of its game: they come back as written, waiting and in play.
    let options = r#"{"target": 200,  "jokers":[2, "red"], "a": {"z": 1, "b": null}}"#;
    let table = table_row("rommi", people[0].id, 6, options);
    store.create_table(&table).await.expect("a table of six");
    let seats: Vec<Option<(PlayerId, bool)>> = people.iter().map(|p| Some((p.id, false))).collect();
    store.set_seats(table.id, &seats).await.expect("six seats");
    let waiting = store.waiting_tables().await.expect("waiting tables");
    let back = waiting.iter().find(|w| w.table.id == table.id).expect("the table waits");
    assert_eq!(back.table, table, "options, game and everything else as stored");
    assert_eq!(back.seats.len(), 6);
    assert!(back.seats.iter().all(Option::is_some));
    // Seven seats are more than any game has.
    let seven = table_row("rommi", people[0].id, 7, "{}");
    assert!(store.create_table(&seven).await.is_err(), "7 seats");

    store.start_game(table.id, u64::MAX - 5, &seated(&people), STARTED).await.expect("start");
    // Actions of the game's own, by every seat up to the sixth.
    let actions: Vec<ActionRow> = (0u32..12)
        .map(|seq| ActionRow {
            table: table.id,
            seq,
            seat: Seat(u8::try_from(seq % 6).expect("a seat")),
            action: format!(r#"{{"draw":"stock","n":{seq}}}"#),
            by_bot: seq % 4 == 3,
            reserve_ms: None,
        })
        .collect();
    store.append_actions(&actions).await.expect("append");
    let unfinished = store.unfinished_games().await.expect("unfinished");
    let back = unfinished.iter().find(|g| g.table.id == table.id).expect("in play");
    assert_eq!(back.table, table);
    assert_eq!(back.players, seated(&people));
    let read = |text: &str| serde_json::from_str::<Value>(text).expect("JSON");
    let logged: Vec<(Seat, Value, bool)> = back.actions.iter().map(|a| (a.seat, read(&a.action), a.by_bot)).collect();
    let appended: Vec<(Seat, Value, bool)> = actions.iter().map(|a| (a.seat, read(&a.action), a.by_bot)).collect();
    assert_eq!(logged, appended);

    // Outcomes that do not fit are refused, and the game stays in play.
    let record = record_text(table.id);
    let mut short = six_seat_outcome();
    short.seats.pop();
    let mut no_place = six_seat_outcome();
    no_place.seats[2].place = 0;
    let mut not_an_object = six_seat_outcome();
    not_an_object.seats[5].details = json!([1, 2]);
    for outcome in [short, no_place, not_an_object] {
        let refused = store.finish_game(table.id, &FinishedGame { record: record.clone(), outcome }).await;
        assert!(matches!(refused, Err(StoreError::Other(_))), "{refused:?}");
    }
    let other = FinishedGame { record: record_text(TableId(Uuid::new_v4())), outcome: six_seat_outcome() };
    assert!(matches!(store.finish_game(table.id, &other).await, Err(StoreError::Other(_))), "another game's record");
    assert!(store.unfinished_games().await.expect("unfinished").iter().any(|g| g.table.id == table.id));

    // The finish, once.
    let finished = FinishedGame { record: record.clone(), outcome: six_seat_outcome() };
    store.finish_game(table.id, &finished).await.expect("finish");
    assert!(matches!(store.finish_game(table.id, &finished).await, Err(StoreError::Other(_))), "finished once");

    // Read back as it was given: the record byte for byte, the outcome seat by seat.
    assert_eq!(store.record(table.id).await.as_deref(), Ok(record.as_str()));
    let summary = store.game(table.id).await.expect("the game");
    assert_eq!((summary.game.as_str(), summary.ended_by.as_str()), ("rommi", "target"));
    assert_eq!((summary.started_at, summary.finished_at), (STARTED, FINISHED));
    assert_eq!(summary.results.len(), 6);
    for ((result, outcome), person) in summary.results.iter().zip(&finished.outcome.seats).zip(&people) {
        assert_eq!((result.player.id, &result.player.name), (person.id, &person.name));
        assert_eq!((result.score, result.place, result.winner), (outcome.score, outcome.place, outcome.winner));
        assert_eq!(result.details, outcome.details);
    }
    let bot_actions: Vec<u32> = summary.results.iter().map(|r| r.bot_actions).collect();
    assert_eq!(bot_actions, [0, 1, 0, 1, 0, 1], "actions 3, 7 and 11 (seats 3, 1 and 5) were the bot's");
    let closed = store.finished_table(table.id).await.expect("the finished table");
    assert_eq!((closed.table, closed.record), (table.clone(), record));

    // A Romi Rami game beside it, to filter by game.
    let pair = [people[0].clone(), people[1].clone()];
    let romi = table_row("romi-rami", people[0].id, 2, "{}");
    store.create_table(&romi).await.expect("a table");
    store.start_game(romi.id, 1, &seated(&pair), STARTED).await.expect("start");
    let (romi_game, romi_record) = romi_rami_game(romi.id, &pair);
    let romi_finished = FinishedGame {
        record: serde_json::to_string(&romi_record).expect("writes"),
        outcome: TableGame::outcome(&romi_game).expect("over"),
    };
    store.finish_game(romi.id, &romi_finished).await.expect("finish");

    let listed = |filter: GameFilter| async move {
        let page = store.list_games(&filter, None, None).await.expect("list");
        page.games.iter().map(|g| g.id).collect::<Vec<_>>()
    };
    let of = |game: &str| GameFilter { game: Some(game.into()), ..GameFilter::default() };
    assert_eq!(listed(of("rommi")).await, [table.id]);
    assert_eq!(listed(of("romi-rami")).await, [romi.id]);
    assert_eq!(listed(of("chess")).await, []);
    assert_eq!(listed(GameFilter { players: Some(6), ..GameFilter::default() }).await, [table.id]);
    let flo = GameFilter {
        player: Some(PlayerFilter::Id(people[5].id)),
        game: Some("rommi".into()),
        ..GameFilter::default()
    };
    assert_eq!(listed(flo).await, [table.id]);
    let flo = GameFilter {
        player: Some(PlayerFilter::Id(people[5].id)),
        game: Some("romi-rami".into()),
        ..GameFilter::default()
    };
    assert_eq!(listed(flo).await, []);

    // Statistics count every game's score.
    let stats = store.player_stats(people[5].id).await.expect("stats");
    assert_eq!((stats.games_played, stats.wins, stats.average_score), (1, 0, Some(212.0)));
    let stats = store.player_stats(people[0].id).await.expect("stats");
    assert_eq!((stats.games_played, stats.wins), (2, 1 + u64::from(romi_finished.outcome.seats[0].winner)));
    let average = (-20.0 + romi_finished.outcome.seats[0].score as f64) / 2.0;
    assert!((stats.average_score.expect("games") - average).abs() < 1e-9);
}

/// A Romi Rami game of `players` played to its end by random players, and its record.
fn romi_rami_game(table: TableId, players: &[PlayerInfo]) -> (Game, Record) {
    let mut game = Game::new(players.len(), 11).expect("2 to 4 players");
    let mut bot = RandomPlayer::new(11);
    while let Some(seat) = game.to_act() {
        let action = bot.choose(&game).expect("a move");
        game.apply(seat, &action).expect("legal");
    }
    let names = players.iter().map(|p| p.name.clone()).collect();
    let meta = RecordMeta { id: table.0, started_at: STARTED, finished_at: FINISHED, names, shuffle: None };
    let record = game.record(meta).expect("over");
    (game, record)
}

#[tokio::test]
async fn any_game_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::connect(&format!("sqlite://{}", dir.path().join("any.db").display())).await.expect("open");
    any_game(&store).await;
    store.close().await;
}

#[tokio::test]
async fn any_game_on_postgres() {
    let Some(database) = PgDatabase::create().await else { return };
    let store = Store::connect(&database.url).await.expect("connect and migrate");
    any_game(&store).await;
    store.close().await;
    database.drop_database().await;
}

// A Romi Rami game finished before the store held other games.

/// The SQL of one backend to write a finished game as the server wrote it before the migration.
struct OldSql {
    /// An instant as that backend's column takes it.
    instant: fn(OffsetDateTime) -> String,
    /// A boolean.
    boolean: fn(bool) -> &'static str,
    /// A 32-byte token hash.
    hash: fn(&[u8; 32]) -> String,
}

const OLD_SQLITE: OldSql = OldSql {
    instant: |at| (at.unix_timestamp_nanos() / 1000).to_string(),
    boolean: |b| if b { "1" } else { "0" },
    hash: |hash| format!("X'{}'", hex(hash)),
};

const OLD_POSTGRES: OldSql = OldSql {
    instant: |at| format!("'{}'", at.format(&time::format_description::well_known::Rfc3339).expect("an instant")),
    boolean: |b| if b { "true" } else { "false" },
    hash: |hash| format!("decode('{}', 'hex')", hex(hash)),
};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The statements that store `record`'s game (played by `players` at `table`) as the server did before
/// the migration: its results in the breakdown's columns, placed by total then suit bonus.
fn old_finished_game(sql: &OldSql, table: TableId, players: &[PlayerInfo], record: &Record) -> String {
    let (at, start) = ((sql.instant)(record.finished_at), (sql.instant)(record.started_at));
    let mut statements = Vec::new();
    for p in players {
        statements.push(format!(
            "INSERT INTO players (id, name, token_hash, created_at) VALUES ('{}', '{}', {}, {start});",
            p.id.0,
            p.name,
            (sql.hash)(&token_hash(p))
        ));
    }
    let host = players[0].id.0;
    let count = players.len();
    let t = table.0;
    statements.push(format!(
        "INSERT INTO tables (id, host, seat_count, public, spectators, created_at, invite) \
         VALUES ('{t}', '{host}', {count}, {}, 'everyone', {start}, 'key');",
        (sql.boolean)(true)
    ));
    let ended_by = serde_json::to_value(record.result.ended_by).expect("writes");
    let json = serde_json::to_string(record).expect("writes").replace('\'', "''");
    statements.push(format!(
        "INSERT INTO games (table_id, seed, player_count, started_at, finished_at, ended_by, record) \
         VALUES ('{t}', 11, {count}, {start}, {at}, '{}', '{json}');",
        ended_by.as_str().expect("a string")
    ));
    let key = |s: &ScoreBreakdown| (s.total, s.suit_bonus);
    for (p, seat) in players.iter().zip(0u8..) {
        let score = record.result.scores.iter().find(|s| s.seat == Seat(seat)).expect("a score");
        let place = 1 + record.result.scores.iter().filter(|s| key(s) > key(score)).count();
        let winner = record.result.winners.contains(&Seat(seat));
        let bot = seat == 1;
        statements.push(format!(
            "INSERT INTO game_players (table_id, seat, player_id, name, bot) VALUES ('{t}', {seat}, '{}', '{}', {});",
            p.id.0,
            p.name,
            (sql.boolean)(bot)
        ));
        statements.push(format!(
            "INSERT INTO results (table_id, seat, player_id, name, total, contracts, trophies, suit_bonus, star, \
                                  place, winner, bot, bot_actions) \
             VALUES ('{t}', {seat}, '{}', '{}', {}, {}, {}, {}, {}, {place}, {}, {}, {});",
            p.id.0,
            p.name,
            score.total,
            score.contracts,
            score.trophies,
            score.suit_bonus,
            score.star,
            (sql.boolean)(winner),
            (sql.boolean)(bot),
            if bot { 17 } else { 0 }
        ));
    }
    statements.join("\n")
}

/// The game as the REST API showed it before the migration: its scores are the breakdowns.
fn rest_before(table: TableId, players: &[PlayerInfo], record: &Record) -> Value {
    let key = |s: &ScoreBreakdown| (s.total, s.suit_bonus);
    let scores: Vec<&ScoreBreakdown> = (0u8..)
        .take(players.len())
        .map(|seat| record.result.scores.iter().find(|s| s.seat == Seat(seat)).expect("a score"))
        .collect();
    json!({
        "id": table.0,
        "game": "romi-rami",
        "started_at": "2026-03-01T10:00:00Z",
        "finished_at": "2026-03-01T10:48:00Z",
        "ended_by": serde_json::to_value(record.result.ended_by).expect("writes"),
        "players": players.iter().zip(0u8..).map(|(p, seat)| json!({
            "seat": seat, "id": p.id.0, "name": p.name, "bot": seat == 1,
        })).collect::<Vec<_>>(),
        "scores": scores.iter().map(|s| json!({
            "seat": s.seat.0, "total": s.total, "contracts": s.contracts, "trophies": s.trophies,
            "suit_bonus": s.suit_bonus, "star": s.star,
        })).collect::<Vec<_>>(),
        "places": scores.iter().map(|s| 1 + scores.iter().filter(|o| key(o) > key(s)).count()).collect::<Vec<_>>(),
        "winners": record.result.winners.iter().map(|s| s.0).collect::<Vec<_>>(),
        "bot_actions": (0..players.len()).map(|seat| if seat == 1 { 17 } else { 0 }).collect::<Vec<_>>(),
    })
}

/// After the migration the old game reads back as the REST API showed it, its record as stored; its
/// stored details are the engine's breakdown as the engine writes it.
async fn check_migrated(store: &Store, table: TableId, players: &[PlayerInfo], record: &Record) {
    let summary = store.game(table).await.expect("the old game");
    let shown = serde_json::to_value(api::Game::from(summary.clone())).expect("writes");
    assert_eq!(shown, rest_before(table, players, record));
    assert_eq!(store.record(table).await.expect("the record"), serde_json::to_string(record).expect("writes"));
    for (result, seat) in summary.results.iter().zip(0u8..) {
        let score = record.result.scores.iter().find(|s| s.seat == Seat(seat)).expect("a score");
        assert_eq!(result.score, i64::from(score.total));
        assert_eq!(result.details, serde_json::to_value(score).expect("writes"));
    }
    let details: Vec<String> = match store {
        Store::Sqlite(s) => sqlx::query_scalar("SELECT details FROM results ORDER BY seat").fetch_all(s.pool()).await,
        Store::Postgres(s) => sqlx::query_scalar("SELECT details FROM results ORDER BY seat").fetch_all(s.pool()).await,
    }
    .expect("the details");
    let details: Vec<Value> = details.iter().map(|d| serde_json::from_str(d).expect("JSON")).collect();
    let engine: Vec<Value> = (0u8..)
        .take(players.len())
        .map(|seat| {
            let score = record.result.scores.iter().find(|s| s.seat == Seat(seat)).expect("a score");
            serde_json::to_value(score).expect("writes")
        })
        .collect();
    assert_eq!(details, engine);
    // The same game finished now shows the same.
    let fresh = TableId(Uuid::new_v4());
    let mut again = record.clone();
    again.id = fresh.0;
    let host = players[0].id;
    store.create_table(&TableRow { id: fresh, ..table_row("romi-rami", host, 3, "{}") }).await.expect("a table");
    let mut seats = seated(players);
    seats[1].bot = true;
    store.start_game(fresh, 11, &seats, STARTED).await.expect("start");
    let game = record.replay().expect("replays");
    let finished = FinishedGame {
        record: serde_json::to_string(&again).expect("writes"),
        outcome: TableGame::outcome(&game).expect("over"),
    };
    store.finish_game(fresh, &finished).await.expect("finish");
    let mut now = serde_json::to_value(api::Game::from(store.game(fresh).await.expect("the game"))).expect("writes");
    now["id"] = json!(table.0);
    now["bot_actions"] = shown["bot_actions"].clone();
    assert_eq!(now, shown, "old and new games show alike");
    let text = |value: &Value| serde_json::to_string(value).expect("writes");
    assert_eq!(text(&now), text(&shown), "byte for byte");
}

fn three_players() -> Vec<PlayerInfo> {
    ["Ana", "Bo", "Cy"].into_iter().map(player).collect()
}

#[tokio::test]
async fn a_game_finished_before_migration_7_reads_back_the_same_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("old.db").display());
    let options =
        url.parse::<sqlx::sqlite::SqliteConnectOptions>().expect("a URL").create_if_missing(true).foreign_keys(true);
    let old = sqlx::SqlitePool::connect_with(options).await.expect("a new file");
    let mut migrator = sqlx::migrate!("../../migrations/sqlite");
    migrator.migrations = migrator.migrations.iter().filter(|m| m.version < 7).cloned().collect::<Vec<_>>().into();
    migrator.run(&old).await.expect("migrations 1 to 6");
    let (players, table) = (three_players(), TableId(Uuid::new_v4()));
    let (_, record) = romi_rami_game(table, &players);
    sqlx::raw_sql(&old_finished_game(&OLD_SQLITE, table, &players, &record)).execute(&old).await.expect("an old game");
    old.close().await;

    let store = Store::connect(&url).await.expect("migrate");
    check_migrated(&store, table, &players, &record).await;
    let Store::Sqlite(sqlite) = &store else { unreachable!("a SQLite URL") };
    let problems: Vec<(String,)> = sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check")
        .fetch_all(sqlite.pool())
        .await
        .expect("checked");
    assert!(problems.is_empty(), "{problems:?}");
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(sqlite.pool())
    .await
    .expect("the indexes");
    assert_eq!(
        indexes,
        [
            "actions_by_bot",
            "games_finished",
            "games_unfinished",
            "players_by_name",
            "results_by_name",
            "results_by_player"
        ]
    );
    store.close().await;
}

#[tokio::test]
async fn a_game_finished_before_migration_8_reads_back_the_same_on_postgres() {
    let Some(database) = PgDatabase::create().await else { return };
    let old = sqlx::PgPool::connect(&database.url).await.expect("connect");
    let mut migrator = sqlx::migrate!("../../migrations/postgres");
    migrator.migrations = migrator.migrations.iter().filter(|m| m.version < 8).cloned().collect::<Vec<_>>().into();
    migrator.run(&old).await.expect("migrations 1 to 7");
    let (players, table) = (three_players(), TableId(Uuid::new_v4()));
    let (_, record) = romi_rami_game(table, &players);
    sqlx::raw_sql(&old_finished_game(&OLD_POSTGRES, table, &players, &record))
        .execute(&old)
        .await
        .expect("an old game");
    old.close().await;

    let store = Store::connect(&database.url).await.expect("migrate");
    check_migrated(&store, table, &players, &record).await;
    store.close().await;
    database.drop_database().await;
}
