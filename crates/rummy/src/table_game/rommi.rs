//! Rommi (`docs/rules/rommi.md`) as a [`TableGame`].

use crate::cards::RummyRng;
use romirami_game::{AnalysisScale, Outcome, RecordStep, Refusal, TableGame};
use serde::{Deserialize, Serialize};

use super::take_back::{self, ActionStyle, TableAction, TakeBacks, Undo};
use crate::record::{GameKind, RecordMeta, RoundResult, RummyRecord};
use crate::rommi::{RommiAction, RommiEvent, RommiIllegal, RommiMatch, RommiOptions, RommiView, Scoring, Variant};
use crate::seat::{Better, MatchResult, Seat, Viewer};

/// Rommi's table options (rommi §2) as a host gives them: every key may be left out for its default.
/// They are stored and written out in full, as the record's [`RommiOptions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, into = "RommiOptions")]
pub struct RommiTableOptions {
    /// `basic` (low aces, top discard only) or `500` (versatile aces, deep takes); default `basic`.
    pub variant: Variant,
    /// `positive`, `meld_hand` or `negative` (rommi §9); by default `positive` with `basic`, `meld_hand`
    /// with `500`.
    pub scoring: Option<Scoring>,
    /// Rommi §4's simple card values; default off.
    pub simple_scoring: bool,
    /// Rommi §6.2's meld restriction; default off.
    pub meld_restriction: bool,
    /// Rommi §10: the match ends once a total reaches it, a whole number of at least 1; by default 500
    /// with `meld_hand` scoring, else 100.
    pub target: Option<u32>,
}

impl Default for RommiTableOptions {
    fn default() -> RommiTableOptions {
        RommiTableOptions {
            variant: Variant::Basic,
            scoring: None,
            simple_scoring: false,
            meld_restriction: false,
            target: None,
        }
    }
}

impl From<RommiTableOptions> for RommiOptions {
    /// Every option, defaults filled in (rommi §2: the scoring's default follows the variant, the
    /// target's the scoring).
    fn from(table: RommiTableOptions) -> RommiOptions {
        let mut options = RommiOptions::for_variant(table.variant);
        if let Some(scoring) = table.scoring {
            options.scoring = scoring;
            options.target = crate::rommi::default_target(scoring);
        }
        options.simple_scoring = table.simple_scoring;
        options.meld_restriction = table.meld_restriction;
        options.target = table.target.unwrap_or(options.target);
        options
    }
}

fn refusal(illegal: RommiIllegal) -> Refusal {
    let over = matches!(illegal, RommiIllegal::MatchOver);
    let not_yours = matches!(illegal, RommiIllegal::NotYourTurn { .. } | RommiIllegal::NoSuchSeat(_));
    super::refusal(illegal.to_string(), over, not_yours)
}

/// A Rommi match at a table: rounds to the target (rommi §10). The next round is dealt inside the action
/// that ends one; `legal` is the match's complete list ([`RommiMatch::legal_actions`]: every draw, take,
/// meld, lay-off and discard, each meld as the set of its cards), a few dozen actions at most in play —
/// the tests measure it.
impl TableGame for RommiMatch {
    type Options = RommiTableOptions;
    type Action = TableAction<RommiAction>;
    type View = RommiView;
    type Event = RommiEvent;
    type Result = MatchResult;
    type Record = RummyRecord;

    const NAME: &'static str = "rommi";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=4;
    // The events do not say where a laid-off card sits in a meld, nor the turn's state: the table sends
    // the view after each batch of them.
    const EVENTS_CARRY_VIEW: bool = false;
    // A random discard or meld costs more here than a slip in Romi Rami or Rami (the easy bot won 1 to 6 % of
    // its games against normal at one slip in three, 11 to 20 % at one in six): slips are rarer.
    const EASY_SLIP_ONE_IN: u64 = 6;

    fn check_options(options: &RommiTableOptions, players: usize) -> Result<(), String> {
        if !Self::SEATS.contains(&players) {
            return Err(format!("rommi §1: a match is for 2 to 4 players, not {players}"));
        }
        RommiOptions::from(*options).validate().map_err(|e| e.to_string())
    }

    fn new(players: usize, seed: u64, options: &RommiTableOptions) -> Result<RommiMatch, String> {
        RommiMatch::new(players, seed, RommiOptions::from(*options)).map_err(|e| e.to_string())
    }

    fn to_act(&self) -> Option<Seat> {
        RommiMatch::to_act(self)
    }

    fn check(&self, seat: Seat, action: &TableAction<RommiAction>) -> Result<(), Refusal> {
        match action {
            TableAction::TakeBack => take_back::check(self, seat, Self::NAME, self.is_over()),
            TableAction::Play(action) => RommiMatch::check(self, seat, action).map_err(refusal),
        }
    }

    fn apply(&mut self, seat: Seat, action: &TableAction<RommiAction>) -> Result<(), Refusal> {
        match action {
            TableAction::TakeBack => take_back::take_back(self, seat, Self::NAME, self.is_over()),
            TableAction::Play(action) => {
                take_back::play(self, action, |game| RommiMatch::apply(game, seat, action).map_err(refusal))
            }
        }
    }

    /// The match's legal actions, then `take_back` when a step of this turn may be taken back.
    fn legal(&self, seat: Seat) -> Vec<TableAction<RommiAction>> {
        let mut legal: Vec<_> = self.legal_actions(seat).into_iter().map(TableAction::Play).collect();
        if take_back::can(self, seat) {
            legal.push(TableAction::TakeBack);
        }
        legal
    }

    fn bot(&self, seat: Seat) -> Option<TableAction<RommiAction>> {
        if RommiMatch::to_act(self) != Some(seat) {
            return None;
        }
        crate::rommi::bot::choose(self, seat, &mut super::bot_rng(self.event_count(), seat)).map(TableAction::Play)
    }

    fn undoes(action: &TableAction<RommiAction>) -> bool {
        matches!(action, TableAction::TakeBack)
    }

    fn determinize(&self, seat: Seat, seed: u64) -> RommiMatch {
        let mut world = self.clone();
        let mut rng = RummyRng::from_seed(seed);
        super::search::redeal(seat, &mut world.round.hands, &mut world.round.stock, &mut rng);
        world.rng = RummyRng::from_seed(rng.next_u64());
        world.take_backs = super::take_back::TakeBacks::never();
        world
    }

    fn value(&self, seat: Seat, from: &RommiMatch) -> f64 {
        let lower = crate::rommi::better(self.options()) == Better::Lower;
        let winners = RommiMatch::result(self).map(|result| result.winners);
        super::search::value(seat, &self.totals, &from.totals, lower, winners.as_deref())
    }

    fn playout_done(&self, from: &RommiMatch) -> bool {
        self.is_over() || TableGame::round(self) != TableGame::round(from)
    }

    fn view(&self, viewer: Viewer) -> RommiView {
        RommiMatch::view(self, viewer)
    }

    fn event_count(&self) -> usize {
        RommiMatch::event_count(self)
    }

    fn events_for(&self, viewer: Viewer, since: usize, limit: usize) -> Vec<(usize, RommiEvent)> {
        RommiMatch::events_for(self, viewer, since).take(limit).collect()
    }

    fn is_over(&self) -> bool {
        RommiMatch::is_over(self)
    }

    fn abandon(&mut self) {
        RommiMatch::abandon(self);
    }

    fn result(&self) -> Option<MatchResult> {
        RommiMatch::result(self)
    }

    fn round(&self) -> usize {
        self.rounds.len()
    }

    /// Places by total, the higher first with `positive` and `meld_hand` scoring, the lower with
    /// `negative` (rommi §10); `details`: `total` and `rounds`, the seat's score in each round scored.
    fn outcome(&self) -> Option<Outcome> {
        let result = RommiMatch::result(self)?;
        let higher = crate::rommi::better(self.options()) == Better::Higher;
        let places = romirami_game::places(&result.totals, |a, b| if higher { a > b } else { a < b });
        let mut rounds = vec![Vec::new(); self.players()];
        for round in &self.rounds {
            if let Some(RoundResult::Rommi(scored)) = &round.result {
                for score in &scored.scores {
                    rounds[score.seat.index()].push(Some(score.score));
                }
            }
        }
        super::outcome(&result, places, &rounds, |_, _| {})
    }

    fn record(&self, meta: romirami_game::RecordMeta) -> Result<RummyRecord, String> {
        let meta: RecordMeta = super::record_meta(meta)?;
        RommiMatch::record(self, meta).map_err(|e| e.to_string())
    }

    fn replay_steps(
        record: &RummyRecord,
        each: &mut dyn FnMut(RecordStep<'_, RommiMatch>),
    ) -> Result<RommiMatch, String> {
        if record.game != GameKind::Rommi {
            return Err(format!("a {} record is not a rommi record", record.game));
        }
        record.check_shape().map_err(|e| e.to_string())?;
        crate::rommi::replay_checked(record, &mut |before, seat, action, entry| {
            super::tell(each, before, seat, action, entry);
        })
        .map(|(m, _)| m)
        .map_err(|e| e.to_string())
    }

    fn entry_for(&self, seat: Seat, action: &TableAction<RommiAction>) -> Option<serde_json::Value> {
        let mut game = self.clone();
        let round = game.rounds.len().checked_sub(1)?;
        let at = game.rounds[round].log.len();
        TableGame::apply(&mut game, seat, action).ok()?;
        game.rounds.get(round)?.log.get(at).and_then(|entry| serde_json::to_value(entry).ok())
    }

    const ANALYSIS: AnalysisScale = super::search::ANALYSIS;

    fn analysis_value(&self, seat: Seat, from: &RommiMatch) -> f64 {
        let lower = crate::rommi::better(self.options()) == Better::Lower;
        super::search::points_lead(seat, &self.totals, &from.totals, lower)
    }
}

impl ActionStyle for RommiAction {
    const TAGGED: bool = true;
}

impl Undo for RommiMatch {
    type Action = RommiAction;
    type Event = RommiEvent;

    const FINAL: &'static str = "a card was drawn from the stock (rommi §6.1 a)";

    fn undo_parts(&mut self) -> (&mut Vec<RommiEvent>, &mut TakeBacks<RommiMatch, RommiAction>) {
        (&mut self.events, &mut self.take_backs)
    }

    fn take_backs(&self) -> &TakeBacks<RommiMatch, RommiAction> {
        &self.take_backs
    }

    fn turn(&self) -> (usize, Option<Seat>) {
        (self.rounds.len(), RommiMatch::to_act(self))
    }

    fn reveals(&self, action: &RommiAction) -> bool {
        self.reveals_hidden(action)
    }

    fn took_back(seat: Seat, action: RommiAction) -> RommiEvent {
        RommiEvent::TookBack { seat, action }
    }
}
