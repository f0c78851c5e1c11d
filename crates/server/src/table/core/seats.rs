//! Seating: joining, watching, leaving, the host's kicks and bots, and the start of the game.

use romirami_game::commitment::ShuffleProof;
use romirami_game::{Level, Seat};
use time::OffsetDateTime;
use tracing::{debug, info, warn};

use super::{Control, Durable, Effect, Now, Occupant, Pending, Phase, Play, TableCore, UNAVAILABLE};
use crate::protocol::{ErrorCode, PlayerId, PresenceChange, Role, SpectatorPolicy, TableState};
use crate::store::StoreError;
use crate::table::clock::TurnClock;
use crate::table::handle::Sender;
use crate::table::members::Member;
use crate::table::outbox::ConnId;
use crate::wire::ServerMsg;

impl TableCore {
    pub(super) fn join(&mut self, from: Sender, invite: Option<&str>, since: Option<usize>, now: Now) {
        if let Some(seat) = self.seating.seat_of(from.player.id) {
            return self.seated(from, seat, since, now);
        }
        if !self.options.public && invite != Some(self.invite.as_str()) {
            // A private table does not admit to existing without its link.
            return self.error(&from, ErrorCode::NoSuchTable, "there is no such table");
        }
        if !self.seats_open() {
            return self.error(&from, ErrorCode::AlreadyStarted, "the game has started; you can watch it");
        }
        let Some(free) = self.seating.first_free() else {
            return self.error(&from, ErrorCode::TableFull, "every seat is taken");
        };
        self.seating.sit(free, Occupant { player: from.player.clone(), control: Control::Player });
        let seats = self.stored_seats();
        self.write(Durable::Seats(seats), Pending::Seat { from, seat: free, since });
    }

    pub(super) fn seat_stored(
        &mut self,
        from: Sender,
        seat: Seat,
        since: Option<usize>,
        outcome: Result<(), StoreError>,
        now: Now,
    ) {
        match outcome {
            Ok(()) => self.seated(from, seat, since, now),
            Err(error) => {
                warn!(table = %self.id, %error, "a seat could not be stored");
                self.seating.free(seat);
                self.error(&from, ErrorCode::Unavailable, UNAVAILABLE);
            }
        }
    }

    /// `from` has its seat: it becomes a member, and the game starts when the table is full.
    fn seated(&mut self, from: Sender, seat: Seat, since: Option<usize>, now: Now) {
        if let Some(came) = self.came.get_mut(seat.index()) {
            *came = true;
        }
        if self.state() == TableState::Playing {
            // Before the newcomer is a member: it catches up below, the others learn who plays the seat.
            self.come_back(seat);
        }
        let conn = from.conn;
        self.members
            .insert(conn, Member { player: from.player.clone(), role: Role::Seat(seat), out: from.out.clone() });
        if self.dealing.is_some() {
            // Back at their seat while the deal is made: they see where it stands, and may contribute.
            self.send_tables();
        } else if self.state() == TableState::Waiting {
            self.check_waiting(now);
            if self.seating.is_full() {
                self.begin_game(Some(from), now);
            } else {
                self.send_tables();
                self.publish();
            }
        } else {
            self.catch_up(conn, since, now);
            self.presence_changed(seat, PresenceChange::Back, Some(conn));
        }
    }

    pub(super) fn watch(&mut self, from: Sender, invite: Option<&str>, since: Option<usize>, now: Now) {
        if self.seating.seat_of(from.player.id).is_some() {
            // A player watching their own table is back at their seat: they keep playing it.
            return self.join(from, invite, since, now);
        }
        let has_link = invite == Some(self.invite.as_str());
        // A tournament's tables are not listed, but anyone may watch them from the tournament's page.
        if !self.options.public && !has_link && self.options.tournament.is_none() {
            return self.error(&from, ErrorCode::NoSuchTable, "there is no such table");
        }
        let allowed = match self.options.spectators {
            SpectatorPolicy::Everyone => true,
            SpectatorPolicy::Link => has_link,
            SpectatorPolicy::Nobody => false,
        };
        if !allowed {
            return self.error(&from, ErrorCode::SpectatingNotAllowed, "this table does not let you watch");
        }
        self.members.insert(from.conn, Member { player: from.player, role: Role::Spectator, out: from.out });
        self.catch_up(from.conn, since, now);
        self.publish();
    }

    pub(super) fn leave(&mut self, from: &Sender, now: Now) {
        let Some(member) = self.members.remove(from.conn) else {
            return self.error(from, ErrorCode::NotSeated, "you are not at this table");
        };
        let mut freed = false;
        match (member.role, self.state()) {
            (Role::Seat(_), TableState::Waiting) if self.dealing.is_some() => self.left_while_dealing(&member.player),
            (Role::Seat(seat), TableState::Waiting) => {
                self.free_seat(seat);
                freed = true;
            }
            (Role::Seat(seat), TableState::Playing) if self.turn_based() => {
                // A turn-based game is played over days: leaving is going away for now. The seat stays its
                // player's, who plays their turns whenever they come back (their clock decides when the bot
                // stands in), and the table may sleep meanwhile.
                self.member_gone(Role::Seat(seat), now);
            }
            (Role::Seat(seat), TableState::Playing) => {
                info!(table = %self.id, %seat, "a player left: the bot plays the seat");
                self.stand_in(seat, true, now);
                self.presence_changed(seat, PresenceChange::Left, None);
            }
            _ => {}
        }
        from.out.send_msg(&ServerMsg::Left { table: self.id });
        self.send_tables();
        self.publish();
        if freed {
            self.after_seat_freed(now);
        }
    }

    /// The connection closed: it is no longer a member (a seat stays its player's).
    pub(super) fn detach(&mut self, conn: ConnId, now: Now) {
        if let Some(member) = self.members.remove(conn) {
            self.member_gone(member.role, now);
        }
    }

    /// What a member's going changes, whether its connection said so ([`Self::detach`]) or the table
    /// dropped it for a full or closed outbox ([`Self::drop_members`]): a waiting table's grace starts
    /// when no seated player is left; a game schedules its abandonment when no player is connected.
    fn member_gone(&mut self, role: Role, now: Now) {
        match role {
            Role::Spectator => self.publish(),
            Role::Seat(_) if self.state() == TableState::Waiting => self.check_waiting(now),
            Role::Seat(seat) => {
                self.presence_changed(seat, PresenceChange::Disconnected, None);
                self.check_presence(now);
            }
        }
    }

    /// After every step: the members dropped while sending, each gone as on a detach. Not while a
    /// write is awaited (an abandonment would ask for a second one): they wait for the step that
    /// brings its outcome.
    pub(super) fn drop_members(&mut self, now: Now) {
        if self.pending.is_some() {
            return;
        }
        // What they are told of a going can drop more members: until none is left.
        loop {
            let dropped = self.members.take_dropped();
            if dropped.is_empty() {
                return;
            }
            for member in dropped {
                self.member_gone(member.role, now);
            }
        }
    }

    /// Frees a seat before the start, with every connection of its player; hands the table to another
    /// seated player when the host goes.
    fn free_seat(&mut self, seat: Seat) {
        let Some(occupant) = self.seating.free(seat) else { return };
        for out in self.members.remove_player(&occupant.player) {
            out.send_msg(&ServerMsg::Left { table: self.id });
        }
        if occupant.player.id == self.host {
            if let Some(next) = self.seating.first_person().map(|p| p.id) {
                self.lobby.release_hosting(self.host);
                self.host = next;
                // The new host's count may go over the cap by this one table; it is theirs by chance.
                self.lobby.reserve_hosting(self.host, usize::MAX);
            }
        }
    }

    /// After a seat was freed before the start: the table closes when no person is seated, and the
    /// freed seat is stored either way (its failure is only logged: the seat is free regardless).
    fn after_seat_freed(&mut self, now: Now) {
        if self.seating.people() == 0 {
            debug!(table = %self.id, "no player is seated before the start: closing");
            return self.close_waiting();
        }
        self.check_waiting(now);
        let seats = self.stored_seats();
        self.write(Durable::Seats(seats), Pending::Logged);
    }

    /// Closes a waiting table: its seats are freed in the store, so that a restart does not bring it
    /// back.
    pub(super) fn close_waiting(&mut self) {
        let empty = vec![None; self.seating.len()];
        for out in (0..self.seating.len()).filter_map(|i| self.seating.free(Seat(i as u8))) {
            self.members.remove_player(&out.player);
        }
        self.effects.push(Effect::Write(Durable::Seats(empty)));
        self.pending = Some(Pending::Logged);
        self.close();
    }

    /// Keeps the waiting table's grace: while no seated person is connected, it closes after
    /// [`TableConfig::waiting_table_grace`](super::TableConfig::waiting_table_grace).
    pub(super) fn check_waiting(&mut self, now: Now) {
        let anyone_here = self.seating.person_seats().any(|seat| self.members.has_role(Role::Seat(seat)));
        // A turn-based table waits for its players as long as they take: it sleeps meanwhile.
        if anyone_here || self.turn_based() {
            self.waiting_due = None;
        } else {
            self.waiting_due.get_or_insert(now.at + self.config.waiting_table_grace);
        }
    }

    pub(super) fn kick(&mut self, from: &Sender, seat: Seat, now: Now) {
        if from.player.id != self.host {
            return self.error(from, ErrorCode::NotHost, "only the host can remove a player");
        }
        if !self.seats_open() {
            return self.error(from, ErrorCode::AlreadyStarted, "players cannot be removed once the game has started");
        }
        match self.seating.get(seat) {
            Some(occupant) if occupant.player.id != self.host => {}
            Some(_) => return self.error(from, ErrorCode::BadOptions, "the host cannot remove themselves"),
            None => return self.error(from, ErrorCode::NotSeated, format!("{seat} is empty")),
        }
        self.free_seat(seat);
        self.send_tables();
        self.publish();
        self.after_seat_freed(now);
    }

    /// The host gives the first free seat to a bot of `level`: the level's player ([`crate::bots`]).
    pub(super) fn add_bot(&mut self, from: Sender, level: Level) {
        if from.player.id != self.host {
            return self.error(&from, ErrorCode::NotHost, "only the host can add a bot");
        }
        if !self.seats_open() {
            return self.error(&from, ErrorCode::AlreadyStarted, "bots can only be added before the start");
        }
        let Some(free) = self.seating.first_free() else {
            return self.error(&from, ErrorCode::TableFull, "every seat is taken");
        };
        self.seating.sit(free, Occupant { player: crate::bots::player(level), control: Control::Bot(level) });
        let seats = self.stored_seats();
        self.write(Durable::Seats(seats), Pending::Bot { from, seat: free });
    }

    pub(super) fn bot_stored(&mut self, from: Sender, seat: Seat, outcome: Result<(), StoreError>, now: Now) {
        if let Err(error) = outcome {
            warn!(table = %self.id, %error, "a bot could not be stored");
            self.seating.free(seat);
            return self.error(&from, ErrorCode::Unavailable, UNAVAILABLE);
        }
        if self.seating.is_full() {
            self.begin_game(Some(from), now);
        } else {
            self.send_tables();
            self.publish();
        }
    }

    pub(super) fn start(&mut self, from: Sender, now: Now) {
        if from.player.id != self.host {
            return self.error(&from, ErrorCode::NotHost, "only the host can start the game");
        }
        if !self.seats_open() {
            return self.error(&from, ErrorCode::AlreadyStarted, "the game has already started");
        }
        if self.seating.taken() < 2 {
            return self.error(&from, ErrorCode::NotEnoughPlayers, "a game needs at least 2 players");
        }
        self.begin_game(Some(from), now);
    }

    /// The game starts: a fresh seed and salt, committed to at once, and the seats' contributions to the
    /// deal gathered ([`TableCore::begin_dealing`]); a duplicate tournament's round deals its own deal,
    /// made from the contributions of every player of the round before its tables opened.
    pub(super) fn begin_game(&mut self, from: Option<Sender>, now: Now) {
        match &self.deal {
            Some(deal) => {
                let proof = deal.proof();
                self.close_up_seats();
                self.store_start(from, proof, now);
            }
            None => {
                let (seed, salt) = (self.entropy.seed(), self.entropy.salt());
                self.begin_dealing(from, seed, salt, now);
            }
        }
    }

    /// The players take the first seats, in order, as the game seats them; members' seat numbers follow.
    pub(super) fn close_up_seats(&mut self) {
        self.seating = self.seating.closed_up();
        let seating = &self.seating;
        self.members.remap_roles(|member| match member.role {
            Role::Seat(_) => seating.seat_of(member.player.id).map_or(Role::Spectator, Role::Seat),
            Role::Spectator => Role::Spectator,
        });
    }

    /// Deals the game once its start is stored; when it cannot be, the table keeps waiting and `from`
    /// is told.
    pub(super) fn start_stored(
        &mut self,
        from: Option<Sender>,
        shuffle: ShuffleProof,
        started_at: OffsetDateTime,
        outcome: Result<(), StoreError>,
        now: Now,
    ) {
        let dealing = self.dealing.take();
        if let Err(error) = outcome {
            warn!(table = %self.id, %error, "a game could not be stored at its start");
            self.send_tables();
            self.publish();
            if let Some(from) = &from {
                self.error(from, ErrorCode::Unavailable, UNAVAILABLE);
            }
            return;
        }
        self.close_up_seats();
        let seats = self.seating.len();
        let game = match self.kind.new_game(seats, shuffle.seed(), &self.game_options) {
            Ok(game) => game,
            Err(error) => {
                // The seats are 2 to 4 (checked at the table's creation and at the start).
                tracing::error!(table = %self.id, %error, "a game could not be dealt");
                if let Some(from) = &from {
                    self.error(from, ErrorCode::Internal, "the game could not be dealt");
                }
                return;
            }
        };
        let clock = self.options.clock.map(|clock| TurnClock::new(clock, vec![None; seats]));
        let round = game.round();
        let play = Play {
            game,
            clock,
            to_act: None,
            turn_ends_at: None,
            bot_due: None,
            thinking: false,
            choice_due: None,
            abandon_due: None,
            actions: 0,
            round,
            pause_until: None,
            started_at,
            contributed: dealing.as_ref().map(|dealing| dealing.contributions().seats),
            shuffle: Some(shuffle),
        };
        crate::metrics::table_state(Some(TableState::Waiting), Some(TableState::Playing));
        self.phase = Phase::Playing(Box::new(play));
        self.reset_presence();
        self.waiting_due = None;
        info!(table = %self.id, players = seats, "game started");
        self.turn_changed(now);
        self.send_tables();
        self.send_clocks(now);
        self.send_turn();
        self.publish();
        // Players who left while the deal was made: the bot plays their seats, as if they left now.
        for player in dealing.map(|dealing| dealing.left).unwrap_or_default() {
            if let Some(seat) = self.seating.seat_of(player) {
                self.stand_in(seat, true, now);
                self.presence_changed(seat, PresenceChange::Left, None);
            }
        }
        // A rematch's table starts before its players arrive: the abandonment grace runs until they do.
        self.check_presence(now);
    }

    /// Who sits where, as stored while the table waits.
    fn stored_seats(&self) -> Vec<Option<(PlayerId, bool)>> {
        (0..self.seating.len())
            .map(|i| self.seating.get(Seat(i as u8)).map(|o| (o.player.id, o.control.is_hosts_bot())))
            .collect()
    }
}
