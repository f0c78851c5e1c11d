//! The server's settings and limits. Every limit a client can run into is here, with its default.

use std::path::PathBuf;
use std::time::Duration;

/// How the server runs and what it allows each client.
#[derive(Clone, Debug)]
pub struct Config {
    /// The largest WebSocket message (and frame) a client may send, in bytes.
    pub max_message_bytes: usize,
    /// Messages a connection may send per second, on average.
    pub messages_per_second: f64,
    /// Messages a connection may send in a burst above the average.
    pub message_burst: f64,
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
    /// Origins (`scheme://host[:port]`) allowed to open a WebSocket besides the server's own; `*` allows
    /// every origin. Clients that send no `Origin` (programs, not browsers) are always allowed.
    pub allowed_origins: Vec<String>,
    /// Tables a player may host at once (waiting or playing).
    pub max_open_tables_per_player: usize,
    /// A reconnecting client that missed more events than this gets a fresh view instead.
    pub catch_up_limit: usize,
    /// How long a finished table nobody is looking at stays viewable.
    pub finished_table_ttl: Duration,
    /// How long a table that waits for its game stays open while none of its seated players is
    /// connected (its host went away without leaving, say); then it closes and leaves the lobby.
    pub waiting_table_grace: Duration,
    /// Commands waiting for one table's task.
    pub table_queue: usize,
    /// How long the server's bot waits before each of its moves, so that people can follow them.
    pub bot_delay: Duration,
    /// How long the bot waits before trying again when its move could not be stored.
    pub bot_retry: Duration,
    /// How long a game in play waits for a player to connect when none is connected; then it ends as
    /// abandoned.
    pub abandon_after: Duration,
    /// Actions waiting for the group commit; a table waits for room beyond it.
    pub commit_queue: usize,
    /// The most actions written in one transaction.
    pub commit_batch: usize,
    /// Other writes (guests, tables, seats, starts and finishes of games) waiting for their group
    /// commit; a caller waits for room beyond it.
    pub write_queue: usize,
    /// The most of those other writes in one transaction.
    pub write_batch: usize,
    /// The folder of the web client, whose own files (`index.html`, also at `/`, `style.css` and `js/`)
    /// are served; nothing else in it is. `None` serves no pages (the API and the WebSocket still work).
    pub web_dir: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_message_bytes: 4096,
            messages_per_second: 20.0,
            message_burst: 40.0,
            max_strikes: 20.0,
            strike_decay: Duration::from_secs(3),
            outgoing_queue: 256,
            read_buffer_bytes: 256,
            ping_interval: Duration::from_secs(15),
            idle_timeout: Duration::from_secs(45),
            write_timeout: Duration::from_secs(10),
            allowed_origins: Vec::new(),
            max_open_tables_per_player: 5,
            catch_up_limit: 500,
            finished_table_ttl: Duration::from_secs(30 * 60),
            waiting_table_grace: Duration::from_secs(60),
            table_queue: 1024,
            bot_delay: Duration::from_millis(700),
            bot_retry: Duration::from_secs(1),
            abandon_after: Duration::from_secs(10 * 60),
            commit_queue: 65_536,
            commit_batch: 1024,
            write_queue: 65_536,
            write_batch: 256,
            web_dir: None,
        }
    }
}

/// Where the web client is: `web/` in the working directory when there is one (running from a checkout
/// or the container), else the `web/` folder of the source tree this binary was built from.
pub fn default_web_dir() -> Option<PathBuf> {
    let candidates = [PathBuf::from("web"), PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web"))];
    candidates.into_iter().find(|dir| dir.join("index.html").is_file())
}
