//! A Rommi match: the deal (rommi §5), turns (§6), the ends of a round (§7, §8) and of the match (§10).
//!
//! The match writes its own record as it goes: each round's deck and log entries are kept in the
//! `rummy-record/1` shapes, so exporting is a copy and a replay can compare entry by entry.

use crate::cards::{Card, DeckSpec, RummyRng};
use crate::melds::{Meld, MeldId};
use crate::record::{LogEntry, MeldEntry, RoundRecord, RoundResult, Tally};
use crate::seat::{MatchEnd, Seat, SetupError};

use super::actions::{RommiAction, Step};
use super::check::RommiIllegal;
use super::options::{RommiOptions, Variant};
use super::plays;
use super::scoring;
use super::view::RommiEvent;

/// A Rommi match between 2 and 4 players.
#[derive(Clone, Debug)]
pub struct RommiMatch {
    pub(crate) options: RommiOptions,
    pub(crate) players: usize,
    pub(crate) rng: RummyRng,
    /// Whether a finished round is followed by a new deal from `rng` (off in a replay, which deals the
    /// record's decks).
    pub(crate) auto_deal: bool,
    pub(crate) totals: Vec<i64>,
    /// Every round dealt, as the record writes it; the last one is the current round.
    pub(crate) rounds: Vec<RoundRecord>,
    pub(crate) round: Round,
    pub(crate) ended: Option<MatchEnd>,
    pub(crate) events: Vec<RommiEvent>,
    /// Counts of the features the tools sum up.
    pub(crate) tally: Tally,
    /// What a table keeps to take back the steps of the turn in play (`table_game::take_back`).
    pub(crate) take_backs: crate::table_game::TakeBacks<RommiMatch, RommiAction>,
}

/// The round in play (or the last one, once over).
#[derive(Clone, Debug)]
pub(crate) struct Round {
    pub(crate) dealer: Seat,
    pub(crate) hands: Vec<Vec<Card>>,
    /// The stock, top last.
    pub(crate) stock: Vec<Card>,
    /// The discard pile, top last.
    pub(crate) pile: Vec<Card>,
    pub(crate) table: Vec<Meld>,
    pub(crate) to_act: Seat,
    pub(crate) step: Step,
    /// §6.1 b: the card taken from the top of the pile this turn.
    pub(crate) locked: Option<Card>,
    /// §6.1 c: a deep take's target, until the first play.
    pub(crate) target: Option<Card>,
    pub(crate) melds_this_turn: u8,
    /// §6.2 (meld restriction): whether each seat laid a meld of its own this round.
    pub(crate) has_melded: Vec<bool>,
    pub(crate) over: bool,
}

/// What a checked action will do; built by the check so that applying does not check twice.
pub(crate) enum Plan {
    Draw,
    Take { from: usize },
    EndRound,
    Meld(Meld),
    LayOff { index: usize, after: Meld },
    Discard,
}

/// Every key of [`RommiMatch::tally`], each written, 0 included: rounds dealt, how rounds ended (a
/// player out, or on an empty stock, rommi §8), deep takes (§6.1 c), lay-offs on another seat's meld, the
/// match's scoring mode (§9) and its rounds by mode, and how the match ended.
pub const TALLY_KEYS: [&str; 15] = [
    "rounds",
    "outs",
    "empty_stock_ends",
    "deep_takes",
    "lay_offs_on_others",
    "matches_positive",
    "matches_meld_hand",
    "matches_negative",
    "rounds_positive",
    "rounds_meld_hand",
    "rounds_negative",
    "ends_target",
    "ends_abandoned",
    "takes_top",
    "draws",
];

/// Cards dealt to each player (rommi §5.2).
pub fn hand_size(players: usize) -> usize {
    if players == 2 { 13 } else { 7 }
}

impl RommiMatch {
    /// A new match of `players` (2 to 4) with `options`; the first dealer and every deck come from `seed`.
    ///
    /// # Errors
    /// [`SetupError`] for a player count or an option value rommi §1 and §2 do not allow.
    pub fn new(players: usize, seed: u64, options: RommiOptions) -> Result<RommiMatch, SetupError> {
        let mut rng = RummyRng::from_seed(seed);
        let dealer = Seat(rng.below(players.max(1)) as u8);
        let deck = DeckSpec::ROMMI.shuffled(&mut rng);
        let mut m = RommiMatch::empty(players, options, rng)?;
        m.auto_deal = true;
        m.start_round(dealer, deck);
        Ok(m)
    }

    /// A match with no round dealt yet, for [`RommiMatch::new`] and replays.
    pub(crate) fn empty(players: usize, options: RommiOptions, rng: RummyRng) -> Result<RommiMatch, SetupError> {
        if !(2..=4).contains(&players) {
            return Err(SetupError::PlayerCount { game: "rommi", players, min: 2, max: 4 });
        }
        options.validate()?;
        let mode = match options.scoring {
            super::options::Scoring::Positive => "matches_positive",
            super::options::Scoring::MeldHand => "matches_meld_hand",
            super::options::Scoring::Negative => "matches_negative",
        };
        Ok(RommiMatch {
            options,
            players,
            rng,
            auto_deal: false,
            totals: vec![0; players],
            rounds: Vec::new(),
            round: Round {
                dealer: Seat(0),
                hands: vec![Vec::new(); players],
                stock: Vec::new(),
                pile: Vec::new(),
                table: Vec::new(),
                to_act: Seat(0),
                step: Step::Draw,
                locked: None,
                target: None,
                melds_this_turn: 0,
                has_melded: vec![false; players],
                over: true,
            },
            ended: None,
            events: Vec::new(),
            take_backs: Default::default(),
            tally: TALLY_KEYS.iter().map(|&key| (key, u64::from(key == mode))).collect(),
        })
    }

    /// Deals a round from `deck` (52 cards, top first) with `dealer` (rommi §5).
    pub(crate) fn start_round(&mut self, dealer: Seat, deck: Vec<Card>) {
        let n = self.players;
        let size = hand_size(n);
        let mut hands = vec![Vec::with_capacity(size + 8); n];
        let mut seat = dealer.next(n);
        for &card in &deck[..size * n] {
            hands[seat.index()].push(card);
            seat = seat.next(n);
        }
        let pile = vec![deck[size * n]];
        let stock: Vec<Card> = deck[size * n + 1..].iter().rev().copied().collect();
        let number = self.rounds.len() as u32 + 1;
        self.events.push(RommiEvent::RoundStarted { number, dealer, top: pile[0], stock: stock.len() });
        for (i, hand) in hands.iter().enumerate() {
            self.events.push(RommiEvent::Dealt { seat: Seat(i as u8), cards: Some(hand.clone()) });
        }
        self.events.push(RommiEvent::ToAct { seat: dealer.next(n) });
        self.rounds.push(RoundRecord {
            number,
            dealer,
            seats: Seat::all(n).collect(),
            deck,
            log: Vec::new(),
            result: None,
        });
        self.round = Round {
            dealer,
            hands,
            stock,
            pile,
            table: Vec::new(),
            to_act: dealer.next(n),
            step: Step::Draw,
            locked: None,
            target: None,
            melds_this_turn: 0,
            has_melded: vec![false; n],
            over: false,
        };
        *self.tally.entry("rounds").or_default() += 1;
    }

    /// The options.
    pub fn options(&self) -> &RommiOptions {
        &self.options
    }

    /// How many players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Who must act now; `None` when the match is over.
    pub fn to_act(&self) -> Option<Seat> {
        (self.ended.is_none() && !self.round.over).then_some(self.round.to_act)
    }

    /// Where the turn stands.
    pub fn step(&self) -> Step {
        self.round.step
    }

    /// Whether the match is over (by the rules or abandoned).
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// Ends the match where it stands, for a table everybody left.
    pub fn abandon(&mut self) {
        if self.ended.is_none() {
            self.ended = Some(MatchEnd::Abandoned);
            *self.tally.entry("ends_abandoned").or_default() += 1;
            self.events.push(RommiEvent::MatchOver { ended_by: MatchEnd::Abandoned, totals: self.totals.clone() });
        }
    }

    /// Totals by seat after the rounds finished so far.
    pub fn totals(&self) -> &[i64] {
        &self.totals
    }

    /// Counts of what happened so far (rounds, deep takes, empty-stock ends, …) for the tools.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Whether `action` reveals something hidden (a stock draw shows the drawer a face-down card), so a
    /// table must not let it be taken back.
    pub fn reveals_hidden(&self, action: &RommiAction) -> bool {
        matches!(action, RommiAction::Draw)
    }

    /// Checks `action` for `seat` without changing anything.
    ///
    /// # Errors
    /// The rule it breaks.
    pub fn check(&self, seat: Seat, action: &RommiAction) -> Result<(), RommiIllegal> {
        self.plan(seat, action).map(drop)
    }

    /// Whether `action` is legal for `seat` now.
    pub fn is_legal(&self, seat: Seat, action: &RommiAction) -> bool {
        self.check(seat, action).is_ok()
    }

    /// Applies `action` for `seat`: all of it, or nothing when it is refused. Round ends, scoring, the
    /// next deal and the match end follow inside.
    ///
    /// # Errors
    /// The rule it breaks; the match is unchanged.
    pub fn apply(&mut self, seat: Seat, action: &RommiAction) -> Result<(), RommiIllegal> {
        let plan = self.plan(seat, action)?;
        self.execute(seat, action, plan);
        Ok(())
    }

    fn plan(&self, seat: Seat, action: &RommiAction) -> Result<Plan, RommiIllegal> {
        if self.ended.is_some() {
            return Err(RommiIllegal::MatchOver);
        }
        if seat.index() >= self.players {
            return Err(RommiIllegal::NoSuchSeat(seat));
        }
        let r = &self.round;
        if r.over {
            return Err(RommiIllegal::NoRound);
        }
        if seat != r.to_act {
            return Err(RommiIllegal::NotYourTurn { seat, to_act: r.to_act });
        }
        let wrong = || RommiIllegal::WrongStep { action: action.kind(), step: r.step.describe() };
        let hand = &r.hands[seat.index()];
        let rules = self.options.meld_rules();
        match (r.step, action) {
            (Step::Draw, RommiAction::Draw) if r.stock.is_empty() => Err(RommiIllegal::StockEmpty),
            (Step::Draw, RommiAction::Draw) => Ok(Plan::Draw),
            (Step::Draw, RommiAction::EndRound) if !r.stock.is_empty() => Err(RommiIllegal::StockNotEmpty),
            (Step::Draw, RommiAction::EndRound) => Ok(Plan::EndRound),
            (Step::Draw, RommiAction::Take { card }) => {
                let from = r.pile.iter().rposition(|c| c == card).ok_or(RommiIllegal::NotInPile(*card))?;
                if from + 1 < r.pile.len() {
                    if self.options.variant == Variant::Basic {
                        return Err(RommiIllegal::DeepTakeBasic);
                    }
                    let mut after: Vec<Card> = hand.clone();
                    after.extend_from_slice(&r.pile[from..]);
                    let may_lay_off = !self.options.meld_restriction || r.has_melded[seat.index()];
                    if !plays::can_play_containing(&after, *card, &r.table, rules, may_lay_off) {
                        return Err(RommiIllegal::DeepTakeUnplayable(*card));
                    }
                }
                Ok(Plan::Take { from })
            }
            (Step::Draw, _) => Err(wrong()),
            (Step::Play, RommiAction::Meld { cards }) => {
                in_hand(hand, cards)?;
                self.first_play_holds_target(cards)?;
                if self.options.meld_restriction && r.melds_this_turn >= 1 {
                    return Err(RommiIllegal::SecondMeld);
                }
                let id = MeldId(r.table.len() as u32 + 1);
                Meld::new(id, seat, cards, None, rules).map(Plan::Meld).map_err(RommiIllegal::Meld)
            }
            (Step::Play, RommiAction::LayOff { id, cards }) => {
                in_hand(hand, cards)?;
                self.first_play_holds_target(cards)?;
                if self.options.meld_restriction && !r.has_melded[seat.index()] {
                    return Err(RommiIllegal::LayOffBeforeMeld);
                }
                let index = r.table.iter().position(|m| m.id == *id).ok_or(RommiIllegal::NoSuchMeld(*id))?;
                let mut after = r.table[index].clone();
                after.lay_off(seat, cards, None, rules).map_err(RommiIllegal::Meld)?;
                Ok(Plan::LayOff { index, after })
            }
            (Step::Play, RommiAction::Discard { card }) => {
                in_hand(hand, std::slice::from_ref(card))?;
                if let Some(target) = r.target {
                    return Err(RommiIllegal::TargetUnplayed(target));
                }
                if r.locked == Some(*card) && hand.len() > 1 {
                    return Err(RommiIllegal::Locked(*card));
                }
                Ok(Plan::Discard)
            }
            (Step::Play, _) => Err(wrong()),
        }
    }

    fn first_play_holds_target(&self, cards: &[Card]) -> Result<(), RommiIllegal> {
        match self.round.target {
            Some(target) if !cards.contains(&target) => Err(RommiIllegal::TargetFirst(target)),
            _ => Ok(()),
        }
    }

    fn execute(&mut self, seat: Seat, action: &RommiAction, plan: Plan) {
        let s = seat.index();
        let entry = match plan {
            Plan::Draw => {
                let r = &mut self.round;
                let card = r.stock.pop().expect("the check refuses a draw from an empty stock");
                r.hands[s].push(card);
                r.step = Step::Play;
                *self.tally.entry("draws").or_default() += 1;
                self.events.push(RommiEvent::Drew { seat, card: Some(card) });
                LogEntry::Draw { seat, card }
            }
            Plan::Take { from } => {
                let r = &mut self.round;
                let cards = r.pile.split_off(from);
                r.hands[s].extend_from_slice(&cards);
                if cards.len() == 1 {
                    r.locked = Some(cards[0]);
                    *self.tally.entry("takes_top").or_default() += 1;
                } else {
                    r.target = Some(cards[0]);
                    *self.tally.entry("deep_takes").or_default() += 1;
                }
                r.step = Step::Play;
                self.events.push(RommiEvent::Took { seat, cards: cards.clone() });
                LogEntry::Take { seat, cards }
            }
            Plan::EndRound => {
                self.log(LogEntry::EndRound { seat });
                self.events.push(RommiEvent::EndedRound { seat });
                self.finish_round(None);
                return;
            }
            Plan::Meld(meld) => {
                let RommiAction::Meld { cards } = action else { unreachable!("a meld plan comes from a meld") };
                let r = &mut self.round;
                remove(&mut r.hands[s], cards);
                r.has_melded[s] = true;
                r.melds_this_turn += 1;
                r.target = None;
                let entry = LogEntry::Meld { seat, meld: MeldEntry { id: meld.id, cards: cards.clone(), joker: None } };
                self.events.push(RommiEvent::Melded { seat, meld: meld.clone() });
                r.table.push(meld);
                entry
            }
            Plan::LayOff { index, after } => {
                let RommiAction::LayOff { id, cards } = action else { unreachable!("a lay-off plan comes from one") };
                let r = &mut self.round;
                remove(&mut r.hands[s], cards);
                r.target = None;
                r.table[index] = after;
                if r.table[index].owner != seat {
                    *self.tally.entry("lay_offs_on_others").or_default() += 1;
                }
                self.events.push(RommiEvent::LaidOff { seat, id: *id, cards: cards.clone() });
                LogEntry::LayOff { seat, lay_off: MeldEntry { id: *id, cards: cards.clone(), joker: None } }
            }
            Plan::Discard => {
                let RommiAction::Discard { card } = action else { unreachable!("a discard plan comes from one") };
                let r = &mut self.round;
                remove(&mut r.hands[s], std::slice::from_ref(card));
                r.pile.push(*card);
                self.events.push(RommiEvent::Discarded { seat, card: *card });
                LogEntry::Discard { seat, card: *card, gin: false }
            }
        };
        self.log(entry);
        let r = &mut self.round;
        if r.hands[s].is_empty() {
            self.log(LogEntry::Out { seat });
            self.events.push(RommiEvent::WentOut { seat });
            self.finish_round(Some(seat));
        } else if matches!(action, RommiAction::Discard { .. }) {
            r.to_act = seat.next(self.players);
            r.step = Step::Draw;
            r.locked = None;
            r.target = None;
            r.melds_this_turn = 0;
            self.events.push(RommiEvent::ToAct { seat: r.to_act });
        }
    }

    fn log(&mut self, entry: LogEntry) {
        if let Some(round) = self.rounds.last_mut() {
            round.log.push(entry);
        }
    }

    /// Scores the round (rommi §9), adds the totals, and ends the match (§10) or deals the next round.
    fn finish_round(&mut self, out: Option<Seat>) {
        let result = scoring::round_result(&self.options, &self.round, out, &self.totals);
        self.totals.clone_from(&result.totals);
        self.round.over = true;
        let key = if out.is_some() { "outs" } else { "empty_stock_ends" };
        *self.tally.entry(key).or_default() += 1;
        let mode = match self.options.scoring {
            super::options::Scoring::Positive => "rounds_positive",
            super::options::Scoring::MeldHand => "rounds_meld_hand",
            super::options::Scoring::Negative => "rounds_negative",
        };
        *self.tally.entry(mode).or_default() += 1;
        self.events.push(RommiEvent::RoundEnded { result: result.clone(), hands: self.round.hands.clone() });
        if let Some(round) = self.rounds.last_mut() {
            round.result = Some(RoundResult::Rommi(result));
        }
        if self.totals.iter().any(|&t| t >= i64::from(self.options.target)) {
            self.ended = Some(MatchEnd::Target);
            *self.tally.entry("ends_target").or_default() += 1;
            self.events.push(RommiEvent::MatchOver { ended_by: MatchEnd::Target, totals: self.totals.clone() });
        } else if self.auto_deal {
            let dealer = self.round.dealer.next(self.players);
            let deck = DeckSpec::ROMMI.shuffled(&mut self.rng);
            self.start_round(dealer, deck);
        }
    }
}

/// Checks that `cards` are in `hand`, each named once.
fn in_hand(hand: &[Card], cards: &[Card]) -> Result<(), RommiIllegal> {
    for (i, card) in cards.iter().enumerate() {
        if cards[..i].contains(card) {
            return Err(RommiIllegal::Repeated(*card));
        }
        if !hand.contains(card) {
            return Err(RommiIllegal::NotInHand(*card));
        }
    }
    Ok(())
}

/// Removes `cards` (each in `hand`, as checked) from `hand`.
fn remove(hand: &mut Vec<Card>, cards: &[Card]) {
    hand.retain(|c| !cards.contains(c));
}
