//! Finished tables, from the store.
//!
//! A finished table's task ends once its game's result is stored and nobody is at it, so that a finished
//! game costs no memory while nobody looks at it. Someone who opens it afterwards — a player's reload, a spectator following a
//! link — gets what the live table would have sent: the final `table`, with the view their role may see
//! (every part is revealed once the game is over) and the result. The same rules as at the live table
//! decide who may see it. A finished table whose players played again answers with their new table
//! (`rematch_started`) instead.

use romirami_game::{Games, Viewer};

use super::handle::Sender;
use crate::protocol::{ErrorCode, PlayerInfo, Role, SpectatorPolicy, TableId, TableState, TableSummary};
use crate::store::{Store, StoreError};
use crate::wire::ServerMsg;

/// Answers a `join` (`watch` false) or a `watch` of the table `id` whose task has ended, from the store.
/// Returns false, having sent nothing, when the store holds no finished game of that table (it never
/// existed, or closed before its start): the caller then says there is no such table.
pub(crate) async fn answer(
    (store, games): (&Store, &Games),
    id: TableId,
    from: &Sender,
    invite: Option<&str>,
    watch: bool,
) -> bool {
    let finished = match store.finished_table(id).await {
        Ok(finished) => finished,
        Err(StoreError::NotFound) => return false,
        Err(error) => {
            tracing::warn!(table = %id, %error, "a finished table could not be read");
            let message = "the server cannot reach its database right now; try again in a moment";
            from.out.send_msg(&ServerMsg::error(Some(id), None, ErrorCode::Unavailable, message));
            return true;
        }
    };
    let table = &finished.table;
    let seat = finished.players.iter().find(|p| p.id == from.player.id).map(|p| p.seat);
    let has_link = invite == Some(table.invite.as_str());
    let may_watch = (table.public || has_link)
        && match table.spectators {
            SpectatorPolicy::Everyone => true,
            SpectatorPolicy::Link => has_link,
            SpectatorPolicy::Nobody => false,
        };
    // Whoever may see the finished game and its players played again is led to their new table.
    if seat.is_some() || may_watch {
        match store.rematch(id).await {
            Ok(Some(rematch)) => {
                from.out.send_msg(&ServerMsg::RematchStarted { table: id, rematch });
                return true;
            }
            Ok(None) => {}
            Err(error) => tracing::warn!(table = %id, %error, "a finished table's rematch could not be read"),
        }
    }
    let role = match seat {
        Some(seat) => Role::Seat(seat),
        None if !table.public && !has_link => return false,
        None if !watch => {
            let message = "the game has started; you can watch it";
            from.out.send_msg(&ServerMsg::error(Some(id), None, ErrorCode::AlreadyStarted, message));
            return true;
        }
        None => {
            if !may_watch {
                let message = "this table does not let you watch";
                from.out.send_msg(&ServerMsg::error(Some(id), None, ErrorCode::SpectatingNotAllowed, message));
                return true;
            }
            Role::Spectator
        }
    };
    let replayed = match games.get(&table.game) {
        Some(kind) => kind.replay(&finished.record),
        None => Err(format!("this server has no game {:?}", table.game)),
    };
    let game = match replayed {
        Ok(game) => game,
        Err(error) => {
            tracing::error!(table = %id, %error, "a stored record does not replay");
            from.out.send_msg(&ServerMsg::error(Some(id), None, ErrorCode::Internal, "the game could not be read"));
            return true;
        }
    };
    let viewer = match role {
        Role::Seat(seat) => Viewer::Seat(seat),
        Role::Spectator => Viewer::Spectator,
    };
    let summary = TableSummary {
        id,
        game: table.game.clone(),
        state: TableState::Finished,
        host: table.host,
        public: table.public,
        spectators: table.spectators,
        seats: finished.players.iter().map(|p| Some(PlayerInfo { id: p.id, name: p.name.clone() })).collect(),
        spectator_count: 0,
        contributions: None,
        clock: table.clock,
        bots: finished.players.iter().map(|p| p.bot).collect(),
        levels: finished.players.iter().map(|p| p.level()).collect(),
        shuffle: commitment(&finished.record),
        options: serde_json::from_str(&table.options).ok(),
        // Nobody is at a closed table: where its players are is not told.
        presence: Vec::new(),
        rated: table.rated,
        tournament: table.tournament,
        to_act: None,
        turn_ends_at: None,
    };
    from.out.send_msg(&ServerMsg::Table { table: summary, role, view: Some(game.view(viewer)) });
    true
}

/// The commitment a stored record carries (its `commitment` field, both record formats), as the live
/// table sent it; `None` for a record without a shuffle proof.
fn commitment(record: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Proof {
        commitment: Option<String>,
    }
    serde_json::from_str::<Proof>(record).ok()?.commitment
}
