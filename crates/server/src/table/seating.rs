//! Who sits where at a table, and who plays each seat: the one place that knows both.
//!
//! Before the start a table has the seats its host asked for, each free or taken by a person or by a
//! bot the host added. At the start the taken seats close ranks in order and become the game's seats
//! 0 to n-1; from then on each seat's player stays, and only who *controls* the seat changes (the
//! server's bot stands in for a player who ran out of time or left, until they come back).

use romirami_engine::Seat;
use romirami_game::Level;

use crate::protocol::{PlayerId, PlayerInfo};

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Control {
    /// Its player, a person.
    Player,
    /// The server's bot of this level, for good: the host gave the seat to it.
    Bot(Level),
    /// The server's bot, while its player is out of time or gone; `back` once the player has come
    /// back, so that they get the seat at the start of their next turn.
    Stand {
        /// Whether the player is back and waits for their next turn.
        back: bool,
        /// Whether the player left the table (rather than ran out of time, or lost their connection):
        /// when every player has left, the game ends at once; players who are only away have
        /// [`TableConfig::abandon_after`](super::core::TableConfig::abandon_after) to come back.
        left: bool,
    },
}

impl Control {
    /// Whether the seat is a bot's for good (the host gave it to one), rather than a person's.
    pub(crate) fn is_hosts_bot(self) -> bool {
        matches!(self, Control::Bot(_))
    }

    /// The level of the host's bot that plays the seat, if it is one's.
    pub(crate) fn level(self) -> Option<Level> {
        match self {
            Control::Bot(level) => Some(level),
            Control::Player | Control::Stand { .. } => None,
        }
    }

    /// The level the server's bot plays the seat at, when it does: the host's bot's own, `normal` for a
    /// stand-in.
    pub(crate) fn playing_level(self) -> Level {
        self.level().unwrap_or(Level::Normal)
    }
}

/// A taken seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Occupant {
    pub(crate) player: PlayerInfo,
    pub(crate) control: Control,
}

/// Every seat of a table, free or taken.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seating {
    seats: Vec<Option<Occupant>>,
}

impl Seating {
    /// `count` free seats.
    pub(crate) fn empty(count: u8) -> Seating {
        Seating { seats: vec![None; usize::from(count)] }
    }

    /// Seats taken in order, as a game in play (or a stored waiting table) has them.
    pub(crate) fn from_occupants(seats: Vec<Option<Occupant>>) -> Seating {
        Seating { seats }
    }

    /// How many seats, free or taken.
    pub(crate) fn len(&self) -> usize {
        self.seats.len()
    }

    /// The occupant of `seat`, if it is taken.
    pub(crate) fn get(&self, seat: Seat) -> Option<&Occupant> {
        self.seats.get(seat.index()).and_then(Option::as_ref)
    }

    /// Who controls `seat`, if it is taken.
    pub(crate) fn control(&self, seat: Seat) -> Option<Control> {
        self.get(seat).map(|o| o.control)
    }

    /// Whether `seat`'s player plays it now.
    pub(crate) fn is_played_by_player(&self, seat: Seat) -> bool {
        self.control(seat) == Some(Control::Player)
    }

    /// Sets who controls a taken `seat`.
    pub(crate) fn set_control(&mut self, seat: Seat, control: Control) {
        if let Some(Some(occupant)) = self.seats.get_mut(seat.index()) {
            occupant.control = control;
        }
    }

    /// The seat of `player`, if they have one.
    pub(crate) fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        self.seats.iter().position(|s| s.as_ref().is_some_and(|o| o.player.id == player)).map(seat_at)
    }

    /// The first free seat.
    pub(crate) fn first_free(&self) -> Option<Seat> {
        self.seats.iter().position(Option::is_none).map(seat_at)
    }

    /// Whether every seat is taken.
    pub(crate) fn is_full(&self) -> bool {
        self.seats.iter().all(Option::is_some)
    }

    /// How many seats are taken.
    pub(crate) fn taken(&self) -> usize {
        self.seats.iter().flatten().count()
    }

    /// How many seats people (not the host's bots) have taken.
    pub(crate) fn people(&self) -> usize {
        self.seats.iter().flatten().filter(|o| !o.control.is_hosts_bot()).count()
    }

    /// Seats `seat` with `occupant`.
    pub(crate) fn sit(&mut self, seat: Seat, occupant: Occupant) {
        if let Some(slot) = self.seats.get_mut(seat.index()) {
            *slot = Some(occupant);
        }
    }

    /// Frees `seat`, returning who sat there.
    pub(crate) fn free(&mut self, seat: Seat) -> Option<Occupant> {
        self.seats.get_mut(seat.index()).and_then(Option::take)
    }

    /// The first seated person other than the host's bots, in seat order.
    pub(crate) fn first_person(&self) -> Option<&PlayerInfo> {
        self.seats.iter().flatten().find(|o| !o.control.is_hosts_bot()).map(|o| &o.player)
    }

    /// The seats as the protocol shows them: each seat's player, or none while free.
    pub(crate) fn players(&self) -> Vec<Option<PlayerInfo>> {
        self.seats.iter().map(|s| s.as_ref().map(|o| o.player.clone())).collect()
    }

    /// For each seat, whether the server's bot plays it.
    pub(crate) fn bots(&self) -> Vec<bool> {
        self.seats.iter().map(|s| s.as_ref().is_some_and(|o| o.control != Control::Player)).collect()
    }

    /// For each seat the host gave to a bot, the bot's level.
    pub(crate) fn levels(&self) -> Vec<Option<Level>> {
        self.seats.iter().map(|s| s.as_ref().and_then(|o| o.control.level())).collect()
    }

    /// The taken seats in order, with their occupants: the game's seats once it starts.
    pub(crate) fn occupants(&self) -> impl Iterator<Item = (Seat, &Occupant)> {
        (0u8..).zip(&self.seats).filter_map(|(i, s)| s.as_ref().map(|o| (Seat(i), o)))
    }

    /// Every seat that a person plays or will play again (not the host's bots).
    pub(crate) fn person_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        self.occupants().filter(|(_, o)| !o.control.is_hosts_bot()).map(|(seat, _)| seat)
    }

    /// The taken seats closed up in order, for the start of the game.
    pub(crate) fn closed_up(&self) -> Seating {
        Seating { seats: self.seats.iter().flatten().cloned().map(Some).collect() }
    }
}

fn seat_at(index: usize) -> Seat {
    // A table has at most a few seats: the index always fits.
    Seat(u8::try_from(index).unwrap_or(u8::MAX))
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;

    fn person(name: &str) -> Occupant {
        Occupant { player: PlayerInfo { id: PlayerId(Uuid::new_v4()), name: name.into() }, control: Control::Player }
    }

    #[test]
    fn seats_close_up_in_order_and_bots_show_as_bots() {
        let mut seating = Seating::empty(4);
        let ana = person("Ana");
        seating.sit(Seat(0), ana.clone());
        seating.sit(Seat(2), Occupant { control: Control::Bot(Level::Strong), ..person("Bot 3") });
        assert_eq!(seating.first_free(), Some(Seat(1)));
        assert_eq!((seating.taken(), seating.people()), (2, 1));
        assert_eq!(seating.bots(), vec![false, false, true, false]);
        let started = seating.closed_up();
        assert_eq!(started.len(), 2);
        assert_eq!(started.seat_of(ana.player.id), Some(Seat(0)));
        assert_eq!(started.control(Seat(1)), Some(Control::Bot(Level::Strong)));
        assert!(started.is_full());
    }
}
