//! The steps of a turn as `apply` makes them (§3): a take, a contract completed, a take-back (§7), a
//! pass, a discard, and what follows on their own: the markets refilled, the hand drawn up, the deck
//! reshuffled, the next seat's turn and the end of the game (§4).

use crate::action::{EndReason, Phase, Seat, TurnStep};
use crate::cards::{Card, Cards};
use crate::contracts::ContractId;
use crate::record::LogEntry;
use crate::view::Event;

use super::{Game, HAND_LIMIT, HAND_MINIMUM, ShuffleFault, Shuffler, Undo, contract_target};

impl Game {
    pub(super) fn set_phase(&mut self, seat: Seat, step: TurnStep) {
        if self.phase != (Phase::Playing { seat, step }) {
            self.phase = Phase::Playing { seat, step };
            self.events.push(Event::ToAct { seat, step });
        }
    }

    /// §3 step 1.
    pub(super) fn take(&mut self, seat: Seat, cards: Cards) {
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
    pub(super) fn complete(&mut self, seat: Seat, contract: ContractId, cards: Cards, star: bool) {
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
    pub(super) fn take_back(&mut self, seat: Seat) {
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
    pub(super) fn pass(&mut self, seat: Seat) {
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
    pub(super) fn discard(&mut self, seat: Seat, cards: Cards) {
        self.seats[seat.index()].hand.remove_all(&cards);
        self.discard_pile.extend(cards.iter());
        self.log.push(LogEntry::Discard { seat, cards });
        self.events.push(Event::Discarded { seat, cards });
        self.refill_number_market();
        self.end_turn(seat);
    }

    /// §3 step 3 for the contract market: empty slots stay empty once the deck is out.
    pub(super) fn refill_contract_market(&mut self) {
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
    pub(super) fn refill_number_market(&mut self) {
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
    pub(super) fn draw_to_hand(&mut self, seat: Seat, count: usize) {
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
    pub(super) fn draw_card(&mut self) -> Option<Card> {
        if self.number_deck.is_empty() {
            self.reshuffle();
        }
        self.number_deck.pop()
    }

    /// §3 step 3: the discard pile, shuffled, becomes the number deck.
    #[cold]
    pub(super) fn reshuffle(&mut self) {
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
    pub(super) fn end_turn(&mut self, seat: Seat) {
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

    pub(super) fn finish(&mut self, ended_by: EndReason) {
        self.undo.clear();
        self.phase = Phase::Over { ended_by };
        self.events.push(Event::GameOver { ended_by });
    }
}
