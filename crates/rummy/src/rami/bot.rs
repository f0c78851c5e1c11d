//! A bot that plays Rami sensibly: it takes the discard when it can play it, opens as soon as it can
//! (laying as many cards as it can), then lays every meld and lay-off that leaves a card to discard
//! (each one lowers its penalty, §9), sometimes exchanges a joker, and discards the card that helps
//! least — keeping pairs and near-runs, and jokers.

use rand_core::Rng;

use super::actions::{MeldCards, RamiAction};
use super::cardkit::Hand;
use super::game::{Owes, RamiMatch};
use super::melds::penalty_value;
use super::search;
use crate::cards::Card;
use crate::seat::Seat;

/// The bot's action for `seat`, or `None` when it is not that seat's turn. The action is always one
/// that [`RamiMatch::check`] accepts.
pub fn choose(game: &RamiMatch, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> Option<RamiAction> {
    let turn = game.turn().filter(|t| t.seat == seat)?;
    let round = &game.round;
    let hand = &round.hands[seat.index()];
    let opened = round.opened[seat.index()];
    if !turn.drew {
        let take = RamiAction::Take;
        return Some(if game.check(seat, &take).is_ok() { take } else { RamiAction::Draw });
    }
    let max = hand.len().saturating_sub(1);
    if !opened && matches!(turn.owes, None | Some(Owes::Taken(_))) {
        if let Some(opening) = opening_keeping_a_joker(game, seat) {
            return Some(RamiAction::Open(opening));
        }
    }
    match turn.owes {
        Some(Owes::Taken(_)) if !opened => return game.suggest_opening(seat).map(RamiAction::Open),
        Some(Owes::Taken(card)) => return play_with(game, seat, Some(card)),
        Some(Owes::JokerPlay) => return play_with(game, seat, Some(Card::JOKER)),
        None => {}
    }
    if !opened {
        if let Some(opening) = game.suggest_opening(seat) {
            return Some(RamiAction::Open(opening));
        }
    } else if max > 0 {
        if let Some(play) = play_with(game, seat, None) {
            return Some(play);
        }
        // An exchange now and then: it frees a joker for a play that must follow at once.
        if rng.next_u32() % 3 == 0 {
            let exchanges = game.legal_summary(seat).exchanges;
            if let Some(&(id, card)) = exchanges.first() {
                return Some(RamiAction::Exchange { id, card });
            }
        }
    }
    Some(RamiAction::Discard(worst_card(hand, rng)))
}

/// An opening that lays every card but a joker, when there is one: the joker is then the discard that
/// goes out, a rami sec ending on a joker, which quadruples the others' penalties (§9).
fn opening_keeping_a_joker(game: &RamiMatch, seat: Seat) -> Option<Vec<MeldCards>> {
    let turn = game.turn()?;
    let mut rest = game.round.hands[seat.index()].clone();
    if !rest.remove(Card::JOKER) {
        return None;
    }
    let must = match turn.owes {
        Some(Owes::Taken(card)) => Some(card),
        _ => None,
    };
    let goal = search::OpeningGoal { opening: game.options.opening, must, max_cards: rest.len() };
    search::find_opening(&rest, goal, search::Want::Best)
        .filter(|opening| opening.iter().map(|m| m.cards.len()).sum::<usize>() == rest.len())
}

/// A meld or lay-off that leaves a card in hand, containing `must` when given: the biggest new meld
/// first, then a lay-off of naturals, then one with a joker.
fn play_with(game: &RamiMatch, seat: Seat, must: Option<Card>) -> Option<RamiAction> {
    let round = &game.round;
    let hand = &round.hands[seat.index()];
    let max = hand.len().saturating_sub(1);
    let fits = |m: &MeldCards| m.cards.len() <= max && must.is_none_or(|card| m.contains(card));
    // Of two melds as long, the one without a joker: a joker kept can fill a later meld, or be the last
    // discard of a rami sec, which quadruples the others' penalties (§9).
    let meld = search::candidate_melds(hand)
        .into_iter()
        .filter(|c| c.len() <= max && must.is_none_or(|card| c.contains(card)))
        .max_by_key(|c| (c.len(), c.joker.is_none()));
    if let Some(meld) = meld {
        return Some(RamiAction::Meld(meld.meld()));
    }
    // The first lay-off of naturals, in the order of the melds and of their options, or else the first
    // with a joker: the first of naturals ends the search.
    let mut with_joker = None;
    for m in &round.melds {
        for o in search::lay_off_options(hand, m).into_iter().filter(fits) {
            let joker = o.joker.is_some();
            let action = RamiAction::LayOff { id: m.id, cards: o.cards, joker: o.joker };
            if !joker {
                return Some(action);
            }
            with_joker.get_or_insert(action);
        }
    }
    with_joker
}

/// The card that helps least: the fewest partners (cards of its rank in other suits, cards of its suit
/// within two positions), then the highest penalty. Jokers are kept unless nothing else is left.
fn worst_card(hand: &Hand, rng: &mut (impl Rng + ?Sized)) -> Card {
    let cards = hand.cards();
    // An ace sits at position 1 or 14 of a run (rami §3.2).
    let positions = |rank: u8| if rank == 1 { [1, 14] } else { [rank, rank] };
    let near = |a: u8, b: u8| positions(a).iter().any(|&p| positions(b).iter().any(|&q| p.abs_diff(q) <= 2));
    let partners = |card: Card| -> usize {
        let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else { return usize::MAX };
        cards
            .iter()
            .filter(|other| match (other.rank(), other.suit()) {
                (Some(r), Some(s)) if r == rank => s != suit,
                (Some(r), Some(s)) => s == suit && near(rank.number(), r.number()),
                _ => false,
            })
            .count()
    };
    let tie_break = rng.next_u32();
    hand.kinds()
        .min_by_key(|&card| (partners(card), u32::MAX - penalty_value(card), tie_break ^ card.index() as u32))
        .unwrap_or(Card::JOKER)
}
