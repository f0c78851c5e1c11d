//! Tables brought back from the store after a restart: a waiting table with its seats, a game as it
//! stood after its last stored action.

use romirami_game::Seat;
use romirami_game::commitment::ShuffleProof;

use super::{Control, GameChoice, Now, Occupant, Phase, Play, Seating, Shared, TableCore, TableOptions};
use crate::protocol::PlayerInfo;
use crate::store::UnfinishedGame;
use crate::table::clock::TurnClock;

impl TableCore {
    /// A waiting table read back from the store after a restart, with its seats; its players have the
    /// usual grace to come back before it closes.
    ///
    /// # Errors
    /// When the server does not seat the table's game, or its options do not read.
    pub(crate) fn restored_waiting(
        stored: crate::store::WaitingTable,
        services: Shared,
        now: Now,
    ) -> Result<TableCore, String> {
        let crate::store::WaitingTable { table, seats } = stored;
        let options = TableOptions::of(&table);
        let game = GameChoice::of(&table, &services.config.games)?;
        let seating = Seating::from_occupants(
            seats
                .into_iter()
                .map(|seat| seat.map(|(player, bot)| Occupant { control: bot_control(player.id, bot), player }))
                .collect(),
        );
        let mut core =
            TableCore::new(table.id, table.invite, table.host, (options, game), seating, Phase::Waiting, services);
        core.lobby.reserve_hosting(core.host, usize::MAX);
        core.check_waiting(now);
        Ok(core)
    }

    /// A game read back from the store after a restart, as it stood after its last stored action. Its
    /// players get their seats back (the clock takes them over again if they do not come); the running
    /// turn starts afresh.
    ///
    /// # Errors
    /// When the stored game does not replay, or the server does not seat its game.
    pub(crate) fn restored(stored: UnfinishedGame, services: Shared, now: Now) -> Result<TableCore, String> {
        let UnfinishedGame { table, seed, salt, contributions, started_at, players, actions } = stored;
        if players.iter().zip(0u8..).any(|(p, seat)| p.seat != Seat(seat)) {
            return Err("the stored players are not seats 0 to n-1".into());
        }
        if salt.is_none() && !contributions.is_empty() {
            return Err("the stored game has contributions to its deal but no salt".into());
        }
        // The server's seed with the seats' contributions (none for a game dealt from it alone).
        let shuffle = salt.map(|salt| ShuffleProof::contributed(seed, salt, contributions));
        let dealt_from = shuffle.as_ref().map_or(seed, ShuffleProof::seed);
        let choice = GameChoice::of(&table, &services.config.games)?;
        let mut game = choice.kind.new_game(players.len(), dealt_from, &choice.options)?;
        let mut reserves = vec![None; players.len()];
        for (n, stored) in actions.iter().enumerate() {
            game.apply(stored.seat, &stored.action).map_err(|e| format!("stored action {n} is refused: {e}"))?;
            if let Some(reserve) = reserves.get_mut(stored.seat.index()) {
                *reserve = stored.reserve_ms.or(*reserve);
            }
        }
        let options = (TableOptions::of(&table), choice);
        let seating = Seating::from_occupants(
            players
                .into_iter()
                .map(|p| {
                    let control = bot_control(p.id, p.bot);
                    Some(Occupant { player: PlayerInfo { id: p.id, name: p.name }, control })
                })
                .collect(),
        );
        let play = Play {
            clock: options.0.clock.map(|clock| TurnClock::new(clock, reserves)),
            round: game.round(),
            pause_until: None,
            game,
            to_act: None,
            turn_ends_at: None,
            bot_due: None,
            thinking: false,
            choice_due: None,
            abandon_due: None,
            actions: u32::try_from(actions.len()).map_err(|_| "too many stored actions".to_owned())?,
            started_at,
            shuffle,
            contributed: None,
        };
        let over = play.game.is_over();
        let phase = if over { Phase::Finished(Box::new(play)) } else { Phase::Playing(Box::new(play)) };
        let mut core = TableCore::new(table.id, table.invite, table.host, options, seating, phase, services);
        if over {
            core.store_result(now);
        } else {
            // The host's count of open tables includes a game in play.
            core.lobby.reserve_hosting(core.host, usize::MAX);
        }
        if over {
        } else {
            core.reset_presence();
            core.turn_changed(now);
            // The turn is the one its player was told of when it started, not a new one: no push again.
            core.effects.retain(|effect| !matches!(effect, super::Effect::Notify(_)));
            // Nobody is connected yet: the players have the usual while to come back.
            core.check_presence(now);
        }
        Ok(core)
    }
}

/// Who plays a stored seat: its person, or the host's bot of the level whose player sits there (a bot
/// stored before bots had levels plays at `normal`).
fn bot_control(player: crate::protocol::PlayerId, bot: bool) -> Control {
    if bot {
        Control::Bot(crate::bots::level_of(player).unwrap_or(romirami_game::Level::Normal))
    } else {
        Control::Player
    }
}
