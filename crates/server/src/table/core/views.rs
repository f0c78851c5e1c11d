//! What the members are told: the table, the events, whose turn it is, the clocks. Every game payload
//! comes from the engine filtered for the recipient's role (§6), serialized once per role.

use romirami_game::{AnyGame, Seat, Viewer};

use super::{Now, Phase, TableCore};
use crate::protocol::{ErrorCode, NumberedEvent, Role, TableState};
use crate::table::clock::millis;
use crate::table::handle::Sender;
use crate::table::outbox::ConnId;
use crate::wire::ServerMsg;

fn viewer(role: Role) -> Viewer {
    match role {
        Role::Seat(seat) => Viewer::Seat(seat),
        Role::Spectator => Viewer::Spectator,
    }
}

impl TableCore {
    fn table_msg(&self, role: Role) -> ServerMsg {
        ServerMsg::Table { table: self.summary(), role, view: self.game().map(|game| game.view(viewer(role))) }
    }

    /// Sends every member the full table, built and serialized once per role.
    pub(super) fn send_tables(&mut self) {
        let table = self.summary();
        let game = match &self.phase {
            Phase::Playing(play) | Phase::Finished(play) => Some(&play.game),
            Phase::Waiting => None,
        };
        self.members.send_by_role(|role| {
            Some(ServerMsg::Table { table: table.clone(), role, view: game.map(|game| game.view(viewer(role))) })
        });
    }

    /// Brings one member up to date: the events after `since` when there are few enough, otherwise the
    /// full table; then the clocks and, for the seat to act, its turn.
    pub(super) fn catch_up(&mut self, conn: ConnId, since: Option<usize>, now: Now) {
        let Some(role) = self.role_of(conn) else { return };
        let mut messages = match (self.game(), since) {
            (Some(game), Some(since))
                if since <= game.event_count() && game.event_count() - since <= self.config.catch_up_limit =>
            {
                let caught_up =
                    ServerMsg::Events { table: self.id, events: events(game, viewer(role), since, usize::MAX) };
                // A game whose events do not carry its view: the view as it now stands follows them.
                let view = (!game.events_carry_view())
                    .then(|| ServerMsg::View { table: self.id, view: game.view(viewer(role)) });
                // A member back after the end (its connection broke, or the table moved, as the game ended)
                // missed `game_over`, which the events do not carry: it has it again. A full `table` shows
                // the result in its view already.
                let result = matches!(self.phase, Phase::Finished(_)).then(|| game.result()).flatten();
                let over = result.map(|result| ServerMsg::GameOver { table: self.id, result });
                std::iter::once(caught_up).chain(over).chain(view).collect()
            }
            _ => vec![self.table_msg(role)],
        };
        messages.extend(self.clocks_msg(now));
        messages.extend(self.choice_msg(now));
        if let Role::Seat(seat) = role {
            messages.extend(self.turn_msg().filter(|(to_act, _)| *to_act == seat).map(|(_, msg)| msg));
        }
        messages.extend(self.chat_history_msg(conn));
        messages.extend(self.rematch_msg(now));
        self.members.send_to(conn, &messages);
    }

    /// Answers a member's `history`: at most the catch-up limit of events from `from` on, filtered for the
    /// member's role, so that a log longer than one catch-up can be rebuilt page by page.
    pub(super) fn history(&mut self, from: &Sender, first: usize) {
        let Some(role) = self.role_of(from.conn) else {
            return self.error(from, ErrorCode::NotSeated, "you are not at this table");
        };
        let Some(game) = self.game() else {
            return self.error(from, ErrorCode::NotStarted, "the game has not started");
        };
        // Built only as far as it is sent: a `history` from 0 on a long game costs what it returns.
        let events = events(game, viewer(role), first.min(game.event_count()), self.config.catch_up_limit);
        self.members.send_to(from.conn, &[ServerMsg::History { table: self.id, events }]);
    }

    /// The table moved to another node (this node lost its lease): every member is told to join it again,
    /// wherever it runs now, and the table closes here.
    pub(super) fn lease_lost(&mut self) {
        let moved = ServerMsg::error(
            Some(self.id),
            None,
            ErrorCode::TableMoved,
            "this table moved to another server of the site; join it again to carry on",
        );
        self.members.send_all(&moved);
        if !self.closed {
            self.close();
        }
    }

    /// The `your_turn` of the seat to act, when its player plays it.
    fn turn_msg(&self) -> Option<(Seat, ServerMsg)> {
        let Phase::Playing(play) = &self.phase else { return None };
        let seat = play.game.to_act()?;
        self.seating
            .is_played_by_player(seat)
            .then(|| (seat, ServerMsg::YourTurn { table: self.id, legal: play.game.legal(seat) }))
    }

    /// Tells the seat to act what it may do, on each of its connections.
    pub(super) fn send_turn(&mut self) {
        if let Some((seat, msg)) = self.turn_msg() {
            self.members.send_to_role(Role::Seat(seat), &msg);
        }
    }

    /// Tells every member the clocks, if the table has them.
    pub(super) fn send_clocks(&mut self, now: Now) {
        if let Some(msg) = self.clocks_msg(now) {
            self.members.send_all(&msg);
        }
    }

    /// Tells every member that a choice is asked and how long it has, if one is open.
    pub(super) fn send_choice(&mut self, now: Now) {
        if let Some(msg) = self.choice_msg(now) {
            self.members.send_all(&msg);
        }
    }

    fn choice_msg(&self, now: Now) -> Option<ServerMsg> {
        let Phase::Playing(play) = &self.phase else { return None };
        let (seat, due) = (play.to_act?, play.choice_due?);
        let left_ms = millis(due.saturating_duration_since(now.at));
        Some(ServerMsg::Choice { table: self.id, seat, left_ms })
    }

    fn clocks_msg(&self, now: Now) -> Option<ServerMsg> {
        let Phase::Playing(play) = &self.phase else { return None };
        let clock = play.clock.as_ref()?;
        let (to_act, turn_ms, reserves_ms) = clock.snapshot(now.at);
        Some(ServerMsg::Clocks { table: self.id, to_act, turn_ms, reserves_ms })
    }

    /// Sends every member the events from `first` on, filtered and serialized once per role.
    pub(super) fn broadcast_events(&mut self, first: usize) {
        let (id, game) = match &self.phase {
            Phase::Playing(play) | Phase::Finished(play) => (self.id, &play.game),
            Phase::Waiting => return,
        };
        debug_assert!(self.state() != TableState::Waiting);
        self.members.send_by_role(|role| {
            Some(ServerMsg::Events { table: id, events: events(&**game, viewer(role), first, usize::MAX) })
        });
        // A game whose events do not carry its view: the view follows them, so that nobody asks for it
        // (once the game is over, after `game_over`: see `send_views`).
        if !game.is_over() {
            self.send_views();
        }
    }

    /// Sends every member the game's view, built and serialized once per role, when the game's events do
    /// not carry it (after each batch of events; at the end, after `game_over`, since a finished game's
    /// view reveals what was hidden).
    pub(super) fn send_views(&mut self) {
        let (id, game) = match &self.phase {
            Phase::Playing(play) | Phase::Finished(play) => (self.id, &play.game),
            Phase::Waiting => return,
        };
        if !game.events_carry_view() {
            self.members.send_by_role(|role| Some(ServerMsg::View { table: id, view: game.view(viewer(role)) }));
        }
    }
}

fn events(game: &dyn AnyGame, viewer: Viewer, since: usize, limit: usize) -> Vec<NumberedEvent<romirami_game::Json>> {
    game.events_for(viewer, since, limit).into_iter().map(|(n, event)| NumberedEvent { n, event }).collect()
}
