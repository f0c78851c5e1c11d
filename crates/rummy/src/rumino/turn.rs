//! Checking and applying actions: the turn (rumino §6), ruminos found on the way (§8), the scoring of a
//! knock or gin (§7), and totals, elimination, rebuys and the end of the match (§9).

use std::collections::VecDeque;

use crate::cards::Card;
use crate::rumino::actions::{RuminoAction, RuminoEntry};
use crate::rumino::check::RuminoIllegal;
use crate::rumino::game::{
    ELIMINATION_ABOVE, GIN_SCORE, HandEnd, HandResult, HandScore, KNOCK_LIMIT, Phase, Rebought, RuminoMatch,
};
use crate::rumino::lays::{deadwood, find_rumino};
use crate::rumino::view::Event;
use crate::seat::{MatchEnd, Seat};

impl RuminoMatch {
    /// Whether `seat` may do `action` now.
    ///
    /// # Errors
    /// The rule the action breaks, as a [`RuminoIllegal`].
    pub fn check(&self, seat: Seat, action: &RuminoAction) -> Result<(), RuminoIllegal> {
        if usize::from(seat.0) >= self.players {
            return Err(RuminoIllegal::NoSuchSeat { seat });
        }
        match (&self.phase, *action) {
            (Phase::Over, _) => Err(RuminoIllegal::MatchOver),
            (Phase::Turn { seat: to_act, .. } | Phase::Rebuy { seat: to_act, .. }, _) if *to_act != seat => {
                Err(RuminoIllegal::NotYourTurn { seat, to_act: *to_act })
            }
            (Phase::Rebuy { .. }, RuminoAction::Rebuy { .. }) => Ok(()),
            (Phase::Rebuy { seat: to_act, .. }, _) => Err(RuminoIllegal::RebuyPending { to_act: *to_act }),
            (Phase::Turn { .. }, RuminoAction::Rebuy { .. }) => Err(RuminoIllegal::NoRebuyNow),
            (Phase::Turn { drawn: true, .. }, RuminoAction::Knock | RuminoAction::Draw | RuminoAction::Take) => {
                Err(RuminoIllegal::AlreadyDrew)
            }
            (Phase::Turn { drawn: false, .. }, RuminoAction::Discard { .. }) => Err(RuminoIllegal::MustDrawFirst),
            (Phase::Turn { .. }, RuminoAction::Draw | RuminoAction::Take) => Ok(()),
            (Phase::Turn { .. }, RuminoAction::Knock) => {
                let deadwood = deadwood(self.hand(seat));
                if deadwood > KNOCK_LIMIT { Err(RuminoIllegal::KnockTooHigh { deadwood }) } else { Ok(()) }
            }
            (Phase::Turn { .. }, RuminoAction::Discard { card, gin }) => {
                let hand = self.hand(seat);
                let Some(at) = hand.iter().position(|&c| c == card) else {
                    return Err(RuminoIllegal::NotInHand { card });
                };
                if self.taken == Some(card) {
                    return Err(RuminoIllegal::TakenCard { card });
                }
                if gin {
                    let kept = without(hand, at);
                    let deadwood = deadwood(&kept);
                    if deadwood != 0 {
                        return Err(RuminoIllegal::NotGin { deadwood });
                    }
                }
                Ok(())
            }
        }
    }

    /// Checks `action`, then applies it with everything the engine does after it: ruminos, the end and
    /// scoring of the hand, eliminations, the next deal, the end of the match.
    ///
    /// # Errors
    /// As [`RuminoMatch::check`]; the match is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: &RuminoAction) -> Result<(), RuminoIllegal> {
        self.check(seat, action)?;
        self.apply_checked(seat, *action);
        Ok(())
    }

    pub(crate) fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[usize::from(seat.0)]
    }

    /// [`RuminoMatch::apply`] for an action that passed [`RuminoMatch::check`] in this state (debug builds
    /// check it again).
    pub(crate) fn apply_checked(&mut self, seat: Seat, action: RuminoAction) {
        debug_assert_eq!(self.check(seat, &action), Ok(()), "{action:?} by {seat} is legal");
        match action {
            RuminoAction::Knock => {
                self.current().log.push(RuminoEntry::Knock { seat });
                self.events.push(Event::Knocked { seat });
                let ended_by = if deadwood(self.hand(seat)) == 0 { HandEnd::Gin } else { HandEnd::Knock };
                self.end_hand(ended_by, seat);
            }
            RuminoAction::Draw => {
                let card = self.stock.pop().expect("§6: the stock is rebuilt at the start of a turn");
                self.current().log.push(RuminoEntry::Draw { seat, card });
                self.events.push(Event::Drew { seat, card });
                self.after_pick(seat, card);
            }
            RuminoAction::Take => {
                let card = self.discard.pop().expect("the discard pile always holds its top card");
                self.taken = Some(card);
                self.current().log.push(RuminoEntry::Take { seat, card });
                self.events.push(Event::Took { seat, card });
                self.after_pick(seat, card);
            }
            RuminoAction::Discard { card, gin } => self.discard_card(seat, card, gin),
            RuminoAction::Rebuy { rebuy } => self.choose_rebuy(seat, rebuy),
        }
    }

    /// §6 after b or c: the 8th card joins the hand, and §8 step 2 looks for a rumino in it.
    fn after_pick(&mut self, seat: Seat, card: Card) {
        let index = usize::from(seat.0);
        self.hands[index].push(card);
        if let Some(cards) = find_rumino(&self.hands[index], None) {
            self.rumino_wins(seat, cards, None);
            return;
        }
        self.phase = Phase::Turn { seat, drawn: true };
    }

    /// §6 steps 2 and 3: the discard, gin, or a rumino claimed on the discard (§8 step 3).
    fn discard_card(&mut self, seat: Seat, card: Card, gin: bool) {
        let hand = &mut self.hands[usize::from(seat.0)];
        let at = hand.iter().position(|&c| c == card).expect("checked: the card is in the hand");
        hand.remove(at);
        self.discard.push(card);
        self.current().log.push(RuminoEntry::Discard { seat, card, gin });
        self.events.push(Event::Discarded { seat, card, gin });
        if gin {
            self.end_hand(HandEnd::Gin, seat);
            return;
        }
        let order = self.order_after(seat);
        for &other in order.iter().filter(|&&other| other != seat) {
            let mut cards = self.hand(other).to_vec();
            cards.push(card);
            if let Some(rumino) = find_rumino(&cards, Some(card)) {
                self.discard.pop();
                self.hands[usize::from(other.0)].push(card);
                self.rumino_wins(other, rumino, Some(card));
                return;
            }
        }
        self.begin_turn(order[0]);
    }

    /// §7 then §9: scores every hand dealt in, adds the scores, and goes through §9 steps 1 to 5.
    fn end_hand(&mut self, ended_by: HandEnd, by: Seat) {
        let hand_log = self.hand_logs.last().expect("a hand is being played");
        let (number, dealer, seats) = (hand_log.number, hand_log.dealer, hand_log.seats.clone());
        let scores: Vec<HandScore> = seats
            .iter()
            .map(|&seat| {
                let deadwood = deadwood(self.hand(seat));
                let score = if ended_by == HandEnd::Gin && seat == by { GIN_SCORE } else { i64::from(deadwood) };
                HandScore { seat, deadwood, score }
            })
            .collect();
        for score in &scores {
            self.totals[usize::from(score.seat.0)] += score.score;
        }
        self.events.push(Event::HandScored {
            ended_by,
            by,
            hands: seats.iter().map(|&s| (s, self.hand(s).to_vec())).collect(),
            scores: scores.clone(),
            totals: self.totals.clone(),
        });
        let mut result = HandResult {
            ended_by,
            by,
            scores,
            totals: self.totals.clone(),
            eliminated: Vec::new(),
            rebuys: Vec::new(),
        };
        // Step 1: three gins by one player in hands 1, 2 and 3.
        if number == 3 && ended_by == HandEnd::Gin && self.ended_hands_1_and_2_by_gin(by) {
            self.current().result = Some(result);
            self.finish(MatchEnd::ThreeGins, vec![by]);
            return;
        }
        // Step 2: elimination above 100.
        result.eliminated =
            seats.iter().copied().filter(|s| self.totals[usize::from(s.0)] > ELIMINATION_ABOVE).collect();
        for seat in &result.eliminated {
            self.is_in[usize::from(seat.0)] = false;
            self.events.push(Event::Eliminated { seat: *seat });
        }
        let eliminated = result.eliminated.clone();
        self.current().result = Some(result);
        // Step 3: the end when one player or nobody is left.
        let left = self.seats_in();
        match left.len() {
            1 => return self.finish(MatchEnd::LastPlayer, left),
            0 => {
                let winners = self.lowest(&eliminated);
                return self.finish(MatchEnd::AllEliminated, winners);
            }
            _ => {}
        }
        // Step 4: the rebuy choices, in seat order from the seat after the dealer.
        let queue: VecDeque<Seat> = (1..=self.players)
            .map(|step| Seat(((usize::from(dealer.0) + step) % self.players) as u8))
            .filter(|s| eliminated.contains(s) && self.rebuy_counts[usize::from(s.0)] < self.options.max_rebuys)
            .collect();
        self.next_rebuy_or_deal(queue);
    }

    /// Whether `seat` ended hands 1 and 2 by gin (§9 step 1, with hand 3 ended by gin too).
    fn ended_hands_1_and_2_by_gin(&self, seat: Seat) -> bool {
        self.hand_logs[..2]
            .iter()
            .all(|h| h.result.as_ref().is_some_and(|r| r.ended_by == HandEnd::Gin && r.by == seat))
    }

    fn next_rebuy_or_deal(&mut self, mut queue: VecDeque<Seat>) {
        match queue.pop_front() {
            Some(seat) => {
                self.events.push(Event::RebuyAsked { seat });
                self.phase = Phase::Rebuy { seat, queue };
            }
            None => {
                // Step 5, and §5 step 1: the next player after the last dealer among those in now.
                let last_dealer = self.hand_logs.last().expect("a hand was played").dealer;
                let dealer = self.next_in(last_dealer);
                self.deal(dealer);
            }
        }
    }

    /// §9 step 4: `seat` rebuys (their total becomes the highest among the players still in) or stays out.
    fn choose_rebuy(&mut self, seat: Seat, rebuy: bool) {
        let Phase::Rebuy { queue, .. } = std::mem::replace(&mut self.phase, Phase::Over) else {
            unreachable!("checked: a rebuy is chosen in the rebuy phase")
        };
        if rebuy {
            // Players eliminated in this hand are out; one who rebought before is in at this same total.
            let total = (0..self.players)
                .filter(|&i| self.is_in[i])
                .map(|i| self.totals[i])
                .max()
                .expect("§9 step 4 is reached with two or more players in");
            let index = usize::from(seat.0);
            self.totals[index] = total;
            self.rebuy_counts[index] += 1;
            self.is_in[index] = true;
            if let Some(result) = self.current().result.as_mut() {
                result.rebuys.push(Rebought { seat, total });
            }
        }
        self.events.push(Event::RebuyChosen { seat, rebuy });
        self.next_rebuy_or_deal(queue);
    }
}

/// `hand` without its card at `at`.
pub(crate) fn without(hand: &[Card], at: usize) -> Vec<Card> {
    let mut kept = hand.to_vec();
    kept.remove(at);
    kept
}
