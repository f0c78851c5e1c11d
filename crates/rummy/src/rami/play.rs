//! Checking and applying an action (rami §6, §7). [`RamiMatch::apply`] plans the whole action first —
//! every check, every new meld built — and only then changes the match, so a refused action changes
//! nothing.

use super::actions::RamiAction;
use super::check::RamiIllegal;
use super::game::{Owes, Phase, RamiMatch};
use super::melds::{RULES, is_pure_run, meld_value, new_meld};
use super::search;
use super::view::{Event, RamiEvent};
use crate::cards::Card;
use crate::melds::{Meld, MeldId};
use crate::record::{LogEntry, MeldEntry};
use crate::seat::Seat;

/// How much of the rules a plan judges.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Judge {
    /// Everything: the action is new.
    All,
    /// Not the searches for a play that could follow (§7.1 b, §7.3): the action was checked in this
    /// very state.
    Checked,
}

/// An action checked and worked out, ready to apply.
enum Plan {
    Draw,
    Take,
    /// New melds, ids given.
    Lay(Vec<Meld>),
    /// The meld at this index of the table, as it will be after the play.
    Change(usize, Meld),
    Discard(Card),
}

impl RamiMatch {
    /// Whether `seat` may do `action` now.
    ///
    /// # Errors
    /// The rule the action breaks, as a [`RamiIllegal`].
    pub fn check(&self, seat: Seat, action: &RamiAction) -> Result<(), RamiIllegal> {
        self.plan(seat, action, Judge::All).map(drop)
    }

    /// Does `action` for `seat`, then the automatic steps that follow (`out`, the end of the round, the
    /// next deal, a reshuffle at the start of the next turn).
    ///
    /// # Errors
    /// The rule the action breaks; the match is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: &RamiAction) -> Result<(), RamiIllegal> {
        let plan = self.plan(seat, action, Judge::All)?;
        self.execute(seat, action, plan);
        Ok(())
    }

    /// Does `action`, which [`RamiMatch::check`] has just accepted in this very state, for `seat`, as
    /// [`RamiMatch::apply`] does but without the searches that only judge whether it is allowed (may the
    /// discard be taken, §7.1 b; may this joker be exchanged, §7.3): a table checks an action when it
    /// arrives, and the bot checks the take and the exchanges it plays.
    ///
    /// # Errors
    /// The rule the action breaks, as far as it is judged; the match is then unchanged.
    pub(crate) fn apply_checked(&mut self, seat: Seat, action: &RamiAction) -> Result<(), RamiIllegal> {
        let plan = self.plan(seat, action, Judge::Checked)?;
        self.execute(seat, action, plan);
        Ok(())
    }

    /// Whether applying `action` would show its player a card nobody knew: a draw from the stock.
    /// (A server that lets players take an action back must not take such one back.)
    pub fn reveals_hidden(&self, action: &RamiAction) -> bool {
        matches!(action, RamiAction::Draw)
    }

    fn plan(&self, seat: Seat, action: &RamiAction, judge: Judge) -> Result<Plan, RamiIllegal> {
        let turn = match self.phase {
            Phase::Turn(turn) => turn,
            Phase::Over(_) | Phase::AwaitingDeck => return Err(RamiIllegal::MatchOver),
        };
        if seat.index() >= self.players {
            return Err(RamiIllegal::NoSuchSeat(seat));
        }
        if seat != turn.seat {
            return Err(RamiIllegal::NotYourTurn { seat, to_act: turn.seat });
        }
        let round = &self.round;
        let hand = &round.hands[seat.index()];
        let opened = round.opened[seat.index()];
        match action {
            RamiAction::Draw | RamiAction::Take if turn.drew => return Err(RamiIllegal::AlreadyDrew),
            RamiAction::Draw => return Ok(Plan::Draw),
            RamiAction::Take => {
                if hand.len() < 2 {
                    return Err(RamiIllegal::TakeWithOneCard);
                }
                let Some(&top) = round.discard.last() else { return Err(RamiIllegal::TakeUnplayable(Card::JOKER)) };
                if judge == Judge::All && !search::take_playable(hand, &round.melds, opened, self.options.opening, top)
                {
                    return Err(RamiIllegal::TakeUnplayable(top));
                }
                return Ok(Plan::Take);
            }
            _ if !turn.drew => return Err(RamiIllegal::DrawFirst(action.name())),
            _ => {}
        }
        if !opened && matches!(action, RamiAction::Meld(_) | RamiAction::LayOff { .. } | RamiAction::Exchange { .. }) {
            return Err(RamiIllegal::NotOpened);
        }
        if opened && matches!(action, RamiAction::Open(_)) {
            return Err(RamiIllegal::AlreadyOpened);
        }
        if let Some(owes) = turn.owes {
            check_owed(owes, action)?;
        }
        if let Some(laid) = action.laid_cards() {
            if !hand.contains_all(&laid) {
                return Err(RamiIllegal::not_in_hand(&laid));
            }
            if laid.len() >= hand.len() {
                // A play that empties the hand is refused whatever it lays (§7.2); what is wrong with
                // its melds, if anything, is said first.
                self.plan_play(seat, action, judge)?;
                return Err(RamiIllegal::EmptiesHand);
            }
        }
        self.plan_play(seat, action, judge)
    }

    /// The plays and the discard, once the turn's order and obligations are met.
    fn plan_play(&self, seat: Seat, action: &RamiAction, judge: Judge) -> Result<Plan, RamiIllegal> {
        let round = &self.round;
        let hand = &round.hands[seat.index()];
        let next_id = |i: usize| MeldId((round.melds.len() + i + 1) as u32);
        let find = |id: MeldId| round.melds.iter().position(|m| m.id == id).ok_or(RamiIllegal::NoSuchMeld(id));
        match action {
            RamiAction::Open(melds) => {
                if round.opened[seat.index()] {
                    return Err(RamiIllegal::AlreadyOpened);
                }
                if melds.is_empty() {
                    return Err(RamiIllegal::EmptyOpening);
                }
                let built = melds
                    .iter()
                    .enumerate()
                    .map(|(i, m)| new_meld(next_id(i), seat, &m.cards, m.joker))
                    .collect::<Result<Vec<Meld>, _>>()?;
                let value: u32 = built.iter().map(meld_value).sum();
                let needed = self.options.opening.threshold();
                if value < needed {
                    return Err(RamiIllegal::OpeningTooLow { value, needed });
                }
                if self.options.opening.needs_pure_run() && !built.iter().any(is_pure_run) {
                    return Err(RamiIllegal::NoPureRun);
                }
                Ok(Plan::Lay(built))
            }
            RamiAction::Meld(meld) => Ok(Plan::Lay(vec![new_meld(next_id(0), seat, &meld.cards, meld.joker)?])),
            RamiAction::LayOff { id, cards, joker } => {
                let index = find(*id)?;
                let mut meld = round.melds[index].clone();
                meld.lay_off(seat, cards, *joker, RULES)?;
                Ok(Plan::Change(index, meld))
            }
            RamiAction::Exchange { id, card } => {
                let index = find(*id)?;
                if !hand.contains_all(&[*card]) {
                    return Err(RamiIllegal::not_in_hand(&[*card]));
                }
                let mut meld = round.melds[index].clone();
                meld.exchange(seat, *card)?;
                if judge == Judge::Checked {
                    return Ok(Plan::Change(index, meld));
                }
                let mut after = hand.clone();
                after.remove(*card);
                after.add(Card::JOKER);
                let mut melds = round.melds.clone();
                melds[index] = meld.clone();
                if !search::play_with(&after, &melds, Card::JOKER) {
                    return Err(RamiIllegal::ExchangeDeadEnd);
                }
                Ok(Plan::Change(index, meld))
            }
            RamiAction::Discard(card) => {
                if !hand.contains_all(&[*card]) {
                    return Err(RamiIllegal::not_in_hand(&[*card]));
                }
                Ok(Plan::Discard(*card))
            }
            RamiAction::Draw | RamiAction::Take => Err(RamiIllegal::AlreadyDrew),
        }
    }

    fn execute(&mut self, seat: Seat, action: &RamiAction, plan: Plan) {
        let Phase::Turn(mut turn) = self.phase else { return };
        let before = self.round.hands[seat.index()].len();
        let round = &mut self.round;
        let hand = &mut round.hands[seat.index()];
        let entry = match plan {
            Plan::Draw => {
                let Some(card) = round.stock.pop() else { return };
                hand.add(card);
                turn.drew = true;
                self.events.push(Event::Drew { seat, card });
                LogEntry::Draw { seat, card }
            }
            Plan::Take => {
                let Some(card) = round.discard.pop() else { return };
                hand.add(card);
                turn.drew = true;
                turn.owes = Some(Owes::Taken(card));
                self.events.push(Event::Public(RamiEvent::Took { seat, card }));
                LogEntry::Take { seat, cards: vec![card] }
            }
            Plan::Lay(melds) => {
                let logged: Vec<MeldEntry> = melds
                    .iter()
                    .zip(action_melds(action))
                    .map(|(meld, (cards, joker))| MeldEntry { id: meld.id, cards, joker })
                    .collect();
                for meld in &logged {
                    hand.remove_all(&meld.cards);
                }
                round.melds.extend(melds.iter().cloned());
                turn.owes = None;
                let opening = matches!(action, RamiAction::Open(_));
                if opening {
                    round.opened[seat.index()] = true;
                    turn.opened_now = true;
                }
                let mut melds = melds;
                self.events.push(Event::Public(if opening || melds.len() != 1 {
                    RamiEvent::Opened { seat, melds }
                } else {
                    RamiEvent::Melded { seat, meld: melds.remove(0) }
                }));
                match (opening, logged.first()) {
                    (false, Some(meld)) => LogEntry::Meld { seat, meld: meld.clone() },
                    _ => LogEntry::Open { seat, melds: logged },
                }
            }
            Plan::Change(index, meld) => {
                let id = meld.id;
                round.melds[index] = meld.clone();
                let entry = match action {
                    RamiAction::LayOff { cards, joker, .. } => {
                        hand.remove_all(cards);
                        turn.owes = None;
                        LogEntry::LayOff { seat, lay_off: MeldEntry { id, cards: cards.clone(), joker: *joker } }
                    }
                    RamiAction::Exchange { card, .. } => {
                        hand.remove(*card);
                        hand.add(Card::JOKER);
                        turn.owes = Some(Owes::JokerPlay);
                        LogEntry::Exchange { seat, id, card: *card }
                    }
                    _ => return,
                };
                let owner = meld.owner;
                self.events.push(Event::Public(match action {
                    RamiAction::Exchange { card, .. } => RamiEvent::Exchanged { seat, card: *card, owner, meld },
                    _ => RamiEvent::LaidOff { seat, cards: action.laid_cards().unwrap_or_default(), owner, meld },
                }));
                entry
            }
            Plan::Discard(card) => {
                hand.remove(card);
                round.discard.push(card);
                self.events.push(Event::Public(RamiEvent::Discarded { seat, card }));
                LogEntry::Discard { seat, card, gin: false }
            }
        };
        let discarded = matches!(entry, LogEntry::Discard { .. });
        self.round.log.push(entry);
        self.phase = Phase::Turn(turn);
        let left = self.round.hands[seat.index()].len();
        if left == 1 && before > 1 {
            self.events.push(Event::Public(RamiEvent::Carte { seat }));
        }
        if discarded {
            if left == 0 {
                self.round.log.push(LogEntry::Out { seat });
                self.events.push(Event::Public(RamiEvent::Out { seat }));
                self.end_round(Some(seat));
            } else {
                self.begin_turn(seat.next(self.players));
            }
        }
    }
}

/// The cards and stated jokers of an opening's or a meld's new melds.
fn action_melds(action: &RamiAction) -> Vec<(Vec<Card>, Option<crate::melds::JokerFor>)> {
    match action {
        RamiAction::Open(melds) => melds.iter().map(|m| (m.cards.clone(), m.joker)).collect(),
        RamiAction::Meld(m) => vec![(m.cards.clone(), m.joker)],
        _ => Vec::new(),
    }
}

/// Whether `action` meets what the turn owes (rami §7.1 b, §7.3).
fn check_owed(owes: Owes, action: &RamiAction) -> Result<(), RamiIllegal> {
    let laid = action.laid_cards().unwrap_or_default();
    match owes {
        Owes::Taken(card) if !laid.contains(&card) => Err(RamiIllegal::TakenCardFirst(card)),
        Owes::JokerPlay
            if !matches!(action, RamiAction::Meld(_) | RamiAction::LayOff { .. }) || !laid.contains(&Card::JOKER) =>
        {
            Err(RamiIllegal::JokerPlayNext)
        }
        _ => Ok(()),
    }
}
