//! How the rest of the server speaks to a table: a [`TableHandle`] sends [`TableCommand`]s, each from a
//! [`Sender`] (a connection and its outbox). Apart from the table's core and shell, so that whoever holds
//! handles (the lobby, the cluster's forwarding) depends on these and nothing of how a table runs.

use romirami_game::Seat;
use tokio::sync::mpsc;

use super::outbox::{ConnId, Outbox};
use crate::protocol::{PlayerInfo, TableId};

/// Who sends a command: a connection, with its player and its outbox.
#[derive(Clone, Debug)]
pub struct Sender {
    /// The connection.
    pub conn: ConnId,
    /// The player it speaks for.
    pub player: PlayerInfo,
    /// Where answers go.
    pub out: Outbox,
}

/// A request to a table.
#[derive(Debug)]
pub enum TableCommand {
    /// Sit down, or come back to one's seat.
    Join {
        /// Who.
        from: Sender,
        /// The invite key, if the client has the link.
        invite: Option<String>,
        /// Events the client already has.
        since: Option<usize>,
    },
    /// Watch.
    Watch {
        /// Who.
        from: Sender,
        /// The invite key, if the client has the link.
        invite: Option<String>,
        /// Events the client already has.
        since: Option<usize>,
    },
    /// Stop watching, or give up one's seat before the start.
    Leave {
        /// Who.
        from: Sender,
    },
    /// The connection closed: it is no longer a member (a seat stays its player's).
    Detach {
        /// The connection.
        conn: ConnId,
    },
    /// The host starts the game.
    Start {
        /// Who.
        from: Sender,
    },
    /// A member asks for earlier events, for its log.
    History {
        /// Who.
        from: Sender,
        /// The first event wanted.
        from_event: usize,
    },
    /// The host frees a seat before the start.
    Kick {
        /// Who.
        from: Sender,
        /// The seat.
        seat: Seat,
    },
    /// The host gives the first free seat to a bot before the start.
    AddBot {
        /// Who.
        from: Sender,
        /// How well the bot plays.
        level: romirami_game::Level,
    },
    /// Play an action.
    Act {
        /// Who.
        from: Sender,
        /// The client's id for the action.
        id: u64,
        /// The action, as JSON for the table's game to read.
        action: serde_json::Value,
    },
    /// Say something in the table's chat.
    Chat {
        /// Who.
        from: Sender,
        /// What, as the client sent it (the table checks it).
        text: String,
    },
    /// Mute another player's chat for oneself, or hear them again.
    Mute {
        /// Who.
        from: Sender,
        /// Whom.
        player: crate::protocol::PlayerId,
        /// Mute, or hear again.
        muted: bool,
    },
    /// A seated player's contribution to the deal, while the game starts.
    Contribute {
        /// Who.
        from: Sender,
        /// The 32 bytes.
        value: romirami_game::commitment::Contribution,
    },
    /// A player of the finished game says yes (or no) to playing again.
    Rematch {
        /// Who.
        from: Sender,
        /// Yes, or no.
        accept: bool,
    },
    /// An admin's act, which the REST API allowed (`api/moderation.rs`): never sent by a client.
    Moderate {
        /// The admin.
        from: Sender,
        /// What.
        act: ModerationAct,
    },
}

impl TableCommand {
    /// The connection that sent the command, for the ones that expect an answer.
    pub(crate) fn sender(&self) -> Option<&Sender> {
        match self {
            TableCommand::Join { from, .. }
            | TableCommand::Watch { from, .. }
            | TableCommand::Leave { from }
            | TableCommand::Start { from }
            | TableCommand::Kick { from, .. }
            | TableCommand::AddBot { from, .. }
            | TableCommand::History { from, .. }
            | TableCommand::Act { from, .. }
            | TableCommand::Chat { from, .. }
            | TableCommand::Mute { from, .. }
            | TableCommand::Contribute { from, .. }
            | TableCommand::Rematch { from, .. }
            | TableCommand::Moderate { from, .. } => Some(from),
            TableCommand::Detach { .. } => None,
        }
    }
}

/// What an admin does at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ModerationAct {
    /// Forget a chat line, which the store no longer has: every member reads the chat again without it.
    RemoveChat {
        /// Its chat.
        channel: crate::protocol::ChatChannel,
        /// Its number there.
        n: u64,
    },
    /// Close the table: a game in play ends as abandoned, a waiting table closes.
    Close,
}

/// A cheap handle on a table's task.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// The table's id.
    pub id: TableId,
    commands: mpsc::Sender<TableCommand>,
}

impl TableHandle {
    /// A handle whose commands go to `commands`: a table's task, or (in a cluster) the task that forwards
    /// them to the node that runs the table.
    pub(crate) fn new(id: TableId, commands: mpsc::Sender<TableCommand>) -> TableHandle {
        TableHandle { id, commands }
    }

    /// Whether whoever took the commands has stopped.
    pub(crate) fn is_closed(&self) -> bool {
        self.commands.is_closed()
    }

    /// Sends a command to the table; false when the table is gone.
    pub async fn send(&self, command: TableCommand) -> bool {
        self.commands.send(command).await.is_ok()
    }

    /// Sends a command to the table, or gives it back when the table is gone.
    ///
    /// # Errors
    /// The command, when the table's task has ended.
    pub async fn send_or_return(&self, command: TableCommand) -> Result<(), TableCommand> {
        self.commands.send(command).await.map_err(|returned| returned.0)
    }
}
