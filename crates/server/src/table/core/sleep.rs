//! Turn-based tables (a turn longer than ten minutes, docs/architecture.md "Turn-based tables"): played
//! over days, they hold no memory while nobody is at them. After every step, a turn-based table that nobody
//! is at (no player, no spectator), with nothing of its own to do soon (no write awaited, no bot to move, no
//! choice or pause running), asks its task to put it to sleep ([`Effect::Sleep`]): the task stores when the
//! running turn started and when it ends, and stops. The next join, move or timer brings it back from the
//! store (`table::sleep::wake`), its turn's clock having run on meanwhile.
//!
//! Nobody being connected is no reason to end a turn-based game (as it is at a live table, after
//! `abandon_after`), nor to close one that waits for players: it sleeps instead.

use super::{Effect, Now, Phase, TableCore};
use crate::store::SleepRow;

impl TableCore {
    /// Whether the table is turn-based: its clock's turn is longer than ten minutes. A tournament's table
    /// never is: its tournament waits for it.
    pub(crate) fn turn_based(&self) -> bool {
        self.options.tournament.is_none() && self.options.clock.is_some_and(|clock| clock.is_turn_based())
    }

    /// Asks to sleep if the table is turn-based, nobody is at it and it has nothing to do soon.
    pub(super) fn sleep_if_idle(&mut self, now: Now) {
        // Not while the deal is made: it lasts seconds, and the sleeping row would not keep it.
        if !self.turn_based()
            || self.closed
            || self.pending.is_some()
            || self.dealing.is_some()
            || !self.members.is_empty()
        {
            return;
        }
        let (turn_since, wake_at, to_act) = match &self.phase {
            Phase::Waiting => (now.wall, None, None),
            Phase::Playing(play) => {
                let busy = play.thinking
                    || play.bot_due.is_some()
                    || play.choice_due.is_some()
                    || play.pause_until.is_some_and(|until| until > now.at);
                if busy {
                    return;
                }
                let clock = play.clock.as_ref();
                let since = clock.and_then(|clock| clock.turn_since()).map_or(now.wall, |at| now.wall_at(at));
                let deadline = clock.and_then(|clock| clock.deadline()).map(|(_, at)| now.wall_at(at));
                (since, deadline, play.to_act)
            }
            Phase::Finished(_) => return,
        };
        let players = (0..self.seating.len())
            .filter_map(|i| self.seating.get(romirami_game::Seat(i as u8)).map(|occupant| occupant.player.id))
            .collect();
        tracing::info!(table = %self.id, ?to_act, "nobody is at the turn-based table: it sleeps");
        self.closed = true;
        let summary = self.public_summary();
        self.effects.push(Effect::Sleep(Box::new(SleepRow {
            table: self.id,
            turn_since,
            wake_at,
            to_act,
            players,
            summary,
        })));
    }

    /// The task could not put the table to sleep (its row was not stored): it stays awake, and tries again
    /// after its next step.
    pub(crate) fn stay_awake(&mut self) {
        self.closed = false;
    }

    /// A table woken from its sleep: its running turn started at `since` (wall time), not when it woke.
    pub(crate) fn resume_turn(&mut self, since: time::OffsetDateTime, now: Now) {
        let Phase::Playing(play) = &mut self.phase else { return };
        let Some(clock) = &mut play.clock else { return };
        let slept = (now.wall - since).max(time::Duration::ZERO);
        let slept = std::time::Duration::try_from(slept).unwrap_or_default();
        clock.resume_turn_since(now.at.checked_sub(slept).unwrap_or(now.at));
        play.turn_ends_at = clock.deadline().map(|(_, at)| now.wall_at(at));
    }
}
