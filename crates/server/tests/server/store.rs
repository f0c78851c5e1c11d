//! The store's story, told against each backend: SQLite always (a temporary file), PostgreSQL when
//! `TEST_DATABASE_URL` or `DATABASE_URL` names one (a fresh database per run, dropped at the end; with
//! `CI=true` it must). Then the group committer.

use std::collections::HashSet;

use futures_util::future::join_all;
use romirami_engine::{Action, EndReason, Game, RandomPlayer, Record, RecordMeta, ScoreBreakdown, Seat, Viewer};
use romirami_game::TableGame;
use romirami_game::commitment::ShuffleProof;
use romirami_server::protocol::{Clock, PlayerId, PlayerInfo, SpectatorPolicy, TableId};
use romirami_server::store::{
    ActionRow, Committer, FinishedGame, GameCursor, GameFilter, GamePlayer, GameSummary, PlayerFilter, Store,
    StoreError, StoredAction, TableRow, Writer,
};
use sha2::{Digest, Sha256};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

fn player(name: &str) -> PlayerInfo {
    PlayerInfo { id: PlayerId(Uuid::new_v4()), name: name.to_owned() }
}

/// The start of every game of the story, one hour apart.
const EPOCH: OffsetDateTime = datetime!(2026-01-01 12:00 UTC);

/// One action of a random player in `game`, applied; `None` once the game is over.
fn step(game: &mut Game, bot: &mut RandomPlayer) -> Option<(Seat, Action)> {
    let seat = game.to_act()?;
    let action = bot.choose(game)?;
    game.apply(seat, &action).expect("a random player only plays legal actions");
    Some((seat, action))
}

fn rows(table: TableId, first: usize, actions: &[(Seat, Action)]) -> Vec<ActionRow> {
    actions
        .iter()
        .enumerate()
        .map(|(i, &(seat, action))| {
            let seq = u32::try_from(first + i).expect("a short game");
            let (by_bot, reserve_ms) = extras(seq);
            ActionRow { table, seq, seat, action: json(&action), by_bot, reserve_ms, fence: None }
        })
        .collect()
}

/// What the story stores beside action `seq`: played by the bot or not, a clock reserve or none.
fn extras(seq: u32) -> (bool, Option<u64>) {
    (seq % 3 == 1, (seq % 2 == 0).then(|| u64::from(seq) * 1000 + u64::MAX / 4))
}

/// The log as a restart reads it back.
fn stored(actions: &[(Seat, Action)]) -> Vec<StoredAction> {
    (0u32..)
        .zip(actions)
        .map(|(seq, &(seat, action))| {
            let (by_bot, reserve_ms) = extras(seq);
            StoredAction { seat, action: json(&action), by_bot, reserve_ms }
        })
        .collect()
}

/// A log with each action's JSON read, to compare logs whatever the spacing and order of their JSON
/// (PostgreSQL's jsonb writes its own).
fn read_log(log: &[StoredAction]) -> Vec<(Seat, serde_json::Value, bool, Option<u64>)> {
    log.iter().map(|a| (a.seat, serde_json::from_str(&a.action).expect("JSON"), a.by_bot, a.reserve_ms)).collect()
}

fn moves(actions: &[StoredAction]) -> Vec<(Seat, Action)> {
    actions.iter().map(|a| (a.seat, serde_json::from_str(&a.action).expect("a stored action"))).collect()
}

/// An action's JSON text, as a table writes it.
fn json(action: &Action) -> String {
    serde_json::to_string(action).expect("an action writes")
}

/// A finished game as a table hands it to the store: the record's text and the outcome of the game
/// it replays to.
fn finished_game(record: &Record) -> FinishedGame {
    let game = record.replay().expect("a record replays");
    FinishedGame {
        record: serde_json::to_string(record).expect("a record writes"),
        outcome: TableGame::outcome(&game).expect("the game is over"),
    }
}

/// How a game ended, as the store keeps it.
fn ended_by(reason: EndReason) -> String {
    serde_json::to_value(reason).expect("writes").as_str().expect("a string").to_owned()
}

fn seated(players: &[&PlayerInfo]) -> Vec<GamePlayer> {
    players
        .iter()
        .zip(0u8..)
        .map(|(p, seat)| GamePlayer { seat: Seat(seat), id: p.id, name: p.name.clone(), bot: seat == 2 })
        .collect()
}

async fn new_table(store: &Store, host: &PlayerInfo, seats: u8) -> TableId {
    let id = TableId(Uuid::new_v4());
    let row = TableRow {
        id,
        game: "romi-rami".into(),
        host: host.id,
        seats,
        public: true,
        spectators: SpectatorPolicy::Everyone,
        created_at: EPOCH,
        invite: "key".into(),
        clock: (seats == 3).then_some(Clock { turn_ms: 20_000, reserve_ms: 60_000 }),
        options: "{}".into(),
        rated: true,
        tournament: None,
    };
    store.create_table(&row).await.expect("create the table");
    id
}

/// Replays `seed` and `actions` and checks that every viewer sees what they see in `game`.
fn assert_replays_to(game: &Game, seed: u64, actions: &[(Seat, Action)]) {
    let mut replay = Game::new(game.players(), seed).expect("2 to 4 players");
    for (seat, action) in actions {
        replay.apply(*seat, action).expect("a stored action replays");
    }
    assert_eq!(replay.view(Viewer::Spectator), game.view(Viewer::Spectator));
    for seat in 0..game.players() {
        let seat = Viewer::Seat(Seat(u8::try_from(seat).expect("a seat")));
        assert_eq!(replay.view(seat), game.view(seat));
    }
}

/// A finished game of the story: what the store should list for it.
struct Finished {
    id: TableId,
    finished_at: OffsetDateTime,
    players: Vec<PlayerId>,
    names: Vec<String>,
    record: Record,
}

/// Plays a whole game with random players, storing it as a table would, and finishes it.
async fn play_game(store: &Store, players: &[&PlayerInfo], seed: u64, hour: i64) -> Finished {
    let table = new_table(store, players[0], u8::try_from(players.len()).expect("a few")).await;
    let started_at = EPOCH + Duration::hours(hour);
    store.start_game(table, seed, None, &seated(players), started_at).await.expect("start");
    let mut game = Game::new(players.len(), seed).expect("2 to 4 players");
    let mut bot = RandomPlayer::new(seed ^ 0x5eed);
    let actions: Vec<_> = std::iter::from_fn(|| step(&mut game, &mut bot)).collect();
    store.append_actions(&rows(table, 0, &actions)).await.expect("append");
    let finished_at = started_at + Duration::minutes(30);
    finish(store, table, &game, players, started_at, finished_at).await
}

async fn finish(
    store: &Store,
    table: TableId,
    game: &Game,
    players: &[&PlayerInfo],
    started_at: OffsetDateTime,
    finished_at: OffsetDateTime,
) -> Finished {
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let meta = RecordMeta { id: table.0, started_at, finished_at, names: names.clone(), shuffle: None };
    let record = game.record(meta).expect("the game is over");
    store.finish_game(table, &finished_game(&record)).await.expect("finish");
    Finished { id: table, finished_at, players: players.iter().map(|p| p.id).collect(), names, record }
}

/// The ids of `games`, newest first as the store orders them.
fn newest_first<'a>(games: impl IntoIterator<Item = &'a Finished>) -> Vec<TableId> {
    let mut games: Vec<&Finished> = games.into_iter().collect();
    games.sort_by_key(|g| std::cmp::Reverse((g.finished_at, g.id)));
    games.iter().map(|g| g.id).collect()
}

fn ids(games: &[GameSummary]) -> Vec<TableId> {
    games.iter().map(|g| g.id).collect()
}

/// Every page of a filtered list, `limit` at a time, followed to the end with the cursor.
async fn all_pages(store: &Store, filter: &GameFilter, limit: u32) -> Vec<TableId> {
    let mut seen = Vec::new();
    let mut cursor: Option<GameCursor> = None;
    loop {
        let page = store.list_games(filter, Some(limit), cursor).await.expect("list");
        assert!(page.games.len() <= limit as usize);
        seen.extend(ids(&page.games));
        match page.next {
            // A cursor survives being written out and read back, as it does in a URL.
            Some(next) => cursor = Some(next.to_string().parse().expect("a cursor reads back")),
            None => break,
        }
    }
    seen
}

/// Runs raw SQL, the statement for the backend the store holds; to break rows on purpose.
async fn raw(store: &Store, sqlite_sql: &str, postgres_sql: &str) {
    match store {
        Store::Sqlite(s) => sqlx::query(sqlite_sql).execute(s.pool()).await.map(drop),
        Store::Postgres(s) => sqlx::query(postgres_sql).execute(s.pool()).await.map(drop),
    }
    .expect("raw SQL runs");
}

/// Who sits where at `table`, as stored: (seat, player) in seat order.
async fn stored_seats(store: &Store, table: TableId) -> Vec<(i64, String)> {
    let rows: Vec<(i64, String)> = match store {
        Store::Sqlite(s) => sqlx::query_as("SELECT seat, player_id FROM seats WHERE table_id = ?1 ORDER BY seat")
            .bind(table.0.hyphenated().to_string())
            .fetch_all(s.pool())
            .await
            .expect("read the seats"),
        Store::Postgres(s) => {
            sqlx::query_as("SELECT seat::int8, player_id::text FROM seats WHERE table_id = $1 ORDER BY seat")
                .bind(table.0)
                .fetch_all(s.pool())
                .await
                .expect("read the seats")
        }
    };
    rows
}

/// The whole story, against one store.
async fn story(store: &Store) {
    store.health().await.expect("healthy");

    // Players: stored with their token's hash only, found by it, renamed in place.
    let ana = player("Ana");
    let bo = player("Bo");
    let mut cy = player("Cy (old name)");
    let dee = player("Dee");
    for (p, token) in [(&ana, "ana-token"), (&bo, "bo-token"), (&cy, "cy-token"), (&dee, "dee-token")] {
        store.save_player(p, &token_hash(token)).await.expect("save a player");
    }
    cy.name = "Cy".into();
    store.save_player(&cy, &token_hash("cy-token")).await.expect("rename a player");
    assert_eq!(store.player_by_token_hash(&token_hash("cy-token")).await, Ok(cy.clone()));
    assert_eq!(store.player_by_token_hash(&token_hash("nobody's")).await, Err(StoreError::NotFound));
    assert!(store.save_player(&player("Thief"), &token_hash("ana-token")).await.is_err(), "hashes are unique");

    // A table fills its seats and starts; the seed has its top bit set, to check it keeps every bit.
    let table = new_table(store, &ana, 3).await;
    store.set_seats(table, &[Some((ana.id, false)), Some((bo.id, true)), None]).await.expect("seats");
    // A waiting table comes back after a restart with its seats, a bot's seat as a bot's.
    let waiting = store.waiting_tables().await.expect("waiting tables");
    let ours = waiting.iter().find(|w| w.table.id == table).expect("the table waits");
    assert_eq!(ours.seats, vec![Some((ana.clone(), false)), Some((bo.clone(), true)), None]);
    // A takeover reads only the tables it names.
    assert_eq!(store.waiting_tables_among(&[table]).await.expect("this table"), vec![ours.clone()]);
    let elsewhere = TableId(Uuid::new_v4());
    assert_eq!(store.waiting_tables_among(&[elsewhere]).await.expect("another table"), vec![]);
    store
        .set_seats(table, &[Some((ana.id, false)), Some((bo.id, false)), Some((cy.id, false))])
        .await
        .expect("seats again");
    let seed = 0x8000_0000_dead_beef_u64;
    let started_at = EPOCH - Duration::hours(1);
    let players = [&ana, &bo, &cy];
    // The salt of the commitment to the seed comes back with it.
    let salt: [u8; 32] = std::array::from_fn(|i| 255 - i as u8);
    store.start_game(table, seed, Some(salt), &seated(&players), started_at).await.expect("start");
    let waiting = store.waiting_tables().await.expect("waiting tables");
    assert!(waiting.iter().all(|w| w.table.id != table), "a started table no longer waits");
    assert!(store.start_game(table, seed, None, &seated(&players), started_at).await.is_err(), "a game starts once");

    // Its actions are appended in batches of several sizes.
    let mut game = Game::new(3, seed).expect("3 players");
    let mut bot = RandomPlayer::new(99);
    let mut actions: Vec<(Seat, Action)> = Vec::new();
    for size in [1, 5, 17, 40] {
        let batch: Vec<_> = std::iter::from_fn(|| step(&mut game, &mut bot)).take(size).collect();
        store.append_actions(&rows(table, actions.len(), &batch)).await.expect("append");
        actions.extend(batch);
    }
    store.append_actions(&[]).await.expect("an empty batch is nothing to do");

    // What a restart reads back is exactly the seed, the players and the actions: they replay to the game.
    let unfinished = store.unfinished_games().await.expect("unfinished games");
    assert_eq!(unfinished.len(), 1);
    let back = &unfinished[0];
    assert_eq!((back.table.id, back.table.host, back.table.seats, back.table.public), (table, ana.id, 3, true));
    assert_eq!(back.table.spectators, SpectatorPolicy::Everyone);
    assert_eq!(back.seed, seed);
    assert_eq!(back.salt, Some(salt));
    assert_eq!(back.started_at, started_at);
    assert_eq!(back.players, seated(&players));
    assert_eq!(back.table.clock, Some(Clock { turn_ms: 20_000, reserve_ms: 60_000 }));
    assert_eq!(read_log(&back.actions), read_log(&stored(&actions)));
    assert_replays_to(&game, back.seed, &moves(&back.actions));
    assert_eq!(store.unfinished_games_among(&[elsewhere, table]).await.expect("this game"), unfinished);
    assert_eq!(store.unfinished_games_among(&[elsewhere]).await.expect("another game"), vec![]);

    // A batch with one bad row writes nothing: here the second row's game does not exist.
    let next = step(&mut game, &mut bot).expect("the game goes on");
    let good = rows(table, actions.len(), &[next]);
    let bad = rows(TableId(Uuid::new_v4()), 0, &[next]);
    assert!(store.append_actions(&[good[0].clone(), bad[0].clone()]).await.is_err());
    assert_eq!(store.unfinished_games().await.expect("unfinished")[0].actions.len(), actions.len());
    // And a number already taken is refused.
    assert!(store.append_actions(&rows(table, 0, &[next])).await.is_err());
    store.append_actions(&good).await.expect("the good row alone");
    actions.push(next);

    // The rest goes through the group committer, submitted all at once: it keeps their order.
    let (committer, task) = Committer::spawn(store.clone(), 1024, 1024);
    let rest: Vec<_> = std::iter::from_fn(|| step(&mut game, &mut bot)).collect();
    let outcomes = join_all(rows(table, actions.len(), &rest).into_iter().map(|row| committer.commit(row))).await;
    assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    actions.extend(rest);
    let stats = committer.stats();
    assert!(stats.transactions >= 1 && stats.transactions <= 2, "{stats:?}");
    drop(committer);
    task.await.expect("the committer ends once its handles are gone");
    let back = store.unfinished_games().await.expect("unfinished");
    assert_eq!(read_log(&back[0].actions), read_log(&stored(&actions)));
    assert_replays_to(&game, seed, &moves(&back[0].actions));

    // The game ends; its record and results are stored, once.
    assert!(game.is_over());
    let first = finish(store, table, &game, &players, started_at, EPOCH - Duration::minutes(10)).await;
    let again = finished_game(&first.record);
    assert!(store.finish_game(table, &again).await.is_err(), "a game finishes once");
    assert!(store.finish_game(TableId(Uuid::new_v4()), &again).await.is_err(), "the record names its table");
    assert_eq!(store.unfinished_games().await.expect("unfinished"), vec![]);

    // More finished games: 2, 3 and 4 players; two finish at the same instant.
    let mut finished = vec![first];
    finished.push(play_game(store, &[&ana, &bo], 1, 0).await);
    finished.push(play_game(store, &[&bo, &cy], 2, 1).await);
    finished.push(play_game(store, &[&cy, &ana, &dee], 3, 2).await);
    finished.push(play_game(store, &[&dee, &cy, &bo, &ana], 4, 3).await);
    finished.push(play_game(store, &[&ana, &dee], 5, 3).await);
    finished.push(play_game(store, &[&bo, &dee], 6, 5).await);
    assert_eq!(finished[4].finished_at, finished[5].finished_at);

    // One game, in full.
    let first = &finished[0];
    let summary = store.game(first.id).await.expect("the first game");
    assert_eq!(summary.id, first.id);
    assert_eq!((summary.started_at, summary.finished_at), (first.record.started_at, first.record.finished_at));
    assert_eq!(summary.ended_by, ended_by(first.record.result.ended_by));
    assert_eq!(summary.results.len(), 3);
    for (result, seat) in summary.results.iter().zip(0u8..) {
        assert_eq!(result.player.seat, Seat(seat));
        assert_eq!(result.player.id, first.players[usize::from(seat)]);
        assert_eq!(result.player.name, first.names[usize::from(seat)]);
        let score = first.record.result.scores[usize::from(seat)];
        assert_eq!(result.details, serde_json::to_value(score).expect("a score writes"));
        assert_eq!(result.score, i64::from(score.total));
        assert_eq!(result.winner, first.record.result.winners.contains(&Seat(seat)));
        let key = |s: &ScoreBreakdown| (s.total, s.suit_bonus);
        let better = first.record.result.scores.iter().filter(|s| key(s) > key(&score));
        assert_eq!(usize::from(result.place), better.count() + 1);
    }
    assert!(summary.results.iter().any(|r| r.winner && r.place == 1));
    assert_eq!(store.game(TableId(Uuid::new_v4())).await, Err(StoreError::NotFound));

    // Its record, as stored, and it verifies.
    for game in &finished {
        let text = store.record(game.id).await.expect("a record");
        assert_eq!(text, serde_json::to_string(&game.record).expect("writes"), "the text as stored");
        let record: Record = serde_json::from_str(&text).expect("a record");
        assert_eq!(record, game.record);
        record.verify().expect("a stored record verifies");
    }
    assert_eq!(store.record(TableId(Uuid::new_v4())).await, Err(StoreError::NotFound));

    // The list: newest first, every filter, paged to the end with the cursor.
    let everything = GameFilter::default();
    let page = store.list_games(&everything, None, None).await.expect("list");
    assert_eq!(ids(&page.games), newest_first(&finished));
    assert_eq!(page.next, None);
    assert_eq!(page.games[0].results, store.game(page.games[0].id).await.expect("game").results);
    for limit in [1, 2, 3, 7, 100] {
        assert_eq!(all_pages(store, &everything, limit).await, newest_first(&finished), "limit {limit}");
    }
    let one = store.list_games(&everything, Some(0), None).await.expect("limit 0 lists one");
    assert_eq!((one.games.len(), one.next.is_some()), (1, true));

    let by = |filter: GameFilter| async move { all_pages(store, &filter, 2).await };
    let played = |p: &PlayerInfo| newest_first(finished.iter().filter(|g| g.players.contains(&p.id)));
    for p in [&ana, &bo, &cy, &dee] {
        assert_eq!(by(GameFilter { player: Some(PlayerFilter::Id(p.id)), ..GameFilter::default() }).await, played(p));
    }
    // By name: the name shown in the game, so Cy's games are found under "Cy".
    let by_name = GameFilter { player: Some(PlayerFilter::parse("Cy")), ..GameFilter::default() };
    assert_eq!(by(by_name).await, played(&cy));
    let nobody = GameFilter { player: Some(PlayerFilter::parse("Nobody")), ..GameFilter::default() };
    assert_eq!(by(nobody).await, vec![]);
    let since = EPOCH + Duration::hours(2);
    let until = EPOCH + Duration::hours(4);
    let window = |g: &&Finished| g.finished_at >= since && g.finished_at < until;
    assert_eq!(
        by(GameFilter { since: Some(since), ..GameFilter::default() }).await,
        newest_first(finished.iter().filter(|g| g.finished_at >= since))
    );
    assert_eq!(
        by(GameFilter { until: Some(until), ..GameFilter::default() }).await,
        newest_first(finished.iter().filter(|g| g.finished_at < until))
    );
    assert_eq!(
        by(GameFilter { since: Some(since), until: Some(until), ..GameFilter::default() }).await,
        newest_first(finished.iter().filter(window))
    );
    for count in 2..=4u8 {
        assert_eq!(
            by(GameFilter { players: Some(count), ..GameFilter::default() }).await,
            newest_first(finished.iter().filter(|g| g.players.len() == usize::from(count))),
            "{count} players"
        );
    }
    let combined = GameFilter {
        player: Some(PlayerFilter::Id(dee.id)),
        since: Some(since),
        until: Some(until),
        players: Some(2),
        game: None,
    };
    assert_eq!(
        by(combined).await,
        newest_first(finished.iter().filter(window).filter(|g| g.players.len() == 2 && g.players.contains(&dee.id)))
    );

    // Player statistics.
    for p in [&ana, &bo, &cy, &dee] {
        let stats = store.player_stats(p.id, None).await.expect("stats");
        let mine: Vec<(&Finished, usize)> =
            finished.iter().filter_map(|g| g.players.iter().position(|id| *id == p.id).map(|seat| (g, seat))).collect();
        assert_eq!(stats.player, *p);
        assert_eq!(stats.games_played, mine.len() as u64);
        let wins = mine.iter().filter(|(g, seat)| g.record.result.winners.iter().any(|w| w.index() == *seat));
        assert_eq!(stats.wins, wins.count() as u64);
        let total: u32 = mine.iter().map(|(g, seat)| g.record.result.scores[*seat].total).sum();
        let average = stats.average_score.expect("everyone played");
        assert!((average - f64::from(total) / mine.len() as f64).abs() < 1e-9, "{average}");
        assert_eq!(ids(&stats.recent), played(p).into_iter().take(10).collect::<Vec<_>>());
        // Every game here is Romi Rami: its figures are the player's, and another game has none.
        assert_eq!(stats.by_game.len(), 1);
        let romi = &stats.by_game[0];
        assert_eq!((romi.game.as_str(), romi.games_played, romi.wins), ("romi-rami", stats.games_played, stats.wins));
        assert_eq!(romi.places.iter().sum::<u64>(), stats.games_played);
        assert_eq!(store.player_stats(p.id, Some("romi-rami")).await.expect("stats"), stats);
        let rommi = store.player_stats(p.id, Some("rommi")).await.expect("stats");
        assert_eq!((rommi.games_played, rommi.by_game.len(), rommi.recent.len()), (0, 0, 0));
    }
    let newcomer = player("Eve");
    store.save_player(&newcomer, &token_hash("eve-token")).await.expect("save");
    let stats = store.player_stats(newcomer.id, None).await.expect("stats");
    assert_eq!((stats.games_played, stats.wins, stats.average_score, stats.recent.len()), (0, 0, None, 0));
    assert_eq!(store.player_stats(PlayerId(Uuid::new_v4()), None).await.map(drop), Err(StoreError::NotFound));

    // Limits: 20 by default, 100 at most. 101 more games (copies of the first record) make enough.
    let mut copies = Vec::new();
    for i in 0..101 {
        let table = new_table(store, &ana, 3).await;
        store.start_game(table, seed, None, &seated(&players), started_at).await.expect("start");
        let mut record = finished[0].record.clone();
        record.id = table.0;
        record.finished_at = EPOCH - Duration::days(1) - Duration::minutes(i);
        store.finish_game(table, &finished_game(&record)).await.expect("finish a copy");
        copies.push(table);
    }
    assert_eq!(store.list_games(&everything, None, None).await.expect("list").games.len(), 20);
    let most = store.list_games(&everything, Some(1000), None).await.expect("list");
    assert_eq!(most.games.len(), 100);
    assert!(most.next.is_some());
    let all = all_pages(store, &everything, 1000).await;
    assert_eq!(all.len(), finished.len() + copies.len());
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len(), "no game twice");
    assert_eq!(all[finished.len()..], copies[..]);

    // Bad rows give errors, never panics: an action that is not JSON, a gap in a log, a broken record.
    // An action that is JSON but no action of the game is the game's to refuse, when the table replays
    // it: the store reads it back as it is.
    let broken = new_table(store, &ana, 2).await;
    store.start_game(broken, 7, None, &seated(&[&ana, &bo]), started_at).await.expect("start");
    let mut game = Game::new(2, 7).expect("2 players");
    let mut bot = RandomPlayer::new(7);
    let first_move = step(&mut game, &mut bot).expect("a move");
    store.append_actions(&rows(broken, 0, &[first_move])).await.expect("append");
    let seat = 0;
    raw(
        store,
        &format!("INSERT INTO actions (table_id, seq, seat, action) VALUES ('{broken}', 1, {seat}, 'not json')"),
        &format!("INSERT INTO actions (table_id, seq, seat, action) VALUES ('{broken}', 1, {seat}, '\"not json\"')"),
    )
    .await;
    // (PostgreSQL keeps actions as jsonb, which holds JSON only: there it is a JSON string.)
    if matches!(store, Store::Sqlite(_)) {
        assert!(matches!(store.unfinished_games().await, Err(StoreError::Corrupt(_))));
    }
    raw(
        store,
        &format!("UPDATE actions SET action = '{{\"type\":\"fly\"}}' WHERE table_id = '{broken}' AND seq = 1"),
        &format!("UPDATE actions SET action = '{{\"type\":\"fly\"}}' WHERE table_id = '{broken}' AND seq = 1"),
    )
    .await;
    let games = store.unfinished_games().await.expect("JSON that is no action reads back");
    let fly = &games.iter().find(|g| g.table.id == broken).expect("the broken game").actions[1].action;
    assert_eq!(serde_json::from_str::<serde_json::Value>(fly).ok(), Some(serde_json::json!({ "type": "fly" })));
    assert!(serde_json::from_str::<Action>(fly).is_err(), "no action of Romi Rami");
    raw(
        store,
        &format!(
            "UPDATE actions SET seq = 2, action = '{{\"type\":\"pass\"}}' WHERE table_id = '{broken}' AND seq = 1"
        ),
        &format!(
            "UPDATE actions SET seq = 2, action = '{{\"type\":\"pass\"}}' WHERE table_id = '{broken}' AND seq = 1"
        ),
    )
    .await;
    assert!(matches!(store.unfinished_games().await, Err(StoreError::Corrupt(_))), "a gap in the log");
    raw(
        store,
        &format!("UPDATE games SET record = '{{\"format\": 1}}' WHERE table_id = '{}'", finished[1].id),
        &format!("UPDATE games SET record = '{{\"format\": 1}}' WHERE table_id = '{}'", finished[1].id),
    )
    .await;
    assert!(matches!(store.record(finished[1].id).await, Err(StoreError::Corrupt(_))));
    raw(
        store,
        &format!("UPDATE results SET details = '[-5]' WHERE table_id = '{}'", finished[1].id),
        &format!("UPDATE results SET details = '[-5]' WHERE table_id = '{}'", finished[1].id),
    )
    .await;
    assert!(matches!(store.game(finished[1].id).await, Err(StoreError::Corrupt(_))));
    // A closed store is unavailable, not broken.
    store.close().await;
    assert!(matches!(store.health().await, Err(StoreError::Unavailable(_))));
    assert!(matches!(store.unfinished_games().await, Err(StoreError::Unavailable(_))));
}

#[tokio::test]
async fn the_story_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("nested-name.db");
    let url = format!("sqlite://{}", path.display());
    let store = Store::connect(&url).await.expect("a new SQLite file");
    assert!(path.exists(), "the file is created");
    // Acknowledged means durable: WAL with a full sync at each commit; and foreign keys are enforced.
    let Store::Sqlite(sqlite) = &store else { panic!("a sqlite:// URL opens SQLite") };
    let pragma = |name: &'static str| async move {
        let value: String = sqlx::query_scalar(&format!("SELECT CAST({name} AS TEXT) FROM pragma_{name}"))
            .fetch_one(sqlite.pool())
            .await
            .expect("a pragma");
        value
    };
    assert_eq!(pragma("journal_mode").await, "wal");
    assert_eq!(pragma("synchronous").await, "2", "FULL");
    assert_eq!(pragma("foreign_keys").await, "1");
    story(&store).await;
    // The schema is applied once: connecting again finds it up to date.
    let again = Store::connect(&url).await.expect("the same file again");
    again.health().await.expect("healthy");
    again.close().await;
}

/// The PostgreSQL server to test against: `TEST_DATABASE_URL`, else `DATABASE_URL`, if a postgres URL.
fn postgres_url() -> Option<String> {
    ["TEST_DATABASE_URL", "DATABASE_URL"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|url| url.starts_with("postgres://") || url.starts_with("postgresql://"))
}

/// `url` with its database replaced by `database`.
fn with_database(url: &str, database: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(base, query)| (base, Some(query)));
    let authority = base.find("://").map_or(0, |i| i + 3);
    let path = base[authority..].find('/').map_or(base.len(), |i| authority + i);
    let query = query.map(|q| format!("?{q}")).unwrap_or_default();
    format!("{}/{database}{query}", &base[..path])
}

#[test]
fn database_urls_are_rewritten() {
    assert_eq!(with_database("postgres://u@h:5432/postgres", "t"), "postgres://u@h:5432/t");
    assert_eq!(with_database("postgres://u@h", "t"), "postgres://u@h/t");
    assert_eq!(with_database("postgres://h/db?sslmode=disable", "t"), "postgres://h/t?sslmode=disable");
}

/// A fresh PostgreSQL database of a test's own, so that runs do not see each other's rows.
struct FreshPostgres {
    admin: sqlx::PgPool,
    database: String,
}

impl FreshPostgres {
    async fn drop_database(self) {
        let drop = format!("DROP DATABASE {} WITH (FORCE)", self.database);
        sqlx::query(&drop).execute(&self.admin).await.expect("drop it");
        self.admin.close().await;
    }
}

/// A store over a fresh PostgreSQL database; `None` (the test skipped) without a PostgreSQL URL,
/// which CI does not allow.
async fn fresh_postgres_store() -> Option<(Store, FreshPostgres)> {
    let Some(admin_url) = postgres_url() else {
        assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must test PostgreSQL: set DATABASE_URL");
        eprintln!("skipped: no postgres:// URL in TEST_DATABASE_URL or DATABASE_URL");
        return None;
    };
    let database = format!("romirami_test_{}", Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&admin_url).await.expect("the PostgreSQL server answers");
    sqlx::query(&format!("CREATE DATABASE {database}")).execute(&admin).await.expect("create a database");
    let store = Store::connect(&with_database(&admin_url, &database)).await.expect("connect and migrate");
    Some((store, FreshPostgres { admin, database }))
}

#[tokio::test]
async fn the_story_on_postgres() {
    let Some((store, database)) = fresh_postgres_store().await else { return };
    assert!(matches!(store, Store::Postgres(_)));
    story(&store).await;
    database.drop_database().await;
}

#[tokio::test]
async fn an_unreachable_or_unknown_database_is_reported() {
    let refused = Store::connect("postgres://nobody@127.0.0.1:1/none?connect_timeout=2").await;
    assert!(matches!(refused, Err(StoreError::Unavailable(_))), "{refused:?}");
    assert!(matches!(Store::connect("mysql://localhost/db").await, Err(StoreError::Other(_))));
}

// The group committer.

/// A SQLite store in a temporary directory, with `tables` started games of 2 players each.
async fn store_with_games(tables: usize) -> (Store, tempfile::TempDir, Vec<TableId>) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::connect(&format!("sqlite://{}", dir.path().join("c.db").display())).await.expect("open");
    let (ana, bo) = (player("Ana"), player("Bo"));
    store.save_player(&ana, &token_hash("a")).await.expect("save");
    store.save_player(&bo, &token_hash("b")).await.expect("save");
    let mut ids = Vec::new();
    for _ in 0..tables {
        let table = new_table(&store, &ana, 2).await;
        store.start_game(table, 1, None, &seated(&[&ana, &bo]), EPOCH).await.expect("start");
        ids.push(table);
    }
    (store, dir, ids)
}

/// The first `n` actions of the game with seed 1 and 2 players.
fn first_actions(n: usize) -> Vec<(Seat, Action)> {
    let mut game = Game::new(2, 1).expect("2 players");
    let mut bot = RandomPlayer::new(1);
    std::iter::from_fn(|| step(&mut game, &mut bot)).take(n).collect()
}

#[tokio::test]
async fn many_waiting_submissions_share_few_transactions() {
    let (store, _dir, tables) = store_with_games(50).await;
    let actions = first_actions(4);
    let (committer, task) = Committer::spawn(store.clone(), 1000, 64);
    // Every submission is queued before the committer task runs (this runtime has one thread), so
    // the 200 rows go in ceil(200 / 64) = 4 transactions.
    let submissions = tables.iter().flat_map(|&table| rows(table, 0, &actions)).map(|row| committer.commit(row));
    let outcomes = join_all(submissions).await;
    assert_eq!(outcomes.len(), 200);
    assert!(outcomes.iter().all(Result::is_ok));
    assert_eq!(committer.stats().transactions, 4);
    assert_eq!(committer.stats().rows, 200);
    drop(committer);
    task.await.expect("the committer ends");
    let games = store.unfinished_games().await.expect("read back");
    assert_eq!(games.len(), 50);
    assert!(games.iter().all(|g| moves(&g.actions) == actions));
    assert!(games.iter().all(|g| g.salt.is_none()), "a game started without a salt has none");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_that_wait_for_each_ack_are_batched_together() {
    let (store, _dir, tables) = store_with_games(40).await;
    let actions = first_actions(10);
    let (committer, task) = Committer::spawn(store.clone(), 256, 256);
    // Like the table tasks: each table submits its next action only once the last one is committed.
    let handles: Vec<_> = tables
        .iter()
        .map(|&table| {
            let committer = committer.clone();
            let rows = rows(table, 0, &actions);
            tokio::spawn(async move {
                for row in rows {
                    committer.commit(row).await.expect("committed");
                }
            })
        })
        .collect();
    for handle in handles {
        handle.await.expect("a table task");
    }
    let stats = committer.stats();
    assert_eq!(stats.rows, 400);
    // One transaction per action would be 400; with 40 tables waiting at once, far fewer are needed.
    assert!(stats.transactions <= 200, "{stats:?}");
    drop(committer);
    task.await.expect("the committer ends");
    assert!(store.unfinished_games().await.expect("read back").iter().all(|g| moves(&g.actions) == actions));
}

#[tokio::test]
async fn a_refused_batch_fails_only_its_bad_rows() {
    let (store, _dir, tables) = store_with_games(3).await;
    let actions = first_actions(3);
    let (committer, task) = Committer::spawn(store.clone(), 100, 100);
    // One row names a game that does not exist: the database refuses the batch, and each row then goes
    // again alone, so that only the bad one fails.
    let mut batch: Vec<ActionRow> = tables.iter().flat_map(|&table| rows(table, 0, &actions)).collect();
    batch.insert(4, rows(TableId(Uuid::new_v4()), 0, &actions[..1])[0].clone());
    let outcomes = join_all(batch.into_iter().map(|row| committer.commit(row))).await;
    assert_eq!(outcomes.len(), 10);
    assert!(matches!(outcomes[4], Err(StoreError::Other(_))), "{outcomes:?}");
    assert_eq!(outcomes.iter().filter(|o| o.is_ok()).count(), 9, "{outcomes:?}");
    let stats = committer.stats();
    assert_eq!((stats.transactions, stats.rows, stats.failed_rows), (11, 9, 11), "{stats:?}");
    assert!(store.unfinished_games().await.expect("read back").iter().all(|g| moves(&g.actions) == actions));

    // A number already taken is a duplicate, and fails alone too.
    let taken = rows(tables[0], 1, &actions[..1])[0].clone();
    let next = rows(tables[1], 3, &first_actions(4)[3..])[0].clone();
    let outcomes = join_all([committer.commit(taken), committer.commit(next)]).await;
    assert!(matches!(outcomes[0], Err(StoreError::Duplicate(_))), "{outcomes:?}");
    assert!(outcomes[1].is_ok(), "{outcomes:?}");

    // A store that is gone: every waiter gets the error, none a false success.
    store.close().await;
    let outcomes = join_all(rows(tables[0], 0, &actions).into_iter().map(|row| committer.commit(row))).await;
    assert!(outcomes.iter().all(|o| matches!(o, Err(StoreError::Unavailable(_)))), "{outcomes:?}");

    // A committer that has stopped says so.
    task.abort();
    let _ = task.await;
    let late = committer.commit(rows(tables[0], 0, &actions)[0].clone()).await;
    assert!(matches!(late, Err(StoreError::Unavailable(_))), "{late:?}");
}

// The writer: the group commit of guests, tables, seats, starts and finishes.

/// Sets tables up, plays and finishes games through a [`Writer`], with bad writes among good ones in
/// the same batches: each bad write fails alone, the others are written.
async fn writer_story(store: &Store) {
    let (writer, task) = Writer::spawn(store.clone(), 256, 256);
    // Guests: one has the token hash of another, which the database refuses (the batch is then
    // written one by one).
    let (ana, bo, cy, clash) = (player("Ana"), player("Bo"), player("Cy"), player("Clash"));
    let guests = join_all([
        writer.save_player(&ana, &token_hash("w-ana")),
        writer.save_player(&bo, &token_hash("w-bo")),
        writer.save_player(&clash, &token_hash("w-ana")),
        writer.save_player(&cy, &token_hash("w-cy")),
    ])
    .await;
    assert!(guests[0].is_ok() && guests[1].is_ok() && guests[3].is_ok(), "{guests:?}");
    assert!(matches!(guests[2], Err(StoreError::Duplicate(_))), "{guests:?}");
    assert_eq!(store.player_by_token_hash(&token_hash("w-ana")).await, Ok(ana.clone()));
    assert_eq!(store.player_by_token_hash(&token_hash("w-cy")).await, Ok(cy.clone()));

    // Five tables of 2 and one of 3 set up at once, each step in one batch: the table with its host,
    // the second (and third) player's seat, the start.
    let tables: Vec<TableRow> = (0..6u8)
        .map(|n| TableRow {
            id: TableId(Uuid::new_v4()),
            game: "romi-rami".into(),
            host: ana.id,
            seats: if n == 5 { 3 } else { 2 },
            public: true,
            spectators: SpectatorPolicy::Everyone,
            created_at: EPOCH,
            invite: format!("key{n}"),
            clock: None,
            options: "{}".into(),
            rated: true,
            tournament: None,
        })
        .collect();
    let seating = |t: &TableRow| -> Vec<Option<(PlayerId, bool)>> {
        let mut seats = vec![Some((ana.id, false)), Some((bo.id, false))];
        if t.seats == 3 {
            seats.push(Some((cy.id, false)));
        }
        seats
    };
    let host_only = [Some(ana.id)];
    let created = join_all(tables.iter().map(|t| writer.create_table(t, &host_only))).await;
    assert!(created.iter().all(Result::is_ok), "{created:?}");
    // A table whose host is not a stored player is refused alone.
    let stranger = TableRow { id: TableId(Uuid::new_v4()), host: PlayerId(Uuid::new_v4()), ..tables[0].clone() };
    let seats: Vec<Vec<Option<(PlayerId, bool)>>> = tables.iter().map(seating).collect();
    let stranger_seats = [Some(stranger.host)];
    let (seated_outcomes, stranger_outcome) = tokio::join!(
        join_all(tables.iter().zip(&seats).map(|(t, s)| writer.set_seats(t.id, s))),
        writer.create_table(&stranger, &stranger_seats),
    );
    assert!(seated_outcomes.iter().all(Result::is_ok), "{seated_outcomes:?}");
    assert!(stranger_outcome.is_err());
    assert!(stored_seats(store, stranger.id).await.is_empty());
    let (ana_id, bo_id, cy_id) = (ana.id.0.to_string(), bo.id.0.to_string(), cy.id.0.to_string());
    assert_eq!(stored_seats(store, tables[5].id).await, vec![(0, ana_id.clone()), (1, bo_id.clone()), (2, cy_id)]);
    // Seats change hands and free up: what is stored is the last seating, nothing else.
    let changes = join_all([
        writer.set_seats(tables[4].id, &[Some((bo.id, false)), None]),
        writer.set_seats(tables[5].id, &[Some((ana.id, false)), None, Some((bo.id, true))]),
    ])
    .await;
    assert!(changes.iter().all(Result::is_ok), "{changes:?}");
    assert_eq!(stored_seats(store, tables[4].id).await, vec![(0, bo_id.clone())]);
    assert_eq!(stored_seats(store, tables[5].id).await, vec![(0, ana_id.clone()), (2, bo_id.clone())]);
    let back = join_all([writer.set_seats(tables[4].id, &seats[4]), writer.set_seats(tables[5].id, &seats[5])]).await;
    assert!(back.iter().all(Result::is_ok), "{back:?}");
    assert_eq!(stored_seats(store, tables[4].id).await, vec![(0, ana_id), (1, bo_id)]);
    let (ana_ref, bo_ref, cy_ref) = (&ana, &bo, &cy);
    let players_of = |t: &TableRow| if t.seats == 3 { vec![ana_ref, bo_ref, cy_ref] } else { vec![ana_ref, bo_ref] };
    let game_players: Vec<Vec<GamePlayer>> = tables.iter().map(|t| seated(&players_of(t))).collect();
    // Games dealt with the seats' contributions and games from the seed alone, in the same batches.
    let shuffle_of = |seed: u64, players: usize| {
        let contributions =
            if seed % 2 == 1 { (0..players).map(|seat| [seed as u8 + seat as u8; 32]).collect() } else { Vec::new() };
        ShuffleProof::contributed(seed, [seed as u8; 32], contributions)
    };
    let shuffles: Vec<ShuffleProof> =
        game_players.iter().zip(1u64..).map(|(p, seed)| shuffle_of(seed, p.len())).collect();
    let started = join_all(
        tables
            .iter()
            .zip(&game_players)
            .zip(&shuffles)
            .map(|((t, p), shuffle)| writer.start_game(t.id, shuffle, p, EPOCH)),
    )
    .await;
    assert!(started.iter().all(Result::is_ok), "{started:?}");
    let again = writer.start_game(tables[0].id, &ShuffleProof::new(9, [9; 32]), &seated(&[&ana, &bo]), EPOCH).await;
    assert!(again.is_err(), "a game starts once");
    let unfinished = store.unfinished_games().await.expect("read back");
    for (t, shuffle) in tables.iter().zip(&shuffles) {
        let back = unfinished.iter().find(|g| g.table.id == t.id).expect("started");
        assert_eq!(
            (back.seed, back.salt, &back.contributions),
            (shuffle.server_seed, Some(shuffle.salt), &shuffle.contributions)
        );
    }

    // Every game played to its end.
    let mut records = Vec::new();
    for (t, seed) in tables.iter().zip(1u64..) {
        let players = players_of(t);
        let mut game = Game::new(players.len(), seed).expect("2 to 4 players");
        let mut bot = RandomPlayer::new(seed);
        let actions: Vec<_> = std::iter::from_fn(|| step(&mut game, &mut bot)).collect();
        store.append_actions(&rows(t.id, 0, &actions)).await.expect("append");
        let names = players.iter().map(|p| p.name.clone()).collect();
        let finished_at = EPOCH + Duration::minutes(i64::try_from(seed).expect("small"));
        records.push(
            game.record(RecordMeta { id: t.id.0, started_at: EPOCH, finished_at, names, shuffle: None }).expect("over"),
        );
    }

    // The finishes, all in one batch: three good ones, a second finish of the first game, a game
    // that never started, and the 3-player game finished with a 2-player game's record.
    let mut unstarted = records[3].clone();
    unstarted.id = Uuid::new_v4();
    let mut unfit = records[4].clone();
    unfit.id = tables[5].id.0;
    let before = writer.stats();
    let outcomes = join_all([
        writer.finish_game(tables[0].id, finished_game(&records[0])),
        writer.finish_game(tables[1].id, finished_game(&records[1])),
        writer.finish_game(tables[0].id, finished_game(&records[0])),
        writer.finish_game(TableId(unstarted.id), finished_game(&unstarted)),
        writer.finish_game(tables[5].id, finished_game(&unfit)),
        writer.finish_game(tables[2].id, finished_game(&records[2])),
    ])
    .await;
    assert!(outcomes[0].is_ok() && outcomes[1].is_ok() && outcomes[5].is_ok(), "{outcomes:?}");
    assert!(matches!(outcomes[2], Err(StoreError::Other(_))), "finished twice: {outcomes:?}");
    assert_eq!(outcomes[3], Err(StoreError::NotFound));
    assert!(matches!(outcomes[4], Err(StoreError::Other(_))), "a record that does not fit: {outcomes:?}");
    let after = writer.stats();
    assert_eq!(after.writes - before.writes, 3);
    assert_eq!(after.failed_writes - before.failed_writes, 3);
    // A record that does not name its table is refused before it is submitted.
    let misnamed = writer.finish_game(tables[3].id, finished_game(&records[4])).await;
    assert!(matches!(misnamed, Err(StoreError::Other(_))), "{misnamed:?}");

    // What was written reads back: the three games with their records and results, the others
    // still in play.
    for (t, record) in tables.iter().zip(&records).take(3) {
        assert_eq!(store.record(t.id).await, Ok(serde_json::to_string(record).expect("writes")));
        let summary = store.game(t.id).await.expect("a finished game");
        let ids: Vec<PlayerId> = summary.results.iter().map(|r| r.player.id).collect();
        assert_eq!(ids, vec![ana.id, bo.id]);
        let winners: Vec<Seat> = summary.results.iter().filter(|r| r.winner).map(|r| r.player.seat).collect();
        assert_eq!(winners, record.result.winners);
    }
    let unfinished: HashSet<TableId> =
        store.unfinished_games().await.expect("read back").iter().map(|g| g.table.id).collect();
    assert_eq!(unfinished, tables[3..].iter().map(|t| t.id).collect());
    // The results count the actions the bot played (the story marks every third action so).
    let summary = store.game(tables[0].id).await.expect("a finished game");
    assert!(summary.results.iter().map(|r| r.bot_actions).sum::<u32>() > 0, "{summary:?}");

    drop(writer);
    task.await.expect("the writer ends once its handles are gone");
}

#[tokio::test]
async fn the_writer_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::connect(&format!("sqlite://{}", dir.path().join("w.db").display())).await.expect("open");
    writer_story(&store).await;
}

#[tokio::test]
async fn the_writer_on_postgres() {
    let Some((store, database)) = fresh_postgres_store().await else { return };
    writer_story(&store).await;
    store.close().await;
    database.drop_database().await;
}

#[tokio::test]
async fn a_stopped_writer_says_so() {
    let (store, _dir, tables) = store_with_games(1).await;
    let (writer, task) = Writer::spawn(store.clone(), 4, 4);
    task.abort();
    let _ = task.await;
    let late = writer.set_seats(tables[0], &[None, None]).await;
    assert!(matches!(late, Err(StoreError::Unavailable(_))), "{late:?}");
}

#[tokio::test]
async fn records_stored_as_jsonb_read_back_after_migration_4() {
    let Some(admin_url) = postgres_url() else {
        assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI must test PostgreSQL: set DATABASE_URL");
        eprintln!("skipped: no postgres:// URL in TEST_DATABASE_URL or DATABASE_URL");
        return;
    };
    let database = format!("romirami_test_{}", Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&admin_url).await.expect("the PostgreSQL server answers");
    sqlx::query(&format!("CREATE DATABASE {database}")).execute(&admin).await.expect("create a database");
    let url = with_database(&admin_url, &database);
    // The schema as it was before migration 4, with a finished game whose record is jsonb.
    let old = sqlx::PgPool::connect(&url).await.expect("connect");
    let mut migrator = sqlx::migrate!("../../migrations/postgres");
    migrator.migrations = migrator.migrations.iter().filter(|m| m.version < 4).cloned().collect::<Vec<_>>().into();
    migrator.run(&old).await.expect("migrations 1 to 3");
    let mut game = Game::new(2, 7).expect("2 players");
    let mut bot = RandomPlayer::new(7);
    while step(&mut game, &mut bot).is_some() {}
    let (ana, table) = (player("Ana"), TableId(Uuid::new_v4()));
    let meta = RecordMeta {
        id: table.0,
        started_at: EPOCH,
        finished_at: EPOCH,
        names: vec!["Ana".into(), "Ana".into()],
        shuffle: None,
    };
    let record = game.record(meta).expect("over");
    let json = serde_json::to_string(&record).expect("a record writes");
    sqlx::raw_sql(&format!(
        "INSERT INTO players (id, name, token_hash, created_at) VALUES ('{id}', 'Ana', decode(repeat('ab', 32), 'hex'), now());
         INSERT INTO tables (id, host, seat_count, public, spectators, created_at) VALUES ('{t}', '{id}', 2, true, 'everyone', now());
         INSERT INTO games (table_id, seed, player_count, started_at, finished_at, ended_by, record)
             VALUES ('{t}', 7, 2, now(), now(), 'contracts', '{json}'::jsonb);",
        id = ana.id.0,
        t = table.0,
        json = json.replace('\'', "''"),
    ))
    .execute(&old)
    .await
    .expect("a game finished before migration 4");
    old.close().await;
    // Migration 4 turns the column into text: the record reads back the same.
    let store = Store::connect(&url).await.expect("connect and migrate");
    let back: Record = serde_json::from_str(&store.record(table).await.expect("the record")).expect("a record");
    assert_eq!(back, record);
    store.close().await;
    sqlx::query(&format!("DROP DATABASE {database} WITH (FORCE)")).execute(&admin).await.expect("drop it");
    admin.close().await;
}

/// Sleeping tables and push subscriptions, as both backends keep them.
async fn sleep_and_push_story(store: &Store) {
    let (ana, bo) = (player("Ana"), player("Bo"));
    store.save_player(&ana, &token_hash("s-a")).await.expect("save");
    store.save_player(&bo, &token_hash("s-b")).await.expect("save");
    let table = new_table(store, &ana, 2).await;
    let now = OffsetDateTime::now_utc().replace_nanosecond(0).expect("a time");
    let summary = romirami_server::protocol::TableSummary {
        id: table,
        game: "romi-rami".into(),
        state: romirami_server::protocol::TableState::Playing,
        host: ana.id,
        public: false,
        spectators: SpectatorPolicy::Link,
        seats: vec![Some(ana.clone()), Some(bo.clone())],
        spectator_count: 0,
        contributions: None,
        clock: Some(Clock::DAILY),
        bots: vec![false, false],
        levels: vec![None, None],
        shuffle: None,
        options: None,
        presence: Vec::new(),
        rated: true,
        tournament: None,
        to_act: Some(Seat(1)),
        turn_ends_at: Some("2026-11-30T12:00:00Z".into()),
    };
    let row = romirami_server::store::SleepRow {
        table,
        turn_since: now - Duration::hours(1),
        wake_at: Some(now + Duration::days(3)),
        to_act: Some(Seat(1)),
        players: vec![ana.id, bo.id],
        summary,
    };
    store.put_sleeping(&row).await.expect("asleep");
    assert_eq!(store.sleeping(table).await.expect("read"), Some(row.clone()));
    assert_eq!(store.sleeping_tables_of(bo.id).await.expect("read"), std::slice::from_ref(&row));
    assert!(store.sleeping_tables_of(PlayerId(Uuid::new_v4())).await.expect("read").is_empty());
    assert!(store.due_sleepers(now, 10).await.expect("read").is_empty(), "not due yet");
    assert_eq!(store.due_sleepers(now + Duration::days(4), 10).await.expect("read"), [table]);
    assert_eq!(store.sleeping_ids().await.expect("read"), [table]);
    assert_eq!(store.sleeping_tables_hosted_by(ana.id).await.expect("read"), 1);
    assert_eq!(store.sleeping_tables_hosted_by(bo.id).await.expect("read"), 0);
    let later = romirami_server::store::SleepRow { wake_at: None, to_act: None, ..row.clone() };
    store.put_sleeping(&later).await.expect("asleep again, replaced");
    assert!(store.due_sleepers(now + Duration::days(4), 10).await.expect("read").is_empty(), "woken by visitors only");
    // The tables not over where a player sits: a game in play counts; before its start, none (no seat taken).
    assert!(store.open_tables_of(bo.id).await.expect("read").is_empty());
    store.start_game(table, 1, None, &seated(&[&ana, &bo]), EPOCH).await.expect("start");
    assert_eq!(store.open_tables_of(bo.id).await.expect("read"), [table]);
    assert!(store.delete_sleeping(table).await.expect("woken"));
    assert!(!store.delete_sleeping(table).await.expect("once"));
    assert_eq!(store.sleeping(table).await.expect("read"), None);

    // Push subscriptions: one row per endpoint (a device subscribing for another player moves), ten
    // devices at most per player, the oldest forgotten first.
    let device = |n: usize, player: &PlayerInfo| romirami_server::store::PushSubscription {
        player: player.id,
        endpoint: format!("https://fcm.googleapis.com/fcm/send/{n}"),
        p256dh: "key".into(),
        auth: "auth".into(),
        lang: "fr".into(),
    };
    for n in 0..12 {
        store.add_push_subscription(&device(n, &ana)).await.expect("kept");
    }
    let kept = store.push_subscriptions(ana.id).await.expect("read");
    assert_eq!(kept.len(), 10, "ten devices at most");
    assert!(!kept.contains(&device(0, &ana)) && !kept.contains(&device(1, &ana)), "the oldest are gone");
    store.add_push_subscription(&device(11, &bo)).await.expect("the device is Bo's now");
    assert_eq!(store.push_subscriptions(bo.id).await.expect("read"), [device(11, &bo)]);
    assert_eq!(store.push_subscriptions(ana.id).await.expect("read").len(), 9);
    assert!(!store.remove_push_subscription(ana.id, &device(11, &bo).endpoint).await.expect("not Ana's"));
    assert!(store.remove_push_subscription(bo.id, &device(11, &bo).endpoint).await.expect("Bo's"));
    store.forget_push_endpoint(&device(5, &ana).endpoint).await.expect("forgotten");
    assert_eq!(store.push_subscriptions(ana.id).await.expect("read").len(), 8);
    let secret = store.server_secret_or("test", || "first".into()).await.expect("made");
    assert_eq!(secret, "first");
    assert_eq!(store.server_secret_or("test", || "second".into()).await.expect("kept"), "first");
}

#[tokio::test]
async fn sleeping_tables_and_push_subscriptions_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::connect(&format!("sqlite://{}", dir.path().join("z.db").display())).await.expect("open");
    sleep_and_push_story(&store).await;
}

#[tokio::test]
async fn sleeping_tables_and_push_subscriptions_on_postgres() {
    let Some((store, database)) = fresh_postgres_store().await else { return };
    sleep_and_push_story(&store).await;
    store.close().await;
    database.drop_database().await;
}
