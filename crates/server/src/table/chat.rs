//! A table's chat: its last messages, who may read which, each member's mutes and the rate limit.
//!
//! A table has two chats: the players' and the spectators'. Everyone at the table reads the players'
//! chat; the players read the spectators' only once the game is over (then the two are one), so that
//! spectators cannot tell a player what they see. A reader never receives the messages of someone they
//! muted. No clock of its own: the rate limit counts the times it is given.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;

use tokio::time::Instant;

use crate::protocol::{CHAT_HISTORY, ChatChannel, ChatLine, PlayerId, PlayerInfo, Role};

/// How many messages one player may say at a table within [`CHAT_WINDOW`].
pub(crate) const CHAT_BURST: usize = 5;
/// The window of the chat's rate limit.
pub(crate) const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// How many players one player may mute at a table: any player may be muted, at the table or not (whether
/// someone is there is not the mute's to tell), so the list is bounded.
pub(crate) const MAX_MUTES: usize = 64;

/// Who reads: the player, their place at the table, and whether the game is over (the chats are one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reader {
    pub(crate) player: PlayerId,
    pub(crate) role: Role,
    pub(crate) merged: bool,
}

/// Where a chat's count of lines is kept.
fn index(channel: ChatChannel) -> usize {
    match channel {
        ChatChannel::Players => 0,
        ChatChannel::Spectators => 1,
    }
}

/// The chat of one table.
#[derive(Debug, Default)]
pub(crate) struct Chat {
    /// The last [`CHAT_HISTORY`] messages, oldest first.
    lines: VecDeque<ChatLine>,
    /// The number of the next message of each chat, the players' first: each chat numbers its own lines, so
    /// that the players cannot count the spectators' lines from gaps in theirs.
    next: [u64; 2],
    /// When each player's recent messages were said, within the rate limit's window.
    recent: HashMap<PlayerId, VecDeque<Instant>>,
    /// Whom each player muted.
    mutes: HashMap<PlayerId, HashSet<PlayerId>>,
}

impl Chat {
    /// The chat as the store kept it (oldest first), after a restart.
    pub(crate) fn restored(lines: Vec<ChatLine>) -> Chat {
        let mut next = [0; 2];
        for line in &lines {
            let slot = &mut next[index(line.channel)];
            *slot = (*slot).max(line.n + 1);
        }
        let mut lines = VecDeque::from(lines);
        while lines.len() > CHAT_HISTORY {
            lines.pop_front();
        }
        Chat { lines, next, ..Chat::default() }
    }

    /// Whether `player` may say something at `at`; if so, it counts against their limit.
    pub(crate) fn allow(&mut self, player: PlayerId, at: Instant) -> bool {
        let recent = self.recent.entry(player).or_default();
        while recent.front().is_some_and(|said| at.saturating_duration_since(*said) >= CHAT_WINDOW) {
            recent.pop_front();
        }
        if recent.len() >= CHAT_BURST {
            return false;
        }
        recent.push_back(at);
        true
    }

    /// The message `from` says next, in `channel` (not kept until [`Chat::push`]).
    pub(crate) fn line(&self, from: PlayerInfo, channel: ChatChannel, text: String) -> ChatLine {
        ChatLine { n: self.next[index(channel)], from, channel, text }
    }

    /// Keeps a message that was stored.
    pub(crate) fn push(&mut self, line: ChatLine) {
        let next = &mut self.next[index(line.channel)];
        *next = (*next).max(line.n + 1);
        self.lines.push_back(line);
        if self.lines.len() > CHAT_HISTORY {
            self.lines.pop_front();
        }
    }

    /// Forgets the line numbered `n` of `channel`; whether it was kept.
    pub(crate) fn remove(&mut self, channel: ChatChannel, n: u64) -> bool {
        let before = self.lines.len();
        self.lines.retain(|line| !(line.channel == channel && line.n == n));
        self.lines.len() != before
    }

    /// Whether `reader` reads `line`.
    pub(crate) fn reads(&self, reader: Reader, line: &ChatLine) -> bool {
        let channel_open = match (line.channel, reader.role) {
            (ChatChannel::Players, _) | (ChatChannel::Spectators, Role::Spectator) => true,
            (ChatChannel::Spectators, Role::Seat(_)) => reader.merged,
        };
        channel_open && !self.mutes.get(&reader.player).is_some_and(|muted| muted.contains(&line.from.id))
    }

    /// Every kept message `reader` reads, oldest first.
    pub(crate) fn history(&self, reader: Reader) -> Vec<ChatLine> {
        self.lines.iter().filter(|line| self.reads(reader, line)).cloned().collect()
    }

    /// Whether any kept message is in the spectators' chat.
    pub(crate) fn has_spectator_lines(&self) -> bool {
        self.lines.iter().any(|line| line.channel == ChatChannel::Spectators)
    }

    /// `player` mutes `whom` (or hears them again); `false` when they mute as many players as they may.
    pub(crate) fn mute(&mut self, player: PlayerId, whom: PlayerId, muted: bool) -> bool {
        let mutes = self.mutes.entry(player).or_default();
        if muted {
            if mutes.len() >= MAX_MUTES && !mutes.contains(&whom) {
                return false;
            }
            mutes.insert(whom);
        } else {
            mutes.remove(&whom);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;
    use romirami_game::Seat;

    fn person(name: &str) -> PlayerInfo {
        PlayerInfo { id: PlayerId(Uuid::new_v4()), name: name.into() }
    }

    #[test]
    fn the_rate_limit_lets_a_burst_through_then_waits_for_the_window() {
        let (mut chat, ana, t0) = (Chat::default(), person("Ana"), Instant::now());
        assert!((0..CHAT_BURST).all(|i| chat.allow(ana.id, t0 + Duration::from_millis(i as u64))));
        assert!(!chat.allow(ana.id, t0 + Duration::from_secs(1)), "a sixth message within the window");
        assert!(chat.allow(person("Ben").id, t0 + Duration::from_secs(1)), "each player has their own limit");
        assert!(chat.allow(ana.id, t0 + CHAT_WINDOW), "the first message left the window");
    }

    #[test]
    fn only_the_last_messages_are_kept() {
        let (mut chat, ana) = (Chat::default(), person("Ana"));
        for i in 0..CHAT_HISTORY + 5 {
            let line = chat.line(ana.clone(), ChatChannel::Players, format!("{i}"));
            chat.push(line);
        }
        let reader = Reader { player: ana.id, role: Role::Seat(Seat(0)), merged: false };
        let history = chat.history(reader);
        assert_eq!(history.len(), CHAT_HISTORY);
        assert_eq!((history[0].n, history[0].text.as_str()), (5, "5"));
        let back = Chat::restored(history);
        assert_eq!(back.line(ana, ChatChannel::Players, "next".into()).n, CHAT_HISTORY as u64 + 5);
    }
}
