//! Every meld a hand can make ([`candidate_melds`]): the list the opening search, the bot and the legal
//! summary start from, for every turn of every playout of the strong bot — the hottest code of a Rami
//! decision.
//!
//! So a candidate keeps its cards inline ([`CardRow`], no allocation) and its value and pureness are
//! worked out from how it was built rather than by building a table meld ([`Meld::new`]) for each. The
//! list is the same, in the same order, as checking each with the shared meld rules would give: a test
//! (`tests/search_reference.rs`) holds the two together on random hands.
//!
//! [`Meld::new`]: crate::melds::Meld::new

use crate::cards::{Card, Suit};
use crate::melds::JokerFor;

use super::actions::MeldCards;
use super::cardkit::{self, Hand};
use super::melds::position_value;

/// The most cards a meld holds: a run of all 14 positions (rami §3.2).
const MAX_MELD: usize = 14;

/// A meld's cards, inline.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct CardRow {
    cards: [Card; MAX_MELD],
    len: u8,
}

impl CardRow {
    const EMPTY: CardRow = CardRow { cards: [Card::JOKER; MAX_MELD], len: 0 };

    fn push(&mut self, card: Card) {
        self.cards[usize::from(self.len)] = card;
        self.len += 1;
    }

    pub(crate) fn as_slice(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

impl std::fmt::Debug for CardRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// A meld a hand can make, with what the opening rule needs to know of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    cards: CardRow,
    /// What its joker stands for, when it holds one.
    pub(crate) joker: Option<JokerFor>,
    /// Its value in a meld (rami §4).
    pub(crate) value: u32,
    /// A run without a joker (rami §6).
    pub(crate) pure_run: bool,
}

impl Candidate {
    /// Its cards, as a player would lay them.
    pub(crate) fn cards(&self) -> &[Card] {
        self.cards.as_slice()
    }

    /// How many cards it lays.
    pub(crate) fn len(&self) -> usize {
        usize::from(self.cards.len)
    }

    /// Whether `card` is among its cards.
    pub(crate) fn contains(&self, card: Card) -> bool {
        self.cards().contains(&card)
    }

    /// The meld as an action lays it.
    pub(crate) fn meld(&self) -> MeldCards {
        MeldCards { cards: self.cards().to_vec(), joker: self.joker }
    }
}

/// The natural card at a run position of `suit`: 1 and 14 are the ace.
pub(crate) fn run_card(suit: Suit, position: u8) -> Card {
    let rank = if position == 14 { 1 } else { position };
    cardkit::card(suit.index() * 13 + usize::from(rank) - 1)
}

/// Every meld `hand` can make: each set of 3 or 4 suits of a rank (with a joker for one of them or
/// not), each run over each stretch of positions (all naturals, or a joker in one position).
pub(crate) fn candidate_melds(hand: &Hand) -> Vec<Candidate> {
    let joker = hand.count(Card::JOKER) > 0;
    let mut out = Vec::new();
    for rank in 1..=13u8 {
        let mut present = CardRow::EMPTY;
        for suit in Suit::ALL {
            let card = run_card(suit, rank);
            if hand.count(card) > 0 {
                present.push(card);
            }
        }
        // Each card of a set counts as its rank, an ace 11, a joker as the set's rank (rami §4).
        let each = position_value(if rank == 1 { 14 } else { rank });
        for mask in 1u32..(1 << present.len) {
            let mut chosen = CardRow::EMPTY;
            for (i, &card) in present.as_slice().iter().enumerate() {
                if mask >> i & 1 == 1 {
                    chosen.push(card);
                }
            }
            let n = u32::from(chosen.len);
            if n >= 3 {
                out.push(Candidate { cards: chosen, joker: None, value: n * each, pure_run: false });
            }
            if joker && (2..=3).contains(&n) {
                let stated = chosen.as_slice()[0].rank().map(JokerFor::Rank);
                chosen.push(Card::JOKER);
                out.push(Candidate { cards: chosen, joker: stated, value: (n + 1) * each, pure_run: false });
            }
        }
    }
    for suit in Suit::ALL {
        let aces = hand.count(run_card(suit, 1));
        // Bit p: the hand holds the card of run position p (1 to 14; 14 is the ace again).
        let held = (1..=14u8).filter(|&p| hand.count(run_card(suit, p)) > 0).fold(0u16, |bits, p| bits | 1 << p);
        for low in 1..=12u8 {
            // Without a joker, a stretch from a card not held stops at once.
            if !joker && held >> low & 1 == 0 {
                continue;
            }
            let mut gap: Option<u8> = None;
            for high in low..=14u8 {
                let available = match (low, high) {
                    (1, 14) => aces >= 2,
                    _ => held >> high & 1 == 1,
                };
                if !available {
                    if gap.is_some() || !joker {
                        break;
                    }
                    gap = Some(high);
                }
                if high - low < 2 {
                    continue;
                }
                let value = run_value(low, high);
                let naturals = |except: u8| {
                    let mut cards = CardRow::EMPTY;
                    for p in (low..=high).filter(|&p| p != except) {
                        cards.push(run_card(suit, p));
                    }
                    cards
                };
                let with_joker = |at: u8| {
                    let mut cards = naturals(at);
                    cards.push(Card::JOKER);
                    Candidate { cards, joker: Some(JokerFor::Card(run_card(suit, at))), value, pure_run: false }
                };
                match gap {
                    Some(at) => out.push(with_joker(at)),
                    None => {
                        out.push(Candidate { cards: naturals(0), joker: None, value, pure_run: true });
                        if joker {
                            out.extend((low..=high).map(with_joker));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The value of a run over positions `low` to `high` (rami §4). An ace at 1 goes to 14 instead when
/// that keeps the run whole (rami §3.4, the shared placing rule): from the ace to the king, it is the
/// run from 2 to the high ace.
fn run_value(low: u8, high: u8) -> u32 {
    let (low, high) = if (low, high) == (1, 13) { (2, 14) } else { (low, high) };
    (low..=high).map(position_value).sum()
}
