//! The command line the timing examples (`playouts`, `steps`) share.

use romirami_engine::RandomPlayer;

/// Reads `[GAMES] [PLAYERS] [without-take-backs]`: how many games (`default_games` when left out), of
/// how many players (4), and the random player, seeded with 1: one picking among every legal action,
/// or among the game's moves only ([`RandomPlayer::without_take_backs`]) with `without-take-backs`.
/// Exits with status 2 on any other third argument.
pub(crate) fn games_players_and_player(default_games: u64) -> (u64, usize, RandomPlayer) {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(default_games);
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let player = match args.next().as_deref() {
        None => RandomPlayer::new(1),
        Some("without-take-backs") => RandomPlayer::without_take_backs(1),
        Some(other) => {
            eprintln!("unknown choice of actions {other:?}: give `without-take-backs` or nothing");
            std::process::exit(2);
        }
    };
    (games, players, player)
}
