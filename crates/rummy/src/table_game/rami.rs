//! Rami (`docs/rules/rami.md`) as a [`TableGame`].

use crate::cards::RummyRng;
use romirami_game::{AnalysisScale, Outcome, RecordStep, Refusal, TableGame};
use serde::{Deserialize, Serialize};

use super::take_back::{self, ActionStyle, TableAction, TakeBacks, Undo};
use crate::rami::{MatchEnd, Opening, RamiAction, RamiEvent, RamiIllegal, RamiMatch, RamiOptions, RamiView};
use crate::record::{GameKind, RummyRecord};
use crate::seat::{MatchResult, Seat, Viewer};

/// Rami's table options (rami §2) as a host gives them: every key may be left out for its default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RamiTableOptions {
    /// The opening rule (rami §6): `51` (Rami 51, the default) or `30` (Rami 30).
    pub opening: Opening,
    /// When the match ends (rami §10): `{ "rounds": N }` after round N, N from 1 to 20, or
    /// `{ "limit": P }` after the first round after which a total is P or more, P ≥ 1 (500 is the
    /// usual limit). Left out (`null`): one round per player, so that every seat deals once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_end: Option<MatchEnd>,
}

impl RamiTableOptions {
    /// Every option for a table of `players`, defaults filled in, as the match and its record hold them.
    pub fn resolve(&self, players: usize) -> RamiOptions {
        RamiOptions { opening: self.opening, match_end: self.match_end.unwrap_or(MatchEnd::default_for(players)) }
    }
}

fn refusal(illegal: RamiIllegal) -> Refusal {
    let over = matches!(illegal, RamiIllegal::MatchOver);
    let not_yours = matches!(illegal, RamiIllegal::NotYourTurn { .. } | RamiIllegal::NoSuchSeat(_));
    super::refusal(illegal.to_string(), over, not_yours)
}

/// A Rami match at a table: rounds to the match end of rami §10. The next round is dealt inside the
/// action that ends one (a player going out, or a blocked stock, §8).
///
/// `legal` is [`RamiMatch::legal_actions`], not every legal action: openings are combinatorial, so it
/// offers one opening (the one laying the most cards) with every draw, new meld, lay-off, exchange and
/// discard the match's searches find; a client may build other openings itself, and `check` judges
/// them. The tests measure its length in play (a few dozen actions, bounded well under a few hundred).
impl TableGame for RamiMatch {
    type Options = RamiTableOptions;
    type Action = TableAction<RamiAction>;
    type View = RamiView;
    type Event = RamiEvent;
    type Result = MatchResult;
    type Record = RummyRecord;

    const NAME: &'static str = "rami";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=5;
    // The events do not say where a laid-off card sits in a meld, nor the turn's state: the table sends
    // the view after each batch of them.
    const EVENTS_CARRY_VIEW: bool = false;

    fn check_options(options: &RamiTableOptions, players: usize) -> Result<(), String> {
        if !Self::SEATS.contains(&players) {
            return Err(format!("rami §1: a match is for 2 to 5 players, not {players}"));
        }
        match options.match_end {
            Some(MatchEnd::Rounds(n)) if !(1..=MatchEnd::MAX_ROUNDS).contains(&n) => {
                Err(format!("rami §2: `rounds` is from 1 to 20, not {n}"))
            }
            Some(MatchEnd::Limit(0)) => Err("rami §2: `limit` is at least 1".to_owned()),
            _ => Ok(()),
        }
    }

    fn new(players: usize, seed: u64, options: &RamiTableOptions) -> Result<RamiMatch, String> {
        Self::check_options(options, players)?;
        RamiMatch::new(players, seed, options.resolve(players)).map_err(|e| e.to_string())
    }

    fn to_act(&self) -> Option<Seat> {
        RamiMatch::to_act(self)
    }

    fn check(&self, seat: Seat, action: &TableAction<RamiAction>) -> Result<(), Refusal> {
        match action {
            TableAction::TakeBack => take_back::check(self, seat, Self::NAME, self.is_over()),
            TableAction::Play(action) => RamiMatch::check(self, seat, action).map_err(refusal),
        }
    }

    fn apply(&mut self, seat: Seat, action: &TableAction<RamiAction>) -> Result<(), Refusal> {
        match action {
            TableAction::TakeBack => take_back::take_back(self, seat, Self::NAME, self.is_over()),
            TableAction::Play(action) => {
                take_back::play(self, action, |game| RamiMatch::apply(game, seat, action).map_err(refusal))
            }
        }
    }

    fn apply_checked(&mut self, seat: Seat, action: &TableAction<RamiAction>) -> Result<(), Refusal> {
        match action {
            TableAction::TakeBack => take_back::take_back(self, seat, Self::NAME, self.is_over()),
            TableAction::Play(action) => {
                take_back::play(self, action, |game| RamiMatch::apply_checked(game, seat, action).map_err(refusal))
            }
        }
    }

    /// The match's legal actions, then `take_back` when a step of this turn may be taken back.
    fn legal(&self, seat: Seat) -> Vec<TableAction<RamiAction>> {
        let mut legal: Vec<_> = self.legal_actions(seat).into_iter().map(TableAction::Play).collect();
        if take_back::can(self, seat) {
            legal.push(TableAction::TakeBack);
        }
        legal
    }

    fn bot(&self, seat: Seat) -> Option<TableAction<RamiAction>> {
        crate::rami::bot::choose(self, seat, &mut super::bot_rng(self.event_count(), seat)).map(TableAction::Play)
    }

    fn undoes(action: &TableAction<RamiAction>) -> bool {
        matches!(action, TableAction::TakeBack)
    }

    fn determinize(&self, seat: Seat, seed: u64) -> RamiMatch {
        let mut rng = RummyRng::from_seed(seed);
        let mut hands: Vec<Vec<crate::cards::Card>> = self.round.hands.iter().map(|hand| hand.cards()).collect();
        let mut stock = self.round.stock.clone();
        super::search::redeal(seat, &mut hands, &mut stock, &mut rng);
        let mut world = self.search_world(crate::rami::game::Source::Random(RummyRng::from_seed(rng.next_u64())));
        world.round.hands = hands.iter().map(|cards| crate::rami::cardkit::Hand::from_cards(cards)).collect();
        world.round.stock = stock;
        world
    }

    fn value(&self, seat: Seat, from: &RamiMatch) -> f64 {
        let winners = RamiMatch::result(self).map(|result| result.winners);
        super::search::value(seat, &self.totals, &from.totals, true, winners.as_deref())
    }

    fn playout_done(&self, from: &RamiMatch) -> bool {
        self.is_over() || TableGame::round(self) != TableGame::round(from)
    }

    fn view(&self, viewer: Viewer) -> RamiView {
        RamiMatch::view(self, viewer)
    }

    fn event_count(&self) -> usize {
        RamiMatch::event_count(self)
    }

    fn events_for(&self, viewer: Viewer, since: usize, limit: usize) -> Vec<(usize, RamiEvent)> {
        RamiMatch::events_for(self, viewer, since).take(limit).collect()
    }

    fn is_over(&self) -> bool {
        RamiMatch::is_over(self)
    }

    fn abandon(&mut self) {
        RamiMatch::abandon(self);
    }

    fn result(&self) -> Option<MatchResult> {
        RamiMatch::result(self)
    }

    fn round(&self) -> usize {
        self.round_number() as usize
    }

    /// Places by penalty total, the lowest first (rami §10); `details`: `total` and `rounds`, the seat's
    /// penalty in each round scored.
    fn outcome(&self) -> Option<Outcome> {
        let result = RamiMatch::result(self)?;
        let places = romirami_game::places(&result.totals, |a, b| a < b);
        let mut rounds = vec![Vec::new(); self.players()];
        for scored in self.rounds().filter_map(|round| round.result.as_ref()) {
            for score in &scored.scores {
                rounds[score.seat.index()].push(Some(i64::from(score.penalty)));
            }
        }
        super::outcome(&result, places, &rounds, |_, _| {})
    }

    fn record(&self, meta: romirami_game::RecordMeta) -> Result<RummyRecord, String> {
        RamiMatch::record(self, super::record_meta(meta)?).map_err(|e| e.to_string())
    }

    fn replay_steps(
        record: &RummyRecord,
        each: &mut dyn FnMut(RecordStep<'_, RamiMatch>),
    ) -> Result<RamiMatch, String> {
        if record.game != GameKind::Rami {
            return Err(format!("a {} record is not a rami record", record.game));
        }
        record.check_shape().map_err(|e| e.to_string())?;
        crate::rami::replay_with(record, &mut |before, seat, action, entry| {
            super::tell(each, before, seat, action, entry);
        })
        .map_err(|e| e.to_string())
    }

    fn entry_for(&self, seat: Seat, action: &TableAction<RamiAction>) -> Option<serde_json::Value> {
        let mut game = self.clone();
        let number = game.round.number;
        let at = game.round.log.len();
        TableGame::apply(&mut game, seat, action).ok()?;
        let round = game.rounds().find(|round| round.number == number)?;
        round.log.get(at).and_then(|entry| serde_json::to_value(entry).ok())
    }

    const ANALYSIS: AnalysisScale = super::search::ANALYSIS;

    fn analysis_value(&self, seat: Seat, from: &RamiMatch) -> f64 {
        super::search::points_lead(seat, &self.totals, &from.totals, true)
    }
}

impl ActionStyle for RamiAction {
    const TAGGED: bool = false;
}

impl Undo for RamiMatch {
    type Action = RamiAction;
    type Event = crate::rami::view::Event;

    const FINAL: &'static str = "a card was drawn from the stock (rami §7.1 a)";

    fn undo_parts(&mut self) -> (&mut Vec<crate::rami::view::Event>, &mut TakeBacks<RamiMatch, RamiAction>) {
        (&mut self.events, &mut self.take_backs)
    }

    fn take_backs(&self) -> &TakeBacks<RamiMatch, RamiAction> {
        &self.take_backs
    }

    fn turn(&self) -> (usize, Option<Seat>) {
        (self.round_number() as usize, RamiMatch::to_act(self))
    }

    fn reveals(&self, action: &RamiAction) -> bool {
        self.reveals_hidden(action)
    }

    fn took_back(seat: Seat, action: RamiAction) -> crate::rami::view::Event {
        crate::rami::view::Event::Public(RamiEvent::TookBack { seat, action })
    }
}
