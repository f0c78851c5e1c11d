//! Every play a hand allows (rommi §6.2), and the legal actions of a seat: one list that the check, the
//! bot and the property tests share.
//!
//! With one deck and no jokers the lists are complete: a valid new meld is a set of 3 or 4 cards of one
//! rank or a run of consecutive positions, and a valid lay-off extends a set, or a run at one or both
//! ends by consecutive cards. Each candidate is also passed through the meld checks, so the lists never
//! disagree with them.

use serde::Serialize;

use crate::cards::{Card, Suit};
use crate::melds::{Aces, Meld, MeldId, MeldKind, MeldRules};
use crate::seat::Seat;

use super::actions::{RommiAction, Step};
use super::game::RommiMatch;
use super::options::Variant;

/// Every valid new meld of cards of `hand`.
pub fn meld_candidates(hand: &[Card], rules: &MeldRules) -> Vec<Vec<Card>> {
    let mut out: Vec<Vec<Card>> = Vec::new();
    // Sets: every 3 or 4 cards of one rank.
    for rank in crate::cards::Rank::all() {
        let same: Vec<Card> = hand.iter().copied().filter(|c| c.rank() == Some(rank)).collect();
        if same.len() >= 3 {
            for skip in 0..same.len() {
                if same.len() == 4 {
                    out.push(same.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, &c)| c).collect());
                }
            }
            if same.len() == 3 || same.len() == 4 {
                out.push(same);
            }
        }
    }
    // Runs: every window of 3 or more consecutive positions held, in each suit.
    for suit in Suit::ALL {
        let at = positions(hand, suit, rules.aces);
        for start in 1..=14usize {
            let mut cards = Vec::new();
            for &slot in &at[start..] {
                let Some(card) = slot else { break };
                if cards.contains(&card) {
                    break;
                }
                cards.push(card);
                if cards.len() >= 3 {
                    out.push(cards.clone());
                }
            }
        }
    }
    out.retain(|cards| Meld::new(MeldId(1), Seat(0), cards, None, rules).is_ok());
    dedup(out)
}

/// Every valid lay-off of cards of `hand` on `meld`.
pub fn lay_off_candidates(hand: &[Card], meld: &Meld, rules: &MeldRules) -> Vec<Vec<Card>> {
    let mut out: Vec<Vec<Card>> = Vec::new();
    match meld.kind {
        MeldKind::Set(rank) => {
            let same: Vec<Card> = hand.iter().copied().filter(|c| c.rank() == Some(rank)).collect();
            let room = rules.max_set.saturating_sub(meld.cards.len());
            for mask in 1u32..(1 << same.len()) {
                if mask.count_ones() as usize <= room {
                    out.push(same.iter().enumerate().filter(|&(i, _)| mask >> i & 1 == 1).map(|(_, &c)| c).collect());
                }
            }
        }
        MeldKind::Run(suit) => {
            let Some((lo, hi)) = meld.ends() else { return out };
            let at = positions(hand, suit, rules.aces);
            let below: Vec<Card> = (1..lo).rev().map_while(|p| at[usize::from(p)]).collect();
            let above: Vec<Card> = (hi + 1..=14).map_while(|p| at[usize::from(p)]).collect();
            for k in 0..=below.len() {
                for j in 0..=above.len() {
                    let cards: Vec<Card> = below[..k].iter().chain(&above[..j]).copied().collect();
                    if !cards.is_empty() {
                        out.push(cards);
                    }
                }
            }
        }
    }
    out.retain(|cards| meld.check_lay_off(cards, None, rules).is_ok());
    dedup(out)
}

/// Whether some meld or (when `may_lay_off`) lay-off of cards of `hand` contains `card`: the test of a
/// deep take (rommi §6.1 c).
pub fn can_play_containing(hand: &[Card], card: Card, table: &[Meld], rules: &MeldRules, may_lay_off: bool) -> bool {
    meld_candidates(hand, rules).iter().any(|m| m.contains(&card))
        || (may_lay_off && table.iter().any(|m| lay_off_candidates(hand, m, rules).iter().any(|l| l.contains(&card))))
}

/// The card at each run position of `suit` in `hand` (index 1 to 14; an ace at 1, and also at 14 with
/// versatile aces).
fn positions(hand: &[Card], suit: Suit, aces: Aces) -> [Option<Card>; 15] {
    let mut at = [None; 15];
    for &card in hand.iter().filter(|c| c.suit() == Some(suit)) {
        let Some(rank) = card.rank() else { continue };
        at[usize::from(rank.number())] = Some(card);
        if rank.is_ace() && aces == Aces::Versatile {
            at[14] = Some(card);
        }
    }
    at
}

fn dedup(mut lists: Vec<Vec<Card>>) -> Vec<Vec<Card>> {
    for list in &mut lists {
        list.sort_unstable();
    }
    lists.sort_unstable();
    lists.dedup();
    lists
}

/// What a seat may do now, for a client and a bot (rommi §6).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RommiLegal {
    /// Whether it is this seat's turn.
    pub to_act: bool,
    /// §6.1 a.
    pub can_draw: bool,
    /// §6.1 b and c: the discard-pile cards that may be taken (with all above them); the top one first.
    pub takes: Vec<Card>,
    /// §6.1 d.
    pub can_end_round: bool,
    /// §6.2: whether a new meld may be laid now (none may be held).
    pub may_meld: bool,
    /// §6.2: whether a lay-off may be made now.
    pub may_lay_off: bool,
    /// §6.1 c: the target the next play must contain.
    pub must_play: Option<Card>,
    /// §6.3: the cards that may be discarded.
    pub discardable: Vec<Card>,
}

impl RommiMatch {
    /// What `seat` may do now.
    pub fn legal_summary(&self, seat: Seat) -> RommiLegal {
        let mut legal = RommiLegal::default();
        if self.to_act() != Some(seat) {
            return legal;
        }
        legal.to_act = true;
        let r = &self.round;
        let s = seat.index();
        match r.step {
            Step::Draw => {
                legal.can_draw = !r.stock.is_empty();
                legal.can_end_round = r.stock.is_empty();
                let deep = if self.options.variant == Variant::FiveHundred { r.pile.len() } else { 1 };
                legal.takes = r
                    .pile
                    .iter()
                    .rev()
                    .take(deep)
                    .copied()
                    .filter(|&card| self.is_legal(seat, &RommiAction::Take { card }))
                    .collect();
            }
            Step::Play => {
                let restricted = self.options.meld_restriction;
                legal.may_meld = !restricted || r.melds_this_turn == 0;
                legal.may_lay_off = !restricted || r.has_melded[s];
                legal.must_play = r.target;
                if r.target.is_none() {
                    let hand = &r.hands[s];
                    legal.discardable =
                        hand.iter().copied().filter(|&c| r.locked != Some(c) || hand.len() == 1).collect();
                }
            }
        }
        legal
    }

    /// Every legal action of `seat` now; empty when it is not to act. An action is legal exactly when it
    /// is in this list (up to the order of the cards named), which a property test holds.
    pub fn legal_actions(&self, seat: Seat) -> Vec<RommiAction> {
        let legal = self.legal_summary(seat);
        let mut actions = Vec::new();
        if !legal.to_act {
            return actions;
        }
        if legal.can_draw {
            actions.push(RommiAction::Draw);
        }
        actions.extend(legal.takes.iter().map(|&card| RommiAction::Take { card }));
        if legal.can_end_round {
            actions.push(RommiAction::EndRound);
        }
        if self.round.step == Step::Play {
            let hand = &self.round.hands[seat.index()];
            let rules = self.options.meld_rules();
            let holds_target = |cards: &Vec<Card>| legal.must_play.is_none_or(|t| cards.contains(&t));
            if legal.may_meld {
                let melds = meld_candidates(hand, rules).into_iter().filter(holds_target);
                actions.extend(melds.map(|cards| RommiAction::Meld { cards }));
            }
            if legal.may_lay_off {
                for meld in &self.round.table {
                    let lay_offs = lay_off_candidates(hand, meld, rules).into_iter().filter(holds_target);
                    actions.extend(lay_offs.map(|cards| RommiAction::LayOff { id: meld.id, cards }));
                }
            }
            actions.extend(legal.discardable.iter().map(|&card| RommiAction::Discard { card }));
        }
        actions
    }
}
