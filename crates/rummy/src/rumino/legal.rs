//! What a seat may do now, for clients and bots: one place derived from [`RuminoMatch::check`]'s rules,
//! held to it by a property test (an action is listed exactly when `apply` accepts it).

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::rumino::actions::RuminoAction;
use crate::rumino::game::{KNOCK_LIMIT, Phase, RuminoMatch};
use crate::rumino::lays::{Search, find_rumino};
use crate::seat::Seat;

/// What `seat` may do now (all false and empty when it is not to act).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuminoLegal {
    /// §6 a: a knock is open (deadwood 7 or less, before drawing).
    pub may_knock: bool,
    /// §6 b, c: a draw or a take is open.
    pub may_pick: bool,
    /// The hand's lowest deadwood (§4), when the seat holds cards.
    pub deadwood: Option<u32>,
    /// §6 step 2: the cards that may be discarded, each code once.
    pub discardable: Vec<Card>,
    /// The discards that may declare gin (the 7 cards kept have deadwood 0).
    pub gin_discards: Vec<Card>,
    /// §9 step 4: the seat chooses whether to rebuy.
    pub may_rebuy: bool,
}

impl RuminoMatch {
    /// What `seat` may do now.
    pub fn legal_summary(&self, seat: Seat) -> RuminoLegal {
        self.legal_with_search(seat).0
    }

    /// What `seat` may do now, and the search over its hand it was worked out with (none for an empty
    /// hand). While the seat is to draw or take, the search also holds the discard pile's top card, last,
    /// so that a bot weighs a take with it: the hand alone is the mask `Search::all(hand.len())`.
    pub(crate) fn legal_with_search(&self, seat: Seat) -> (RuminoLegal, Option<Search>) {
        let hand = self.hands.get(usize::from(seat.0)).map(Vec::as_slice).unwrap_or(&[]);
        let picking = matches!(self.phase, Phase::Turn { seat: to_act, drawn: false } if to_act == seat);
        let mut search = (!hand.is_empty()).then(|| match self.discard.last() {
            Some(&top) if picking => Search::new(&[hand, &[top]].concat()),
            _ => Search::new(hand),
        });
        let deadwood = search.as_mut().map(|search| search.best(Search::all(hand.len())));
        let mut legal = RuminoLegal { deadwood, ..RuminoLegal::default() };
        match self.phase {
            Phase::Turn { seat: to_act, drawn } if to_act == seat => {
                if let (true, Some(search)) = (drawn, search.as_mut()) {
                    for (at, &card) in hand.iter().enumerate() {
                        if self.taken == Some(card) || legal.discardable.contains(&card) {
                            continue;
                        }
                        legal.discardable.push(card);
                        if search.best_without(hand.len(), at) == 0 {
                            legal.gin_discards.push(card);
                        }
                    }
                } else if !drawn {
                    legal.may_pick = true;
                    legal.may_knock = legal.deadwood.is_some_and(|d| d <= KNOCK_LIMIT);
                }
            }
            Phase::Rebuy { seat: to_act, .. } => legal.may_rebuy = to_act == seat,
            _ => {}
        }
        (legal, search)
    }

    /// Every distinct action `seat` may take now.
    pub fn legal_actions(&self, seat: Seat) -> Vec<RuminoAction> {
        let legal = self.legal_summary(seat);
        let mut actions = Vec::new();
        if legal.may_knock {
            actions.push(RuminoAction::Knock);
        }
        if legal.may_pick {
            actions.extend([RuminoAction::Draw, RuminoAction::Take]);
        }
        actions.extend(legal.discardable.iter().map(|&card| RuminoAction::Discard { card, gin: false }));
        actions.extend(legal.gin_discards.iter().map(|&card| RuminoAction::Discard { card, gin: true }));
        if legal.may_rebuy {
            actions.extend([RuminoAction::Rebuy { rebuy: true }, RuminoAction::Rebuy { rebuy: false }]);
        }
        actions
    }

    /// Whether `action` by the seat to act would show anybody something hidden before it: a drawn card, a
    /// new deal, a reshuffle, hands shown at a knock or gin, a rumino. Such an action cannot be taken back.
    /// An illegal action reveals nothing.
    pub fn reveals_hidden(&self, action: &RuminoAction) -> bool {
        let Some(seat) = self.to_act() else { return false };
        if self.check(seat, action).is_err() {
            return false;
        }
        match *action {
            // A drawn card; every hand shown (§7).
            RuminoAction::Draw | RuminoAction::Knock | RuminoAction::Discard { gin: true, .. } => true,
            // A rumino in the 8 cards (§8 step 2).
            RuminoAction::Take => {
                let mut cards = self.hand(seat).to_vec();
                cards.extend(self.discard.last());
                find_rumino(&cards, None).is_some()
            }
            // A claim (§8 step 3), or the next turn's reshuffle (§6).
            RuminoAction::Discard { card, gin: false } => {
                self.stock.is_empty()
                    || self.order_after(seat).into_iter().filter(|&other| other != seat).any(|other| {
                        let mut cards = self.hand(other).to_vec();
                        cards.push(card);
                        find_rumino(&cards, Some(card)).is_some()
                    })
            }
            // The last choice deals the next hand.
            RuminoAction::Rebuy { .. } => matches!(&self.phase, Phase::Rebuy { queue, .. } if queue.is_empty()),
        }
    }

    /// [`RuminoMatch::reveals_hidden`] found by applying the action to a copy and looking at what it
    /// showed: the definition the fast answer above is tested against.
    #[cfg(test)]
    pub(crate) fn reveals_hidden_by_applying(&self, action: &RuminoAction) -> bool {
        use crate::rumino::view::Event;
        let Some(seat) = self.to_act() else { return false };
        let mut after = self.clone();
        if after.apply(seat, action).is_err() {
            return false;
        }
        after.events[self.events.len()..].iter().any(|event| {
            matches!(
                event,
                Event::Drew { .. }
                    | Event::Dealt { .. }
                    | Event::Reshuffled { .. }
                    | Event::HandScored { .. }
                    | Event::Rumino { .. }
            )
        })
    }
}
