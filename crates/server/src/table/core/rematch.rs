//! Playing again: the offer a finished game makes its players, and the table it opens when they all
//! say yes.
//!
//! When a game ends by its rules (not abandoned), every seat is asked. The host's bots say yes at once,
//! and so does the bot standing in for a player who is not at the table (they left, or their connection
//! went and their time ran out): the seat stays theirs in the new game, the bot playing it until they
//! come back, as it would have in this one. A player at the table answers for themselves. One no, or
//! [`TableConfig::rematch_time`](super::TableConfig::rematch_time) without every yes, closes the offer for
//! everyone; after the time ran out, a player's yes makes the offer again while the table is open. With every
//! yes the table asks its task to open a new table ([`Effect::OpenRematch`]): a new
//! id (a table's game shares its id, so a new game needs a new table), the same players in the same
//! seats, the same options and invite key, and a fresh deal (which draws who starts). The finished table then points every member, and whoever opens it later, to the new one.

use romirami_game::Seat;
use tokio::time::Instant;
use tracing::info;

use super::{Control, Effect, Now, Occupant, Pending, Phase, TableCore};
use crate::protocol::{ErrorCode, PlayerId, RematchEnd, Role, SpectatorPolicy, TableId};
use crate::store::StoreError;
use crate::table::clock::millis;
use crate::table::handle::Sender;
use crate::table::options::{GameChoice, TableOptions};
use crate::wire::ServerMsg;

/// Where a finished game's offer to play again stands.
#[derive(Debug)]
pub(super) enum Rematch {
    /// Open until `due`; each seat's yes so far.
    Open { accepted: Vec<bool>, due: Instant },
    /// Every seat said yes: the task opens the new table.
    Opening,
    /// The next game is on at `next`.
    Started { next: TableId },
    /// Closed without a new game.
    Closed { reason: RematchEnd, seat: Option<Seat> },
}

/// The table a rematch opens, as the finished table hands it to its task.
#[derive(Debug)]
pub(crate) struct RematchPlan {
    /// The finished table, which will point to the new one.
    pub(crate) from: TableId,
    /// The new table's id.
    pub(crate) id: TableId,
    /// The finished table's invite key, so that its link leads to the new game.
    pub(crate) invite: String,
    /// The finished table's host.
    pub(crate) host: PlayerId,
    /// The finished table's options, with as many seats as the game had players.
    pub(crate) options: TableOptions,
    /// The same game with the same options.
    pub(crate) game: GameChoice,
    /// The seats in order, each with who plays it at the start.
    pub(crate) seats: Vec<Occupant>,
}

impl TableCore {
    /// A table opened by a rematch: every seat taken, its game's start asked for at once (the effect
    /// the task carries out first).
    pub(crate) fn rematch(plan: RematchPlan, services: super::Shared, now: Now) -> TableCore {
        let seating = super::Seating::from_occupants(plan.seats.into_iter().map(Some).collect());
        let config = (plan.options, plan.game);
        let mut core = TableCore::new(plan.id, plan.invite, plan.host, config, seating, Phase::Waiting, services);
        core.arriving = vec![true; core.seating.len()];
        core.check_waiting(now);
        core.begin_game(None, now);
        core
    }

    /// The game just ended by its rules: its players are asked whether they play again.
    pub(super) fn offer_rematch(&mut self, now: Now) {
        // A tournament seats its players again itself.
        if self.options.tournament.is_some() {
            return;
        }
        let accepted = self.bots_answers();
        if accepted.iter().all(|yes| *yes) {
            // Nobody at the table is asked: no game is started for people who are not there.
            return;
        }
        self.rematch = Some(Rematch::Open { accepted, due: now.at + self.config.rematch_time });
        self.send_rematch(now);
        let seats: Vec<Seat> = (0..self.seating.len()).map(seat).collect();
        self.notify_absent(seats, crate::push::NoticeKind::Rematch);
    }

    /// Each seat's answer as the bots give it: yes for a seat the bot answers for, no (not yet) for the others.
    fn bots_answers(&self) -> Vec<bool> {
        (0..self.seating.len()).map(|i| self.answers_yes_for_its_player(seat(i))).collect()
    }

    /// Whether the bot says yes for `seat`: the host's bot, or the bot standing in for a player who is
    /// not at the table.
    fn answers_yes_for_its_player(&self, seat: Seat) -> bool {
        match self.seating.control(seat) {
            Some(Control::Bot(_)) => true,
            Some(Control::Stand { .. }) => !self.members.has_role(Role::Seat(seat)),
            Some(Control::Player) | None => false,
        }
    }

    /// A player says yes or no.
    pub(super) fn answer_rematch(&mut self, from: &Sender, accept: bool, now: Now) {
        let Some(seat) = self.seating.seat_of(from.player.id) else {
            return self.error(from, ErrorCode::NotSeated, "only the game's players can answer a rematch");
        };
        if !matches!(self.phase, Phase::Finished(_)) {
            return self.error(from, ErrorCode::NotFinished, "the game is not over yet");
        }
        // An offer whose time ran out is made again by the first player who says yes while the table is
        // still open: the others are asked anew, for the same time.
        if accept && matches!(self.rematch, Some(Rematch::Closed { reason: RematchEnd::TimedOut, .. })) {
            info!(table = %self.id, %seat, "a player offers the rematch again");
            let accepted = self.bots_answers();
            self.rematch = Some(Rematch::Open { accepted, due: now.at + self.config.rematch_time });
        }
        let Some(Rematch::Open { accepted, .. }) = &mut self.rematch else {
            return self.error(from, ErrorCode::NoRematch, "no rematch offer is open at this table");
        };
        if !accept {
            info!(table = %self.id, %seat, "a player declined the rematch");
            self.rematch = Some(Rematch::Closed { reason: RematchEnd::Declined, seat: Some(seat) });
            return self.send_rematch(now);
        }
        if let Some(yes) = accepted.get_mut(seat.index()) {
            *yes = true;
        }
        if accepted.iter().all(|yes| *yes) {
            self.open_rematch();
        } else {
            self.send_rematch(now);
        }
    }

    /// The time to answer ran out.
    pub(super) fn rematch_timer(&mut self, now: Now) {
        if let Some(Rematch::Open { due, .. }) = &self.rematch
            && *due <= now.at
        {
            info!(table = %self.id, "the rematch offer timed out");
            self.rematch = Some(Rematch::Closed { reason: RematchEnd::TimedOut, seat: None });
            self.send_rematch(now);
        }
    }

    /// When the offer times out, while it is open.
    pub(super) fn rematch_due(&self) -> Option<Instant> {
        match &self.rematch {
            Some(Rematch::Open { due, .. }) => Some(*due),
            _ => None,
        }
    }

    /// Every seat said yes: asks the task to open the new table.
    fn open_rematch(&mut self) {
        let Phase::Finished(_) = &self.phase else { return };
        let players = self.seating.len();
        let seats = self
            .seating
            .occupants()
            .map(|(seat, o)| {
                let control = match o.control {
                    Control::Bot(level) => Control::Bot(level),
                    // The player answered (or their bot did): they play the seat if they are here.
                    Control::Player | Control::Stand { .. } if self.members.has_role(Role::Seat(seat)) => {
                        Control::Player
                    }
                    Control::Player => Control::Player,
                    Control::Stand { .. } => Control::Stand { back: false, left: false },
                };
                Occupant { player: o.player.clone(), control }
            })
            .collect();
        let next = TableId(self.entropy.id());
        let options = TableOptions { seats: u8::try_from(players).unwrap_or(u8::MAX), ..self.options };
        let game = GameChoice { kind: self.kind.clone(), options: self.game_options.clone() };
        let plan =
            RematchPlan { from: self.id, id: next, invite: self.invite.clone(), host: self.host, options, game, seats };
        info!(table = %self.id, rematch = %next, "every player said yes: opening the rematch");
        self.rematch = Some(Rematch::Opening);
        self.effects.push(Effect::OpenRematch(Box::new(plan)));
        self.pending = Some(Pending::Rematch { next });
    }

    /// The new table is open (its game starting), or could not be.
    pub(super) fn rematch_opened(&mut self, next: TableId, outcome: Result<(), StoreError>, now: Now) {
        match outcome {
            Ok(()) => {
                self.rematch = Some(Rematch::Started { next });
                self.members.send_all(&ServerMsg::RematchStarted { table: self.id, rematch: next });
                // The members go on at the new table; this one closes once its result is stored.
                self.members = Default::default();
                self.publish();
            }
            Err(error) => {
                tracing::warn!(table = %self.id, %error, "the rematch's table could not be opened");
                self.rematch = Some(Rematch::Closed { reason: RematchEnd::Failed, seat: None });
                self.send_rematch(now);
            }
        }
    }

    /// A `join` or `watch` of a table whose rematch started is answered with the new table, for whoever
    /// may see this one (its players, and those its spectator policy admits). Returns whether it was.
    pub(super) fn point_to_rematch(&self, from: &Sender, invite: Option<&str>) -> bool {
        let Some(Rematch::Started { next }) = self.rematch else { return false };
        let has_link = invite == Some(self.invite.as_str());
        let admitted = self.seating.seat_of(from.player.id).is_some()
            || ((self.options.public || has_link)
                && match self.options.spectators {
                    SpectatorPolicy::Everyone => true,
                    SpectatorPolicy::Link => has_link,
                    SpectatorPolicy::Nobody => false,
                });
        if admitted {
            from.out.send_msg(&ServerMsg::RematchStarted { table: self.id, rematch: next });
        }
        admitted
    }

    /// The offer as it stands, for a member who arrives: open with its answers, or closed.
    pub(super) fn rematch_msg(&self, now: Now) -> Option<ServerMsg> {
        match self.rematch.as_ref()? {
            Rematch::Open { accepted, due } => Some(ServerMsg::Rematch {
                table: self.id,
                accepted: accepted.clone(),
                remaining_ms: millis(due.saturating_duration_since(now.at)),
            }),
            Rematch::Closed { reason, seat } => {
                Some(ServerMsg::RematchClosed { table: self.id, reason: *reason, seat: *seat })
            }
            Rematch::Opening | Rematch::Started { .. } => None,
        }
    }

    fn send_rematch(&mut self, now: Now) {
        if let Some(msg) = self.rematch_msg(now) {
            self.members.send_all(&msg);
        }
    }
}

fn seat(index: usize) -> Seat {
    // A table has at most a few seats: the index always fits.
    Seat(u8::try_from(index).unwrap_or(u8::MAX))
}
