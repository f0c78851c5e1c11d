//! The match: its rounds (rami §5), turns (§7), the stock running out (§8), the end of a round (§9)
//! and of the match (§10).
//!
//! [`RamiMatch`] keeps every field private: state leaves it only through [`RamiMatch::view`] and
//! [`RamiMatch::events_for`], redacted per viewer (§11), and through [`RamiMatch::record`]. Every
//! change goes through [`RamiMatch::apply`], which plans the action completely (`play.rs`) before it
//! changes anything; the automatic steps (`out`, reshuffles, the round's end, the next deal) happen
//! inside it.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use super::cardkit::Hand;
use super::check::RamiSetupError;
use super::options::RamiOptions;
use super::scoring;
use super::view::{Event, RamiEvent};
use crate::cards::{Card, DeckSpec, RummyRng};
use crate::melds::Meld;
use crate::record::{LogEntry, RamiRoundResult};
use crate::seat::{MatchEnd, MatchResult, Seat};

/// Cards dealt to each player (rami §5 step 2).
pub const HAND_SIZE: usize = 14;

/// What the player to act still owes this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Owes {
    /// The first play must put this card, taken from the discard pile, on the table (rami §7.1 b).
    Taken(Card),
    /// The next play must be a meld or a lay-off with a joker (rami §7.3).
    JokerPlay,
}

/// The turn in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Turn {
    pub(crate) seat: Seat,
    /// Whether the draw of rami §7.1 is done.
    pub(crate) drew: bool,
    /// Whether the player opened in this turn (rami sec, §9).
    pub(crate) opened_now: bool,
    pub(crate) owes: Option<Owes>,
}

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Turn(Turn),
    /// A replayed record holds no deck for the next round: the match stops here until abandoned.
    AwaitingDeck,
    Over(MatchEnd),
}

/// One round: the deal and everything played in it.
#[derive(Clone, Debug)]
pub(crate) struct Round {
    pub(crate) number: u32,
    pub(crate) dealer: Seat,
    /// The whole deck as shuffled, top first.
    pub(crate) deck: Vec<Card>,
    pub(crate) hands: Vec<Hand>,
    /// Top last.
    pub(crate) stock: Vec<Card>,
    /// Top last.
    pub(crate) discard: Vec<Card>,
    pub(crate) melds: Vec<Meld>,
    pub(crate) opened: Vec<bool>,
    pub(crate) log: Vec<LogEntry>,
    pub(crate) result: Option<RamiRoundResult>,
}

/// Where the deck orders come from: the match's generator in live play, a record in a replay.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant, reason = "a match holds one source, and live play is the common case")]
pub(crate) enum Source {
    Random(RummyRng),
    Scripted(Script),
}

/// A record's deck orders, handed out as the replay reaches them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Script {
    /// Each round's deck, top first, and its reshuffles, each top first, in order.
    pub(crate) rounds: VecDeque<(Vec<Card>, VecDeque<Vec<Card>>)>,
    /// This round's reshuffles not yet used.
    pub(crate) reshuffles: VecDeque<Vec<Card>>,
    /// The first reshuffle that did not fit, if any.
    pub(crate) fault: Option<ScriptFault>,
    /// For a record with a shuffle proof: the seed's generator, which draws every deck and reshuffle the
    /// replay takes from the record, to compare.
    pub(crate) seeded: Option<crate::record::SeedCheck>,
}

/// A reshuffle the record did not describe correctly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScriptFault {
    Missing,
    NotAPermutation,
}

/// A match of Rami in progress or over.
#[derive(Clone)]
pub struct RamiMatch {
    pub(crate) options: RamiOptions,
    pub(crate) players: usize,
    pub(crate) source: Source,
    /// Rounds over, in order. They no longer change: shared, not copied, by the copies of the match (a
    /// world of the strong bot's search, a step kept to be taken back).
    pub(crate) finished: Vec<Arc<Round>>,
    pub(crate) round: Round,
    pub(crate) phase: Phase,
    /// By seat, after the rounds over.
    pub(crate) totals: Vec<i64>,
    pub(crate) events: Vec<Event>,
    /// Events before `events` that this match does not keep: none, but in a world of the strong bot's
    /// search ([`RamiMatch::search_world`]), where they are counted all the same.
    pub(crate) events_dropped: usize,
    /// What a table keeps to take back the steps of the turn in play (`table_game::take_back`).
    pub(crate) take_backs: crate::table_game::TakeBacks<RamiMatch, super::actions::RamiAction>,
}

impl fmt::Debug for RamiMatch {
    /// Only public facts: a match printed in a log line must not leak a hand or the stock.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RamiMatch")
            .field("options", &self.options)
            .field("players", &self.players)
            .field("round", &self.round.number)
            .field("phase", &self.phase)
            .field("stock", &self.round.stock.len())
            .field("discard", &self.round.discard)
            .field("totals", &self.totals)
            .finish_non_exhaustive()
    }
}

impl RamiMatch {
    /// A new match for `players` (2 to 5) from `seed`: round 1's dealer (rami §5 step 1), every deal and
    /// every reshuffle come from a generator seeded with it, in that order, so the same seed and the same
    /// actions give the same match.
    ///
    /// # Errors
    /// [`RamiSetupError::PlayerCount`] unless `players` is 2 to 5.
    pub fn new(players: usize, seed: u64, options: RamiOptions) -> Result<RamiMatch, RamiSetupError> {
        if !(2..=5).contains(&players) {
            return Err(RamiSetupError::PlayerCount(players));
        }
        let mut rng = RummyRng::from_seed(seed);
        let dealer = Seat(rng.below(players) as u8);
        Ok(RamiMatch::start(players, options, Source::Random(rng), dealer))
    }

    /// A match whose decks and reshuffles come from `source` (a generator, or a record's orders), round 1
    /// dealt by `dealer`.
    pub(crate) fn start(players: usize, options: RamiOptions, source: Source, dealer: Seat) -> RamiMatch {
        let mut game = RamiMatch {
            options,
            players,
            source,
            finished: Vec::new(),
            round: Round::empty(players, dealer),
            phase: Phase::AwaitingDeck,
            totals: vec![0; players],
            events: Vec::new(),
            events_dropped: 0,
            take_backs: Default::default(),
        };
        game.deal(1, dealer);
        game
    }

    /// The table's options.
    pub fn options(&self) -> RamiOptions {
        self.options
    }

    /// How many players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The round in progress (or the last one, once the match is over), from 1.
    pub fn round_number(&self) -> u32 {
        self.round.number
    }

    /// The seat to act, or `None` when the match is over.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Turn(turn) => Some(turn.seat),
            _ => None,
        }
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over(_))
    }

    /// Each seat's total after the rounds over, by seat.
    pub fn totals(&self) -> &[i64] {
        &self.totals
    }

    /// The result once the match is over: totals, places (the lowest total first, ties shared) and
    /// winners (rami §10).
    pub fn result(&self) -> Option<MatchResult> {
        let Phase::Over(ended_by) = self.phase else { return None };
        let places = crate::seat::places(&self.totals, crate::seat::Better::Lower, |_| true);
        Some(MatchResult { ended_by, totals: self.totals.clone(), places, winners: scoring::winners(&self.totals) })
    }

    /// Ends the match where it stands (the server does this when every player has left): a round in
    /// progress is not scored, and the totals of the rounds over stand.
    pub fn abandon(&mut self) {
        if !self.is_over() {
            self.phase = Phase::Over(MatchEnd::Abandoned);
            if let Some(result) = self.result() {
                self.events.push(Event::Public(RamiEvent::MatchOver { result }));
            }
        }
    }

    /// How many events the match has produced (see [`RamiMatch::events_for`]).
    pub fn event_count(&self) -> usize {
        self.events_dropped + self.events.len()
    }

    /// A copy of the match for the strong bot's search, its later deals and reshuffles drawn from
    /// `source`, without what only its record and its events' readers need: the events (their count
    /// kept, so that event numbers, and the seed of the bot's tie-breaks, go on as before), this round's
    /// deck and log, and the take-backs. A world is cloned for every playout and is played on and
    /// scored, never recorded nor sent, so it carries none of that history; its views are the match's.
    pub(crate) fn search_world(&self, source: Source) -> RamiMatch {
        let round = &self.round;
        RamiMatch {
            options: self.options,
            players: self.players,
            source,
            finished: self.finished.clone(),
            round: Round {
                number: round.number,
                dealer: round.dealer,
                deck: Vec::new(),
                hands: round.hands.clone(),
                stock: round.stock.clone(),
                discard: round.discard.clone(),
                melds: round.melds.clone(),
                opened: round.opened.clone(),
                log: Vec::new(),
                result: round.result.clone(),
            },
            phase: self.phase,
            totals: self.totals.clone(),
            events: Vec::new(),
            events_dropped: self.event_count(),
            take_backs: crate::table_game::TakeBacks::never(),
        }
    }

    /// The turn in progress.
    pub(crate) fn turn(&self) -> Option<Turn> {
        match self.phase {
            Phase::Turn(turn) => Some(turn),
            _ => None,
        }
    }

    /// Deals round `number` with `dealer` (rami §5), or waits when a replay has no deck for it.
    pub(crate) fn deal(&mut self, number: u32, dealer: Seat) {
        let deck = match &mut self.source {
            Source::Random(rng) => DeckSpec::DOUBLE.shuffled(rng),
            Source::Scripted(script) => match script.rounds.pop_front() {
                Some((deck, reshuffles)) => {
                    script.reshuffles = reshuffles;
                    if let Some(check) = &mut script.seeded {
                        check.deck(number, DeckSpec::DOUBLE, &deck);
                    }
                    deck
                }
                None => {
                    self.phase = Phase::AwaitingDeck;
                    return;
                }
            },
        };
        let players = self.players;
        let mut round = Round::empty(players, dealer);
        round.number = number;
        // §5 step 2: one card at a time from the top, from the seat after the dealer, in seat order.
        let mut cards = deck.iter().copied();
        for i in 0..HAND_SIZE * players {
            let seat = (dealer.index() + 1 + i) % players;
            if let Some(card) = cards.next() {
                round.hands[seat].add(card);
            }
        }
        // §5 step 3: the next card starts the discard pile; the rest is the stock, top first.
        round.discard.extend(cards.next());
        round.stock = cards.rev().collect();
        round.deck = deck;
        self.round = round;
        let hands = self.round.hands.iter().map(Hand::cards).collect();
        let discard = self.round.discard.last().copied().unwrap_or(Card::JOKER);
        let stock = self.round.stock.len();
        self.events.push(Event::RoundStarted { number, dealer, hands, discard, stock });
        self.begin_turn(dealer.next(players));
    }

    /// The start of `seat`'s turn: a reshuffle, or a blocked round, when the stock is empty (rami §8).
    pub(crate) fn begin_turn(&mut self, seat: Seat) {
        if self.round.stock.is_empty() {
            if self.round.discard.len() < 2 {
                self.end_round(None);
                return;
            }
            let top = self.round.discard.pop();
            let rest = std::mem::take(&mut self.round.discard);
            let order = self.reshuffled(rest);
            self.round.discard.extend(top);
            self.round.stock = order.iter().rev().copied().collect();
            self.events.push(Event::Public(RamiEvent::Reshuffled { stock: order.len() }));
            self.round.log.push(LogEntry::Reshuffle { stock: order });
        }
        self.phase = Phase::Turn(Turn { seat, drew: false, opened_now: false, owes: None });
    }

    /// The new stock, top first, from the discard pile under its top card.
    fn reshuffled(&mut self, mut pile: Vec<Card>) -> Vec<Card> {
        // Where the reshuffle entry goes, for a seed check.
        let (number, entry) = (self.round.number, self.round.log.len());
        match &mut self.source {
            Source::Random(rng) => {
                rng.shuffle(&mut pile);
                pile
            }
            Source::Scripted(script) => {
                let Some(order) = script.reshuffles.pop_front() else {
                    script.fault.get_or_insert(ScriptFault::Missing);
                    return pile;
                };
                if Hand::from_cards(&order) != Hand::from_cards(&pile) {
                    script.fault.get_or_insert(ScriptFault::NotAPermutation);
                    return pile;
                }
                if let Some(check) = &mut script.seeded {
                    check.reshuffle(number, entry, &pile, &order);
                }
                order
            }
        }
    }

    /// Ends the round: `out` went out (with a rami sec when they opened this turn), or nobody did
    /// (blocked); then ends the match or deals the next round.
    pub(crate) fn end_round(&mut self, out: Option<Seat>) {
        let out = out.map(|seat| {
            let rami_sec = self.turn().is_some_and(|turn| turn.opened_now);
            let on_joker = self.round.discard.last().is_some_and(|card| card.is_joker());
            (seat, rami_sec, on_joker)
        });
        let hands: Vec<Vec<Card>> = self.round.hands.iter().map(Hand::cards).collect();
        let result = scoring::score_round(&hands, &self.round.opened, out, &self.totals);
        self.totals.clone_from(&result.totals);
        self.round.result = Some(result.clone());
        self.events.push(Event::Public(RamiEvent::RoundEnded { number: self.round.number, result, hands }));
        let (number, dealer) = (self.round.number, self.round.dealer);
        if let Some(end) = scoring::match_end(self.options.match_end, number, &self.totals) {
            // The last round stays the current one, so that views show how the match ended.
            self.phase = Phase::Over(end);
            if let Some(result) = self.result() {
                self.events.push(Event::Public(RamiEvent::MatchOver { result }));
            }
            return;
        }
        let finished = std::mem::replace(&mut self.round, Round::empty(self.players, dealer));
        self.finished.push(Arc::new(finished));
        self.deal(number + 1, dealer.next(self.players));
    }

    /// Every round with a result or in progress, in order: the rounds over, then the current one
    /// (which, once the match is over, is the last round played).
    pub(crate) fn rounds(&self) -> impl Iterator<Item = &Round> {
        self.finished.iter().map(|round| &**round).chain((self.round.number > 0).then_some(&self.round))
    }
}

impl Round {
    pub(crate) fn empty(players: usize, dealer: Seat) -> Round {
        Round {
            number: 0,
            dealer,
            deck: Vec::new(),
            hands: vec![Hand::default(); players],
            stock: Vec::new(),
            discard: Vec::new(),
            melds: Vec::new(),
            opened: vec![false; players],
            log: Vec::new(),
            result: None,
        }
    }
}
