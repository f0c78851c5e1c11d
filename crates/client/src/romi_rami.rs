//! The protocol's messages with Romi Rami's payloads, as a Romi Rami client reads and writes them: its
//! actions, its views, its events, its legal actions and its result. The protocol itself names no game
//! (`romirami-protocol`'s messages take a game's payloads as type parameters); a client of another
//! game names its own types the same way, or reads them as JSON.

use romirami_engine::{Action, GameResult, View, VisibleEvent};

/// A message from the server at a Romi Rami table.
pub type ServerMsg = romirami_protocol::ServerMsg<Box<View>, VisibleEvent, Vec<Action>, GameResult>;

/// A message from a Romi Rami client.
pub type ClientMsg = romirami_protocol::ClientMsg<Action>;

/// One of Romi Rami's events with its number at the table.
pub type NumberedEvent = romirami_protocol::NumberedEvent<VisibleEvent>;

#[cfg(test)]
mod tests {
    use romirami_engine::{Game, Seat, Viewer};
    use romirami_protocol::{
        PlayerId, PlayerInfo, Presence, ROMI_RAMI, Role, SpectatorPolicy, TableId, TableState, TableSummary,
        parse_client_msg,
    };
    use uuid::Uuid;

    use super::*;

    #[test]
    fn server_messages_read_back_as_they_were_written() {
        let game = Game::new(3, 9).expect("3 players");
        let table = TableSummary {
            id: TableId(Uuid::nil()),
            game: ROMI_RAMI.into(),
            state: TableState::Playing,
            host: PlayerId(Uuid::nil()),
            public: true,
            spectators: SpectatorPolicy::Everyone,
            seats: vec![None, Some(PlayerInfo { id: PlayerId(Uuid::nil()), name: "Ana".into() }), None],
            spectator_count: 2,
            clock: None,
            bots: vec![false; 3],
            levels: Vec::new(),
            presence: vec![None, Some(Presence::Away), None],
            shuffle: Some("8172b88cfc15a4642043f9a7e644221bd959cd1057625a00a13e07b037182384".into()),
            contributions: Some(romirami_protocol::Contributions {
                seats: vec![romirami_protocol::ContributionFrom::Player, romirami_protocol::ContributionFrom::Server],
                remaining_ms: None,
            }),
            options: Some(serde_json::json!({})),
            rated: true,
            tournament: None,
            to_act: None,
            turn_ends_at: None,
        };
        let messages = [
            ServerMsg::Table {
                table,
                role: Role::Seat(Seat(1)),
                view: Some(Box::new(game.view(Viewer::Seat(Seat(1))))),
            },
            ServerMsg::Events {
                table: TableId(Uuid::nil()),
                events: game.events_for(Viewer::Spectator, 0).map(|(n, event)| NumberedEvent { n, event }).collect(),
            },
            ServerMsg::History {
                table: TableId(Uuid::nil()),
                events: game
                    .events_for(Viewer::Seat(Seat(0)), 0)
                    .map(|(n, event)| NumberedEvent { n, event })
                    .collect(),
            },
            ServerMsg::YourTurn { table: TableId(Uuid::nil()), legal: game.legal_actions(game.to_act().expect("on")) },
        ];
        for msg in messages {
            let json = msg.to_json();
            let back: ServerMsg = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
            assert_eq!(back, msg);
        }
    }

    #[test]
    fn every_client_message_reads_back() {
        let game = Game::new(2, 1).expect("2 players");
        for action in game.legal_actions(game.to_act().expect("on")) {
            let msg = ClientMsg::Act { table: TableId(Uuid::nil()), id: 1, action };
            let json = serde_json::to_string(&msg).expect("serializes");
            assert_eq!(parse_client_msg(&json), Ok(msg), "{json}");
        }
        let history = ClientMsg::History { table: TableId(Uuid::nil()), from: 7 };
        assert_eq!(parse_client_msg(&serde_json::to_string(&history).expect("serializes")), Ok(history));
        let pass = ClientMsg::Act { table: TableId(Uuid::nil()), id: 2, action: Action::Pass };
        assert_eq!(parse_client_msg(&serde_json::to_string(&pass).expect("serializes")), Ok(pass));
    }
}
