//! The connections at a table and the fan-out to them.
//!
//! Each member is a connection with its role (a seat, or a spectator). What the table tells everyone
//! is built and serialized once per role and the same bytes go to every connection of that role, so a
//! message never costs more than one serialization per kind of recipient, and a recipient only ever
//! gets what its role may see. A member whose outbox is full or closed is dropped on the spot: its
//! connection closes itself (see [`super::outbox`]).

use std::collections::HashMap;

use axum::extract::ws::Utf8Bytes;

use super::outbox::{ConnId, Outbox, Outgoing};
use crate::protocol::{PlayerInfo, Role};
use crate::wire::ServerMsg;

/// A connection at the table.
#[derive(Debug)]
pub(crate) struct Member {
    pub(crate) player: PlayerInfo,
    pub(crate) role: Role,
    pub(crate) out: Outbox,
}

/// Every connection at a table.
#[derive(Debug, Default)]
pub(crate) struct Members {
    members: HashMap<ConnId, Member>,
    /// The members dropped because their outbox was full or closed, until the table takes them
    /// ([`Members::take_dropped`]): their going is a departure the table must act on, as on a detach
    /// (the connection's own detach, coming later, finds no member).
    dropped: Vec<Member>,
}

impl Members {
    pub(crate) fn insert(&mut self, conn: ConnId, member: Member) {
        self.members.insert(conn, member);
    }

    pub(crate) fn remove(&mut self, conn: ConnId) -> Option<Member> {
        self.members.remove(&conn)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    pub(crate) fn get(&self, conn: ConnId) -> Option<&Member> {
        self.members.get(&conn)
    }

    pub(crate) fn spectators(&self) -> usize {
        self.members.values().filter(|m| m.role == Role::Spectator).count()
    }

    /// Whether any connection holds `role`.
    pub(crate) fn has_role(&self, role: Role) -> bool {
        self.members.values().any(|m| m.role == role)
    }

    /// Every member's role, changed by `remap` (the seats' new numbers at the start of a game).
    pub(crate) fn remap_roles(&mut self, mut remap: impl FnMut(&Member) -> Role) {
        for member in self.members.values_mut() {
            member.role = remap(member);
        }
    }

    /// Removes every connection of `player`, returning their outboxes.
    pub(crate) fn remove_player(&mut self, player: &PlayerInfo) -> Vec<Outbox> {
        let gone: Vec<ConnId> =
            self.members.iter().filter(|(_, m)| m.player.id == player.id).map(|(conn, _)| *conn).collect();
        gone.into_iter().filter_map(|conn| self.members.remove(&conn)).map(|m| m.out).collect()
    }

    /// Sends each member the message `build` makes for its role, serialized once per role; `build`
    /// returning `None` skips that role.
    pub(crate) fn send_by_role(&mut self, mut build: impl FnMut(Role) -> Option<ServerMsg>) {
        let mut cache: HashMap<Role, Option<Utf8Bytes>> = HashMap::new();
        let mut slow = Vec::new();
        for (conn, member) in &self.members {
            let text = cache.entry(member.role).or_insert_with(|| build(member.role).map(|m| m.to_json().into()));
            if let Some(text) = text {
                if !member.out.send(Outgoing::Text(text.clone())) {
                    slow.push(*conn);
                }
            }
        }
        self.drop_all(&slow);
    }

    /// Sends `msg` to every member.
    pub(crate) fn send_all(&mut self, msg: &ServerMsg) {
        let text: Utf8Bytes = msg.to_json().into();
        self.send_where(|_| true, &text);
    }

    /// Sends each member the message `build` makes for it (serialized for each member: for what
    /// differs from one member to the next, such as the chat without whom they muted).
    pub(crate) fn send_each(&mut self, mut build: impl FnMut(&Member) -> Option<ServerMsg>) {
        let slow: Vec<ConnId> = self
            .members
            .iter()
            .filter(|(_, m)| build(m).is_some_and(|msg| !m.out.send_msg(&msg)))
            .map(|(conn, _)| *conn)
            .collect();
        self.drop_all(&slow);
    }

    /// Sends `msg` to every member but `except`.
    pub(crate) fn send_all_but(&mut self, except: Option<ConnId>, msg: &ServerMsg) {
        let text: Utf8Bytes = msg.to_json().into();
        let slow: Vec<ConnId> = self
            .members
            .iter()
            .filter(|(conn, m)| Some(**conn) != except && !m.out.send(Outgoing::Text(text.clone())))
            .map(|(conn, _)| *conn)
            .collect();
        self.drop_all(&slow);
    }

    /// Sends `msg` to every connection of `role`.
    pub(crate) fn send_to_role(&mut self, role: Role, msg: &ServerMsg) {
        if self.has_role(role) {
            let text: Utf8Bytes = msg.to_json().into();
            self.send_where(|m| m.role == role, &text);
        }
    }

    /// Sends `messages` to one connection, in order; drops it when it cannot take them.
    pub(crate) fn send_to(&mut self, conn: ConnId, messages: &[ServerMsg]) {
        let Some(member) = self.members.get(&conn) else { return };
        if !messages.iter().all(|msg| member.out.send_msg(msg)) {
            self.drop_all(&[conn]);
        }
    }

    fn send_where(&mut self, to: impl Fn(&Member) -> bool, text: &Utf8Bytes) {
        let slow: Vec<ConnId> = self
            .members
            .iter()
            .filter(|(_, m)| to(m) && !m.out.send(Outgoing::Text(text.clone())))
            .map(|(conn, _)| *conn)
            .collect();
        self.drop_all(&slow);
    }

    fn drop_all(&mut self, conns: &[ConnId]) {
        for conn in conns {
            self.dropped.extend(self.members.remove(conn));
        }
    }

    /// The members dropped since the last call, for the table to act on their going.
    pub(crate) fn take_dropped(&mut self) -> Vec<Member> {
        std::mem::take(&mut self.dropped)
    }
}
