//! Melds, checked by one set of rules that each game parameterizes ([`MeldRules`]): sets, runs, where
//! aces may go, jokers, fixed positions (rommi §3.3, rami §3.4), melds on the table with their id and the
//! seat that put each card there, lay-offs and joker exchanges (rami §7.3).
//!
//! Values differ by game (rommi §4, rami §4, rumino §4), so this module does not score: each placed card
//! says what it counts as ([`Placed::rank`], [`Placed::position`]) and the game values it.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::{Card, Rank, Suit};
use crate::seat::Seat;

/// Where an ace may sit in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aces {
    /// Position 1 only (rommi `basic`).
    Low,
    /// Position 1 or 14 (rommi `500`, rami, rumino); never both ends at once of one card: no wrap-around.
    Versatile,
}

/// Whether a set may repeat a suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetSuits {
    /// Every card of a set has its own suit (rommi §3.1, rami §3.1).
    Distinct,
    /// Suits may repeat, copies of one card included (rumino §3.1).
    Repeat,
}

/// Whether, and how, jokers go into melds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jokers {
    /// No jokers in the game (rommi §1).
    None,
    /// At most one per meld, and the player states what it stands for (rami §3.3).
    OneStated,
    /// At most one per group, standing for whatever makes the group valid (rumino §3.3).
    OneWild,
}

/// One game's meld rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeldRules {
    /// Where aces go in a run.
    pub aces: Aces,
    /// Whether a set may repeat a suit.
    pub set_suits: SetSuits,
    /// Jokers.
    pub jokers: Jokers,
    /// The most cards a set may hold.
    pub max_set: usize,
    /// The most cards a run may hold.
    pub max_run: usize,
}

impl MeldRules {
    /// Rommi `basic` (rommi §3): low aces, no jokers.
    pub const ROMMI_BASIC: MeldRules =
        MeldRules { aces: Aces::Low, set_suits: SetSuits::Distinct, jokers: Jokers::None, max_set: 4, max_run: 13 };
    /// Rommi `500` (rommi §3): versatile aces, no jokers.
    pub const ROMMI_500: MeldRules = MeldRules { aces: Aces::Versatile, ..MeldRules::ROMMI_BASIC };
    /// Rami (rami §3): versatile aces (both in one run allowed), one stated joker per meld, runs up to 14.
    pub const RAMI: MeldRules = MeldRules {
        aces: Aces::Versatile,
        set_suits: SetSuits::Distinct,
        jokers: Jokers::OneStated,
        max_set: 4,
        max_run: 14,
    };
    /// Rumino's lays (rumino §3.1 to §3.3): 3 or 4 cards, suits may repeat, one wild joker.
    pub const RUMINO_LAY: MeldRules = MeldRules {
        aces: Aces::Versatile,
        set_suits: SetSuits::Repeat,
        jokers: Jokers::OneWild,
        max_set: 4,
        max_run: 4,
    };
    /// Rumino's rumino (rumino §3.4): 7 of a rank or a straight flush of 7, one wild joker.
    pub const RUMINO_SEVEN: MeldRules = MeldRules { max_set: 7, max_run: 7, ..MeldRules::RUMINO_LAY };
}

/// What a joker in a meld stands for, as the record writes it: in a run a card of the run's suit (`"9c"`),
/// in a set the set's rank alone (`"9"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JokerFor {
    /// In a run.
    Card(Card),
    /// In a set.
    Rank(Rank),
}

impl fmt::Display for JokerFor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JokerFor::Card(card) => card.fmt(f),
            JokerFor::Rank(rank) => rank.fmt(f),
        }
    }
}

impl Serialize for JokerFor {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for JokerFor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<JokerFor, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        match code.parse::<Card>() {
            Ok(card) if !card.is_joker() => Ok(JokerFor::Card(card)),
            _ => code.parse::<Rank>().map(JokerFor::Rank).map_err(serde::de::Error::custom),
        }
    }
}

/// A meld's id within its round: 1 for the first meld laid, 2 for the next (rommi §3.4, rami §3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MeldId(pub u32);

impl fmt::Display for MeldId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "meld {}", self.0)
    }
}

/// A set of one rank or a run of one suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeldKind {
    /// A set of this rank.
    Set(Rank),
    /// A run of this suit.
    Run(Suit),
}

/// A card on the table: what it is, who put it there, and what it counts as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    /// The card itself (a joker stays a joker).
    pub card: Card,
    /// The seat that put it on the table (rommi §3.4: it matters for `meld_hand` scoring).
    pub owner: Seat,
    /// The rank it counts as: its own, or the rank a joker stands for.
    pub rank: Rank,
    /// Its position in a run, 1 to 14, fixed once placed; `None` in a set.
    pub position: Option<u8>,
}

/// Why cards do not make a meld or a lay-off. Each game's refusal adds its rule-book section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeldError {
    /// Fewer than 3 cards for a new meld, or no card for a lay-off.
    #[error("a meld needs at least 3 cards, and a lay-off at least one")]
    TooFew,
    /// A set above its size.
    #[error("a set holds at most {0} cards")]
    SetTooBig(usize),
    /// A run above its size.
    #[error("a run holds at most {0} cards")]
    RunTooLong(usize),
    /// Neither one rank nor one suit.
    #[error("the cards are neither of one rank (a set) nor of one suit (a run)")]
    Mixed,
    /// Two cards of one suit in a set.
    #[error("a set may not hold two cards of one suit")]
    SetSuit,
    /// Two cards on one run position.
    #[error("two cards would take the same position of the run")]
    SamePosition,
    /// The run would not fill consecutive positions.
    #[error("the run's positions would not be consecutive (no wrap-around; {aces})")]
    NotConsecutive {
        /// How aces go in this game, for the message.
        aces: &'static str,
    },
    /// A joker in a game without jokers.
    #[error("this game has no jokers")]
    NoJokers,
    /// A second joker in one meld.
    #[error("a meld holds at most one joker")]
    SecondJoker,
    /// A joker without the card it stands for, or a stated card without a joker.
    #[error("a joker is laid exactly when `joker` says what it stands for")]
    JokerStatement,
    /// The stated card does not fit the meld: another rank in a set, another suit in a run.
    #[error("the joker must stand for the set's rank, or a card of the run's suit")]
    JokerDoesNotFit,
    /// An exchange on a meld without a joker.
    #[error("the meld holds no joker")]
    NoJokerThere,
    /// An exchange on a 3-card set.
    #[error("a joker cannot be taken from a set of 3")]
    ThreeCardSet,
    /// An exchange with another card than the one the joker stands for.
    #[error("the joker stands for {0}; only that card takes its place")]
    WrongCard(Card),
}

impl Aces {
    fn describe(self) -> &'static str {
        match self {
            Aces::Low => "aces are low only",
            Aces::Versatile => "an ace is low or high",
        }
    }
}

/// A meld on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meld {
    /// Its id in the round.
    pub id: MeldId,
    /// The seat that laid it.
    pub owner: Seat,
    /// Set or run.
    pub kind: MeldKind,
    /// Its cards: a run's in position order, a set's in the order laid.
    pub cards: Vec<Placed>,
    /// What its joker stands for, when it holds one.
    pub joker: Option<JokerFor>,
}

impl Meld {
    /// A new meld of `cards` laid by `owner`, with `joker` saying what a joker among them stands for.
    ///
    /// # Errors
    /// Why the cards are not a meld under `rules`.
    pub fn new(
        id: MeldId,
        owner: Seat,
        cards: &[Card],
        joker: Option<JokerFor>,
        rules: &MeldRules,
    ) -> Result<Meld, MeldError> {
        if cards.len() < 3 {
            return Err(MeldError::TooFew);
        }
        check_jokers(cards, joker, 0, rules)?;
        let kind = match joker {
            Some(JokerFor::Rank(rank)) => MeldKind::Set(rank),
            Some(JokerFor::Card(card)) => MeldKind::Run(card.suit().ok_or(MeldError::JokerDoesNotFit)?),
            None => {
                let mut naturals = cards.iter().filter(|c| !c.is_joker());
                let first = naturals.next().ok_or(MeldError::Mixed)?;
                if naturals.clone().all(|c| c.rank() == first.rank()) {
                    MeldKind::Set(first.rank().ok_or(MeldError::Mixed)?)
                } else if naturals.all(|c| c.suit() == first.suit()) {
                    MeldKind::Run(first.suit().ok_or(MeldError::Mixed)?)
                } else {
                    return Err(MeldError::Mixed);
                }
            }
        };
        let mut meld = Meld { id, owner, kind, cards: Vec::new(), joker: None };
        let placed = meld.place(owner, cards, joker, rules)?;
        meld.cards = placed;
        meld.joker = joker;
        meld.sort();
        Ok(meld)
    }

    /// Whether `cards` (with `joker`) may be laid off on this meld under `rules`.
    ///
    /// # Errors
    /// Why not.
    pub fn check_lay_off(&self, cards: &[Card], joker: Option<JokerFor>, rules: &MeldRules) -> Result<(), MeldError> {
        self.place(Seat(0), cards, joker, rules).map(drop)
    }

    /// Lays `cards` off on this meld for `owner`; all or nothing.
    ///
    /// # Errors
    /// Why the meld would not be valid afterwards; the meld is then unchanged.
    pub fn lay_off(
        &mut self,
        owner: Seat,
        cards: &[Card],
        joker: Option<JokerFor>,
        rules: &MeldRules,
    ) -> Result<(), MeldError> {
        let placed = self.place(owner, cards, joker, rules)?;
        self.cards.extend(placed);
        if joker.is_some() {
            self.joker = joker;
        }
        self.sort();
        Ok(())
    }

    /// The natural card that may take the joker's place now (rami §7.3): in a run the stated card, in a
    /// 4-card set the set's rank in the missing suit; `None` without a joker or in a 3-card set.
    pub fn exchange_card(&self) -> Option<Card> {
        match (self.kind, self.joker?) {
            (MeldKind::Run(_), JokerFor::Card(card)) => Some(card),
            (MeldKind::Set(rank), _) if self.cards.len() == 4 => {
                let missing = Suit::ALL.into_iter().find(|&s| !self.cards.iter().any(|p| p.card.suit() == Some(s)))?;
                Some(Card::new(rank, missing))
            }
            _ => None,
        }
    }

    /// Puts `card` from `owner`'s hand in place of the meld's joker, which it returns (rami §7.3).
    ///
    /// # Errors
    /// No joker, a 3-card set, or another card than the one the joker stands for; the meld is unchanged.
    pub fn exchange(&mut self, owner: Seat, card: Card) -> Result<Card, MeldError> {
        if self.joker.is_none() {
            return Err(MeldError::NoJokerThere);
        }
        let wanted = self.exchange_card().ok_or(MeldError::ThreeCardSet)?;
        if card != wanted {
            return Err(MeldError::WrongCard(wanted));
        }
        let slot = self.cards.iter_mut().find(|p| p.card.is_joker()).ok_or(MeldError::NoJokerThere)?;
        slot.card = card;
        slot.owner = owner;
        self.joker = None;
        Ok(Card::JOKER)
    }

    /// Whether the meld holds a joker.
    pub fn has_joker(&self) -> bool {
        self.joker.is_some()
    }

    /// The lowest and highest positions of a run; `None` for a set.
    pub fn ends(&self) -> Option<(u8, u8)> {
        let positions = self.cards.iter().filter_map(|p| p.position);
        Some((positions.clone().min()?, positions.max()?))
    }

    fn sort(&mut self) {
        if matches!(self.kind, MeldKind::Run(_)) {
            self.cards.sort_by_key(|p| p.position);
        }
    }

    /// Where `cards` would go if added to this meld (which may be empty, for a new meld).
    fn place(
        &self,
        owner: Seat,
        cards: &[Card],
        joker: Option<JokerFor>,
        rules: &MeldRules,
    ) -> Result<Vec<Placed>, MeldError> {
        if cards.is_empty() {
            return Err(MeldError::TooFew);
        }
        check_jokers(cards, joker, usize::from(self.joker.is_some()), rules)?;
        let total = self.cards.len() + cards.len();
        match self.kind {
            MeldKind::Set(rank) => {
                if joker.is_some_and(|j| j != JokerFor::Rank(rank)) {
                    return Err(MeldError::JokerDoesNotFit);
                }
                if cards.iter().any(|c| !c.is_joker() && c.rank() != Some(rank)) {
                    return Err(MeldError::Mixed);
                }
                if total > rules.max_set {
                    return Err(MeldError::SetTooBig(rules.max_set));
                }
                if rules.set_suits == SetSuits::Distinct {
                    let mut seen = [false; 4];
                    let before = self.cards.iter().map(|p| p.card);
                    for suit in before.chain(cards.iter().copied()).filter_map(Card::suit) {
                        if std::mem::replace(&mut seen[suit.index()], true) {
                            return Err(MeldError::SetSuit);
                        }
                    }
                }
                Ok(cards.iter().map(|&card| Placed { card, owner, rank, position: None }).collect())
            }
            MeldKind::Run(suit) => {
                if total > rules.max_run {
                    return Err(MeldError::RunTooLong(rules.max_run));
                }
                let mut ranks = Vec::with_capacity(cards.len());
                for &card in cards {
                    let stands = if card.is_joker() {
                        match joker {
                            Some(JokerFor::Card(c)) if c.suit() == Some(suit) => c,
                            _ => return Err(MeldError::JokerDoesNotFit),
                        }
                    } else {
                        card
                    };
                    if stands.suit() != Some(suit) {
                        return Err(MeldError::Mixed);
                    }
                    ranks.push(stands.rank().ok_or(MeldError::Mixed)?);
                }
                let occupied: Vec<u8> = self.cards.iter().filter_map(|p| p.position).collect();
                let positions = place_run(&occupied, &ranks, rules.aces)?;
                Ok(cards
                    .iter()
                    .zip(ranks)
                    .zip(positions)
                    .map(|((&card, rank), position)| Placed { card, owner, rank, position: Some(position) })
                    .collect())
            }
        }
    }
}

/// The joker rules shared by new melds and lay-offs: `already` jokers are on the meld.
fn check_jokers(cards: &[Card], joker: Option<JokerFor>, already: usize, rules: &MeldRules) -> Result<(), MeldError> {
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    match rules.jokers {
        Jokers::None if jokers > 0 => Err(MeldError::NoJokers),
        Jokers::None if joker.is_some() => Err(MeldError::JokerStatement),
        _ if jokers + already > 1 => Err(MeldError::SecondJoker),
        Jokers::OneStated if (jokers == 1) != joker.is_some() => Err(MeldError::JokerStatement),
        _ => Ok(()),
    }
}

/// The positions that cards of `ranks` take in a run whose cards already sit at `occupied` (rommi §3.3,
/// rami §3.4): a non-ace at its rank; an ace at 1 or 14, whichever keeps the run consecutive, 14 when both
/// do; two aces at 1 and 14.
fn place_run(occupied: &[u8], ranks: &[Rank], aces: Aces) -> Result<Vec<u8>, MeldError> {
    let not_consecutive = MeldError::NotConsecutive { aces: aces.describe() };
    let mut taken = [false; 15];
    for &p in occupied {
        taken[usize::from(p)] = true;
    }
    for rank in ranks.iter().filter(|r| !r.is_ace()) {
        if std::mem::replace(&mut taken[usize::from(rank.number())], true) {
            return Err(MeldError::SamePosition);
        }
    }
    let consecutive = |taken: &[bool; 15]| {
        let filled: Vec<usize> = (1..15).filter(|&p| taken[p]).collect();
        filled.windows(2).all(|w| w[1] == w[0] + 1)
    };
    let ace_count = ranks.iter().filter(|r| r.is_ace()).count();
    let ace_positions: Vec<u8> = match (ace_count, aces) {
        (0, _) => Vec::new(),
        (1, _) => {
            let fits = |p: u8| {
                let mut with = taken;
                !taken[usize::from(p)] && {
                    with[usize::from(p)] = true;
                    consecutive(&with)
                }
            };
            if aces == Aces::Versatile && fits(14) {
                vec![14]
            } else if fits(1) {
                vec![1]
            } else {
                return Err(not_consecutive);
            }
        }
        (2, Aces::Versatile) if !taken[1] && !taken[14] => vec![1, 14],
        _ => return Err(MeldError::SamePosition),
    };
    for &p in &ace_positions {
        taken[usize::from(p)] = true;
    }
    if !consecutive(&taken) {
        return Err(not_consecutive);
    }
    let mut next_ace = ace_positions.into_iter();
    Ok(ranks.iter().map(|rank| if rank.is_ace() { next_ace.next().unwrap_or(1) } else { rank.number() }).collect())
}

/// Whether `cards` form one group under `rules` with wild jokers (rumino §3): a set of one rank or a run
/// of one suit, each joker standing for whatever makes it valid, at most one joker unless the rules allow
/// none. Sizes: 3 up to `max_set` / `max_run`.
pub fn forms_group(cards: &[Card], rules: &MeldRules) -> bool {
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    let allowed = if rules.jokers == Jokers::None { 0 } else { 1 };
    if cards.len() < 3 || jokers > allowed {
        return false;
    }
    let naturals: Vec<Card> = cards.iter().copied().filter(|c| !c.is_joker()).collect();
    let Some(first) = naturals.first() else { return false };
    let is_set = cards.len() <= rules.max_set
        && naturals.iter().all(|c| c.rank() == first.rank())
        && (rules.set_suits == SetSuits::Repeat || {
            let mut seen = [false; 4];
            naturals.iter().filter_map(|c| c.suit()).all(|s| !std::mem::replace(&mut seen[s.index()], true))
        });
    is_set
        || (cards.len() <= rules.max_run && naturals.iter().all(|c| c.suit() == first.suit()) && {
            // Each ace low or high: try every assignment; the jokers fill gaps and extend the ends.
            let aces = naturals.iter().filter(|c| c.rank() == Some(Rank::ACE)).count();
            let choices: u32 = if rules.aces == Aces::Versatile { 1 << aces } else { 1 };
            (0..choices).any(|mask| {
                let mut ace = 0;
                let mut positions: Vec<u8> = naturals
                    .iter()
                    .filter_map(|c| c.rank())
                    .map(|r| {
                        if r.is_ace() {
                            ace += 1;
                            if mask >> (ace - 1) & 1 == 1 { 14 } else { 1 }
                        } else {
                            r.number()
                        }
                    })
                    .collect();
                positions.sort_unstable();
                let distinct = positions.windows(2).all(|w| w[0] != w[1]);
                let span = usize::from(positions[positions.len() - 1] - positions[0]) + 1;
                let top = if rules.aces == Aces::Versatile { 14 } else { 13 };
                distinct && span <= cards.len() && cards.len() <= top
            })
        })
}

#[cfg(test)]
#[path = "melds_tests.rs"]
mod tests;
