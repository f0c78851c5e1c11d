//! The server's settings and limits. Every limit a client can run into is here, with its default.

use std::net::IpAddr;
use std::time::Duration;

use crate::web::WebClient;

/// How the server runs and what it allows each client.
#[derive(Clone, Debug)]
pub struct Config {
    /// The games its tables seat, by name; a table's game is one of them.
    pub games: romirami_game::Games,
    /// The cluster this server is a node of (NATS and a shared PostgreSQL); `None` for a single server.
    pub cluster: Option<ClusterConfig>,
    /// The largest WebSocket message (and frame) a client may send, in bytes.
    pub max_message_bytes: usize,
    /// Messages a connection may send per second, on average.
    pub messages_per_second: f64,
    /// Messages a connection may send in a burst above the average.
    pub message_burst: f64,
    /// Frames of any kind (text, binary, continuation, ping, pong, close) a connection may send per
    /// second, on average: a looser budget than the messages', which a message flood meets first.
    pub frames_per_second: f64,
    /// Frames a connection may send in a burst above the average. Over it, the connection is closed
    /// with 1008 `too many frames`.
    pub frame_burst: f64,
    /// The most frames one message may come in (1008 `message in too many fragments` beyond).
    pub max_fragments: u32,
    /// Pings and pongs a client may send per second, on average: the server pings every
    /// [`Config::ping_interval`], and a client needs few of its own.
    pub control_frames_per_second: f64,
    /// Pings and pongs a client may send in a burst (1008 `too many pings or pongs` beyond).
    pub control_frame_burst: f64,
    /// Bad messages (malformed, binary, unauthorized, over the rate) a connection may send in a burst
    /// before it is closed; one is forgiven every [`Config::strike_decay`].
    pub max_strikes: f64,
    /// How long it takes to forgive one bad message.
    pub strike_decay: Duration,
    /// Messages waiting to be written to one connection; a client that lets more pile up is too slow
    /// and is disconnected.
    pub outgoing_queue: usize,
    /// The read buffer of each WebSocket, in bytes: what one read from the socket takes at most. It is
    /// held for the connection's life, so it weighs on what an idle connection costs (tungstenite's
    /// default, 128 KiB, would be most of it). A message longer than the buffer is still read whole,
    /// in more reads: the buffer grows to the message (at most `max_message_bytes`, or up to 64 KiB
    /// for an oversized one, which is read to its end and refused with the 1009 close).
    pub read_buffer_bytes: usize,
    /// How often the server pings an idle connection.
    pub ping_interval: Duration,
    /// A connection from which nothing (not even a pong) arrived for this long is closed.
    pub idle_timeout: Duration,
    /// How long writing one message to a socket may take before the connection is dropped.
    pub write_timeout: Duration,
    /// How long a closing connection waits for the client to answer its close frame (reading on, so that
    /// what is still on its way out, the close frame included, is not discarded by a reset).
    pub close_linger: Duration,
    /// Origins (`scheme://host[:port]`) allowed to open a WebSocket besides the server's own; `*` allows
    /// every origin. Clients that send no `Origin` (programs, not browsers) are always allowed.
    pub allowed_origins: Vec<String>,
    /// How long a client may take to send a request's line and headers (also the wait for the next
    /// request on a kept-alive connection); then the connection is closed.
    pub header_read_timeout: Duration,
    /// The largest request line and headers, in bytes (431 beyond).
    pub max_header_bytes: usize,
    /// How long a request to the REST API, the metrics or the client's files may take (408 beyond);
    /// not the WebSocket's, which lives on.
    pub request_timeout: Duration,
    /// Live tables (waiting, playing, or finished and still viewable) on the server; `create_table`
    /// beyond it is refused with `server_full`.
    pub max_live_tables: usize,
    /// Open WebSocket connections from one client address; more are refused with
    /// `too_many_connections`.
    pub max_connections_per_address: usize,
    /// New guests one client address may create per minute (in a burst of as many);
    /// more are refused with `too_many_guests`.
    pub guests_per_address_per_minute: f64,
    /// Reverse proxies whose `X-Forwarded-For` header is believed: a connection from one of these
    /// addresses counts as coming from the client address the header names (the last one not itself
    /// a trusted proxy). From any other address the header is ignored.
    pub trusted_proxies: Vec<IpAddr>,
    /// Whether the per-address limits spare loopback addresses (127.0.0.0/8, ::1), where the
    /// project's load generator, crash harness and end-to-end test connect from. Behind a reverse proxy
    /// on the same host, set [`Config::trusted_proxies`]: else every client shares the proxy's address.
    pub exempt_loopback: bool,
    /// Addresses the per-address limits spare besides loopback.
    pub exempt_addresses: Vec<IpAddr>,
    /// Tables a player may host at once (waiting or playing).
    pub max_open_tables_per_player: usize,
    /// The most turn-based tables one player may host that sleep (nobody is at them: they hold no memory,
    /// only their rows); a new one beyond is refused with `too_many_tables`.
    pub max_sleeping_tables_per_player: usize,
    /// A reconnecting client that missed more events than this gets a fresh view instead.
    pub catch_up_limit: usize,
    /// How long a table that waits for its game stays open while none of its seated players is
    /// connected (its host went away without leaving, say); then it closes and leaves the lobby.
    pub waiting_table_grace: Duration,
    /// How long a starting game waits for its seats' contributions to the deal (`contribute`) before the
    /// server draws the missing ones itself.
    pub contribution_wait: Duration,
    /// Commands waiting for one table's task.
    pub table_queue: usize,
    /// How long the server's bot waits before each of its moves, so that people can follow them.
    pub bot_delay: Duration,
    /// How long the bot waits before trying again when its move could not be stored.
    pub bot_retry: Duration,
    /// How many bot decisions are made at once, on threads of their own (the others wait their turn):
    /// half the machine's cores by default (at least one), so that however many strong bots think, the
    /// other half is left to the tables.
    pub bot_threads: usize,
    /// Playouts per decision of the analysis of a finished game (`GET /api/games/{id}/analysis`,
    /// docs/analysis.md): half to find the best action, half to weigh it against the one played.
    pub analysis_playouts: u32,
    /// Analyses that may wait their turn; one more request is refused with 429.
    pub analysis_queue: usize,
    /// How long one decision of the server's bot may take: the `strong` bot plays the best move it has
    /// found by then (its playouts are a budget, this is a cap).
    pub bot_think_time: Duration,
    /// How long a game in play waits for a player to connect when none is connected; then it ends as
    /// abandoned.
    pub abandon_after: Duration,
    /// How long a table pauses between the rounds (or hands) of a game of several, so that everyone
    /// sees the round's result before the next turn's clock and bots start.
    pub round_pause: Duration,
    /// How long a player has for a choice the game asks outside the turns (Rumino's rebuy, rumino §9
    /// step 4), apart from any turn clock; then the bot's choice is made for them.
    pub choice_time: Duration,
    /// How long the players of a finished game have to say yes to playing again; then the offer closes
    /// (as it does when one of them says no).
    pub rematch_time: Duration,
    /// The pause between a Swiss round's last game and the next round (30 s).
    pub tournament_round_pause: Duration,
    /// How long an arena's minute lasts (60 s; shorter in tests, so that an arena runs to its end in seconds).
    pub tournament_minute: Duration,
    /// How many tournaments not finished one player may have created (3).
    pub max_open_tournaments_per_player: u32,
    /// A tournament's view larger than this (in bytes of JSON) is told to its followers live as its
    /// leaders and counts (`partial`), not whole (64 KiB: about a hundred players; docs/tournaments.md).
    pub tournament_live_view_bytes: usize,
    /// The most actions one game may take; a game still going after them ends as abandoned (a guard
    /// against bots that could go round in circles where a rule book sets no limit).
    pub max_actions_per_game: u32,
    /// Actions waiting for the group commit; a table waits for room beyond it.
    pub commit_queue: usize,
    /// The most actions written in one transaction.
    pub commit_batch: usize,
    /// Other writes (guests, tables, seats, starts and finishes of games) waiting for their group
    /// commit; a caller waits for room beyond it.
    pub write_queue: usize,
    /// The most of those other writes in one transaction.
    pub write_batch: usize,
    /// How claiming a name and signing in are limited: wrong passwords per name and per address, and
    /// the password hashes computed at once.
    pub sign_in: SignInLimits,
    /// How many rated games of a game a player needs to be on its leaderboard (`GET /api/leaderboard`).
    pub leaderboard_min_games: u32,
    /// The web client's files: built in (the default), from a folder, or none.
    pub web: WebClient,
    /// How often every node looks for sleeping turn-based tables whose running turn has ended, to wake them
    /// (`table::sleep`): a turn's end is acted on at most this late.
    pub wake_interval: Duration,
    /// How pushes are sent (docs/push.md).
    pub push: crate::push::PushConfig,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            games: crate::games(),
            max_message_bytes: 4096,
            messages_per_second: 20.0,
            message_burst: 40.0,
            frames_per_second: 40.0,
            frame_burst: 80.0,
            max_fragments: 8,
            control_frames_per_second: 1.0,
            control_frame_burst: 10.0,
            max_strikes: 20.0,
            strike_decay: Duration::from_secs(3),
            outgoing_queue: 256,
            read_buffer_bytes: 256,
            ping_interval: Duration::from_secs(15),
            idle_timeout: Duration::from_secs(45),
            write_timeout: Duration::from_secs(10),
            close_linger: Duration::from_secs(1),
            allowed_origins: Vec::new(),
            header_read_timeout: Duration::from_secs(10),
            max_header_bytes: 16 * 1024,
            request_timeout: Duration::from_secs(30),
            max_live_tables: 50_000,
            max_connections_per_address: 64,
            guests_per_address_per_minute: 20.0,
            trusted_proxies: Vec::new(),
            exempt_loopback: true,
            exempt_addresses: Vec::new(),
            max_open_tables_per_player: 5,
            max_sleeping_tables_per_player: 50,
            catch_up_limit: 500,
            waiting_table_grace: Duration::from_secs(60),
            contribution_wait: Duration::from_secs(3),
            table_queue: 1024,
            bot_delay: Duration::from_millis(700),
            bot_retry: Duration::from_secs(1),
            bot_threads: (std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get) / 2).max(1),
            bot_think_time: Duration::from_millis(100),
            analysis_playouts: 2_000,
            analysis_queue: 16,
            abandon_after: Duration::from_secs(10 * 60),
            round_pause: Duration::from_secs(4),
            choice_time: Duration::from_secs(30),
            rematch_time: Duration::from_secs(60),
            tournament_round_pause: Duration::from_secs(30),
            tournament_minute: Duration::from_secs(60),
            max_open_tournaments_per_player: 3,
            tournament_live_view_bytes: 65_536,
            max_actions_per_game: 20_000,
            commit_queue: 65_536,
            commit_batch: 1024,
            write_queue: 65_536,
            write_batch: 256,
            sign_in: SignInLimits::default(),
            leaderboard_min_games: crate::store::ratings::DEFAULT_LEADERBOARD_MIN_GAMES,
            web: WebClient::Embedded,
            wake_interval: Duration::from_secs(15),
            push: crate::push::PushConfig::default(),
            cluster: None,
        }
    }
}

/// The limits on signing in with a claimed name ([`crate::names`]).
///
/// A name's or an address's first wrong passwords are free; after them, each wrong one locks sign-ins
/// with that name (or from that address) for a while, [`SignInLimits::first_lock`] doubling at every
/// further one up to [`SignInLimits::max_lock`]; while locked, an attempt is refused with
/// `too_many_attempts` and its password is not even checked. A right password clears its name's
/// failures; an address's are forgotten after [`SignInLimits::forget_after`] without a wrong one, as a
/// name's are.
#[derive(Clone, Debug)]
pub struct SignInLimits {
    /// Wrong passwords for one name before sign-ins with it are locked.
    pub free_failures_per_name: u32,
    /// Wrong passwords from one client address (for any names) before sign-ins from it are locked. The
    /// addresses [`Config::exempt_loopback`] and [`Config::exempt_addresses`] spare are not counted.
    pub free_failures_per_address: u32,
    /// The lock after the first wrong password beyond the free ones.
    pub first_lock: Duration,
    /// The longest lock.
    pub max_lock: Duration,
    /// How long after its last wrong password a name's or an address's failures are forgotten.
    pub forget_after: Duration,
    /// Password hashes (argon2id, some 19 MiB of memory each) computed at once, each on a thread of its own
    /// (2: the memory a burst of sign-ins takes stays under 64 MiB; docs/reliability.md); more wait their turn.
    pub concurrent_hashes: usize,
}

impl Default for SignInLimits {
    fn default() -> SignInLimits {
        SignInLimits {
            free_failures_per_name: 5,
            free_failures_per_address: 20,
            first_lock: Duration::from_secs(2),
            max_lock: Duration::from_secs(15 * 60),
            forget_after: Duration::from_secs(60 * 60),
            concurrent_hashes: 2,
        }
    }
}

/// How a node joins a cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The NATS server, `nats://host:port`.
    pub nats_url: String,
    /// The cluster's name: the nodes of one site share it, and several sites (or tests) may share one NATS
    /// server under different names. It starts the cluster's NATS subjects (`NAME.lobby`, `NAME.nodes`).
    pub name: String,
    /// This node's id: unique in the cluster, and the same across a node's restarts if its leases are to be
    /// taken back at once rather than after they run out.
    pub node: String,
    /// How long a lease lasts unless renewed; renewed every third of it. A dead node's tables wait this long
    /// before another node may take them.
    pub lease_ttl: Duration,
}

impl ClusterConfig {
    /// Joining the NATS server at `nats_url` as `node`, or as a node with a fresh random id.
    pub fn new(nats_url: impl Into<String>, node: Option<String>) -> ClusterConfig {
        let node = node.unwrap_or_else(|| format!("node-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]));
        ClusterConfig { nats_url: nats_url.into(), name: "romirami".into(), node, lease_ttl: Duration::from_secs(5) }
    }
}
