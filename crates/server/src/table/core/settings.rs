//! What a table needs of the server's settings, and nothing else: the core reads these, never the whole
//! `Config` (of sockets, addresses, the store and the cluster, none of which is a table's business).

use std::time::Duration;

use romirami_game::Games;

/// A table's settings, made once from the server's `Config` (by `TableConfig::of`, beside the shell) and
/// shared by every table. Each field is the `Config` field of the same name, where it is documented with
/// its default.
#[derive(Clone, Debug)]
pub(crate) struct TableConfig {
    /// The games the server seats: a table's game, or a finished table's read back from the store.
    pub(crate) games: Games,
    /// A reconnecting client that missed more events than this gets a fresh view instead.
    pub(crate) catch_up_limit: usize,
    /// How long a waiting table stays open while none of its seated players is connected.
    pub(crate) waiting_table_grace: Duration,
    /// How long the server's bot waits before each of its moves.
    pub(crate) bot_delay: Duration,
    /// How long the bot waits before trying again when its move could not be stored.
    pub(crate) bot_retry: Duration,
    /// How long a game in play waits for a player to connect when none is; then it ends as abandoned.
    pub(crate) abandon_after: Duration,
    /// The pause between the rounds (or hands) of a game of several.
    pub(crate) round_pause: Duration,
    /// How long a player has for a choice the game asks outside the turns.
    pub(crate) choice_time: Duration,
    /// How long the players of a finished game have to say yes to playing again.
    pub(crate) rematch_time: Duration,
    /// The most actions one game may take; then it ends as abandoned.
    pub(crate) max_actions_per_game: u32,
    /// How long a starting game waits for its seats' contributions to the deal before the server draws
    /// the missing ones.
    pub(crate) contribution_wait: Duration,
}
