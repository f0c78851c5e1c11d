//! Whole games over real WebSockets: bots at tables of 2, 3 and 4.

use crate::common;

use common::TestServer;
use romirami_client::bots::play_game;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn complete_games_of_two_three_and_four_players() {
    let server = TestServer::default().await;
    for players in [2, 3, 4] {
        let game = play_game(&server.url, players, "player").await.expect("the game completes");
        assert_eq!(game.result.scores.len(), usize::from(players));
        assert!(!game.result.winners.is_empty());
        assert!(game.actions > 10);
    }
    server.shutdown().await;
}
