//! Romi Rami as a [`TableGame`]: how the server seats it.

use romirami_game::{AnalysisScale, Outcome, RecordStep, Refusal, RefusalKind, SeatOutcome, TableGame, places};
use serde::{Deserialize, Serialize};

use crate::{Action, Game, GameResult, IllegalAction, Record, RecordMeta, Seat, View, Viewer, VisibleEvent};

/// Romi Rami's table options: none, the rule book has no variants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RomiRamiOptions {}

fn refusal(illegal: IllegalAction) -> Refusal {
    let kind = match illegal {
        IllegalAction::GameOver => RefusalKind::GameOver,
        IllegalAction::NotYourTurn { .. } => RefusalKind::NotYourTurn,
        _ => RefusalKind::Illegal,
    };
    Refusal::new(kind, illegal.to_string())
}

impl TableGame for Game {
    type Options = RomiRamiOptions;
    type Action = Action;
    type View = View;
    type Event = VisibleEvent;
    type Result = GameResult;
    type Record = Record;

    const NAME: &'static str = "romi-rami";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=4;

    fn check_options(_: &RomiRamiOptions, _: usize) -> Result<(), String> {
        Ok(())
    }

    fn new(players: usize, seed: u64, _: &RomiRamiOptions) -> Result<Game, String> {
        Game::new(players, seed).map_err(|e| e.to_string())
    }

    fn to_act(&self) -> Option<Seat> {
        Game::to_act(self)
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), Refusal> {
        Game::check(self, seat, action).map_err(refusal)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), Refusal> {
        Game::apply(self, seat, action).map(|_| ()).map_err(refusal)
    }

    fn apply_checked(&mut self, seat: Seat, action: &Action) -> Result<(), Refusal> {
        // The check was nearly half of `apply`'s cost (debug builds still make it).
        self.apply_listed(seat, action);
        Ok(())
    }

    fn legal(&self, seat: Seat) -> Vec<Action> {
        self.legal_actions(seat)
    }

    fn bot(&self, seat: Seat) -> Option<Action> {
        crate::bot::choose(&self.legal_actions(seat))
    }

    fn undoes(action: &Action) -> bool {
        matches!(action, Action::TakeBack)
    }

    fn determinize(&self, seat: Seat, seed: u64) -> Game {
        self.determinized(seat, seed)
    }

    fn value(&self, seat: Seat, _: &Game) -> f64 {
        self.value_for(seat)
    }

    fn view(&self, viewer: Viewer) -> View {
        Game::view(self, viewer)
    }

    fn event_count(&self) -> usize {
        Game::event_count(self)
    }

    fn events_for(&self, viewer: Viewer, since: usize, limit: usize) -> Vec<(usize, VisibleEvent)> {
        Game::events_for(self, viewer, since).take(limit).collect()
    }

    fn is_over(&self) -> bool {
        Game::is_over(self)
    }

    fn abandon(&mut self) {
        Game::abandon(self);
    }

    fn result(&self) -> Option<GameResult> {
        Game::result(self)
    }

    /// Scores in seat order; places by total, then suit bonus (§5: the tie-break).
    fn outcome(&self) -> Option<Outcome> {
        let result = Game::result(self)?;
        let mut scores = result.scores.clone();
        scores.sort_by_key(|score| score.seat);
        let places = places(&scores, |a, b| (a.total, a.suit_bonus) > (b.total, b.suit_bonus));
        let ended_by = serde_json::to_value(result.ended_by).ok()?.as_str()?.to_owned();
        let seats = scores
            .iter()
            .zip(places)
            .map(|(score, place)| SeatOutcome {
                score: i64::from(score.total),
                place,
                winner: result.winners.contains(&score.seat),
                details: serde_json::to_value(score).unwrap_or_default(),
            })
            .collect();
        Some(Outcome { ended_by, seats })
    }

    fn record(&self, meta: RecordMeta) -> Result<Record, String> {
        Game::record(self, meta).map_err(|e| e.to_string())
    }

    fn replay_steps(record: &Record, each: &mut dyn FnMut(RecordStep<'_, Game>)) -> Result<Game, String> {
        // `verify`, not `replay`: it checks the result too and ends an abandoned game as such, so the game
        // given back is over, as the trait promises (a plain replay stops at the last move, still in play).
        record
            .verify_with(&mut |before, seat, action, entry| {
                let entry = serde_json::to_value(entry).unwrap_or_default();
                each(RecordStep { before, seat, action, entry });
            })
            .map_err(|e| e.to_string())
    }

    fn entry_for(&self, seat: Seat, action: &Action) -> Option<serde_json::Value> {
        let mut game = self.clone();
        let at = game.log.len();
        Game::apply(&mut game, seat, action).ok()?;
        game.log.get(at).and_then(|entry| serde_json::to_value(entry).ok())
    }

    /// The final lead in points: the seat's total at the end of the game minus the best of the others'
    /// (a playout of Romi Rami goes to the end of the game). Steadier than the chance of winning, which
    /// a playout counts as all or nothing.
    const ANALYSIS: AnalysisScale = AnalysisScale { unit: "points", thresholds: [2.0, 5.0, 10.0] };

    fn analysis_value(&self, seat: Seat, _: &Game) -> f64 {
        self.points_lead(seat)
    }
}
