//! What a connection does with each message it reads: `hello` makes or finds its player, lobby requests
//! go to the lobby, and table requests to the table's task — on this node, or forwarded to the node that
//! owns the table — or, for a table whose task has ended, are answered from the store.

use axum::extract::ws::close_code;
use tracing::{debug, warn};

use crate::protocol::{ErrorCode, Limits, PROTOCOL_VERSION, TableId, parse_client_msg};
use crate::table::{self, Sender, TableCommand, TableOptions};
use crate::text::clean_name;
use crate::wire::{ClientMsg, ServerMsg};

use super::{Close, Connection};

impl Connection {
    pub(super) fn send(&self, message: ServerMsg) {
        self.outbox.send_msg(&message);
    }

    /// Counts a bad message; the connection closes when they come too often.
    fn strike(&mut self, message: ServerMsg) -> Result<(), Close> {
        self.send(message);
        if self.strikes.take() {
            Ok(())
        } else {
            Err(Close { code: close_code::POLICY, reason: "too many bad messages", flush: true })
        }
    }

    pub(super) fn subscribe_lobby(&mut self) -> bool {
        let (list, receiver) = self.state.lobby.subscribe();
        self.lobby = Some(receiver);
        self.outbox.send_msg(&list)
    }

    /// Follows the tournament `id`: its view now, and its changes.
    pub(super) async fn follow_tournament(&mut self, id: uuid::Uuid) {
        // Subscribed before the view is read, so that no change falls between them.
        let receiver = self.state.tournaments.follow(id);
        match crate::tournament::Tournaments::view(&self.state.services(), id).await {
            Ok(view) => {
                self.tournament = Some((id, receiver));
                self.outbox.send(crate::table::Outgoing::Text(crate::tournament::view_message(&view)));
            }
            Err(crate::store::StoreError::NotFound) => {
                self.tournament = None;
                self.send(ServerMsg::error(None, None, ErrorCode::NoSuchTournament, "there is no such tournament"));
            }
            Err(_) => {
                self.send(ServerMsg::error(None, None, ErrorCode::Unavailable, crate::table::UNAVAILABLE));
            }
        }
    }

    pub(super) async fn on_text(&mut self, text: &str) -> Result<(), Close> {
        if !self.rate.take() {
            return self.strike(ServerMsg::error(None, None, ErrorCode::RateLimited, "too many messages; slow down"));
        }
        let msg: ClientMsg = match parse_client_msg(text) {
            Ok(msg) => msg,
            Err(reason) => return self.strike(ServerMsg::error(None, None, ErrorCode::Malformed, reason)),
        };
        let Some(player) = self.player.clone() else {
            return self.hello(msg).await;
        };
        let from = Sender { conn: self.id, player: player.clone(), out: self.outbox.clone() };
        match msg {
            ClientMsg::Hello { .. } => {
                self.strike(ServerMsg::error(None, None, ErrorCode::AlreadyGreeted, "you already said hello"))
            }
            ClientMsg::LobbySubscribe => {
                self.subscribe_lobby();
                Ok(())
            }
            ClientMsg::LobbyUnsubscribe => {
                self.lobby = None;
                Ok(())
            }
            ClientMsg::TournamentSubscribe { tournament } => {
                self.follow_tournament(tournament).await;
                Ok(())
            }
            ClientMsg::TournamentUnsubscribe => {
                self.tournament = None;
                Ok(())
            }
            ClientMsg::CreateTable { seats, public, spectators, clock, game, options, rated } => {
                let games = &self.state.config.games;
                let game = match table::GameChoice::choose(games, game.as_deref(), options.as_ref(), seats) {
                    Ok(game) => game,
                    Err(message) => return self.strike(ServerMsg::error(None, None, ErrorCode::BadOptions, message)),
                };
                // Checked before the table is made, so a burst of creates may pass it by a few: a bound on
                // memory, not an exact count.
                if self.state.lobby.table_count() >= self.state.config.max_live_tables {
                    self.send(ServerMsg::error(
                        None,
                        None,
                        ErrorCode::ServerFull,
                        "the server has as many tables as it can hold; join one, or try again later",
                    ));
                    return Ok(());
                }
                let options =
                    TableOptions { seats, public, spectators, clock, rated: rated.unwrap_or(true), tournament: None };
                // Boxed: creating a table waits on the store, and that future is the largest here; inline,
                // every message's (boxed) handling would carry its room, hellos and moves included.
                match Box::pin(table::create(options, game, player, &self.state.services())).await {
                    Ok(created) => {
                        self.tables.insert(created.handle.id, created.handle.clone());
                        self.send(ServerMsg::TableCreated { table: created.summary, invite: created.invite.clone() });
                        created
                            .handle
                            .send(TableCommand::Join { from, invite: Some(created.invite), since: None })
                            .await;
                        Ok(())
                    }
                    Err((ErrorCode::Unavailable, message)) => {
                        self.send(ServerMsg::error(None, None, ErrorCode::Unavailable, message));
                        Ok(())
                    }
                    Err((code, message)) => self.strike(ServerMsg::error(None, None, code, message)),
                }
            }
            ClientMsg::Join { table, invite, since } => {
                self.forward(table, None, TableCommand::Join { from, invite, since }).await
            }
            ClientMsg::Watch { table, invite, since } => {
                self.forward(table, None, TableCommand::Watch { from, invite, since }).await
            }
            ClientMsg::Leave { table } => {
                let result = self.forward(table, None, TableCommand::Leave { from }).await;
                self.tables.remove(&table);
                result
            }
            ClientMsg::Start { table } => self.forward(table, None, TableCommand::Start { from }).await,
            ClientMsg::Kick { table, seat } => self.forward(table, None, TableCommand::Kick { from, seat }).await,
            ClientMsg::AddBot { table, level } => self.forward(table, None, TableCommand::AddBot { from, level }).await,
            ClientMsg::History { table, from: from_event } => {
                self.forward(table, None, TableCommand::History { from, from_event }).await
            }
            // The table's game reads the action (once) into its own type, and refuses it as `malformed`
            // when it is not one of its actions.
            ClientMsg::Act { table, id, action } => {
                self.forward(table, Some(id), TableCommand::Act { from, id, action }).await
            }
            ClientMsg::Chat { table, text } => self.forward(table, None, TableCommand::Chat { from, text }).await,
            ClientMsg::Mute { table, player, muted } => {
                self.forward(table, None, TableCommand::Mute { from, player, muted }).await
            }
            ClientMsg::Contribute { table, value } => match romirami_game::commitment::contribution_from_hex(&value) {
                Some(value) => self.forward(table, None, TableCommand::Contribute { from, value }).await,
                None => self.strike(ServerMsg::error(
                    Some(table),
                    None,
                    ErrorCode::BadContribution,
                    "a contribution is 32 random bytes as 64 lower-case hex digits",
                )),
            },
            ClientMsg::Rematch { table, accept } => {
                self.forward(table, None, TableCommand::Rematch { from, accept }).await
            }
        }
    }

    async fn hello(&mut self, msg: ClientMsg) -> Result<(), Close> {
        let ClientMsg::Hello { protocol, token, name } = msg else {
            return self.strike(ServerMsg::error(None, None, ErrorCode::HelloFirst, "say hello first"));
        };
        if protocol != PROTOCOL_VERSION {
            return self.strike(ServerMsg::error(
                None,
                None,
                ErrorCode::UnsupportedProtocol,
                format!("this server speaks protocol {PROTOCOL_VERSION}, not {protocol}"),
            ));
        }
        let outcome = match (token.as_deref(), name) {
            (Some(token), _) => match self.state.players.authenticate(token).await {
                Ok(Some(player)) => Ok((player, None)),
                Ok(None) => {
                    return self.strike(ServerMsg::error(
                        None,
                        None,
                        ErrorCode::BadToken,
                        "that token is not known here",
                    ));
                }
                Err(error) => Err(error),
            },
            (None, Some(name)) => match clean_name(&name) {
                Ok(name) => match self.state.names.is_kept(&name).await {
                    Ok(true) => {
                        // Not a bad message: the client asks its user for another name.
                        self.send(ServerMsg::error(
                            None,
                            None,
                            ErrorCode::NameTaken,
                            "another player keeps this name; choose another, or sign in if it is yours",
                        ));
                        return Ok(());
                    }
                    Ok(false) if !self.state.addresses.take_guest(self.address, &self.state.config) => {
                        self.send(ServerMsg::error(
                            None,
                            None,
                            ErrorCode::TooManyGuests,
                            "too many new players from your address; try again in a minute, or come back with your token",
                        ));
                        return Ok(());
                    }
                    Ok(false) => {
                        self.state.players.create_guest(name).await.map(|(player, token)| (player, Some(token)))
                    }
                    Err(error) => Err(error),
                },
                Err(reason) => return self.strike(ServerMsg::error(None, None, ErrorCode::BadName, reason)),
            },
            (None, None) => {
                return self.strike(ServerMsg::error(
                    None,
                    None,
                    ErrorCode::BadName,
                    "send a token, or a name for a new guest",
                ));
            }
        };
        let (player, new_token) = match outcome {
            Ok(found) => found,
            Err(error) => {
                warn!(%error, "a hello could not be answered from the store");
                self.send(ServerMsg::error(
                    None,
                    None,
                    ErrorCode::Unavailable,
                    "the server cannot reach its database; try again in a moment",
                ));
                return Ok(());
            }
        };
        if let Some(ban) = self.state.moderation.ban_of(player.id) {
            // Not a bad message: the client shows why, and the time left.
            self.send(ServerMsg::error(None, None, ErrorCode::Banned, ban.sentence()));
            return Ok(());
        }
        let config = &self.state.config;
        let limits = Limits {
            max_message_bytes: config.max_message_bytes,
            messages_per_second: config.messages_per_second,
            message_burst: config.message_burst,
        };
        let token_hash = match (&new_token, &token) {
            (Some(given), _) | (None, Some(given)) => Some(crate::players::hash_token(given)),
            (None, None) => None,
        };
        self.send(ServerMsg::Welcome { protocol: PROTOCOL_VERSION, player: player.clone(), token: new_token, limits });
        // Where the player connects from, for the collusion signal: after the welcome (the hello waits for none
        // of it) and before the connection's next message (so it is noted before the player sits anywhere); a
        // failure costs only that note.
        let key = crate::addresses::address_key(self.address);
        if let Err(error) = self.state.store.note_address(player.id, &key).await {
            tracing::warn!(%error, "a player's address could not be noted");
        }
        self.player = Some(player);
        self.token_hash = token_hash;
        self.sign_outs = Some(self.state.players.watch_sign_outs());
        Ok(())
    }

    /// Hands a request to its table, remembering the table so the connection can detach from it.
    async fn forward(&mut self, table: TableId, id: Option<u64>, command: TableCommand) -> Result<(), Close> {
        // This connection's table, else wherever it lives: another node's (its commands go there,
        // cluster/forward.rs), or a turn-based table asleep, woken for its visitor (table/sleep.rs).
        let mut handle = self.tables.get(&table).cloned();
        if handle.is_none() {
            handle = match self.state.live_table(table).await {
                Ok(live) => live,
                Err(error) => {
                    warn!(%table, %error, "a sleeping table could not be woken");
                    self.send(ServerMsg::error(Some(table), id, ErrorCode::Unavailable, crate::table::UNAVAILABLE));
                    return Ok(());
                }
            };
        }
        let Some(handle) = handle else {
            if self.answer_from_store(table, &command).await {
                return Ok(());
            }
            return self.strike(ServerMsg::error(Some(table), id, ErrorCode::NoSuchTable, "there is no such table"));
        };
        let joins = matches!(command, TableCommand::Join { .. } | TableCommand::Watch { .. });
        // The command comes back when the table's task has ended (its game finished, say).
        match handle.send_or_return(command).await {
            Ok(()) => {
                if joins {
                    self.tables.insert(table, handle);
                }
            }
            Err(command) => {
                debug!(%table, "the table's task has ended");
                self.tables.remove(&table);
                // It may have fallen asleep just now (a turn-based table): then it wakes for this command.
                if let Ok(Some(woken)) = table::sleep::wake(&self.state.services(), table).await {
                    if let Err(command) = woken.send_or_return(command).await {
                        if let Some(from) = command.sender() {
                            let gone =
                                ServerMsg::error(Some(table), id, ErrorCode::NoSuchTable, "there is no such table");
                            from.out.send_msg(&gone);
                        }
                    } else if joins {
                        self.tables.insert(table, woken);
                    }
                    return Ok(());
                }
                if !self.answer_from_store(table, &command).await {
                    self.send(ServerMsg::error(Some(table), id, ErrorCode::NoSuchTable, "there is no such table"));
                }
            }
        }
        Ok(())
    }

    /// A `join` or `watch` of a table whose task has ended: a finished game is answered from the store.
    /// Returns whether it was.
    async fn answer_from_store(&self, table: TableId, command: &TableCommand) -> bool {
        match command {
            TableCommand::Join { from, invite, .. } => {
                table::finished::answer(
                    (&self.state.store, &self.state.config.games),
                    table,
                    from,
                    invite.as_deref(),
                    false,
                )
                .await
            }
            TableCommand::Watch { from, invite, .. } => {
                table::finished::answer(
                    (&self.state.store, &self.state.config.games),
                    table,
                    from,
                    invite.as_deref(),
                    true,
                )
                .await
            }
            _ => false,
        }
    }
}
