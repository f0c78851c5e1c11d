//! What a client and a bot need to know of the legal actions. Melds are combinatorial, so rather than
//! a list of every action there is a summary ([`RamiLegal`]) and helpers that answer one question each:
//! is this a valid meld ([`is_valid_meld`]) or opening ([`opening_value`]), where can these cards be
//! laid off ([`RamiMatch::lay_off_targets`]), which opening could this seat lay
//! ([`RamiMatch::suggest_opening`]). Every answer comes from the same checks as [`RamiMatch::check`]; a
//! property test holds them together.

use serde::{Deserialize, Serialize};

use super::actions::{MeldCards, RamiAction};
use super::check::RamiIllegal;
use super::game::{Owes, RamiMatch};
use super::melds::{is_pure_run, meld_value, new_meld};
use super::options::Opening;
use super::search::{self, OpeningGoal, Want};
use crate::cards::Card;
use crate::melds::{JokerFor, Meld, MeldId};
use crate::seat::Seat;

/// What one seat may do now.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamiLegal {
    /// Whether it is this seat's turn.
    pub to_act: bool,
    /// May draw from the stock (rami §7.1 a).
    pub may_draw: bool,
    /// May take the top of the discard pile (rami §7.1 b).
    pub may_take: bool,
    /// What the turn still owes (rami §7.1 b, §7.3).
    pub owes: Option<Owes>,
    /// Has not opened, and an opening is possible now (rami §6).
    pub may_open: bool,
    /// Has opened, and may lay a new meld or lay off now.
    pub may_play: bool,
    /// The joker exchanges open now (rami §7.3): the meld and the card to give.
    pub exchanges: Vec<(MeldId, Card)>,
    /// The cards that may be discarded now, each kind once (rami §7.4).
    pub discardable: Vec<Card>,
}

/// The value of `cards` as one new meld (rami §3, §4), or why they are not one.
///
/// # Errors
/// The rule the cards break.
pub fn is_valid_meld(cards: &[Card], joker: Option<JokerFor>) -> Result<u32, RamiIllegal> {
    Ok(meld_value(&new_meld(MeldId(1), Seat(0), cards, joker)?))
}

/// The value of `melds` as an opening under `opening` (rami §6), or why they are not one. (Whether the
/// cards are in a hand, and leave one in it, is the match's check.)
///
/// # Errors
/// The rule the melds break.
pub fn opening_value(melds: &[MeldCards], opening: Opening) -> Result<u32, RamiIllegal> {
    if melds.is_empty() {
        return Err(RamiIllegal::EmptyOpening);
    }
    let built = melds
        .iter()
        .enumerate()
        .map(|(i, m)| new_meld(MeldId(i as u32 + 1), Seat(0), &m.cards, m.joker))
        .collect::<Result<Vec<Meld>, _>>()?;
    let value = built.iter().map(meld_value).sum();
    if value < opening.threshold() {
        return Err(RamiIllegal::OpeningTooLow { value, needed: opening.threshold() });
    }
    if opening.needs_pure_run() && !built.iter().any(is_pure_run) {
        return Err(RamiIllegal::NoPureRun);
    }
    Ok(value)
}

impl RamiMatch {
    /// What `seat` may do now.
    pub fn legal_summary(&self, seat: Seat) -> RamiLegal {
        let Some(turn) = self.turn().filter(|t| t.seat == seat) else { return RamiLegal::default() };
        let round = &self.round;
        let hand = &round.hands[seat.index()];
        let opened = round.opened[seat.index()];
        let mut legal = RamiLegal { to_act: true, owes: turn.owes, ..RamiLegal::default() };
        if !turn.drew {
            legal.may_draw = true;
            legal.may_take = self.check(seat, &RamiAction::Take).is_ok();
            return legal;
        }
        let max = hand.len().saturating_sub(1);
        match turn.owes {
            None | Some(Owes::Taken(_)) if !opened => {
                let must = match turn.owes {
                    Some(Owes::Taken(card)) => Some(card),
                    _ => None,
                };
                let goal = OpeningGoal { opening: self.options.opening, must, max_cards: max };
                legal.may_open = search::find_opening(hand, goal, Want::Any).is_some();
            }
            _ if opened => {
                legal.may_play = search::candidate_melds(hand).iter().any(|c| c.len() <= max)
                    || round
                        .melds
                        .iter()
                        .any(|m| search::lay_off_options(hand, m).iter().any(|o| o.cards.len() <= max));
            }
            _ => {}
        }
        if turn.owes.is_some() {
            return legal;
        }
        legal.discardable = hand.kinds().collect();
        if opened {
            legal.exchanges = round
                .melds
                .iter()
                .filter_map(|m| Some((m.id, m.exchange_card()?)))
                .filter(|&(id, card)| self.check(seat, &RamiAction::Exchange { id, card }).is_ok())
                .collect();
        }
        legal
    }

    /// The distinct actions `seat` may take now, for a table to offer (empty when it is not to act). A
    /// full list is combinatorial (every opening is a choice among every meld a hand allows), so the
    /// list holds the draws, one opening ([`RamiMatch::suggest_opening`]) rather than every one, every new
    /// meld and every lay-off the searches find (each natural stretch of a run, each joker position),
    /// the joker exchanges and one discard per kind of card; each listed action passes
    /// [`RamiMatch::check`]. Other openings, and a joker stated differently, are legal without being
    /// listed.
    pub fn legal_actions(&self, seat: Seat) -> Vec<RamiAction> {
        let legal = self.legal_summary(seat);
        let mut actions = Vec::new();
        if !legal.to_act {
            return actions;
        }
        if legal.may_draw {
            actions.push(RamiAction::Draw);
        }
        if legal.may_take {
            actions.push(RamiAction::Take);
        }
        if legal.may_open {
            actions.extend(self.suggest_opening(seat).map(RamiAction::Open));
        }
        if legal.may_play {
            let hand = &self.round.hands[seat.index()];
            actions.extend(search::candidate_melds(hand).iter().map(|c| RamiAction::Meld(c.meld())));
            for meld in &self.round.melds {
                actions.extend(search::lay_off_options(hand, meld).into_iter().map(|o| RamiAction::LayOff {
                    id: meld.id,
                    cards: o.cards,
                    joker: o.joker,
                }));
            }
        }
        actions.extend(legal.exchanges.iter().map(|&(id, card)| RamiAction::Exchange { id, card }));
        actions.extend(legal.discardable.iter().map(|&card| RamiAction::Discard(card)));
        actions.retain(|action| self.check(seat, action).is_ok());
        actions
    }

    /// The melds on the table that `cards` (with `joker` stated) could be laid off on now by the seat
    /// to act, in id order.
    pub fn lay_off_targets(&self, cards: &[Card], joker: Option<JokerFor>) -> Vec<MeldId> {
        let Some(seat) = self.to_act() else { return Vec::new() };
        self.round
            .melds
            .iter()
            .map(|m| m.id)
            .filter(|&id| self.check(seat, &RamiAction::LayOff { id, cards: cards.to_vec(), joker }).is_ok())
            .collect()
    }

    /// An opening `seat` could lay now from its hand (rami §6): the one laying the most cards, found by
    /// a bounded search; `None` when it has opened or has none.
    pub fn suggest_opening(&self, seat: Seat) -> Option<Vec<MeldCards>> {
        let turn = self.turn().filter(|t| t.seat == seat && t.drew)?;
        let round = &self.round;
        if round.opened[seat.index()] {
            return None;
        }
        let hand = &round.hands[seat.index()];
        let must = match turn.owes {
            Some(Owes::Taken(card)) => Some(card),
            _ => None,
        };
        let goal = OpeningGoal { opening: self.options.opening, must, max_cards: hand.len().saturating_sub(1) };
        search::find_opening(hand, goal, Want::BestOrAny)
    }
}
