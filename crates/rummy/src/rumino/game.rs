//! The match: its state, the deal (rumino §5) and the way from one hand to the next.
//!
//! [`RuminoMatch`] keeps every field private: state leaves it only through [`RuminoMatch::view`] and
//! [`RuminoMatch::events_for`], redacted per viewer (§10), and [`RuminoMatch::record`]. Every change goes
//! through [`RuminoMatch::apply`] (in `turn.rs`), which checks first and changes nothing on a refusal.

use std::collections::VecDeque;

use crate::cards::{Card, DeckSpec, RummyRng};
use crate::rumino::actions::RuminoEntry;
use crate::rumino::check::RuminoSetupError;
use crate::rumino::lays::find_rumino;
use crate::rumino::options::RuminoOptions;
use crate::rumino::view::Event;
use crate::seat::{MatchEnd, Seat};

/// Cards in a hand between turns (§5 step 2).
pub const HAND_SIZE: usize = 7;
/// A total above this eliminates its player (§9 step 2).
pub const ELIMINATION_ABOVE: i64 = 100;
/// The highest deadwood a knock allows (§6 a).
pub const KNOCK_LIMIT: u32 = 7;
/// The score of the player who ends a hand by gin (§7).
pub const GIN_SCORE: i64 = -10;

/// How a hand ended (record format: a round's `ended_by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandEnd {
    /// A knock with deadwood 1 to 7 (§7).
    Knock,
    /// A gin declared with a discard, or a knock with deadwood 0 (§7).
    Gin,
    /// A rumino (§8): the match ends.
    Rumino,
}

/// One seat's score in a hand ended by a knock or a gin (§7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HandScore {
    /// The seat.
    pub seat: Seat,
    /// Its lowest deadwood (§4).
    pub deadwood: u32,
    /// Its score (§7).
    pub score: i64,
}

/// A player's rebuy (§9 step 4) and the total it gave them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rebought {
    /// Who rebought.
    pub seat: Seat,
    /// Their new total.
    pub total: i64,
}

/// What a finished hand came to (record format: a round's `result`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandResult {
    /// How it ended.
    pub ended_by: HandEnd,
    /// Who ended it.
    pub by: Seat,
    /// One per seat dealt in, ascending; empty after a rumino.
    pub scores: Vec<HandScore>,
    /// By seat, after adding the scores and before rebuys.
    pub totals: Vec<i64>,
    /// The seats eliminated by this hand (§9 step 2), ascending.
    pub eliminated: Vec<Seat>,
    /// The rebuys chosen, in the order of §9 step 4.
    pub rebuys: Vec<Rebought>,
}

/// One hand as the record holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandLog {
    /// 1, 2, … in order.
    pub number: u32,
    /// The dealer's seat.
    pub dealer: Seat,
    /// The seats dealt in, ascending.
    pub seats: Vec<Seat>,
    /// The whole deck in its shuffled order, top first.
    pub deck: Vec<Card>,
    /// The entries that stand.
    pub log: Vec<RuminoEntry>,
    /// `None` until the hand ends.
    pub result: Option<HandResult>,
}

/// The end of a match: how, and who won (ascending; several on a shared win).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RuminoOutcome {
    /// How the match ended.
    pub ended_by: MatchEnd,
    /// The winners, ascending; empty for an abandoned match with nobody in.
    pub winners: Vec<Seat>,
}

/// Where the deck orders and reshuffles come from: the match's generator in live play, a record in a replay.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant, reason = "a match holds one source, and live play is the common case")]
pub(crate) enum Source {
    Random(RummyRng),
    /// A record's decks and reshuffles; `seeded`, for a record with a shuffle proof, draws each one from
    /// the seed's generator too, to compare.
    Scripted {
        decks: VecDeque<Vec<Card>>,
        reshuffles: VecDeque<Vec<Card>>,
        fault: Option<ScriptFault>,
        seeded: Option<crate::record::SeedCheck>,
    },
}

/// A replayed deck or reshuffle that the record did not give correctly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScriptFault {
    MissingDeck,
    BadDeck,
    MissingReshuffle,
    BadReshuffle,
}

/// Who is to act, and for what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// `seat`'s turn; `drawn` once it holds 8 cards (§6).
    Turn {
        seat: Seat,
        drawn: bool,
    },
    /// `seat` chooses whether to rebuy; `queue` choose after it (§9 step 4).
    Rebuy {
        seat: Seat,
        queue: VecDeque<Seat>,
    },
    Over,
}

/// A match of Rumino in progress or finished.
#[derive(Clone, Debug)]
pub struct RuminoMatch {
    pub(crate) options: RuminoOptions,
    pub(crate) players: usize,
    pub(crate) totals: Vec<i64>,
    pub(crate) rebuy_counts: Vec<u32>,
    /// By seat: whether the player is in (§1).
    pub(crate) is_in: Vec<bool>,
    /// By seat; empty for a player out of the hand.
    pub(crate) hands: Vec<Vec<Card>>,
    /// Top last.
    pub(crate) stock: Vec<Card>,
    /// Top last.
    pub(crate) discard: Vec<Card>,
    /// The card taken from the discard pile this turn (§6 c).
    pub(crate) taken: Option<Card>,
    pub(crate) phase: Phase,
    /// Every hand dealt so far, the current one last.
    pub(crate) hand_logs: Vec<HandLog>,
    pub(crate) events: Vec<Event>,
    pub(crate) source: Source,
    pub(crate) outcome: Option<RuminoOutcome>,
    /// What a table keeps to take back the steps of the turn in play (`table_game::take_back`).
    pub(crate) take_backs: crate::table_game::TakeBacks<RuminoMatch, crate::rumino::actions::RuminoAction>,
}

/// Whether `a` and `b` hold the same cards, as many times each, in any order.
pub(crate) fn same_cards(a: &[Card], b: &[Card]) -> bool {
    let mut counts = [0i32; 53];
    for card in a {
        counts[card.index()] += 1;
    }
    for card in b {
        counts[card.index()] -= 1;
    }
    a.len() == b.len() && counts.iter().all(|&n| n == 0)
}

impl RuminoMatch {
    /// A match for `players` (2 to 6) whose deals and hand 1's dealer come from `seed` (§5 step 1).
    ///
    /// # Errors
    /// [`RuminoSetupError::PlayerCount`] unless `players` is 2 to 6.
    pub fn new(players: usize, seed: u64, options: RuminoOptions) -> Result<RuminoMatch, RuminoSetupError> {
        RuminoMatch::with_dealer(players, seed, options, None)
    }

    /// A match whose hand 1 is dealt by `dealer` when given (a rematch: the previous winner, §9), else
    /// by a seat drawn from `seed`.
    ///
    /// # Errors
    /// [`RuminoSetupError`] for a player count outside 2 to 6 or a dealer not at the table.
    pub fn with_dealer(
        players: usize,
        seed: u64,
        options: RuminoOptions,
        dealer: Option<Seat>,
    ) -> Result<RuminoMatch, RuminoSetupError> {
        let mut rng = RummyRng::from_seed(seed);
        let dealer = match dealer {
            Some(dealer) => dealer,
            None if (2..=6).contains(&players) => Seat(rng.below(players) as u8),
            None => return Err(RuminoSetupError::PlayerCount(players)),
        };
        RuminoMatch::start(players, options, dealer, Source::Random(rng))
    }

    pub(crate) fn start(
        players: usize,
        options: RuminoOptions,
        dealer: Seat,
        source: Source,
    ) -> Result<RuminoMatch, RuminoSetupError> {
        if !(2..=6).contains(&players) {
            return Err(RuminoSetupError::PlayerCount(players));
        }
        if usize::from(dealer.0) >= players {
            return Err(RuminoSetupError::Dealer(dealer));
        }
        let mut game = RuminoMatch {
            options,
            players,
            totals: vec![0; players],
            rebuy_counts: vec![0; players],
            is_in: vec![true; players],
            hands: vec![Vec::new(); players],
            stock: Vec::new(),
            discard: Vec::new(),
            taken: None,
            phase: Phase::Over,
            hand_logs: Vec::new(),
            events: Vec::new(),
            take_backs: Default::default(),
            source,
            outcome: None,
        };
        game.deal(dealer);
        Ok(game)
    }

    /// The options the match is played with.
    pub fn options(&self) -> RuminoOptions {
        self.options
    }

    /// How many seats the table has.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Who must act now; `None` once the match is over.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Turn { seat, .. } | Phase::Rebuy { seat, .. } => Some(seat),
            Phase::Over => None,
        }
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How the match ended, once it has.
    pub fn outcome(&self) -> Option<&RuminoOutcome> {
        self.outcome.as_ref()
    }

    /// Each seat's total (§9).
    pub fn totals(&self) -> &[i64] {
        &self.totals
    }

    /// How many times each seat has rebought (§9 step 4).
    pub fn rebuy_counts(&self) -> &[u32] {
        &self.rebuy_counts
    }

    /// Whether `seat`'s player is in (§1).
    pub fn is_in(&self, seat: Seat) -> bool {
        self.is_in.get(usize::from(seat.0)).copied().unwrap_or(false)
    }

    /// The hands played so far, the current one last.
    pub fn hand_logs(&self) -> &[HandLog] {
        &self.hand_logs
    }

    /// Ends the match where it stands (the table was given up). Nothing happens once it is over.
    pub fn abandon(&mut self) {
        if self.is_over() {
            return;
        }
        // Record format: the winners an end on these totals would name, the lowest among those in.
        let in_seats: Vec<Seat> = self.seats_in();
        let winners = self.lowest(&in_seats);
        self.finish(MatchEnd::Abandoned, winners);
    }

    /// The seats whose players are in, ascending.
    pub(crate) fn seats_in(&self) -> Vec<Seat> {
        (0..self.players).filter(|&i| self.is_in[i]).map(|i| Seat(i as u8)).collect()
    }

    /// The seats among `seats` with the lowest total.
    pub(crate) fn lowest(&self, seats: &[Seat]) -> Vec<Seat> {
        let Some(low) = seats.iter().map(|s| self.totals[usize::from(s.0)]).min() else { return Vec::new() };
        seats.iter().copied().filter(|s| self.totals[usize::from(s.0)] == low).collect()
    }

    /// §1: the first seat after `seat`, wrapping around, whose player is in.
    pub(crate) fn next_in(&self, seat: Seat) -> Seat {
        (1..=self.players)
            .map(|step| Seat(((usize::from(seat.0) + step) % self.players) as u8))
            .find(|s| self.is_in[usize::from(s.0)])
            .unwrap_or(seat)
    }

    /// The seats in, in turn order starting with the next player after `seat`.
    pub(crate) fn order_after(&self, seat: Seat) -> Vec<Seat> {
        let count = self.is_in.iter().filter(|&&i| i).count();
        let mut order = Vec::with_capacity(count);
        let mut at = seat;
        for _ in 0..count {
            at = self.next_in(at);
            order.push(at);
        }
        order
    }

    pub(crate) fn current(&mut self) -> &mut HandLog {
        self.hand_logs.last_mut().expect("a match always has a hand dealt")
    }

    pub(crate) fn finish(&mut self, ended_by: MatchEnd, winners: Vec<Seat>) {
        self.phase = Phase::Over;
        self.events.push(Event::MatchOver { ended_by, winners: winners.clone() });
        self.outcome = Some(RuminoOutcome { ended_by, winners });
    }

    /// §5: shuffles, deals 7 cards to each player in from the next player after `dealer`, turns the
    /// upcard, then checks for a dealt rumino (§8 step 1) before the first turn.
    pub(crate) fn deal(&mut self, dealer: Seat) {
        let deck = self.next_deck();
        let order = self.order_after(dealer);
        for hand in &mut self.hands {
            hand.clear();
        }
        let mut cards = deck.iter().copied();
        for _ in 0..HAND_SIZE {
            for seat in &order {
                self.hands[usize::from(seat.0)].push(cards.next().expect("108 cards deal up to 6 hands"));
            }
        }
        self.discard = vec![cards.next().expect("108 cards leave an upcard")];
        self.stock = cards.rev().collect();
        self.taken = None;
        let number = self.hand_logs.len() as u32 + 1;
        let seats = self.seats_in();
        self.events.push(Event::Dealt {
            number,
            dealer,
            hands: self.hands.clone(),
            upcard: self.discard[0],
            stock: self.stock.len(),
        });
        self.hand_logs.push(HandLog { number, dealer, seats, deck, log: Vec::new(), result: None });
        for &seat in &order {
            if let Some(cards) = find_rumino(&self.hands[usize::from(seat.0)], None) {
                self.rumino_wins(seat, cards, None);
                return;
            }
        }
        self.begin_turn(order[0]);
    }

    /// The next hand's deck, top first: shuffled by the generator, or the record's.
    fn next_deck(&mut self) -> Vec<Card> {
        let number = self.hand_logs.len() as u32 + 1;
        match &mut self.source {
            Source::Random(rng) => {
                let mut deck = DeckSpec::DOUBLE.cards();
                rng.shuffle(&mut deck);
                deck
            }
            Source::Scripted { decks, fault, seeded, .. } => {
                let deck = decks.pop_front();
                let valid = deck.as_ref().is_some_and(|d| DeckSpec::DOUBLE.is_deck(d));
                if !valid {
                    fault.get_or_insert(if deck.is_none() { ScriptFault::MissingDeck } else { ScriptFault::BadDeck });
                    return DeckSpec::DOUBLE.cards();
                }
                let deck = deck.unwrap_or_default();
                if let Some(check) = seeded {
                    check.deck(number, DeckSpec::DOUBLE, &deck);
                }
                deck
            }
        }
    }

    /// §6: the start of `seat`'s turn; an empty stock is first rebuilt from the discard pile under its top.
    pub(crate) fn begin_turn(&mut self, seat: Seat) {
        if self.stock.is_empty() {
            let top = self.discard.pop().expect("the discard pile is never empty at the start of a turn");
            let mut rest = std::mem::take(&mut self.discard);
            // Where the reshuffle entry goes, for a seed check.
            let (number, entry) = self.hand_logs.last().map_or((0, 0), |hand| (hand.number, hand.log.len()));
            let new_stock = match &mut self.source {
                Source::Random(rng) => {
                    rng.shuffle(&mut rest);
                    rest
                }
                Source::Scripted { reshuffles, fault, seeded, .. } => match reshuffles.pop_front() {
                    Some(order) if same_cards(&order, &rest) => {
                        if let Some(check) = seeded {
                            check.reshuffle(number, entry, &rest, &order);
                        }
                        order
                    }
                    given => {
                        fault.get_or_insert(if given.is_none() {
                            ScriptFault::MissingReshuffle
                        } else {
                            ScriptFault::BadReshuffle
                        });
                        rest
                    }
                },
            };
            self.discard.push(top);
            self.current().log.push(RuminoEntry::Reshuffle { stock: new_stock.clone() });
            self.events.push(Event::Reshuffled { stock: new_stock.len() });
            self.stock = new_stock.into_iter().rev().collect();
        }
        self.taken = None;
        self.phase = Phase::Turn { seat, drawn: false };
        self.events.push(Event::ToAct { seat });
    }

    /// §8: `seat`'s rumino ends the match; nobody scores and nobody rebuys.
    pub(crate) fn rumino_wins(&mut self, seat: Seat, cards: Vec<Card>, claim: Option<Card>) {
        let totals = self.totals.clone();
        let hand = self.current();
        hand.log.push(RuminoEntry::Rumino { seat, cards: cards.clone(), claim });
        hand.result = Some(HandResult {
            ended_by: HandEnd::Rumino,
            by: seat,
            scores: Vec::new(),
            totals,
            eliminated: Vec::new(),
            rebuys: Vec::new(),
        });
        self.events.push(Event::Rumino { seat, cards, claim });
        self.finish(MatchEnd::Rumino, vec![seat]);
    }
}
