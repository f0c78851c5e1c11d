//! Rommi rules, section by section, and the items of rommi §12 about melds, the draw and the turn.

use crate::melds::MeldError;
use crate::record::{LogEntry, RoundEnd, RoundResult};
use crate::seat::Seat;

use super::super::options::{RommiOptions, Variant};
use super::super::scoring::{Where, hand_value, placed_value, value};
use super::super::{RommiAction, RommiIllegal, Step, hand_size};
use super::support::{act, c, cs, discard, lay_off, meld, pile, refuse, table, take};

fn basic() -> RommiOptions {
    RommiOptions::default()
}

fn five() -> RommiOptions {
    RommiOptions::for_variant(Variant::FiveHundred)
}

/// Rommi §12.1: Q-K-A is refused with low aces and accepted with versatile aces; K-A-2 in neither.
#[test]
fn rommi_12_1_queen_king_ace_by_variant() {
    let hands = ["Qh Kh Ah Kc Ac 2c 9s", "", ""];
    let mut low = table(basic(), &hands, "5d", "8d");
    act(&mut low, 0, RommiAction::Draw);
    assert!(matches!(refuse(&mut low, 0, meld("Qh Kh Ah")), RommiIllegal::Meld(MeldError::NotConsecutive { .. })));
    assert!(matches!(refuse(&mut low, 0, meld("Kc Ac 2c")), RommiIllegal::Meld(_)));
    let mut high = table(five(), &hands, "5d", "8d");
    act(&mut high, 0, RommiAction::Draw);
    assert!(matches!(refuse(&mut high, 0, meld("Kc Ac 2c")), RommiIllegal::Meld(_)));
    act(&mut high, 0, meld("Qh Kh Ah"));
    assert_eq!(high.round.table[0].ends(), Some((12, 14)));
}

/// Rommi §12.2 (and §3.3, §4): with versatile aces an ace laid off on a 2-to-K run takes position 14 and
/// is worth 15; the ace of A-2-3 is worth 1, or 5 with simple scoring; an ace in hand is worth 15.
#[test]
fn rommi_12_2_where_an_ace_sits_fixes_its_value() {
    let spades = "2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks 5h";
    let mut m = table(five(), &[spades, "As Ah 2h 3h"], "9c", "9d 4c");
    act(&mut m, 0, RommiAction::Draw);
    act(&mut m, 0, meld("2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks"));
    act(&mut m, 0, discard("9d"));
    act(&mut m, 1, RommiAction::Draw);
    act(&mut m, 1, lay_off(1, "As"));
    let ace = m.round.table[0].cards.iter().find(|p| p.card == c("As")).expect("laid off");
    assert_eq!((ace.position, ace.owner, placed_value(&m.options, ace)), (Some(14), Seat(1), 15));
    act(&mut m, 1, meld("Ah 2h 3h"));
    let low = m.round.table[1].cards[0];
    assert_eq!((low.card, low.position, placed_value(&m.options, &low)), (c("Ah"), Some(1), 1));
    let simple = RommiOptions { simple_scoring: true, ..five() };
    assert_eq!(placed_value(&simple, &low), 5);
    assert_eq!(hand_value(&five(), &cs("Ac")), 15);
    assert_eq!(hand_value(&basic(), &cs("Ac")), 1);
    assert_eq!(value(&five(), c("Ac").rank().expect("natural"), Where::Set), 15);
}

/// Rommi §4: card values, normal and simple.
#[test]
fn rommi_4_card_values() {
    let simple = RommiOptions { simple_scoring: true, ..basic() };
    assert_eq!(hand_value(&basic(), &cs("2c 9d 10h Js Qc Kd Ah")), 2 + 9 + 40 + 1);
    assert_eq!(hand_value(&simple, &cs("2c 9d 10h Js Qc Kd Ah")), 5 + 5 + 40 + 5);
}

/// Rommi §12.3: the card just taken from the top of the pile cannot be discarded, unless it is the last
/// card in hand, which goes out.
#[test]
fn rommi_12_3_the_top_discard_taken_is_locked() {
    let mut m = table(basic(), &["5h 6h 7h 8h Kc Kd Ks", "", ""], "9c", "");
    act(&mut m, 0, take("9c"));
    assert_eq!(refuse(&mut m, 0, discard("9c")), RommiIllegal::Locked(c("9c")));
    act(&mut m, 0, meld("5h 6h 7h 8h"));
    act(&mut m, 0, meld("Kc Kd Ks"));
    assert_eq!(m.round.hands[0], cs("9c"));
    act(&mut m, 0, discard("9c"));
    assert_eq!(m.rounds[0].log.last(), Some(&LogEntry::Out { seat: Seat(0) }));
}

/// Rommi §12.4 and §6.1 c: a deep take whose target cannot be played at once is refused; a first play
/// without the target is refused (and so is a discard before it); no card is locked after a deep take.
#[test]
fn rommi_12_4_a_deep_take_must_play_its_target_first() {
    let mut m = table(five(), &["5d 6d Kh Ks Kd 2c 9h", "", ""], "Jh", "Qc 4d 8s");
    pile(&mut m, "Qc 4d 8s");
    assert_eq!(refuse(&mut m, 0, take("Qc")), RommiIllegal::DeepTakeUnplayable(c("Qc")));
    act(&mut m, 0, take("4d"));
    assert_eq!(m.round.hands[0].len(), 9);
    assert_eq!(refuse(&mut m, 0, meld("Kh Ks Kd")), RommiIllegal::TargetFirst(c("4d")));
    assert_eq!(refuse(&mut m, 0, discard("8s")), RommiIllegal::TargetUnplayed(c("4d")));
    act(&mut m, 0, meld("4d 5d 6d"));
    act(&mut m, 0, meld("Kh Ks Kd"));
    act(&mut m, 0, discard("8s"));
    assert_eq!(m.rounds[0].log[0], LogEntry::Take { seat: Seat(0), cards: cs("4d 8s") });
}

/// Rommi §12.4: a deep take of the pile's bottom card takes the whole pile; §2: never in basic.
#[test]
fn rommi_12_4_the_bottom_card_takes_the_whole_pile() {
    let hands = ["Qh Qd 2c 3d 7s 8h 10c", "", ""];
    let mut basic_table = table(basic(), &hands, "Qc", "4d 8s");
    pile(&mut basic_table, "4d 8s");
    assert_eq!(refuse(&mut basic_table, 0, take("Qc")), RommiIllegal::DeepTakeBasic);
    let mut m = table(five(), &hands, "Qc", "4d 8s");
    pile(&mut m, "4d 8s");
    act(&mut m, 0, take("Qc"));
    assert!(m.round.pile.is_empty());
    assert_eq!(m.round.target, Some(c("Qc")));
    assert_eq!(m.round.locked, None);
}

/// Rommi §12.5: with `meld_restriction` a second new meld in a turn is refused; a lay-off before one's own
/// meld is refused, and allowed after a meld earlier in the same turn.
#[test]
fn rommi_12_5_meld_restriction() {
    let options = RommiOptions { meld_restriction: true, ..basic() };
    let mut m = table(options, &["5h 6h 7h Kc Kd Ks 9s", "8h Jc Jd Js 2s 3s 4c", ""], "10d", "2d 9d");
    act(&mut m, 0, RommiAction::Draw);
    act(&mut m, 0, meld("5h 6h 7h"));
    assert_eq!(refuse(&mut m, 0, meld("Kc Kd Ks")), RommiIllegal::SecondMeld);
    act(&mut m, 0, discard("2d"));
    act(&mut m, 1, RommiAction::Draw);
    assert_eq!(refuse(&mut m, 1, lay_off(1, "8h")), RommiIllegal::LayOffBeforeMeld);
    act(&mut m, 1, meld("Jc Jd Js"));
    act(&mut m, 1, lay_off(1, "8h"));
    assert_eq!(m.round.table[0].cards.last().map(|p| p.owner), Some(Seat(1)));
}

/// Rommi §6.2: lay-offs on anybody's meld grow a run at its ends, a set to 4, and never move a card.
#[test]
fn rommi_6_2_lay_offs() {
    let mut m = table(basic(), &["5h 6h 7h Kc Kd Ks 9s", "8h 4h Ac 3c Jd 2s 3s", ""], "10d", "2d 9d");
    act(&mut m, 0, RommiAction::Draw);
    act(&mut m, 0, meld("5h 6h 7h"));
    act(&mut m, 0, meld("Kc Kd Ks"));
    act(&mut m, 0, discard("2d"));
    act(&mut m, 1, RommiAction::Draw);
    assert!(matches!(refuse(&mut m, 1, lay_off(1, "3s")), RommiIllegal::Meld(_)));
    assert_eq!(refuse(&mut m, 1, lay_off(3, "8h")), RommiIllegal::NoSuchMeld(crate::melds::MeldId(3)));
    act(&mut m, 1, lay_off(1, "8h 4h"));
    assert_eq!(m.round.table[0].ends(), Some((4, 8)));
    assert!(m.legal_actions(Seat(1)).contains(&discard("9d")));
}

/// Rommi §12.6: going out by a play (no discard follows), and by discarding the last card.
#[test]
fn rommi_12_6_going_out_by_a_play_and_by_a_discard() {
    let mut by_play = table(basic(), &["5h 6h 7h 8h Kc Kd Ks", "", ""], "2c", "9h");
    act(&mut by_play, 0, RommiAction::Draw);
    act(&mut by_play, 0, meld("5h 6h 7h 8h 9h"));
    act(&mut by_play, 0, meld("Kc Kd Ks"));
    let log = &by_play.rounds[0].log;
    assert_eq!(log.last(), Some(&LogEntry::Out { seat: Seat(0) }));
    assert!(!log.iter().any(|e| matches!(e, LogEntry::Discard { .. })));
    assert!(
        matches!(&by_play.rounds[0].result, Some(RoundResult::Rommi(r)) if r.ended_by == RoundEnd::Out && r.out == Some(Seat(0)))
    );
    assert_eq!(by_play.rounds.len(), 2, "§7: the round is scored and the next one dealt");

    let mut by_discard = table(basic(), &["5h 6h 7h 8h Kc Kd 2s", "", ""], "2c", "Ks");
    act(&mut by_discard, 0, RommiAction::Draw);
    act(&mut by_discard, 0, meld("5h 6h 7h 8h"));
    act(&mut by_discard, 0, meld("Kc Kd Ks"));
    act(&mut by_discard, 0, discard("2s"));
    assert_eq!(by_discard.rounds[0].log.last(), Some(&LogEntry::Out { seat: Seat(0) }));
}

/// Rommi §12.7 and §8: ending the round is refused while the stock has cards; drawing from an empty stock
/// is refused; the discard pile is never reshuffled.
#[test]
fn rommi_12_7_the_stock_runs_out() {
    let mut m = table(basic(), &["", "", ""], "2c", "");
    assert_eq!(refuse(&mut m, 0, RommiAction::EndRound), RommiIllegal::StockNotEmpty);
    m.round.stock.clear();
    assert_eq!(refuse(&mut m, 0, RommiAction::Draw), RommiIllegal::StockEmpty);
    assert!(m.legal_actions(Seat(0)).contains(&take("2c")));
    act(&mut m, 0, RommiAction::EndRound);
    assert!(
        matches!(&m.rounds[0].result, Some(RoundResult::Rommi(r)) if r.ended_by == RoundEnd::Stock && r.out.is_none())
    );
}

/// Rommi §12.12 and §5: 2 players get 13 cards, 3 or 4 get 7; the dealer and the first player move one seat
/// per round.
#[test]
fn rommi_12_12_the_deal() {
    for (players, size, stock) in [(2, 13, 25), (3, 7, 30), (4, 7, 23)] {
        assert_eq!(hand_size(players), size);
        let mut m = super::super::RommiMatch::new(players, 5, basic()).expect("valid");
        assert!(m.round.hands.iter().all(|h| h.len() == size));
        assert_eq!((m.round.stock.len(), m.round.pile.len()), (stock, 1));
        let dealer = m.round.dealer;
        assert_eq!(m.to_act(), Some(dealer.next(players)));
        m.round.stock.clear();
        let first = dealer.next(players);
        act(&mut m, first.0, RommiAction::EndRound);
        assert_eq!(m.round.dealer, dealer.next(players));
        assert_eq!(m.to_act(), Some(dealer.next(players).next(players)));
        assert_eq!(m.rounds[1].dealer, m.round.dealer);
    }
}

/// Rommi §5 and §6: turn order and steps; acting out of turn or out of step is refused.
#[test]
fn rommi_6_turn_order_and_steps() {
    let mut m = table(basic(), &["", "", ""], "2c", "");
    assert!(matches!(refuse(&mut m, 1, RommiAction::Draw), RommiIllegal::NotYourTurn { .. }));
    assert!(matches!(refuse(&mut m, 0, discard("2c")), RommiIllegal::WrongStep { .. }));
    assert_eq!(refuse(&mut m, 7, RommiAction::Draw), RommiIllegal::NoSuchSeat(Seat(7)));
    act(&mut m, 0, RommiAction::Draw);
    assert_eq!(m.step(), Step::Play);
    assert!(matches!(refuse(&mut m, 0, RommiAction::Draw), RommiIllegal::WrongStep { .. }));
    let held = m.round.hands[0][0];
    assert_eq!(refuse(&mut m, 0, RommiAction::Meld { cards: vec![held, held, held] }), RommiIllegal::Repeated(held));
    assert_eq!(refuse(&mut m, 0, discard("2c")), RommiIllegal::NotInHand(c("2c")));
    act(&mut m, 0, RommiAction::Discard { card: held });
    assert_eq!(m.to_act(), Some(Seat(1)));
}
