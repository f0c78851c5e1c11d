//! The game: its state, the deal (§2), the turn (§3), taking back (§7) and the end (§4).
//!
//! [`Game`] keeps every field private: the only ways out are [`Game::view`] and [`Game::events_for`],
//! which redact per viewer (§6), and [`Game::record`], which is for finished games. Every change goes
//! through [`Game::apply`], which checks the action with [`Game::check`] first and changes nothing when it
//! is illegal. The automatic steps (refills, reshuffles, hand refill, the end of the game) happen inside
//! `apply`.

use std::collections::VecDeque;
use std::fmt;
use std::ops::Range;

use crate::action::{Action, EndReason, Phase, Seat, TurnStep};
use crate::cards::{Card, Cards};
use crate::contracts::{CONTRACT_COUNT, ContractId};
use crate::error::{IllegalAction, SetupError};
use crate::random::GameRng;
use crate::record::LogEntry;
use crate::trophies::Trophy;
use crate::view::Event;

/// Cards dealt to each hand at the start (§2.3).
pub const STARTING_HAND: usize = 3;
/// Slots of the number market (§2.4).
pub const NUMBER_MARKET_SLOTS: usize = 6;
/// Slots of the contract market (§2.4).
pub const CONTRACT_MARKET_SLOTS: usize = 4;
/// The hand limit (§3 step 4).
pub const HAND_LIMIT: usize = 10;
/// The hand size a short hand is refilled to (§3 step 4).
pub const HAND_MINIMUM: usize = 3;

/// How many completed contracts start the last round (§4): 7 for 2 players, 6 for 3, 5 for 4.
pub const fn contract_target(players: usize) -> usize {
    match players {
        2 => 7,
        3 => 6,
        _ => 5,
    }
}

/// The starting position of a game before the deal, with public fields, as a record states it.
///
/// [`Setup::random`] draws one as §2 says; [`Game::from_setup`] checks one and deals it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// How many players, 2 to 4.
    pub players: usize,
    /// The seat with the first player token (§2.6).
    pub first_player: Seat,
    /// The side of each trophy tile in play, tile 1 to 4 (§2.5).
    pub trophies: [Trophy; 4],
    /// The shuffled number deck, top first (§2.2).
    pub number_deck: Vec<Card>,
    /// The shuffled contract deck, top first (§2.2).
    pub contract_deck: Vec<ContractId>,
}

impl Setup {
    /// Draws a setup for `players` from `rng`, in this fixed order: the number deck is shuffled, then the
    /// contract deck, then each tile's side is chosen (tile 1 first), then the first player.
    ///
    /// # Errors
    /// [`SetupError::PlayerCount`] unless `players` is 2, 3 or 4.
    pub fn random(players: usize, rng: &mut GameRng) -> Result<Setup, SetupError> {
        if !(2..=4).contains(&players) {
            return Err(SetupError::PlayerCount(players));
        }
        Ok(Setup::random_into(players, rng, Vec::new(), Vec::new()))
    }

    /// [`Setup::random`] for a valid `players`, with the decks built in the buffers given (cleared
    /// first), so that a game dealt again ([`Game::redeal`]) allocates nothing for them.
    fn random_into(
        players: usize,
        rng: &mut GameRng,
        mut number_deck: Vec<Card>,
        mut contract_deck: Vec<ContractId>,
    ) -> Setup {
        number_deck.clear();
        number_deck.extend_from_slice(&FULL_DECK);
        rng.shuffle(&mut number_deck);
        contract_deck.clear();
        contract_deck.extend(ContractId::all());
        rng.shuffle(&mut contract_deck);
        let trophies = Trophy::TILES.map(|(side_a, side_b)| if rng.coin() { side_b } else { side_a });
        let first_player = Seat(rng.below(players) as u8);
        Setup { players, first_player, trophies, number_deck, contract_deck }
    }

    /// Checks the setup against §1 and §2.
    ///
    /// # Errors
    /// The first thing that is wrong, as a [`SetupError`].
    pub fn validate(&self) -> Result<(), SetupError> {
        if !(2..=4).contains(&self.players) {
            return Err(SetupError::PlayerCount(self.players));
        }
        if self.first_player.index() >= self.players {
            return Err(SetupError::FirstPlayer(self.first_player));
        }
        if self.number_deck.len() != 92 || self.number_deck.iter().collect::<Cards>() != Cards::full_deck() {
            return Err(SetupError::NumberDeck);
        }
        let mut seen = [false; CONTRACT_COUNT];
        for contract in &self.contract_deck {
            if std::mem::replace(&mut seen[contract.index()], true) {
                return Err(SetupError::ContractDeck);
            }
        }
        if self.contract_deck.len() != CONTRACT_COUNT {
            return Err(SetupError::ContractDeck);
        }
        for (position, (trophy, (side_a, side_b))) in self.trophies.iter().zip(Trophy::TILES).enumerate() {
            if *trophy != side_a && *trophy != side_b {
                return Err(SetupError::Trophy { position: position + 1 });
            }
        }
        Ok(())
    }
}

/// The 92 cards of §1.1 in index order, copies together: the order [`Setup::random`] shuffles.
static FULL_DECK: [Card; 92] = {
    let mut deck = [Card::from_index(0); 92];
    let mut at = 0;
    let mut index = 0;
    while index < crate::cards::CARD_KINDS {
        let card = Card::from_index(index);
        let mut copy = 0;
        while copy < card.copies() {
            deck[at] = card;
            at += 1;
            copy += 1;
        }
        index += 1;
    }
    assert!(at == 92, "§1.1: 92 number cards");
    deck
};

/// What belongs to one seat.
#[derive(Clone, Debug)]
pub(crate) struct SeatState {
    pub(crate) hand: Cards,
    pub(crate) suit_bonus: Cards,
    pub(crate) contracts: Vec<ContractId>,
    pub(crate) star_used: bool,
}

/// Where reshuffles get their order: the game's generator in live play, a record's `shuffle` entries in
/// a replay.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant, reason = "a game holds one shuffler, and live play is the common case")]
pub(crate) enum Shuffler {
    Random(GameRng),
    Scripted { orders: VecDeque<Vec<Card>>, fault: Option<ShuffleFault> },
}

/// A replayed reshuffle that the record did not describe correctly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShuffleFault {
    Missing,
    NotAPermutation,
}

/// How to take back one action of the current turn (§7).
#[derive(Clone, Debug)]
enum Undo {
    Take { cards: Cards, market_before: [Option<Card>; NUMBER_MARKET_SLOTS] },
    Complete { slot: usize, contract: ContractId, cards: Cards, star: bool },
}

/// The events one [`Game::apply`] produced, as positions in the game's event list
/// (see [`Game::events_for`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The event numbers, counting from 0 at the start of the game.
    pub events: Range<usize>,
}

/// The lists a [`Game`] holds, handed to [`Game::deal_into`] to be cleared and filled.
struct Lists {
    number_deck: Vec<Card>,
    contract_deck: Vec<ContractId>,
    discard_pile: Vec<Card>,
    seats: Vec<SeatState>,
    undo: Vec<Undo>,
    log: Vec<LogEntry>,
    events: Vec<Event>,
}

/// A game of Romi Rami in progress or finished.
#[derive(Clone)]
pub struct Game {
    pub(crate) setup: Setup,
    /// Top of the deck at the end.
    pub(crate) number_deck: Vec<Card>,
    /// Top of the deck at the end.
    pub(crate) contract_deck: Vec<ContractId>,
    pub(crate) number_market: [Option<Card>; NUMBER_MARKET_SLOTS],
    pub(crate) contract_market: [Option<ContractId>; CONTRACT_MARKET_SLOTS],
    pub(crate) discard_pile: Vec<Card>,
    pub(crate) seats: Vec<SeatState>,
    pub(crate) phase: Phase,
    undo: Vec<Undo>,
    pub(crate) log: Vec<LogEntry>,
    pub(crate) events: Vec<Event>,
    pub(crate) shuffler: Shuffler,
}

impl fmt::Debug for Game {
    /// Only public facts: a game printed into a log line must not leak a hand or a deck.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("players", &self.players())
            .field("phase", &self.phase)
            .field("number_market", &self.number_market)
            .field("contract_market", &self.contract_market)
            .field("number_deck", &self.number_deck.len())
            .field("contract_deck", &self.contract_deck.len())
            .field("discard_pile", &self.discard_pile.len())
            .finish_non_exhaustive()
    }
}

impl Game {
    /// A new game for `players` (2 to 4) from `seed`: the setup of §2 and every later reshuffle come
    /// from a generator seeded with it, so the same seed and the same actions give the same game.
    ///
    /// # Errors
    /// [`SetupError::PlayerCount`] unless `players` is 2, 3 or 4.
    pub fn new(players: usize, seed: u64) -> Result<Game, SetupError> {
        let mut rng = GameRng::from_seed(seed);
        let setup = Setup::random(players, &mut rng)?;
        Ok(Game::deal(setup, Shuffler::Random(rng)))
    }

    /// A new game dealt from an explicit `setup`, with reshuffles drawn from a generator seeded with
    /// `reshuffle_seed`.
    ///
    /// # Errors
    /// The first way `setup` breaks §1 or §2.
    pub fn from_setup(setup: Setup, reshuffle_seed: u64) -> Result<Game, SetupError> {
        setup.validate()?;
        Ok(Game::deal(setup, Shuffler::Random(GameRng::from_seed(reshuffle_seed))))
    }

    /// Makes this game exactly what [`Game::new`] with `players` and `seed` makes, reusing the memory
    /// of its lists: for simulations that play many games one after the other.
    ///
    /// # Errors
    /// [`SetupError::PlayerCount`] unless `players` is 2, 3 or 4; the game is then unchanged.
    pub fn redeal(&mut self, players: usize, seed: u64) -> Result<(), SetupError> {
        if !(2..=4).contains(&players) {
            return Err(SetupError::PlayerCount(players));
        }
        let mut rng = GameRng::from_seed(seed);
        let setup = Setup::random_into(
            players,
            &mut rng,
            std::mem::take(&mut self.setup.number_deck),
            std::mem::take(&mut self.setup.contract_deck),
        );
        let lists = Lists {
            number_deck: std::mem::take(&mut self.number_deck),
            contract_deck: std::mem::take(&mut self.contract_deck),
            discard_pile: std::mem::take(&mut self.discard_pile),
            seats: std::mem::take(&mut self.seats),
            undo: std::mem::take(&mut self.undo),
            log: std::mem::take(&mut self.log),
            events: std::mem::take(&mut self.events),
        };
        *self = Game::deal_into(setup, Shuffler::Random(rng), lists);
        Ok(())
    }

    /// Deals a checked setup (§2.3, §2.4) as the record format orders it: three cards to each seat from
    /// seat 0 on, then the number market, then the contract market, all from the top.
    pub(crate) fn deal(setup: Setup, shuffler: Shuffler) -> Game {
        let lists = Lists {
            number_deck: Vec::with_capacity(92),
            contract_deck: Vec::with_capacity(CONTRACT_COUNT),
            discard_pile: Vec::with_capacity(92),
            seats: Vec::with_capacity(setup.players),
            undo: Vec::with_capacity(8),
            log: Vec::with_capacity(256),
            events: Vec::with_capacity(512),
        };
        Game::deal_into(setup, shuffler, lists)
    }

    /// [`Game::deal`] into lists whose memory is reused: each is cleared first.
    fn deal_into(setup: Setup, shuffler: Shuffler, lists: Lists) -> Game {
        let Lists { mut number_deck, mut contract_deck, mut discard_pile, mut seats, mut undo, mut log, mut events } =
            lists;
        number_deck.clear();
        number_deck.extend(setup.number_deck.iter().rev());
        contract_deck.clear();
        contract_deck.extend(setup.contract_deck.iter().rev());
        seats.truncate(setup.players);
        for seat in 0..setup.players {
            let hand = (0..STARTING_HAND).filter_map(|_| number_deck.pop()).collect();
            match seats.get_mut(seat) {
                Some(state) => {
                    state.contracts.clear();
                    *state = SeatState {
                        hand,
                        suit_bonus: Cards::EMPTY,
                        contracts: std::mem::take(&mut state.contracts),
                        star_used: false,
                    };
                }
                None => seats.push(SeatState {
                    hand,
                    suit_bonus: Cards::EMPTY,
                    contracts: Vec::with_capacity(CONTRACT_COUNT),
                    star_used: false,
                }),
            }
        }
        let number_market = std::array::from_fn(|_| number_deck.pop());
        let contract_market = std::array::from_fn(|_| contract_deck.pop());
        let phase = Phase::Playing { seat: setup.first_player, step: TurnStep::Take };
        discard_pile.clear();
        undo.clear();
        log.clear();
        events.clear();
        events.push(Event::ToAct { seat: setup.first_player, step: TurnStep::Take });
        Game {
            setup,
            number_deck,
            contract_deck,
            number_market,
            contract_market,
            discard_pile,
            seats,
            phase,
            undo,
            log,
            events,
            shuffler,
        }
    }

    /// How many players.
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    /// The seat with the first player token.
    pub fn first_player(&self) -> Seat {
        self.setup.first_player
    }

    /// The trophies in play, tile 1 to 4.
    pub fn trophies(&self) -> [Trophy; 4] {
        self.setup.trophies
    }

    /// Who is to act and in which step, or how the game ended.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }

    /// The seat to act, while the game goes on.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Playing { seat, .. } => Some(seat),
            Phase::Over { .. } => None,
        }
    }

    /// Whether this is the last round (§4): some player has reached the contract target.
    pub fn is_last_round(&self) -> bool {
        let target = contract_target(self.players());
        self.seats.iter().any(|s| s.contracts.len() >= target)
    }

    /// Whether the player to act can take something back now (§7).
    pub fn can_take_back(&self) -> bool {
        !self.undo.is_empty()
    }

    /// How many events the game has produced so far.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// Gives the game up: it ends as [`EndReason::Abandoned`], scored as it stands (§5).
    /// Does nothing to a game that is already over.
    pub fn abandon(&mut self) {
        if !self.is_over() {
            self.finish(EndReason::Abandoned);
        }
    }

    /// Checks `action` by `seat` against the rules without changing anything.
    ///
    /// # Errors
    /// The rule the action breaks, as an [`IllegalAction`].
    pub fn check(&self, seat: Seat, action: &Action) -> Result<(), IllegalAction> {
        let step = match self.phase {
            Phase::Over { .. } => return Err(IllegalAction::GameOver),
            Phase::Playing { seat: to_act, step } => {
                if seat.index() >= self.players() {
                    return Err(IllegalAction::NoSuchSeat { seat });
                }
                if seat != to_act {
                    return Err(IllegalAction::NotYourTurn { seat, to_act });
                }
                step
            }
        };
        let wrong_step = |rule| Err(IllegalAction::WrongStep { step, action: action.kind(), rule });
        match *action {
            Action::Take { cards } if step == TurnStep::Take => self.check_take(&cards),
            Action::Take { .. } => wrong_step("§3 step 1"),
            Action::Complete { contract, cards, star } if step == TurnStep::Contracts => {
                self.check_complete(seat, contract, &cards, star)
            }
            Action::Complete { .. } | Action::Pass => {
                if step == TurnStep::Contracts {
                    Ok(())
                } else {
                    wrong_step("§3 step 2")
                }
            }
            Action::Discard { cards } if step == TurnStep::Discard => self.check_discard(seat, &cards),
            Action::Discard { .. } => wrong_step("§3 step 4"),
            Action::TakeBack if step == TurnStep::Contracts => {
                if self.undo.is_empty() {
                    Err(IllegalAction::NothingToTakeBack)
                } else {
                    Ok(())
                }
            }
            Action::TakeBack => wrong_step("§7"),
        }
    }

    /// Whether `action` by `seat` is legal now; the same answer as [`Game::check`].
    pub fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.check(seat, action).is_ok()
    }

    /// Plays `action` for `seat`, then every automatic step that follows it.
    ///
    /// # Errors
    /// When the action is illegal: the rule it breaks. The game is then exactly as it was.
    pub fn apply(&mut self, seat: Seat, action: &Action) -> Result<Applied, IllegalAction> {
        self.check(seat, action)?;
        Ok(self.apply_listed(seat, action))
    }

    /// [`Game::apply`] without the check, for an action known to pass it: one that
    /// [`Game::legal_actions`] lists (the random player's, whose every choice is a listed action). The
    /// check was nearly half the cost of `apply` in a random game; debug builds still make it.
    pub(crate) fn apply_listed(&mut self, seat: Seat, action: &Action) -> Applied {
        debug_assert_eq!(self.check(seat, action), Ok(()), "{action:?} by {seat} is legal");
        let first_event = self.events.len();
        match *action {
            Action::Take { cards } => self.take(seat, cards),
            Action::Complete { contract, cards, star } => self.complete(seat, contract, cards, star),
            Action::Pass => self.pass(seat),
            Action::Discard { cards } => self.discard(seat, cards),
            Action::TakeBack => self.take_back(seat),
        }
        Applied { events: first_event..self.events.len() }
    }

    pub(crate) fn number_market_cards(&self) -> Cards {
        Cards::of_slots(&self.number_market)
    }

    fn check_take(&self, cards: &Cards) -> Result<(), IllegalAction> {
        let count = cards.len();
        if !(1..=3).contains(&count) {
            return Err(IllegalAction::TakeCount { count });
        }
        if !self.number_market_cards().contains(cards) {
            return Err(IllegalAction::NotInMarket { cards: *cards });
        }
        if cards.one_number() || cards.one_suit() { Ok(()) } else { Err(IllegalAction::TakeMixed { cards: *cards }) }
    }

    fn check_complete(&self, seat: Seat, contract: ContractId, cards: &Cards, star: bool) -> Result<(), IllegalAction> {
        if !self.contract_market.contains(&Some(contract)) {
            return Err(IllegalAction::ContractNotInMarket { contract });
        }
        let state = &self.seats[seat.index()];
        if star && state.star_used {
            return Err(IllegalAction::StarUsed);
        }
        let expected = usize::from(contract.contract().card_count()) - usize::from(star);
        let count = cards.len();
        if count != expected {
            return Err(IllegalAction::ContractCardCount { contract, expected, count, star });
        }
        if !state.hand.contains(cards) {
            return Err(IllegalAction::NotInHand { cards: *cards });
        }
        if !contract.is_filled_by(cards.number_counts(), star) {
            return Err(IllegalAction::DoesNotFill { contract, cards: *cards, star });
        }
        Ok(())
    }

    fn check_discard(&self, seat: Seat, cards: &Cards) -> Result<(), IllegalAction> {
        let hand = &self.seats[seat.index()].hand;
        let expected = hand.len().saturating_sub(HAND_LIMIT);
        let count = cards.len();
        if count != expected {
            return Err(IllegalAction::DiscardCount { expected, count });
        }
        if !hand.contains(cards) {
            return Err(IllegalAction::DiscardNotInHand { cards: *cards });
        }
        Ok(())
    }

    fn set_phase(&mut self, seat: Seat, step: TurnStep) {
        if self.phase != (Phase::Playing { seat, step }) {
            self.phase = Phase::Playing { seat, step };
            self.events.push(Event::ToAct { seat, step });
        }
    }

    /// §3 step 1.
    fn take(&mut self, seat: Seat, cards: Cards) {
        let market_before = self.number_market;
        // The first slots that hold each card taken are emptied. Each card's slot is the lowest byte
        // of the market's key equal to its index, found for all six slots at once (a byte-wise
        // comparison), and its byte is then marked so that a second copy finds the next slot.
        const ONES: u64 = 0x0101_0101_0101_0101;
        let mut bytes = crate::legal::market_key(&self.number_market) | 0xffff << 48;
        for index in cards.indexes() {
            let differ = bytes ^ (ONES * index as u64);
            // The lowest byte of `differ` that is zero has the lowest bit set here (a borrow can only
            // mark bytes above a zero one).
            let equal = differ.wrapping_sub(ONES) & !differ & (ONES << 7);
            debug_assert!(equal != 0, "a listed take's cards are all in the market");
            let slot = (equal.trailing_zeros() / 8) as usize;
            bytes |= 0xff << (8 * slot % 64);
            if let Some(slot) = self.number_market.get_mut(slot) {
                *slot = None;
            }
        }
        self.seats[seat.index()].hand.add_all(&cards);
        self.undo.push(Undo::Take { cards, market_before });
        self.log.push(LogEntry::Take { seat, cards });
        self.events.push(Event::Took { seat, cards });
        self.set_phase(seat, TurnStep::Contracts);
    }

    /// §3 step 2, one contract.
    fn complete(&mut self, seat: Seat, contract: ContractId, cards: Cards, star: bool) {
        let was_last_round = self.is_last_round();
        let suit = contract.contract().suit;
        let state = &mut self.seats[seat.index()];
        state.hand.remove_all(&cards);
        // The cards of the contract's suit become suit bonus; the others go to the discard pile.
        let bonus = cards.of_suit(suit);
        state.suit_bonus.add_all(&bonus);
        self.discard_pile.extend(cards.without(&bonus).iter());
        state.contracts.push(contract);
        state.star_used |= star;
        let slot = self.contract_market.iter().position(|c| *c == Some(contract)).unwrap_or(0);
        self.contract_market[slot] = None;
        self.undo.push(Undo::Complete { slot, contract, cards, star });
        self.log.push(LogEntry::Complete { seat, contract, cards, star });
        self.events.push(Event::Completed { seat, contract, cards, star });
        // Only this seat's contracts changed.
        let target = contract_target(self.players());
        if !was_last_round && self.seats[seat.index()].contracts.len() >= target {
            self.events.push(Event::LastRound { started: true });
        }
    }

    /// §7: undoes the last take or contract of this turn. Nothing was drawn since, so nothing hidden
    /// is shown by it.
    fn take_back(&mut self, seat: Seat) {
        let Some(undo) = self.undo.pop() else { return };
        self.log.pop();
        match undo {
            Undo::Take { cards, market_before } => {
                self.seats[seat.index()].hand.remove_all(&cards);
                self.number_market = market_before;
                self.events.push(Event::TookBack { seat, contract: None, cards, star: false });
                self.set_phase(seat, TurnStep::Take);
            }
            Undo::Complete { slot, contract, cards, star } => {
                let was_last_round = self.is_last_round();
                let suit = contract.contract().suit;
                let state = &mut self.seats[seat.index()];
                let bonus = cards.of_suit(suit);
                state.suit_bonus.remove_all(&bonus);
                let to_discard = cards.len() - bonus.len();
                // The played cards were the last ones put on the discard pile: undo is last in, first out.
                self.discard_pile.truncate(self.discard_pile.len() - to_discard);
                state.hand.add_all(&cards);
                state.contracts.pop();
                if star {
                    state.star_used = false;
                }
                self.contract_market[slot] = Some(contract);
                self.events.push(Event::TookBack { seat, contract: Some(contract), cards, star });
                if was_last_round && !self.is_last_round() {
                    self.events.push(Event::LastRound { started: false });
                }
            }
        }
    }

    /// §3 step 2 ends; steps 3 and 4 follow.
    fn pass(&mut self, seat: Seat) {
        self.undo.clear();
        self.log.push(LogEntry::Pass { seat });
        self.events.push(Event::Passed { seat });
        self.refill_contract_market();
        self.refill_number_market();
        let hand = self.seats[seat.index()].hand.len();
        if hand > HAND_LIMIT {
            self.set_phase(seat, TurnStep::Discard);
            return;
        }
        if hand < HAND_MINIMUM {
            self.draw_to_hand(seat, HAND_MINIMUM - hand);
        }
        self.end_turn(seat);
    }

    /// §3 step 4, the hand limit.
    fn discard(&mut self, seat: Seat, cards: Cards) {
        self.seats[seat.index()].hand.remove_all(&cards);
        self.discard_pile.extend(cards.iter());
        self.log.push(LogEntry::Discard { seat, cards });
        self.events.push(Event::Discarded { seat, cards });
        self.refill_number_market();
        self.end_turn(seat);
    }

    /// §3 step 3 for the contract market: empty slots stay empty once the deck is out.
    fn refill_contract_market(&mut self) {
        let mut changed = false;
        for slot in &mut self.contract_market {
            if slot.is_none() {
                if let Some(contract) = self.contract_deck.pop() {
                    *slot = Some(contract);
                    changed = true;
                }
            }
        }
        if changed {
            self.events.push(Event::ContractMarketRefilled { market: self.contract_market });
        }
    }

    /// §3 step 3 for the number market, reshuffling the discard pile when the deck runs out.
    fn refill_number_market(&mut self) {
        let mut changed = false;
        // The empty slots, one bit each, lowest first.
        let mut empty =
            self.number_market.iter().enumerate().fold(0u32, |set, (i, slot)| set | u32::from(slot.is_none()) << i);
        while empty != 0 {
            let i = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            match self.draw_card() {
                Some(card) => {
                    self.number_market[i] = Some(card);
                    changed = true;
                }
                None => break,
            }
        }
        if changed {
            self.events.push(Event::NumberMarketRefilled { market: self.number_market });
        }
    }

    /// §3 step 4: draws up to `count` cards into a short hand; fewer when no card is left anywhere.
    fn draw_to_hand(&mut self, seat: Seat, count: usize) {
        let mut drawn = Cards::EMPTY;
        for _ in 0..count {
            match self.draw_card() {
                Some(card) => drawn.add(card),
                None => break,
            }
        }
        if !drawn.is_empty() {
            self.seats[seat.index()].hand.add_all(&drawn);
            self.events.push(Event::Drew { seat, cards: drawn });
        }
    }

    /// The top card of the number deck, after turning the discard pile into a new deck if it is empty.
    #[inline]
    fn draw_card(&mut self) -> Option<Card> {
        if self.number_deck.is_empty() {
            self.reshuffle();
        }
        self.number_deck.pop()
    }

    /// §3 step 3: the discard pile, shuffled, becomes the number deck.
    #[cold]
    fn reshuffle(&mut self) {
        if self.discard_pile.is_empty() {
            return;
        }
        // The pile goes to the log; the next one starts with room for every card, as the first did.
        let mut pile = std::mem::replace(&mut self.discard_pile, Vec::with_capacity(92));
        let top_first = match &mut self.shuffler {
            Shuffler::Random(rng) => {
                rng.shuffle(&mut pile);
                pile
            }
            Shuffler::Scripted { orders, fault } => match orders.pop_front() {
                Some(order)
                    if order.len() == pile.len() && order.iter().collect::<Cards>() == pile.iter().collect() =>
                {
                    order
                }
                Some(_) => {
                    fault.get_or_insert(ShuffleFault::NotAPermutation);
                    pile
                }
                None => {
                    fault.get_or_insert(ShuffleFault::Missing);
                    pile
                }
            },
        };
        // The deck is empty here (only `draw_card` reshuffles): its memory is reused.
        self.number_deck.clear();
        self.number_deck.extend(top_first.iter().rev());
        self.events.push(Event::Reshuffled { deck: top_first.len() });
        self.log.push(LogEntry::Shuffle { order: top_first });
    }

    /// The turn of `seat` is over: the game ends (§4) or the next seat takes its turn (§3).
    fn end_turn(&mut self, seat: Seat) {
        let next = if seat.index() + 1 == self.players() { Seat(0) } else { Seat(seat.0 + 1) };
        if next == self.setup.first_player && self.is_last_round() {
            self.finish(EndReason::Contracts);
        } else if self.number_market.iter().all(Option::is_none) || self.contract_market.iter().all(Option::is_none) {
            self.finish(EndReason::Market);
        } else {
            // The number market is not empty here, so the next turn starts with a take (§3 step 1).
            self.set_phase(next, TurnStep::Take);
        }
    }

    fn finish(&mut self, ended_by: EndReason) {
        self.undo.clear();
        self.phase = Phase::Over { ended_by };
        self.events.push(Event::GameOver { ended_by });
    }
}
