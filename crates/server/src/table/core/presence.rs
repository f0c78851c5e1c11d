//! Presence: where each seat's player is (connected, away, or replaced by the bot), shown in the
//! table's summary and, when it changes during the game, told to the members with the reason, so that
//! their game log says who left, ran out of time, lost their connection or came back.

use romirami_game::Seat;

use super::{Control, TableCore};
use crate::protocol::{Presence, PresenceChange, Role, TableState};
use crate::table::outbox::ConnId;
use crate::wire::ServerMsg;

impl TableCore {
    /// Where the player of `seat` is; `None` for a free seat.
    pub(super) fn presence_of(&self, seat: Seat) -> Option<Presence> {
        match self.seating.control(seat)? {
            Control::Bot(_) | Control::Stand { back: false, .. } => Some(Presence::Bot),
            Control::Player | Control::Stand { back: true, .. } => {
                Some(if self.members.has_role(Role::Seat(seat)) { Presence::Here } else { Presence::Away })
            }
        }
    }

    /// Every seat's presence, for the summary.
    pub(super) fn presences(&self) -> Vec<Option<Presence>> {
        (0..self.seating.len()).map(|i| self.presence_of(Seat(i as u8))).collect()
    }

    /// Tells the members that the player of `seat` is somewhere else than they were last told, and
    /// why; only during the game (before it the seats panel is sent whole, after it nobody's absence
    /// matters). `except` is a connection that was just brought up to date and knows already.
    pub(super) fn presence_changed(&mut self, seat: Seat, change: PresenceChange, except: Option<ConnId>) {
        if self.state() != TableState::Playing {
            return;
        }
        let presence = self.presence_of(seat);
        let Some(told) = self.told_presence.get_mut(seat.index()) else { return };
        if presence == *told {
            return;
        }
        *told = presence;
        let Some(presence) = presence else { return };
        // A rematch's player taking their seat for the first time has not come back: nobody left.
        if let Some(arriving) = self.arriving.get_mut(seat.index()) {
            let first_arrival = std::mem::take(arriving) && presence == Presence::Here;
            if first_arrival && change == PresenceChange::Back {
                return;
            }
        }
        tracing::debug!(table = %self.id, %seat, ?presence, ?change, "presence changed");
        let msg = ServerMsg::Presence { table: self.id, seat, presence, change };
        self.members.send_all_but(except, &msg);
    }

    /// After every step: a connection can also go without a word (its outbox was closed or full when
    /// the table wrote to it), so every seat whose presence is not what the members were told is told
    /// now, as the connection that went (or came).
    pub(super) fn sweep_presence(&mut self) {
        if self.state() != TableState::Playing {
            return;
        }
        for index in 0..self.seating.len() {
            let seat = Seat(index as u8);
            let change = match self.presence_of(seat) {
                Some(Presence::Away) => PresenceChange::Disconnected,
                Some(Presence::Here) => PresenceChange::Back,
                Some(Presence::Bot) => PresenceChange::Left,
                None => continue,
            };
            self.presence_changed(seat, change, None);
        }
    }

    /// Pushes `kind` to the players of `seats` who are not at the table (their own player plays them, and
    /// no connection of theirs is here): whoever is here sees it already.
    pub(super) fn notify_absent(&mut self, seats: impl IntoIterator<Item = Seat>, kind: crate::push::NoticeKind) {
        let absent: Vec<Seat> = seats.into_iter().filter(|seat| !self.members.has_role(Role::Seat(*seat))).collect();
        self.notify_players(absent, kind);
    }

    /// Pushes `kind` to the players of `seats` whose own player plays them (not a bot, nor the bot standing in).
    pub(super) fn notify_players(&mut self, seats: impl IntoIterator<Item = Seat>, kind: crate::push::NoticeKind) {
        let players: Vec<_> = seats
            .into_iter()
            .filter(|seat| self.seating.is_played_by_player(*seat))
            .filter_map(|seat| self.seating.get(seat).map(|occupant| occupant.player.id))
            .collect();
        if !players.is_empty() {
            let notice = crate::push::Notice { players, kind, table: self.id, game: self.kind.name().to_owned() };
            self.effects.push(super::Effect::Notify(notice));
        }
    }

    /// What the members know from now on (the start of a game, or a game restored): every seat as it is.
    pub(super) fn reset_presence(&mut self) {
        self.told_presence = self.presences();
    }
}
