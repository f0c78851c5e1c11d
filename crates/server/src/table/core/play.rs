//! The game in play: actions, turns and clocks, the bot that stands in, abandonment and the end.

use romirami_game::{AnyGame, ReadAction, RecordMeta, Refusal, RefusalKind, Seat};
use tokio::time::Instant;
use tracing::{error, info, warn};

use super::{Actor, Control, Durable, Effect, Now, Pending, Phase, Play, TableCore, UNAVAILABLE};
use crate::protocol::{ErrorCode, PresenceChange, Role, TableState};
use crate::store::{ActionRow, FinishedGame, StoreError};
use crate::table::handle::Sender;
use crate::wire::ServerMsg;

/// The error code and sentence of a game's refusal.
fn refused(refusal: Refusal) -> (ErrorCode, String) {
    let code = match refusal.kind {
        RefusalKind::GameOver => ErrorCode::GameOver,
        RefusalKind::NotYourTurn => ErrorCode::NotYourTurn,
        RefusalKind::Illegal => ErrorCode::IllegalAction,
        RefusalKind::Malformed => ErrorCode::Malformed,
    };
    (code, refusal.message)
}

/// What a table does by itself while a game is in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timer {
    /// The bot plays the seat to act.
    Bot,
    /// The seat to act is out of time.
    OutOfTime(Seat),
    /// No player came back in time.
    Abandon,
    /// The seat to act did not make the choice it is asked (outside the turns) in time.
    Choice,
}

impl TableCore {
    fn play(&self) -> Option<&Play> {
        match &self.phase {
            Phase::Playing(play) | Phase::Finished(play) => Some(play),
            Phase::Waiting => None,
        }
    }

    fn play_mut(&mut self) -> Option<&mut Play> {
        match &mut self.phase {
            Phase::Playing(play) | Phase::Finished(play) => Some(play),
            Phase::Waiting => None,
        }
    }

    /// The game, once it has started.
    pub(super) fn game(&self) -> Option<&dyn AnyGame> {
        self.play().map(|play| &*play.game)
    }

    /// A seated player's action: refused unless the seat is theirs to play now.
    pub(super) fn act(&mut self, from: Sender, id: u64, action: serde_json::Value, now: Now) {
        let refuse = |code, message: String| {
            from.out.send_msg(&ServerMsg::error(Some(self.id), Some(id), code, message));
        };
        let Some(Role::Seat(seat)) = self.role_of(from.conn) else {
            return refuse(ErrorCode::NotSeated, "you do not have a seat at this table".into());
        };
        if self.state() == TableState::Playing && !self.seating.is_played_by_player(seat) {
            return refuse(
                ErrorCode::NotYourTurn,
                "the bot is playing your seat; join the table again to have it back at your next turn".into(),
            );
        }
        match self.check(seat, &action) {
            Ok(action) => self.append(seat, action, Actor::Person { from, id, received: now.at }, now),
            Err((code, message)) => refuse(code, message),
        }
    }

    /// Reads `action` as the table's game's (the only time it is read) and checks that `seat` may play
    /// it now, by the rules.
    fn check(&self, seat: Seat, action: &serde_json::Value) -> Result<ReadAction, (ErrorCode, String)> {
        let Some(game) = self.game() else {
            return Err((ErrorCode::NotStarted, "the game has not started".into()));
        };
        game.read_checked(seat, action).map_err(refused)
    }

    /// Asks to append a checked action to the game's log; it is applied once stored.
    pub(super) fn append(&mut self, seat: Seat, action: ReadAction, by: Actor, now: Now) {
        let Some(play) = self.play() else { return };
        let reserve_ms = play.clock.as_ref().map(|clock| clock.reserve_at(seat, now.at));
        let by_bot = matches!(by, Actor::Bot);
        let action_text = action.text().get().to_owned();
        let row =
            ActionRow { table: self.id, seq: play.actions, seat, action: action_text, by_bot, reserve_ms, fence: None };
        self.write(Durable::Action(row), Pending::Action { seat, action, by });
    }

    /// The action's row is stored (it is applied, acknowledged and shown), or it could not be (it is
    /// refused, or the bot tries again shortly).
    pub(super) fn action_stored(
        &mut self,
        seat: Seat,
        action: &ReadAction,
        by: Actor,
        outcome: Result<(), StoreError>,
        now: Now,
    ) {
        if let Err(error) = outcome {
            warn!(table = %self.id, %error, "an action could not be stored; it was not played");
            match by {
                Actor::Person { from, id, .. } => {
                    from.out.send_msg(&ServerMsg::error(Some(self.id), Some(id), ErrorCode::Unavailable, UNAVAILABLE));
                }
                Actor::Bot => {
                    warn!(table = %self.id, %seat, "the bot could not play; trying again shortly");
                    let retry = now.at + self.config.bot_retry;
                    // A choice made for a player whose time ran out is tried again as such.
                    let for_player = self.seating.is_played_by_player(seat);
                    if let Some(play) = self.play_mut() {
                        if for_player { play.choice_due = Some(retry) } else { play.bot_due = Some(retry) }
                    }
                }
            }
            return;
        }
        let (id, round_pause) = (self.id, self.config.round_pause);
        let Some(play) = self.play_mut() else { return };
        play.actions += 1;
        let first = play.game.event_count();
        if let Err(illegal) = play.game.play(seat, action) {
            // `check` accepted it and nothing ran in between: this cannot happen.
            error!(table = %id, %illegal, "an action the engine checked was refused when applied");
            if let Actor::Person { from, id: action_id, .. } = by {
                let message = "the server could not play this action";
                from.out.send_msg(&ServerMsg::error(Some(id), Some(action_id), ErrorCode::Internal, message));
            }
            return;
        }
        let events = play.game.event_count();
        let round = play.game.round();
        if round != play.round {
            // A round ended: the next one's first turn starts after the pause, even when the same seat
            // acts again.
            play.round = round;
            play.pause_until = Some(now.at + round_pause);
            play.to_act = None;
            if let Some(clock) = &mut play.clock {
                clock.turn_to(None, now.at, |_| true);
            }
        }
        self.broadcast_events(first);
        if let Actor::Person { from, id, received } = by {
            from.out.send_msg(&ServerMsg::Ack { table: self.id, id, events });
            crate::metrics::action_applied(received.into_std());
        }
        self.after_play(now);
    }

    /// After an action: the end of the game, or the next turn (with its clocks, its `your_turn` and,
    /// for a seat the bot plays, the bot's next move).
    fn after_play(&mut self, now: Now) {
        if self.play().is_some_and(|play| play.actions >= self.config.max_actions_per_game) {
            warn!(table = %self.id, "the game reached the most actions a game may take: it ends as abandoned");
            return self.abandon(now);
        }
        if self.game().is_some_and(|game| game.is_over()) {
            self.finish(now, true);
        } else if self.turn_changed(now) {
            self.send_clocks(now);
            self.send_turn();
            self.publish();
        } else {
            self.send_turn();
        }
    }

    /// Follows the seat to act: a new turn starts its clock, and gives the seat back to its player if
    /// they came back; the bot is scheduled when it plays the seat. Returns whether a new turn started.
    pub(super) fn turn_changed(&mut self, now: Now) -> bool {
        let (bot_delay, choice_time) = (self.config.bot_delay, self.config.choice_time);
        let Phase::Playing(play) = &mut self.phase else { return false };
        let to_act = play.game.to_act();
        let changed = to_act != play.to_act;
        // A choice asked outside the turns (Rumino's rebuy) is not a turn: the turn clock stops, and the
        // choice has a time of its own.
        let choice = play.game.choice();
        let mut reclaimed = false;
        // After a round, the next turn starts when the pause ends.
        let start = play.pause_until.filter(|until| *until > now.at).unwrap_or(now.at);
        if changed {
            let seating = &self.seating;
            if let Some(clock) = &mut play.clock {
                clock.turn_to(to_act.filter(|_| !choice), now.at, |seat| seating.is_played_by_player(seat));
                clock.start_turn_at(start);
                play.turn_ends_at = clock.deadline().map(|(_, at)| now.wall_at(at));
            }
            play.choice_due = None;
            play.to_act = to_act;
            if let Some(seat) = to_act {
                if matches!(self.seating.control(seat), Some(Control::Stand { back: true, .. })) {
                    info!(table = %self.id, %seat, "the player has their seat back");
                    self.seating.set_control(seat, Control::Player);
                    reclaimed = true;
                }
            }
        }
        play.bot_due = match to_act.and_then(|seat| self.seating.control(seat)) {
            // A bot that is thinking has its move on the way.
            _ if play.thinking => None,
            Some(Control::Bot(_) | Control::Stand { .. }) => Some(play.bot_due.unwrap_or(start + bot_delay)),
            _ => None,
        };
        let asked = choice && to_act.is_some_and(|seat| self.seating.is_played_by_player(seat));
        let opened = asked && play.choice_due.is_none();
        play.choice_due = asked.then(|| play.choice_due.unwrap_or(start + choice_time));
        if opened {
            // Everyone sees whose choice it is and counts its time down.
            self.send_choice(now);
        }
        if reclaimed {
            // Everyone's summary shows who plays each seat.
            self.send_tables();
        }
        if changed && !choice {
            // A player away from the table is told on their devices that their turn came; at a turn-based
            // table, every player is (the game is played over days, from wherever they are).
            if self.turn_based() {
                self.notify_players(to_act, crate::push::NoticeKind::Turn);
            } else {
                self.notify_absent(to_act, crate::push::NoticeKind::Turn);
            }
        }
        changed
    }

    /// The next thing the table does by itself in play, and when.
    pub(super) fn next_timer(&self, play: &Play) -> Option<(Instant, Timer)> {
        let out_of_time = play
            .clock
            .as_ref()
            .and_then(|clock| clock.deadline())
            .and_then(|(seat, at)| self.seating.is_played_by_player(seat).then_some((at, Timer::OutOfTime(seat))));
        [
            out_of_time,
            play.bot_due.map(|at| (at, Timer::Bot)),
            play.choice_due.map(|at| (at, Timer::Choice)),
            play.abandon_due.map(|at| (at, Timer::Abandon)),
        ]
        .into_iter()
        .flatten()
        .min_by_key(|(at, _)| *at)
    }

    pub(super) fn play_timer(&mut self, now: Now) {
        let Phase::Playing(play) = &self.phase else { return };
        let Some((at, timer)) = self.next_timer(play) else { return };
        if at > now.at {
            return;
        }
        match timer {
            Timer::Bot => {
                if let Phase::Playing(play) = &mut self.phase {
                    play.bot_due = None;
                }
                self.bot_plays();
            }
            Timer::OutOfTime(seat) => {
                info!(table = %self.id, %seat, "out of time: the bot plays the seat");
                if let Phase::Playing(play) = &mut self.phase {
                    if let Some(clock) = &mut play.clock {
                        clock.run_out(seat);
                    }
                }
                self.stand_in(seat, false, now);
                self.presence_changed(seat, PresenceChange::OutOfTime, None);
            }
            Timer::Choice => {
                if let Phase::Playing(play) = &mut self.phase {
                    play.choice_due = None;
                }
                self.choose_for_player();
            }
            Timer::Abandon => {
                if let Phase::Playing(play) = &mut self.phase {
                    play.abandon_due = None;
                }
                info!(table = %self.id, "no player came back: the game is abandoned");
                self.abandon(now);
            }
        }
    }

    /// The bot plays the seat to act, at its level (the host's bot's own, `normal` for a stand-in): it
    /// is asked for its move, which comes back as a thought (`super::think`).
    fn bot_plays(&mut self) {
        let Some(seat) = self.game().and_then(|game| game.to_act()) else { return };
        let Some(control) = self.seating.control(seat) else { return };
        if control == Control::Player {
            return;
        }
        self.ask_bot(seat, control.playing_level(), false);
    }

    /// The time for the choice the seat to act is asked ran out: the `normal` bot's choice is made for
    /// its player, who keeps the seat (only this choice was not theirs).
    fn choose_for_player(&mut self) {
        let Some(seat) = self.game().and_then(|game| game.to_act()) else { return };
        self.ask_bot(seat, romirami_game::Level::Normal, true);
    }

    /// The bot plays `seat` until its player comes back (it ran out of time, or `left`).
    pub(super) fn stand_in(&mut self, seat: Seat, left: bool, now: Now) {
        if matches!(self.seating.control(seat), Some(Control::Player | Control::Stand { .. })) {
            self.seating.set_control(seat, Control::Stand { back: false, left });
        }
        self.turn_changed(now);
        self.send_clocks(now);
        self.publish();
        self.send_tables();
        self.check_presence(now);
    }

    /// The player of `seat` joined again: the seat is theirs now, or at the start of their next turn if
    /// the bot is in the middle of this one.
    pub(super) fn come_back(&mut self, seat: Seat) {
        let Phase::Playing(play) = &mut self.phase else { return };
        play.abandon_due = None;
        let mid_turn = play.to_act == Some(seat);
        if let Some(Control::Stand { .. }) = self.seating.control(seat) {
            let control = if mid_turn { Control::Stand { back: true, left: false } } else { Control::Player };
            self.seating.set_control(seat, control);
            if !mid_turn {
                self.send_tables();
            }
            self.publish();
        }
    }

    /// Ends the game as abandoned when every player has left the table, and schedules that end when
    /// none is connected (they have [`TableConfig::abandon_after`](super::TableConfig::abandon_after) to come back): a player
    /// whose seat the bot plays because their time ran out has not left, and a reload is no departure.
    pub(super) fn check_presence(&mut self, now: Now) {
        // A tournament's game is played to its end: the bot plays for whoever is away.
        if self.state() != TableState::Playing || self.options.tournament.is_some() {
            return;
        }
        let players: Vec<Seat> = self.seating.person_seats().collect();
        if players.iter().all(|&seat| !self.members.has_role(Role::Seat(seat))) {
            let left = |seat| self.seating.control(seat) == Some(Control::Stand { back: false, left: true });
            if players.iter().all(|&seat| left(seat)) {
                info!(table = %self.id, "every player has left: the game is abandoned");
                return self.abandon(now);
            }
            // A turn-based game is played over days: nobody being here is no reason to end it (it sleeps).
            if self.turn_based() {
                return;
            }
            let due = now.at + self.config.abandon_after;
            if let Phase::Playing(play) = &mut self.phase {
                play.abandon_due.get_or_insert(due);
            }
        } else if let Phase::Playing(play) = &mut self.phase {
            play.abandon_due = None;
        }
    }

    /// Ends the game where it stands, as abandoned (§4 does not end it; nobody is left to play it).
    pub(super) fn abandon(&mut self, now: Now) {
        let Some(play) = self.play_mut() else { return };
        if play.game.is_over() {
            return;
        }
        let first = play.game.event_count();
        play.game.abandon();
        self.broadcast_events(first);
        self.finish(now, false);
    }

    /// The game is over: its result is stored and shown; one played to its end offers a rematch (an
    /// abandoned one has nobody to ask).
    fn finish(&mut self, now: Now, offer_rematch: bool) {
        let Phase::Playing(mut play) = std::mem::replace(&mut self.phase, Phase::Waiting) else { return };
        crate::metrics::table_state(Some(TableState::Playing), Some(TableState::Finished));
        (play.bot_due, play.abandon_due, play.to_act) = (None, None, None);
        self.phase = Phase::Finished(play);
        self.lobby.release_hosting(self.host);
        self.store_result(now);
        if let Some(result) = self.game().and_then(|game| game.result()) {
            info!(table = %self.id, "game over");
            self.members.send_all(&ServerMsg::GameOver { table: self.id, result });
        }
        self.send_views();
        self.merge_chats();
        self.publish();
        if offer_rematch {
            self.offer_rematch(now);
        }
    }

    /// Asks to store the finished game's record and results (in the background: the game's log is
    /// already stored, so a server that stops before this succeeds finishes the game again when it
    /// restores it).
    pub(super) fn store_result(&mut self, now: Now) {
        let Some(play) = self.play() else { return };
        let meta = RecordMeta {
            id: self.id.0,
            started_at: play.started_at,
            finished_at: now.wall,
            names: self
                .seating
                .players()
                .iter()
                .map(|s| s.as_ref().map_or_else(String::new, |p| p.name.clone()))
                .collect(),
            // The seed and salt are revealed only now, in the record served after the end.
            shuffle: play.shuffle.clone(),
        };
        let finished = play.game.record(meta).and_then(|record| {
            let outcome = play.game.outcome().ok_or("a finished game has no outcome")?;
            Ok(FinishedGame { record: record.get().to_owned(), outcome })
        });
        match finished {
            Ok(finished) => self.effects.push(Effect::StoreResult(Box::new(finished))),
            Err(problem) => error!(table = %self.id, %problem, "a finished game has no record"),
        }
    }
}
