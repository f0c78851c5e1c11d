//! The server's bot deciding a move away from the table's task: the core asks for a decision with
//! [`Effect::Think`] and a copy of the game, the task has it made on the server's bot pool
//! (`crate::table::thinking`), and the core gets it back as [`Input::Thought`](super::Input::Thought).
//! While the bot thinks, the table goes on with everything else (joins, chat, clocks, other members'
//! commands); a thought that comes back after the game moved on (it ended, or was abandoned) is dropped.
//!
//! Only the seat's own view counts for the decision: the copy holds the whole game because the bots
//! determinize from the game itself ([`romirami_game::TableGame::determinize`] reads nothing of what the
//! seat cannot see), and it never leaves the server.

use std::fmt;

use romirami_game::{AnyGame, Budget, Level, ReadAction, Seat};
use tracing::{error, info};

use super::{Actor, Effect, Now, Phase, TableCore};

/// A decision the table asks of its bot.
pub(crate) struct BotTurn {
    game: Box<dyn AnyGame>,
    seat: Seat,
    level: Level,
    seed: u64,
    /// The number the action will have in the game's log: the answer is played only at that point.
    seq: u32,
    /// Whether the decision is a choice made for a player whose time for it ran out (who keeps the seat),
    /// rather than a move of a seat the bot plays.
    for_player: bool,
}

// The game holds every hidden card: nothing of it is written where a log could show it.
impl fmt::Debug for BotTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotTurn")
            .field("seat", &self.seat)
            .field("level", &self.level)
            .field("seq", &self.seq)
            .field("for_player", &self.for_player)
            .finish_non_exhaustive()
    }
}

impl BotTurn {
    /// How well the bot plays.
    pub(crate) fn level(&self) -> Level {
        self.level
    }

    /// The seat it decides for.
    #[cfg(test)]
    pub(crate) fn seat(&self) -> Seat {
        self.seat
    }

    /// The decision, within the game's own number of playouts, stopped early when `stop` says so (the
    /// server's cap on thinking time).
    pub(crate) fn think(self, stop: Option<&(dyn Fn() -> bool + Sync)>) -> Thought {
        let budget = Budget { seed: self.seed, playouts: None, stop };
        let action = self.game.bot_at(self.seat, self.level, &budget);
        Thought { action, ..self.unthought() }
    }

    /// The answer when no decision could be made (the thinking failed): the table tries again later.
    pub(crate) fn unthought(&self) -> Thought {
        Thought { seat: self.seat, seq: self.seq, for_player: self.for_player, action: None }
    }
}

/// The bot's answer to a [`BotTurn`].
#[derive(Debug)]
pub(crate) struct Thought {
    seat: Seat,
    seq: u32,
    for_player: bool,
    /// The action, or none when the bot found none (or failed to think).
    action: Option<ReadAction>,
}

impl TableCore {
    /// Asks for the bot's decision for `seat` at `level` (none while one is awaited).
    pub(super) fn ask_bot(&mut self, seat: Seat, level: Level, for_player: bool) {
        if !matches!(&self.phase, Phase::Playing(play) if !play.thinking) {
            return;
        }
        let seed = self.entropy.seed();
        let Phase::Playing(play) = &mut self.phase else { return };
        play.thinking = true;
        let game = play.game.clone_game();
        self.effects.push(Effect::Think(Box::new(BotTurn { game, seat, level, seed, seq: play.actions, for_player })));
    }

    /// The bot's decision came back: it is played when the game is where it was asked, and the seat
    /// still the bot's to play (or still its player's choice to be made); else the table goes on as
    /// if it had not been asked.
    pub(super) fn thought(&mut self, thought: Thought, now: Now) {
        let Thought { seat, seq, for_player, action } = thought;
        let Phase::Playing(play) = &mut self.phase else { return };
        play.thinking = false;
        let current = play.actions == seq && play.game.to_act() == Some(seat);
        let still_asked = if for_player {
            self.seating.is_played_by_player(seat) && play.game.choice()
        } else {
            !self.seating.is_played_by_player(seat)
        };
        let checked = action.filter(|action| play.game.check(seat, action).is_ok());
        match checked {
            Some(action) if current && still_asked => {
                if for_player {
                    info!(table = %self.id, %seat, "the time for a choice ran out: the bot's choice is made");
                }
                self.append(seat, action, Actor::Bot, now);
            }
            None if current && still_asked => {
                error!(table = %self.id, %seat, "the bot found no legal action; trying again shortly");
                let retry = now.at + self.config.bot_retry;
                if for_player { play.choice_due = Some(retry) } else { play.bot_due = Some(retry) }
            }
            // The game moved on meanwhile: whatever it waits for now is scheduled afresh.
            _ => {
                self.turn_changed(now);
            }
        }
    }
}
