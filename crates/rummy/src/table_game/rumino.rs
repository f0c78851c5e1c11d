//! Rumino (`docs/rules/rumino.md`) as a [`TableGame`].

use crate::cards::RummyRng;
use romirami_game::{AnalysisScale, Outcome, RecordStep, Refusal, TableGame};
use serde::{Deserialize, Serialize};

use super::take_back::{self, ActionStyle, TableAction, TakeBacks, Undo};
use crate::record::{GameKind, RummyRecord};
use crate::rumino::{RuminoAction, RuminoEvent, RuminoIllegal, RuminoMatch, RuminoOptions, RuminoView};
use crate::seat::{MatchResult, Seat, Viewer};

/// Rumino's table options (rumino §2) as a host gives them: every key may be left out for its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuminoTableOptions {
    /// How many times each player may rebuy after being eliminated (rumino §9 step 4): 0, 1, 2, …;
    /// default 1.
    pub max_rebuys: u32,
}

impl Default for RuminoTableOptions {
    fn default() -> RuminoTableOptions {
        RuminoTableOptions { max_rebuys: RuminoOptions::default().max_rebuys }
    }
}

impl From<RuminoTableOptions> for RuminoOptions {
    fn from(table: RuminoTableOptions) -> RuminoOptions {
        RuminoOptions { max_rebuys: table.max_rebuys }
    }
}

fn refusal(illegal: RuminoIllegal) -> Refusal {
    let over = matches!(illegal, RuminoIllegal::MatchOver);
    let not_yours = matches!(illegal, RuminoIllegal::NotYourTurn { .. } | RuminoIllegal::NoSuchSeat { .. });
    super::refusal(illegal.to_string(), over, not_yours)
}

/// A Rumino match at a table: hands until one player is left, a rumino or three gins (rumino §9).
///
/// After a hand that eliminates players while two or more are still in, each eliminated player who may
/// rebuy is the seat to act, in the order of §9 step 4, with `rebuy: true` and `rebuy: false` as their
/// legal actions; the last choice deals the next hand. Otherwise the next hand is dealt inside the action
/// that ends one. `legal` is the complete list ([`RuminoMatch::legal_actions`]): at most 2 + 2 × 8.
impl TableGame for RuminoMatch {
    type Options = RuminoTableOptions;
    type Action = TableAction<RuminoAction>;
    type View = RuminoView;
    type Event = RuminoEvent;
    type Result = MatchResult;
    type Record = RummyRecord;

    const NAME: &'static str = "rumino";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=6;
    // The events do not say where a laid-off card sits in a meld, nor the turn's state: the table sends
    // the view after each batch of them.
    const EVENTS_CARRY_VIEW: bool = false;
    // A random discard or meld costs more here than a slip in Romi Rami or Rami (the easy bot won 1 to 6 % of
    // its games against normal at one slip in three, 11 to 20 % at one in six): slips are rarer.
    const EASY_SLIP_ONE_IN: u64 = 6;
    // A Rumino playout is short (a hand of seven-card turns), and 1,000 of them keep the decision's p99 under
    // 100 ms with four players (docs/performance.md): the searches of Rumino's four-player tables need
    // the worlds most, as each of the others' hands is a stranger.
    const STRONG_PLAYOUTS: u32 = 1_000;

    fn check_options(_: &RuminoTableOptions, players: usize) -> Result<(), String> {
        if !Self::SEATS.contains(&players) {
            return Err(format!("rumino §1: a match is for 2 to 6 players, not {players}"));
        }
        Ok(())
    }

    fn new(players: usize, seed: u64, options: &RuminoTableOptions) -> Result<RuminoMatch, String> {
        RuminoMatch::new(players, seed, RuminoOptions::from(*options)).map_err(|e| e.to_string())
    }

    fn to_act(&self) -> Option<Seat> {
        RuminoMatch::to_act(self)
    }

    fn check(&self, seat: Seat, action: &TableAction<RuminoAction>) -> Result<(), Refusal> {
        match action {
            TableAction::TakeBack => take_back::check(self, seat, Self::NAME, self.is_over()),
            TableAction::Play(action) => RuminoMatch::check(self, seat, action).map_err(refusal),
        }
    }

    fn apply(&mut self, seat: Seat, action: &TableAction<RuminoAction>) -> Result<(), Refusal> {
        match action {
            TableAction::TakeBack => take_back::take_back(self, seat, Self::NAME, self.is_over()),
            TableAction::Play(action) => {
                take_back::play(self, action, |game| RuminoMatch::apply(game, seat, action).map_err(refusal))
            }
        }
    }

    fn apply_checked(&mut self, seat: Seat, action: &TableAction<RuminoAction>) -> Result<(), Refusal> {
        match action {
            TableAction::TakeBack => take_back::take_back(self, seat, Self::NAME, self.is_over()),
            TableAction::Play(action) => take_back::play(self, action, |game| {
                RuminoMatch::apply_checked(game, seat, *action);
                Ok(())
            }),
        }
    }

    /// The match's legal actions, then `take_back` when a step of this turn may be taken back.
    fn legal(&self, seat: Seat) -> Vec<TableAction<RuminoAction>> {
        let mut legal: Vec<_> = self.legal_actions(seat).into_iter().map(TableAction::Play).collect();
        if take_back::can(self, seat) {
            legal.push(TableAction::TakeBack);
        }
        legal
    }

    fn bot(&self, seat: Seat) -> Option<TableAction<RuminoAction>> {
        (RuminoMatch::to_act(self) == Some(seat)).then(|| {
            TableAction::Play(crate::rumino::bot::choose(self, seat, &mut super::bot_rng(self.event_count(), seat)))
        })
    }

    fn undoes(action: &TableAction<RuminoAction>) -> bool {
        matches!(action, TableAction::TakeBack)
    }

    fn determinize(&self, seat: Seat, seed: u64) -> RuminoMatch {
        let mut world = self.clone();
        let mut rng = RummyRng::from_seed(seed);
        super::search::redeal(seat, &mut world.hands, &mut world.stock, &mut rng);
        world.source = crate::rumino::game::Source::Random(RummyRng::from_seed(rng.next_u64()));
        world.take_backs = super::take_back::TakeBacks::never();
        world
    }

    /// A seat out of the match has lost it; among the seats still in, the lower total is better.
    fn value(&self, seat: Seat, from: &RuminoMatch) -> f64 {
        if let Some(result) = RuminoMatch::result(self) {
            return super::search::value(seat, &self.totals, &from.totals, true, Some(&result.winners));
        }
        if !self.is_in(seat) {
            return 0.0;
        }
        let still_in: Vec<usize> = (0..self.players()).filter(|&i| self.is_in(Seat(i as u8))).collect();
        let pick = |totals: &[i64]| still_in.iter().map(|&i| totals[i]).collect::<Vec<i64>>();
        let at = still_in.iter().position(|&i| i == seat.index()).unwrap_or(0);
        super::search::value(Seat(at as u8), &pick(&self.totals), &pick(&from.totals), true, None)
    }

    fn playout_done(&self, from: &RuminoMatch) -> bool {
        self.is_over() || TableGame::round(self) != TableGame::round(from)
    }

    fn view(&self, viewer: Viewer) -> RuminoView {
        RuminoMatch::view(self, viewer)
    }

    fn event_count(&self) -> usize {
        RuminoMatch::event_count(self)
    }

    fn events_for(&self, viewer: Viewer, since: usize, limit: usize) -> Vec<(usize, RuminoEvent)> {
        RuminoMatch::events_for(self, viewer, since).take(limit).collect()
    }

    fn is_over(&self) -> bool {
        RuminoMatch::is_over(self)
    }

    /// Ends the match where it stands (a rebuy choice not yet made counts as staying out).
    fn abandon(&mut self) {
        RuminoMatch::abandon(self);
    }

    fn result(&self) -> Option<MatchResult> {
        RuminoMatch::result(self)
    }

    fn round(&self) -> usize {
        self.hand_logs().len()
    }

    /// A rebuy (rumino §9 step 4) is a choice, not a turn of play.
    fn choice(&self) -> bool {
        matches!(self.phase, crate::rumino::game::Phase::Rebuy { .. })
    }

    /// Places as [`RuminoMatch::result`] gives them (rumino §9: the winners first, then the players still
    /// in by total, the lowest first, then the players out by total); `details`: `total`, `rounds` (the
    /// seat's score in each hand scored, `null` for a hand it was not dealt in or that a rumino ended),
    /// `rebuys` (how many times it rebought) and `in` (whether it is still in).
    fn outcome(&self) -> Option<Outcome> {
        let result = RuminoMatch::result(self)?;
        let keys: Vec<(bool, bool, i64)> = (0..self.players())
            .map(|i| {
                let seat = Seat(i as u8);
                (!result.winners.contains(&seat), !self.is_in(seat), result.totals[i])
            })
            .collect();
        let places = romirami_game::places(&keys, |a, b| a < b);
        let mut rounds = vec![Vec::new(); self.players()];
        for scored in self.hand_logs().iter().filter_map(|hand| hand.result.as_ref()) {
            for (i, seat_rounds) in rounds.iter_mut().enumerate() {
                seat_rounds.push(scored.scores.iter().find(|s| s.seat.index() == i).map(|s| s.score));
            }
        }
        super::outcome(&result, places, &rounds, |i, details| {
            details.insert("rebuys".into(), self.rebuy_counts()[i].into());
            details.insert("in".into(), self.is_in(Seat(i as u8)).into());
        })
    }

    fn record(&self, meta: romirami_game::RecordMeta) -> Result<RummyRecord, String> {
        RuminoMatch::record(self, super::record_meta(meta)?).map_err(|e| e.to_string())
    }

    /// A record without a hand (abandoned before hand 1 ended, its hand left out) verifies but has no
    /// match to give back: it is refused here.
    fn replay_steps(
        record: &RummyRecord,
        each: &mut dyn FnMut(RecordStep<'_, RuminoMatch>),
    ) -> Result<RuminoMatch, String> {
        if record.game != GameKind::Rumino {
            return Err(format!("a {} record is not a rumino record", record.game));
        }
        record.check_shape().map_err(|e| e.to_string())?;
        let replayed = crate::rumino::replay_checked(record, &mut |before, seat, action, entry| {
            super::tell(each, before, seat, action, entry);
        });
        match replayed.map_err(|e| e.to_string())? {
            (Some(game), _) => Ok(game),
            (None, _) => Err("rumino: a record without a hand verifies, but holds no match to replay".to_owned()),
        }
    }

    fn entry_for(&self, seat: Seat, action: &TableAction<RuminoAction>) -> Option<serde_json::Value> {
        let mut game = self.clone();
        let hand = game.hand_logs.len().checked_sub(1)?;
        let at = game.hand_logs[hand].log.len();
        TableGame::apply(&mut game, seat, action).ok()?;
        let entry = game.hand_logs.get(hand)?.log.get(at)?;
        serde_json::to_value(crate::rumino::record::log_entry(entry)).ok()
    }

    const ANALYSIS: AnalysisScale = super::search::ANALYSIS;

    /// Among the seats still in, as [`TableGame::value`] counts them: a seat out of the match has lost
    /// the most the round could cost it, so it counts its gain as the others'.
    fn analysis_value(&self, seat: Seat, from: &RuminoMatch) -> f64 {
        let still_in: Vec<usize> =
            (0..self.players()).filter(|&i| self.is_in(Seat(i as u8)) || i == seat.index()).collect();
        let pick = |totals: &[i64]| still_in.iter().map(|&i| totals[i]).collect::<Vec<i64>>();
        let at = still_in.iter().position(|&i| i == seat.index()).unwrap_or(0);
        super::search::points_lead(Seat(at as u8), &pick(&self.totals), &pick(&from.totals), true)
    }
}

impl ActionStyle for RuminoAction {
    const TAGGED: bool = true;
}

impl Undo for RuminoMatch {
    type Action = RuminoAction;
    type Event = crate::rumino::view::Event;

    const FINAL: &'static str = "a card was drawn from the stock (rumino §6 b)";

    fn undo_parts(&mut self) -> (&mut Vec<crate::rumino::view::Event>, &mut TakeBacks<RuminoMatch, RuminoAction>) {
        (&mut self.events, &mut self.take_backs)
    }

    fn take_backs(&self) -> &TakeBacks<RuminoMatch, RuminoAction> {
        &self.take_backs
    }

    fn turn(&self) -> (usize, Option<Seat>) {
        (self.hand_logs().len(), RuminoMatch::to_act(self))
    }

    fn reveals(&self, action: &RuminoAction) -> bool {
        self.reveals_hidden(action)
    }

    fn took_back(seat: Seat, action: RuminoAction) -> crate::rumino::view::Event {
        crate::rumino::view::Event::TookBack { seat, action }
    }
}
