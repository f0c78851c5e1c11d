//! Ratings in the store, against each backend (SQLite always, PostgreSQL when `DATABASE_URL` names one):
//! rated games of 2 to 6 players with ties, the games that never count, two games that finish at once,
//! the replay of the games stored before ratings, and the leaderboard's pages.

use crate::pg;

use std::sync::atomic::{AtomicI64, Ordering};

use futures_util::future::join_all;
use romirami_game::{Outcome, Seat, SeatOutcome};
use romirami_server::protocol::{PlayerId, PlayerInfo, SpectatorPolicy, TableId};
use romirami_server::store::{
    BoardCursor, FinishedGame, GamePlayer, GameSummary, RatingChange, Store, StoreError, TableRow, Writer,
};
use sha2::{Digest, Sha256};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

const GAME: &str = "rommi";

/// Every game of a test finishes a minute after the one before: the order ratings are replayed in.
static MINUTE: AtomicI64 = AtomicI64::new(0);

async fn new_player(store: &Store, name: &str) -> PlayerInfo {
    let player = PlayerInfo { id: PlayerId(Uuid::new_v4()), name: name.to_owned() };
    let hash: [u8; 32] = Sha256::digest(player.id.0.as_bytes()).into();
    store.save_player(&player, &hash).await.expect("store a player");
    player
}

/// How a test game is set up and how it ends.
#[derive(Clone, Copy)]
struct Setup<'a> {
    rated: bool,
    ended_by: &'a str,
    /// The seats the host gave to a bot.
    bots: &'a [usize],
}

const RATED: Setup<'static> = Setup { rated: true, ended_by: "target", bots: &[] };

/// Stores a table and the start of its game; returns the table and the finish to store.
async fn started(store: &Store, players: &[&PlayerInfo], places: &[u8], setup: Setup<'_>) -> (TableId, FinishedGame) {
    let id = TableId(Uuid::new_v4());
    let at = datetime!(2026-03-01 12:00 UTC) + Duration::minutes(MINUTE.fetch_add(1, Ordering::SeqCst));
    let row = TableRow {
        id,
        game: GAME.into(),
        host: players[0].id,
        seats: u8::try_from(players.len()).expect("a few"),
        public: true,
        spectators: SpectatorPolicy::Everyone,
        created_at: at,
        invite: "key".into(),
        clock: None,
        options: "{}".into(),
        rated: setup.rated,
        tournament: None,
    };
    store.create_table(&row).await.expect("create the table");
    let seated: Vec<GamePlayer> = (0u8..)
        .zip(players)
        .map(|(seat, p)| GamePlayer {
            seat: Seat(seat),
            id: p.id,
            name: p.name.clone(),
            bot: setup.bots.contains(&usize::from(seat)),
        })
        .collect();
    store.start_game(id, 1, None, &seated, at).await.expect("start");
    let finished_at: OffsetDateTime = at + Duration::seconds(30);
    let record = serde_json::json!({
        "id": id.0,
        "finished_at": finished_at.format(&time::format_description::well_known::Rfc3339).expect("formats"),
    });
    let outcome = Outcome {
        ended_by: setup.ended_by.into(),
        seats: places
            .iter()
            .map(|&place| SeatOutcome {
                score: i64::from(10 - place),
                place,
                winner: place == 1,
                details: serde_json::json!({ "total": 10 - place }),
            })
            .collect(),
    };
    (id, FinishedGame { record: record.to_string(), outcome })
}

/// Plays (stores) a finished game and reads it back.
async fn game(store: &Store, players: &[&PlayerInfo], places: &[u8], setup: Setup<'_>) -> GameSummary {
    let (id, finished) = started(store, players, places, setup).await;
    store.finish_game(id, &finished).await.expect("finish");
    store.game(id).await.expect("the finished game")
}

fn changes(game: &GameSummary) -> Vec<Option<RatingChange>> {
    game.results.iter().map(|r| r.rating).collect()
}

/// A player's shown rating and rated games in [`GAME`]; `None` before their first.
async fn standing(store: &Store, player: &PlayerInfo) -> Option<(i64, u32)> {
    let ratings = store.player_ratings(player.id).await.expect("the player's ratings");
    ratings.iter().find(|r| r.game == GAME).map(|r| (r.standing.rating.shown(), r.standing.games))
}

async fn rated_games_move_by_place(store: &Store) {
    let names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"];
    let mut players = Vec::new();
    for name in names {
        players.push(new_player(store, name).await);
    }
    let p: Vec<&PlayerInfo> = players.iter().collect();
    // Two players: the winner gains what the loser loses, from 1000 each.
    let first = game(store, &p[..2], &[1, 2], RATED).await;
    let [Some(ana), Some(ben)] = changes(&first)[..] else { panic!("both rated: {first:?}") };
    assert_eq!((ana.before, ben.before), (1000, 1000));
    assert!(ana.after > 1000 && ben.after < 1000, "{ana:?} {ben:?}");
    assert_eq!(standing(store, p[0]).await, Some((ana.after, 1)));
    // Three to six players, with ties: each seat from its rating before, level seats alike.
    for places in [&[2, 1, 3][..], &[1, 2, 2, 4], &[1, 1, 3, 4, 5], &[3, 1, 1, 4, 4, 6]] {
        let before: Vec<Option<(i64, u32)>> = join_all(p[..places.len()].iter().map(|x| standing(store, x))).await;
        let played = game(store, &p[..places.len()], places, RATED).await;
        for ((change, was), (player, place)) in changes(&played).iter().zip(&before).zip(p.iter().zip(places)) {
            let change = change.expect("every seat of a rated game is rated");
            assert_eq!(change.before, was.map_or(1000, |(rating, _)| rating), "{places:?}");
            let now = standing(store, player).await.expect("rated");
            assert_eq!(now, (change.after, was.map_or(1, |(_, games)| games + 1)), "{places:?}");
            if *place == 1 && places.iter().filter(|&&x| x == 1).count() == 1 {
                assert!(change.after > change.before, "{places:?}: a sole winner gains: {change:?}");
            }
        }
    }
    // The leaderboard's order is the ratings'.
    let board = store.leaderboard(GAME, 1, Some(100), None).await.expect("the leaderboard");
    assert_eq!(board.entries.len(), 6);
    let shown: Vec<i64> = board.entries.iter().map(|e| e.standing.rating.shown()).collect();
    assert!(shown.windows(2).all(|w| w[0] >= w[1]), "best first: {shown:?}");
}

async fn some_games_never_count(store: &Store) {
    let (ana, ben) = (new_player(store, "Ana").await, new_player(store, "Ben").await);
    let bot = new_player(store, "Bot 2").await;
    let blank = new_player(store, " ").await;
    let casual = Setup { rated: false, ..RATED };
    let abandoned = Setup { ended_by: "abandoned", ..RATED };
    let with_a_bot = Setup { bots: &[1], ..RATED };
    for (why, players, setup) in [
        ("casual", [&ana, &ben], casual),
        ("abandoned", [&ana, &ben], abandoned),
        ("a bot's seat", [&ana, &ben], with_a_bot),
        ("an unnamed player", [&ana, &bot], RATED),
        ("a blank name", [&blank, &ben], RATED),
        ("one player twice", [&ana, &ana], RATED),
    ] {
        let played = game(store, &players, &[1, 2], setup).await;
        assert_eq!(changes(&played), vec![None, None], "{why}");
    }
    for player in [&ana, &ben, &bot, &blank] {
        assert_eq!(standing(store, player).await, None, "{} has no rating", player.name);
    }
    assert!(matches!(store.player_ratings(PlayerId(Uuid::new_v4())).await, Err(StoreError::NotFound)));
}

/// Two games with a player in common finish at once: in one batch of the writer, and as two
/// transactions of their own. Each is rated from the ratings the other left.
async fn games_that_finish_at_once(store: &Store) {
    let (writer, _task) = Writer::spawn(store.clone(), 16, 16);
    for round in 0..2 {
        let ana = new_player(store, "Ana").await;
        let others = [new_player(store, "Ben").await, new_player(store, "Cy").await];
        let mut finishes = Vec::new();
        for other in &others {
            finishes.push(started(store, &[&ana, other], &[1, 2], RATED).await);
        }
        let outcomes = if round == 0 {
            join_all(finishes.iter().map(|(id, finished)| writer.finish_game(*id, finished.clone()))).await
        } else {
            join_all(finishes.iter().map(|(id, finished)| store.finish_game(*id, finished))).await
        };
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        let mut hers: Vec<RatingChange> = Vec::new();
        for (id, _) in &finishes {
            hers.push(changes(&store.game(*id).await.expect("finished"))[0].expect("rated"));
        }
        hers.sort_by_key(|c| c.before);
        assert_eq!(hers[0].before, 1000, "round {round}: {hers:?}");
        assert_eq!(hers[1].before, hers[0].after, "round {round}: the second starts where the first ended");
        assert_eq!(standing(store, &ana).await, Some((hers[1].after, 2)), "round {round}");
    }
}

/// Every game of the leaderboard, followed page by page.
async fn leaderboard_pages(store: &Store) {
    let mut players = Vec::new();
    for n in 0..7 {
        players.push(new_player(store, &format!("Board {n}")).await);
    }
    // Everyone plays the next one three times, and player 6 once more than the others.
    for _ in 0..3 {
        for n in 0..7 {
            let (a, b) = (&players[n], &players[(n + 1) % 7]);
            game(store, &[a, b], &[1, 2], RATED).await;
        }
    }
    let everyone = store.leaderboard(GAME, 6, Some(100), None).await.expect("the leaderboard");
    let ours: Vec<PlayerId> =
        everyone.entries.iter().filter(|e| players.iter().any(|p| p.id == e.player.id)).map(|e| e.player.id).collect();
    assert_eq!(ours.len(), 7, "each played 6 games");
    assert!(
        store.leaderboard(GAME, 7, Some(100), None).await.expect("read").entries.iter().all(|e| e.standing.games >= 7)
    );
    let mut paged = Vec::new();
    let mut cursor: Option<BoardCursor> = None;
    loop {
        let page = store.leaderboard(GAME, 6, Some(2), cursor).await.expect("a page");
        assert!(page.entries.len() <= 2);
        paged.extend(page.entries.iter().map(|e| (e.player.id, e.standing.rating.mu)));
        match page.next {
            Some(next) => cursor = Some(next.to_string().parse().expect("a cursor reads back")),
            None => break,
        }
    }
    let whole: Vec<(PlayerId, f64)> = everyone.entries.iter().map(|e| (e.player.id, e.standing.rating.mu)).collect();
    assert_eq!(paged, whole, "the pages are the whole board, in order, once each");
    assert!(whole.windows(2).all(|w| w[0].1 >= w[1].1));
    assert!(store.leaderboard("rami", 0, None, None).await.expect("read").entries.is_empty(), "per game");
}

/// The games played one after the other (the replay gives them back in the same order).
async fn story(store: &Store) {
    rated_games_move_by_place(store).await;
    some_games_never_count(store).await;
    leaderboard_pages(store).await;
}

/// What the ratings are: every player's standing and every seat's change.
async fn snapshot(store: &Store) -> (Vec<(PlayerId, i64, u32)>, Vec<Option<RatingChange>>) {
    let board = store.leaderboard(GAME, 0, Some(100), None).await.expect("the board");
    let standings = board.entries.iter().map(|e| (e.player.id, e.standing.rating.shown(), e.standing.games)).collect();
    let mut seats = Vec::new();
    let mut cursor = None;
    loop {
        let page = store.list_games(&Default::default(), Some(100), cursor).await.expect("the games");
        seats.extend(page.games.iter().flat_map(changes));
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    (standings, seats)
}

/// The replay of the games stored before ratings existed: with every rating gone and every game
/// unrated (as after the migration), opening the store rates them again, in the order they finished,
/// to the same figures.
async fn replay(store: &Store, reopen: impl AsyncFn() -> Store) {
    // Opening the store with every game rated already replays nothing.
    assert_eq!(snapshot(&reopen().await).await, snapshot(store).await);
    let before = snapshot(store).await;
    let forget = ["DELETE FROM rating_changes", "DELETE FROM ratings", "UPDATE games SET rated = NULL"];
    for sql in forget {
        match store {
            Store::Sqlite(s) => sqlx::query(sql).execute(s.pool()).await.map(drop),
            Store::Postgres(s) => sqlx::query(sql).execute(s.pool()).await.map(drop),
        }
        .expect("raw SQL runs");
    }
    assert!(snapshot(store).await.1.iter().all(Option::is_none), "forgotten");
    let reopened = reopen().await;
    assert_eq!(snapshot(&reopened).await, before, "the replay gives the same ratings");
}

#[tokio::test]
async fn ratings_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("ratings.db").display());
    let store = Store::connect(&url).await.expect("a new SQLite file");
    story(&store).await;
    replay(&store, async || Store::connect(&url).await.expect("again")).await;
    games_that_finish_at_once(&Store::connect(&url).await.expect("again")).await;
}

#[tokio::test]
async fn ratings_on_postgres() {
    let Some(database) = pg::PgDatabase::create().await else { return };
    let store = Store::connect(&database.url).await.expect("connect and migrate");
    story(&store).await;
    replay(&store, async || Store::connect(&database.url).await.expect("again")).await;
    games_that_finish_at_once(&store).await;
    store.close().await;
    database.drop_database().await;
}
