//! The table's chat as the core runs it: who may say what where, the mutes, and what each member
//! reads. A message is stored before anyone reads it (like an action), so that a reload, a late
//! spectator or a restarted server shows the same history.

use super::{Durable, Now, Pending, Phase, TableCore, UNAVAILABLE};
use crate::protocol::{ChatChannel, ChatLine, ErrorCode, PlayerId, Role};
use crate::store::{ChatRow, StoreError};
use crate::table::chat::Reader;
use crate::table::handle::Sender;
use crate::table::outbox::ConnId;
use crate::wire::ServerMsg;

impl TableCore {
    fn reader(&self, conn: ConnId) -> Option<Reader> {
        let member = self.members.get(conn)?;
        Some(Reader { player: member.player.id, role: member.role, merged: matches!(self.phase, Phase::Finished(_)) })
    }

    /// A member says something: in the players' chat from a seat, in the spectators' chat otherwise.
    pub(super) fn say(&mut self, from: Sender, text: &str, now: Now) {
        let Some(role) = self.role_of(from.conn) else {
            return self.error(&from, ErrorCode::NotSeated, "you are not at this table");
        };
        let text = match crate::text::clean_chat(text) {
            Ok(text) => text,
            Err(message) => return self.error(&from, ErrorCode::BadChat, message),
        };
        if !self.chat.allow(from.player.id, now.at) {
            let message = format!(
                "at most {} chat messages in {} seconds; wait a moment",
                crate::table::chat::CHAT_BURST,
                crate::table::chat::CHAT_WINDOW.as_secs()
            );
            return self.error(&from, ErrorCode::RateLimited, message);
        }
        let channel = match role {
            Role::Seat(_) => ChatChannel::Players,
            Role::Spectator => ChatChannel::Spectators,
        };
        let line = self.chat.line(from.player.clone(), channel, text);
        self.write(Durable::Chat(ChatRow { table: self.id, line: line.clone() }), Pending::Chat { from, line });
    }

    /// The message is stored: every member who may read it receives it; or it is not, and its writer
    /// is told.
    pub(super) fn said(&mut self, from: &Sender, line: ChatLine, outcome: Result<(), StoreError>) {
        if let Err(error) = outcome {
            tracing::warn!(table = %self.id, %error, "a chat message could not be stored");
            return self.error(from, ErrorCode::Unavailable, UNAVAILABLE);
        }
        self.chat.push(line.clone());
        let merged = matches!(self.phase, Phase::Finished(_));
        let (id, chat) = (self.id, &self.chat);
        self.members.send_each(|member| {
            let reader = Reader { player: member.player.id, role: member.role, merged };
            chat.reads(reader, &line).then(|| ServerMsg::Chat { table: id, lines: vec![line.clone()] })
        });
    }

    /// A member mutes another player for themselves (or hears them again): someone seated at the
    /// table, at it now, or whose messages it keeps; never themselves.
    pub(super) fn mute(&mut self, from: &Sender, player: PlayerId, muted: bool) {
        if self.role_of(from.conn).is_none() {
            return self.error(from, ErrorCode::NotSeated, "you are not at this table");
        }
        if player == from.player.id {
            return self.error(from, ErrorCode::BadMute, "you cannot mute yourself");
        }
        // Any player may be muted, here or not: the answer must not tell a seat who is watching (issue 40).
        if !self.chat.mute(from.player.id, player, muted) {
            let most = super::super::chat::MAX_MUTES;
            return self.error(from, ErrorCode::BadMute, format!("you mute {most} players already"));
        }
        from.out.send_msg(&ServerMsg::Muted { table: self.id, player, muted });
        // What the member reads changes with whom they mute: their history, without (or with) them.
        self.send_chat_history(from.conn);
    }

    /// An admin's act (`TableCommand::Moderate`): a chat line removed (every member reads the chat again without
    /// it), or the table closed (a game in play ends as abandoned, a waiting table closes, a finished one goes).
    pub(super) fn moderate(&mut self, act: super::super::ModerationAct, now: Now) {
        match act {
            super::super::ModerationAct::RemoveChat { channel, n } => {
                if self.chat.remove(channel, n) {
                    let (id, chat, merged) = (self.id, &self.chat, matches!(self.phase, Phase::Finished(_)));
                    self.members.send_each(|member| {
                        let reader = Reader { player: member.player.id, role: member.role, merged };
                        Some(ServerMsg::ChatHistory { table: id, lines: chat.history(reader) })
                    });
                }
            }
            super::super::ModerationAct::Close => match self.phase {
                Phase::Playing(_) => self.abandon(now),
                Phase::Waiting => self.close_waiting(),
                Phase::Finished(_) => self.close(),
            },
        }
    }

    /// The chat's history as `conn` may read it, when it has any.
    pub(super) fn chat_history_msg(&self, conn: ConnId) -> Option<ServerMsg> {
        let lines = self.chat.history(self.reader(conn)?);
        (!lines.is_empty()).then_some(ServerMsg::ChatHistory { table: self.id, lines })
    }

    fn send_chat_history(&mut self, conn: ConnId) {
        let lines = self.reader(conn).map(|reader| self.chat.history(reader)).unwrap_or_default();
        self.members.send_to(conn, &[ServerMsg::ChatHistory { table: self.id, lines }]);
    }

    /// At the end of the game the two chats are one: the players receive the spectators' messages.
    pub(super) fn merge_chats(&mut self) {
        if !self.chat.has_spectator_lines() {
            return;
        }
        let (id, chat) = (self.id, &self.chat);
        self.members.send_each(|member| {
            let reader = Reader { player: member.player.id, role: member.role, merged: true };
            matches!(member.role, Role::Seat(_))
                .then(|| ServerMsg::ChatHistory { table: id, lines: chat.history(reader) })
        });
    }
}
