//! Every distinct legal action of the player to act.
//!
//! [`Game::check`] is the one definition of legality; the lists built here enumerate candidates that
//! the rules allow, and a property test holds the two together: an action is listed exactly when
//! `check` accepts it. Actions are distinct as multisets of cards, since copies are interchangeable (§1.1).
//!
//! The enumeration is on the hot path of every bot and simulation, so it generates each distinct
//! multiset once instead of generating with repeats and removing them.
//!
//! The random player goes further ([`Game::legal_action_at`]): it needs how many actions there are and
//! the one at a drawn position, so it counts and builds only that one, in the list's order:
//! - takes: the market is turned into three sets of kinds (one bit per kind: held, held twice, held
//!   three times) and a count, a closed formula over the nine number and suit groups read from tables
//!   ([`market_takes`]); a walk in list order that skips each pair's triples by counting them finds
//!   the drawn one;
//! - completions: one table lookup by the hand's counts per number says which kinds of contract the
//!   hand fits ([`crate::contracts::fitting_kinds_of`]), a mask of the market's kinds says whether any
//!   of them is in the market (in most contract steps none is); the number patterns that fit each
//!   such contract come from [`crate::contracts::PatternIndex`] (five mask lookups); each pattern's completions
//!   are the product over its numbers of the ways to take that many cards of the number among the
//!   suits, read from [`split_table`], a table worked out at compile time and indexed by the number's
//!   four 3-bit counts in [`Cards`]; the drawn completion is decoded number by number ([`nth_split`]);
//! - discards: counted and found from the ways per kind ([`SubMultisets`]).
//!
//! The player keeps a [`StepMemo`] between steps: what a take-back brings back (the market's takes,
//! the contracts that fit a hand) is not worked out again.
//!
//! The tests (`tests.rs`) hold each count and each decoded position to the list.

use crate::action::{Action, Phase, Seat, TurnStep};

use crate::cards::{CARD_KINDS, Card, Cards};
use crate::contracts::{ContractId, PatternIndex, fitting_kinds_of};
use crate::game::{CONTRACT_MARKET_SLOTS, Game, HAND_LIMIT, NUMBER_MARKET_SLOTS};

mod multisets;
mod splits;
mod takes;
#[cfg(test)]
mod tests;

use multisets::*;
use splits::*;
use takes::*;

impl Game {
    /// Every distinct legal action of `seat` now; empty when it is not that seat's turn.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(seat, &mut actions);
        actions
    }

    /// Like [`Game::legal_actions`], into a buffer the caller reuses (it is cleared first).
    pub fn legal_actions_into(&self, seat: Seat, actions: &mut Vec<Action>) {
        actions.clear();
        let Phase::Playing { seat: to_act, step } = self.phase else { return };
        if seat != to_act {
            return;
        }
        match step {
            TurnStep::Take => legal_takes(&self.number_market, actions),
            TurnStep::Contracts => {
                if self.can_take_back() {
                    actions.push(Action::TakeBack);
                }
                self.legal_completions(seat, actions);
                actions.push(Action::Pass);
            }
            TurnStep::Discard => {
                let hand = self.seats[seat.index()].hand;
                let sorted: Vec<Card> = hand.iter().collect();
                let excess = hand.len().saturating_sub(HAND_LIMIT);
                for_each_sub_multiset(&sorted, excess, &mut |cards| actions.push(Action::Discard { cards }));
            }
        }
    }

    /// The action at position `pick(n)` of [`Game::legal_actions`], where `n` is how many there are,
    /// or `None` when `seat` has none. It gives exactly what indexing the list would, but it counts
    /// the takes (from the market's kinds) and the completions (per number pattern, a product of small
    /// counts) and builds only the one picked, instead of listing them all: the random player's hot path.
    ///
    /// Without `take_backs`, the list is the same without [`Action::TakeBack`] (the game's moves only).
    pub(crate) fn legal_action_at(
        &self,
        seat: Seat,
        buffer: &mut Vec<Action>,
        memo: &mut StepMemo,
        take_backs: bool,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<Action> {
        let Phase::Playing { seat: to_act, step } = self.phase else { return None };
        if seat != to_act {
            return None;
        }
        match step {
            TurnStep::Contracts => {}
            TurnStep::Take => {
                let (kinds, count) = memo.takes(&self.number_market);
                return (count > 0)
                    .then(|| pick(count))
                    .and_then(|at| take_at(kinds, at))
                    .map(|cards| Action::Take { cards });
            }
            TurnStep::Discard => {
                let hand = self.seats[seat.index()].hand;
                let excess = hand.len().saturating_sub(HAND_LIMIT);
                if let Some(multisets) = SubMultisets::new(&hand, excess) {
                    return Some(Action::Discard { cards: multisets.nth(pick(multisets.count())) });
                }
                self.legal_actions_into(seat, buffer);
                return (!buffer.is_empty()).then(|| buffer[pick(buffer.len())]);
            }
        }
        let take_back = usize::from(take_backs && self.can_take_back());
        let state = &self.seats[seat.index()];
        // The kinds that fit with the Star count while it is still there to use.
        let mut kinds = fitting_kinds_of(&state.hand) & if state.star_used { 0xffff_ffff } else { u64::MAX };
        if kinds != 0 {
            kinds &= memo.market_fill_kinds(&self.contract_market);
        }
        if kinds == 0 {
            // Most contract steps: nothing fits, so only taking back (when possible) and passing.
            return Some(if pick(take_back + 1) < take_back { Action::TakeBack } else { Action::Pass });
        }
        let hand = state.hand;
        let table = split_table();
        let splits: [&[u8; QUOTAS]; 5] = std::array::from_fn(|k| &table[hand.number_group(k)]);
        // How many completions follow a pattern: the product of the ways to pick each number's cards
        // (one way to pick none).
        let ways =
            |pattern: &[u8; 5]| -> usize { (0..5).map(|k| usize::from(splits[k][usize::from(pattern[k])])).product() };
        let key = FitsKey::new(hand, &self.contract_market, state.star_used);
        let fits = memo.fits(key, |fits| {
            // Every (contract, star) with a pattern that fits, in list order, with its completions.
            self.for_each_fitting(seat, kinds, |contract, star, index, patterns| {
                let mut count = 0;
                index.for_each(patterns, |pattern| count += ways(pattern));
                fits.fits[fits.found] = Some(Fit { contract, star, index, patterns, count });
                fits.found += 1;
                fits.completions += count;
            });
        });
        let total = take_back + 1 + fits.completions;
        let fits = &fits.fits[..fits.found];
        let mut at = pick(total);
        if at < take_back {
            return Some(Action::TakeBack);
        }
        at -= take_back;
        for fit in fits.iter().flatten() {
            if at >= fit.count {
                at -= fit.count;
                continue;
            }
            for pattern in fit.index.iter(fit.patterns) {
                let ways = ways(pattern);
                if at >= ways {
                    at -= ways;
                    continue;
                }
                // Decode `at` as `Fill` lists: the lowest number varies slowest, so the highest number's
                // split is the remainder by its count of ways, and so on down (one division a number;
                // `at` is below `ways`, a count of hand cards' subsets, far below 2^32).
                let mut cards = Cards::EMPTY;
                let mut rest = at as u32;
                for k in (0..5).rev().filter(|&k| pattern[k] > 0) {
                    let count = u32::from(splits[k][usize::from(pattern[k])]);
                    let nth = (rest % count) as usize;
                    rest /= count;
                    let split = nth_split(table, hand.number_group(k), pattern[k], nth);
                    cards.add_number_group(k, split);
                }
                return Some(Action::Complete { contract: fit.contract, cards, star: fit.star });
            }
        }
        Some(Action::Pass)
    }

    /// §3 step 2: every distinct way to fill each contract of the market, with and without the Star.
    fn legal_completions(&self, seat: Seat, actions: &mut Vec<Action>) {
        let state = &self.seats[seat.index()];
        let mut splits = SuitSplits::new(state.hand);
        let kinds = fitting_kinds_of(&state.hand)
            & if state.star_used { 0xffff_ffff } else { u64::MAX }
            & market_fill_kinds(&self.contract_market);
        self.for_each_fitting(seat, kinds, |contract, star, index, patterns| {
            for pattern in index.iter(patterns) {
                Fill { contract, star, pattern, splits: &mut splits, actions }.from(0, Cards::EMPTY);
            }
        });
    }

    /// Calls `found` with the number patterns the seat's hand holds enough cards for (a set of
    /// `index`, never empty), contract by contract of the market, without and then with the Star
    /// (while it is unused): the order completions are listed in. `kinds` are the fill kinds that
    /// fit the seat's hand among the market's (see [`market_fill_kinds`]).
    fn for_each_fitting(
        &self,
        seat: Seat,
        kinds: u64,
        mut found: impl FnMut(ContractId, bool, &'static PatternIndex, u128),
    ) {
        let numbers = self.seats[seat.index()].hand.number_counts();
        let fill_indexes = ContractId::all_fill_indexes();
        let key = PatternIndex::key(numbers);
        // Which (slot, Star) pairs fit, bit `2 slot + star`, in list order: then only those are visited.
        let mut fitting = 0u32;
        for (slot, contract) in self.contract_market.iter().enumerate() {
            if let Some(contract) = contract {
                let kind = fill_indexes(*contract).1;
                let pair = (kinds >> kind & 1) | (kinds >> (kind + 32) & 1) << 1;
                fitting |= (pair as u32) << (2 * slot);
            }
        }
        while fitting != 0 {
            let at = fitting.trailing_zeros() as usize;
            fitting &= fitting - 1;
            let Some(contract) = self.contract_market[at / 2] else { continue };
            let (star, index) = (at % 2 == 1, &fill_indexes(contract).0[at % 2]);
            found(contract, star, index, index.fitting(key));
        }
    }
}

/// The fill kinds (bits as [`crate::contracts::fitting_kinds_of`] gives them) of the contracts of a
/// contract market, without and with the Star. Most hands that fit some kind fit none of the market's:
/// this mask says so without going through the contracts one by one.
fn market_fill_kinds(market: &[Option<ContractId>; CONTRACT_MARKET_SLOTS]) -> u64 {
    let fill_indexes = ContractId::all_fill_indexes();
    market.iter().flatten().fold(0, |kinds, &contract| kinds | ((1 | 1 << 32) << fill_indexes(contract).1))
}

/// The number market as one number, a byte per slot (the card's index, or [`CARD_KINDS`] for an empty
/// slot): equal exactly when the markets are, compared with one comparison instead of slot by slot.
/// Those bytes are how an `Option<Card>` is stored, so this is a load.
pub(crate) fn market_key(market: &[Option<Card>; NUMBER_MARKET_SLOTS]) -> u64 {
    let bytes = market.map(|card| card.map_or(CARD_KINDS as u8, |card| card.index() as u8));
    u64::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], 0, 0])
}

/// The contract market as one number, a byte per slot (0 for an empty one, the contract's number
/// otherwise), as [`market_key`] does for the number market: the bytes an `Option<ContractId>` is
/// stored as.
fn contract_market_key(market: &[Option<ContractId>; CONTRACT_MARKET_SLOTS]) -> u64 {
    u64::from(u32::from_le_bytes(market.map(|contract| contract.map_or(0, ContractId::number))))
}

/// What the random player keeps from one step to the next so as not to work out twice what a
/// take-back brings back: the takes of the last number market it saw, the fill kinds of the last
/// contract market (which changes a few times a turn at most), and the contracts that fit the last
/// few hands with something to complete. Taking back a take gives the market back, taking back a
/// contract gives the hand and the contract market back, and uniform random play takes back often
/// (about 36 takes and 16 contracts in a 4-player game).
///
/// Each entry is kept with everything its answer depends on, and used only when all of it is equal,
/// so the answers are the ones worked out afresh (a test plays games with and without the memo).
#[derive(Clone)]
pub(crate) struct StepMemo {
    /// A key of the market (see [`market_key`]), its kinds and its take count.
    takes: Option<(u64, MarketKinds, usize)>,
    /// A key of the contract market (see [`contract_market_key`]) and its fill kinds.
    market_kinds: Option<(u64, u64)>,
    /// The key of each entry of `fits` ([`FitsKey::NONE`] for none yet), apart from the entries so
    /// that looking for a key reads one cache line.
    fit_keys: [FitsKey; FITS_KEPT],
    fits: [Fits; FITS_KEPT],
    /// The entry of `fits` to replace next: the oldest.
    oldest: usize,
}

impl Default for StepMemo {
    fn default() -> StepMemo {
        let none = Fits { fits: [None; 2 * CONTRACT_MARKET_SLOTS], found: 0, completions: 0 };
        StepMemo {
            takes: None,
            market_kinds: None,
            fit_keys: [FitsKey::NONE; FITS_KEPT],
            fits: [none; FITS_KEPT],
            oldest: 0,
        }
    }
}

/// How many hands [`StepMemo`] keeps the fitting contracts of: a take-back goes back over the
/// contracts of the turn one by one, and few turns complete more than three.
const FITS_KEPT: usize = 4;

impl std::fmt::Debug for StepMemo {
    /// Nothing of the hands it holds.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StepMemo { .. }")
    }
}

impl StepMemo {
    /// [`market_takes`] for `market`.
    fn takes(&mut self, market: &[Option<Card>; NUMBER_MARKET_SLOTS]) -> (MarketKinds, usize) {
        let key = market_key(market);
        match self.takes {
            Some((known, kinds, count)) if known == key => (kinds, count),
            _ => {
                let (kinds, count) = market_takes(market);
                self.takes = Some((key, kinds, count));
                (kinds, count)
            }
        }
    }

    /// [`market_fill_kinds`] for `market`.
    #[inline]
    fn market_fill_kinds(&mut self, market: &[Option<ContractId>; CONTRACT_MARKET_SLOTS]) -> u64 {
        let key = contract_market_key(market);
        match self.market_kinds {
            Some((known, kinds)) if known == key => kinds,
            _ => {
                let kinds = market_fill_kinds(market);
                self.market_kinds = Some((key, kinds));
                kinds
            }
        }
    }

    /// The fits for `key`, kept or filled in by `work_out` (from none).
    fn fits(&mut self, key: FitsKey, work_out: impl FnOnce(&mut Fits)) -> &Fits {
        // Which entries hold the key, one bit each, looked at all at once.
        let held = self.fit_keys.iter().enumerate().fold(0u32, |held, (at, kept)| held | u32::from(*kept == key) << at);
        let at = match held {
            0 => {
                let at = self.oldest;
                self.oldest = (at + 1) % FITS_KEPT;
                self.fit_keys[at] = key;
                let fits = &mut self.fits[at];
                fits.found = 0;
                fits.completions = 0;
                work_out(fits);
                at
            }
            _ => held.trailing_zeros() as usize,
        };
        &self.fits[at]
    }
}

/// Everything the contracts that fit a hand depend on: the hand, the contract market and whether the
/// Star is used.
#[derive(Clone, Copy, PartialEq, Eq)]
struct FitsKey {
    hand: Cards,
    market: u64,
}

impl FitsKey {
    /// A key no hand has: a contract market key has 32 bits and the Star's bit.
    const NONE: FitsKey = FitsKey { hand: Cards::EMPTY, market: u64::MAX };

    fn new(hand: Cards, market: &[Option<ContractId>; CONTRACT_MARKET_SLOTS], star_used: bool) -> FitsKey {
        FitsKey { hand, market: contract_market_key(market) | u64::from(star_used) << 63 }
    }
}

/// The contracts (with the Star or not) that fit a hand, in list order, and how many completions
/// they give together.
#[derive(Clone, Copy)]
struct Fits {
    /// The first `found` entries are the fits; the others are left from an earlier hand.
    fits: [Option<Fit>; 2 * CONTRACT_MARKET_SLOTS],
    found: usize,
    completions: usize,
}

/// A contract of the market, with or without the Star, the number patterns the hand fits for it and
/// how many completions they give.
#[derive(Clone, Copy)]
struct Fit {
    contract: ContractId,
    star: bool,
    index: &'static PatternIndex,
    patterns: u128,
    count: usize,
}

/// For one hand: the ways to take `q` cards of number `n`, as card sets, worked out once per
/// `(n, q)` when first asked for.
struct SuitSplits {
    hand: Cards,
    /// Where each `(number, quota)` list lies in `lists`, once worked out.
    ranges: [[Option<(u16, u16)>; 9]; 5],
    lists: Vec<Cards>,
}

impl SuitSplits {
    fn new(hand: Cards) -> SuitSplits {
        SuitSplits { hand, ranges: [[None; 9]; 5], lists: Vec::new() }
    }

    /// The ways to take `quota` cards of number `number + 1` from the hand.
    fn get(&mut self, number: usize, quota: u8) -> (usize, usize) {
        if let Some((start, end)) = self.ranges[number][usize::from(quota)] {
            return (usize::from(start), usize::from(end));
        }
        let start = self.lists.len();
        let card = |suit: usize| Card::from_index(number * 4 + suit);
        let held: [u8; 4] = std::array::from_fn(|suit| self.hand.count(card(suit)));
        let lists = &mut self.lists;
        for_each_split(held, quota, |split| {
            let mut cards = Cards::EMPTY;
            for (suit, n) in split.into_iter().enumerate() {
                cards.add_n(card(suit), n);
            }
            lists.push(cards);
            true
        });
        let end = self.lists.len();
        self.ranges[number][usize::from(quota)] = Some((start as u16, end as u16));
        (start, end)
    }
}

/// Lists every completion of `contract` whose cards follow the number `pattern`: a choice of suits for
/// each number, from the hand.
struct Fill<'a> {
    contract: ContractId,
    star: bool,
    pattern: &'a [u8; 5],
    splits: &'a mut SuitSplits,
    actions: &'a mut Vec<Action>,
}

impl Fill<'_> {
    /// Adds to `chosen` every choice of suits for the numbers from `number + 1` on.
    fn from(&mut self, number: usize, chosen: Cards) {
        let Some(next) = (number..5).find(|&k| self.pattern[k] > 0) else {
            self.actions.push(Action::Complete { contract: self.contract, cards: chosen, star: self.star });
            return;
        };
        let (start, end) = self.splits.get(next, self.pattern[next]);
        for i in start..end {
            let mut cards = chosen;
            cards.add_all(&self.splits.lists[i]);
            self.from(next + 1, cards);
        }
    }
}
