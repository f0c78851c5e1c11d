//! The deal that the players help make (`romirami_game::commitment`): when the game starts, the table
//! draws its seed and salt and tells every member their commitment, then waits a few seconds for each
//! seat's contribution (`contribute`), drawing one itself for a bot's seat at once and for a seat that
//! sends none in time. With every seat's contribution in, the game's seed is derived from them, the start
//! is stored and the game dealt. Meanwhile the seats cannot change (`already_started`, as in play), and a
//! player who leaves keeps their seat, which the bot plays once the game is on.

use tokio::time::Instant;

use romirami_game::commitment::{Contribution, Salt, ShuffleProof};
use tracing::info;

use super::{Durable, Now, Pending, Role, TableCore};
use crate::protocol::{ContributionFrom, Contributions, ErrorCode, PlayerId, PlayerInfo};
use crate::store::GamePlayer;
use crate::table::handle::Sender;

/// A start that gathers the seats' contributions.
#[derive(Debug)]
pub(super) struct Dealing {
    /// The seed the server drew, committed to with `salt`.
    server_seed: u64,
    salt: Salt,
    /// Each seat's contribution as it came, in the game's seat order.
    seats: Vec<Option<(Contribution, ContributionFrom)>>,
    /// When the server draws the missing ones.
    due: Instant,
    /// Who asked for the start (the host, or whoever took the last seat): told if it cannot be stored.
    from: Option<Sender>,
    /// The instant of the last step that changed it: `remaining_ms` is counted from there.
    as_of: Instant,
    /// Seated players who left the table meanwhile: the bot plays their seats once the game is on.
    pub(super) left: Vec<PlayerId>,
}

impl Dealing {
    /// The commitment every member is told while the table waits for contributions.
    pub(super) fn commitment(&self) -> String {
        ShuffleProof::new(self.server_seed, self.salt).commitment().to_hex()
    }

    /// When the table stops waiting.
    pub(super) fn due(&self) -> Instant {
        self.due
    }

    /// Who gave each seat's contribution so far, and how long the table still waits.
    pub(super) fn contributions(&self) -> Contributions {
        let seats: Vec<_> =
            self.seats.iter().map(|seat| seat.map_or(ContributionFrom::Waiting, |(_, by)| by)).collect();
        let waiting = seats.contains(&ContributionFrom::Waiting);
        Contributions {
            seats,
            remaining_ms: waiting
                .then(|| u64::try_from(self.due.saturating_duration_since(self.as_of).as_millis()).unwrap_or(u64::MAX)),
        }
    }
}

impl TableCore {
    /// The game starts: the seating closes up (the players take the first seats, in order), the server
    /// draws its seed and salt, and the table gathers the seats' contributions. A duplicate tournament's
    /// round deals the same cards at every table, from the round's deal: its players contributed to it
    /// before its tables opened (`romirami_tournament::Director::contribute`), none is gathered here.
    pub(super) fn begin_dealing(&mut self, from: Option<Sender>, server_seed: u64, salt: Salt, now: Now) {
        self.close_up_seats();
        // With no wait (a server so configured), the server draws every seat's at once.
        let draw_all = self.config.contribution_wait.is_zero();
        let seats = self
            .seating
            .occupants()
            .map(|(_, o)| {
                let server = draw_all || o.control.is_hosts_bot();
                server.then(|| (self.entropy.contribution(), ContributionFrom::Server))
            })
            .collect();
        let due = now.at + self.config.contribution_wait;
        self.dealing = Some(Box::new(Dealing { server_seed, salt, seats, due, from, as_of: now.at, left: Vec::new() }));
        self.deal_when_ready(now);
    }

    /// `from` sends their seat's contribution.
    pub(super) fn contribute(&mut self, from: &Sender, value: Contribution, now: Now) {
        let Some(Role::Seat(seat)) = self.role_of(from.conn) else {
            return self.error(from, ErrorCode::NotSeated, "only the table's players contribute to its deal");
        };
        let Some(dealing) = self.dealing.as_mut() else {
            return self.error(from, ErrorCode::NotDealing, "the table is not gathering contributions now");
        };
        match dealing.seats.get_mut(seat.index()) {
            Some(slot @ None) => *slot = Some((value, ContributionFrom::Player)),
            _ => {
                return self.error(from, ErrorCode::AlreadyContributed, "your seat's contribution is in already");
            }
        }
        self.deal_when_ready(now);
    }

    /// At the deadline: the server draws the contributions still missing.
    pub(super) fn dealing_timer(&mut self, now: Now) {
        let Some(dealing) = self.dealing.as_mut() else { return };
        if dealing.due > now.at {
            return;
        }
        let mut drawn = 0;
        for slot in dealing.seats.iter_mut().filter(|slot| slot.is_none()) {
            *slot = Some((self.entropy.contribution(), ContributionFrom::Server));
            drawn += 1;
        }
        info!(table = %self.id, drawn, "seats sent no contribution in time: the server drew theirs");
        self.deal_when_ready(now);
    }

    /// With every contribution in, stores the start (and deals once it is stored); else tells the members
    /// where the contributions stand.
    fn deal_when_ready(&mut self, now: Now) {
        if let Some(dealing) = self.dealing.as_mut() {
            dealing.as_of = now.at;
        }
        let ready = self.dealing.as_ref().is_some_and(|d| d.seats.iter().all(Option::is_some));
        if !ready {
            self.send_tables();
            self.publish();
            return;
        }
        let Some(dealing) = self.dealing.as_ref() else { return };
        let contributions = dealing.seats.iter().flatten().map(|(value, _)| *value).collect();
        let shuffle = ShuffleProof::contributed(dealing.server_seed, dealing.salt, contributions);
        let from = dealing.from.clone();
        self.store_start(from, shuffle, now);
    }

    /// Stores the game's start with `shuffle`; [`TableCore::start_stored`] deals once it is stored.
    pub(super) fn store_start(&mut self, from: Option<Sender>, shuffle: ShuffleProof, now: Now) {
        let players = self
            .seating
            .occupants()
            .map(|(seat, o)| GamePlayer {
                seat,
                id: o.player.id,
                name: o.player.name.clone(),
                bot: o.control.is_hosts_bot(),
            })
            .collect();
        let started_at = now.wall;
        self.write(
            Durable::Start { shuffle: shuffle.clone(), players, started_at },
            Pending::Start { from, shuffle, started_at },
        );
    }

    /// A seated player left while the table dealt: the seat stays theirs, and the bot plays it once the
    /// game is on (as when a player leaves a game in play).
    pub(super) fn left_while_dealing(&mut self, player: &PlayerInfo) {
        if let Some(dealing) = self.dealing.as_mut() {
            dealing.left.push(player.id);
        }
    }
}
