//! The start of a game (§2): a setup drawn or given, and the deal that makes a [`Game`] of it.

use crate::action::{Phase, Seat, TurnStep};
use crate::cards::{Card, Cards};
use crate::contracts::{CONTRACT_COUNT, ContractId};
use crate::error::SetupError;
use crate::random::GameRng;
use crate::record::LogEntry;
use crate::trophies::Trophy;
use crate::view::Event;

use super::{Game, STARTING_HAND, SeatState, Shuffler, Undo};

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
}
