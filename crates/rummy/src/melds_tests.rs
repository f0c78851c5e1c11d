use super::*;
use crate::cards::parse_cards;

fn cards(codes: &str) -> Vec<Card> {
    parse_cards(codes).expect("test codes are card codes")
}

fn meld(codes: &str, joker: Option<&str>, rules: &MeldRules) -> Result<Meld, MeldError> {
    let joker = joker.map(|j| serde_json::from_value(serde_json::Value::String(j.into())).expect("a joker code"));
    Meld::new(MeldId(1), Seat(0), &cards(codes), joker, rules)
}

fn positions(meld: &Meld) -> Vec<(String, u8)> {
    meld.cards.iter().map(|p| (p.card.to_string(), p.position.expect("a run"))).collect()
}

const BASIC: MeldRules = MeldRules::ROMMI_BASIC;
const V500: MeldRules = MeldRules::ROMMI_500;
const RAMI: MeldRules = MeldRules::RAMI;

#[test]
fn sets_of_three_or_four_of_one_rank() {
    assert_eq!(
        meld("7h 7s 7d", None, &BASIC).expect("test data").kind,
        MeldKind::Set(Rank::new(7).expect("test data"))
    );
    assert!(meld("7h 7s 7d 7c", None, &BASIC).is_ok());
    assert_eq!(meld("7h 7s", None, &BASIC), Err(MeldError::TooFew));
    assert_eq!(meld("7h 7s 8d", None, &BASIC), Err(MeldError::Mixed));
}

#[test]
fn rommi_12_1_aces_by_variant() {
    assert!(meld("Qh Kh Ah", None, &BASIC).is_err(), "Q-K-A with low aces");
    let high = meld("Qh Kh Ah", None, &V500).expect("Q-K-A with versatile aces");
    assert_eq!(positions(&high), [("Qh".into(), 12), ("Kh".into(), 13), ("Ah".into(), 14)]);
    assert!(meld("Kh Ah 2h", None, &BASIC).is_err());
    assert!(meld("Kh Ah 2h", None, &V500).is_err(), "no wrap-around");
    let low = meld("Ah 2h 3h", None, &BASIC).expect("test data");
    assert_eq!(low.cards[0].position, Some(1));
}

#[test]
fn rommi_12_2_an_ace_on_a_two_to_king_run_goes_high() {
    let mut run = meld("2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks", None, &V500).expect("test data");
    run.lay_off(Seat(1), &cards("As"), None, &V500).expect("test data");
    let ace = run.cards.iter().find(|p| p.card.rank() == Some(Rank::ACE)).expect("test data");
    assert_eq!((ace.position, ace.owner), (Some(14), Seat(1)));
    // The whole suit in one meld: the ace fits both ends and goes high (rommi §3.3).
    let full = meld("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks", None, &V500).expect("test data");
    assert_eq!(full.cards.last().expect("test data").position, Some(14));
    // With low aces it goes low, and the run is full at 13.
    let full_low = meld("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks", None, &BASIC).expect("test data");
    assert_eq!(full_low.cards[0].position, Some(1));
}

#[test]
fn lay_offs_grow_at_the_ends_and_positions_stay() {
    let mut run = meld("5c 6c 7c", None, &BASIC).expect("test data");
    assert_eq!(
        run.check_lay_off(&cards("9c"), None, &BASIC),
        Err(MeldError::NotConsecutive { aces: "aces are low only" })
    );
    run.lay_off(Seat(2), &cards("8c 4c 9c"), None, &BASIC).expect("test data");
    assert_eq!(run.ends(), Some((4, 9)));
    assert_eq!(run.lay_off(Seat(2), &cards("6c"), None, &BASIC), Err(MeldError::SamePosition));
    assert_eq!(run.lay_off(Seat(2), &cards("10d"), None, &BASIC), Err(MeldError::Mixed));
    let mut set = meld("Kc Kd Kh", None, &BASIC).expect("test data");
    set.lay_off(Seat(1), &cards("Ks"), None, &BASIC).expect("test data");
    assert_eq!(set.cards.len(), 4);
    assert_eq!(set.cards[3].owner, Seat(1));
}

#[test]
fn rami_sets_need_distinct_suits_and_at_most_four() {
    assert_eq!(meld("9h 9h 9s", None, &RAMI), Err(MeldError::SetSuit), "the second deck's copy");
    let mut set = meld("9h 9s 9d 9c", None, &RAMI).expect("test data");
    assert_eq!(set.lay_off(Seat(0), &cards("9h"), None, &RAMI), Err(MeldError::SetTooBig(4)));
}

#[test]
fn rami_jokers_are_stated_and_one_per_meld() {
    let run = meld("5c X 7c", Some("6c"), &RAMI).expect("test data");
    assert_eq!(run.cards[1].position, Some(6));
    assert_eq!(meld("5c X 7c", None, &RAMI), Err(MeldError::JokerStatement));
    assert_eq!(meld("5c 6c 7c", Some("8c"), &RAMI), Err(MeldError::JokerStatement));
    assert_eq!(meld("5c X X", Some("6c"), &RAMI), Err(MeldError::SecondJoker));
    assert_eq!(meld("5c X 7c", Some("6h"), &RAMI), Err(MeldError::Mixed));
    assert!(meld("5c X 7c", Some("9c"), &RAMI).is_err(), "a joker must fill its stated place");
    let mut set = meld("9h 9s X", Some("9"), &RAMI).expect("test data");
    assert_eq!(set.kind, MeldKind::Set(Rank::new(9).expect("test data")));
    assert_eq!(
        set.lay_off(Seat(1), &cards("X"), Some(JokerFor::Rank(Rank::new(9).expect("test data"))), &RAMI),
        Err(MeldError::SecondJoker)
    );
    assert_eq!(
        set.lay_off(Seat(1), &cards("9h"), None, &RAMI),
        Err(MeldError::SetSuit),
        "one of the missing suits only"
    );
    set.lay_off(Seat(1), &cards("9d"), None, &RAMI).expect("test data");
    assert_eq!(meld("Ks X Kh", Some("9"), &RAMI), Err(MeldError::Mixed));
    assert_eq!(meld("5c 6c 7c X", None, &BASIC), Err(MeldError::NoJokers));
}

#[test]
fn rami_runs_may_hold_both_aces() {
    let full = meld("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah", None, &RAMI).expect("test data");
    assert_eq!(full.ends(), Some((1, 14)));
    let mut top = meld("2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd", None, &RAMI).expect("test data");
    top.lay_off(Seat(0), &cards("Ad"), None, &RAMI).expect("test data");
    assert_eq!(top.ends(), Some((2, 14)), "the first ace goes high");
    top.lay_off(Seat(0), &cards("Ad"), None, &RAMI).expect("test data");
    assert_eq!(top.ends(), Some((1, 14)), "14 is taken, so the second goes low");
    assert!(meld("Kh Ah 2h", None, &RAMI).is_err());
}

#[test]
fn rami_exchanges_take_the_stated_card_or_the_missing_suit() {
    let mut run = meld("5c X 7c", Some("6c"), &RAMI).expect("test data");
    assert_eq!(run.exchange_card(), Some("6c".parse().expect("test data")));
    assert_eq!(
        run.exchange(Seat(1), "6d".parse().expect("test data")),
        Err(MeldError::WrongCard("6c".parse().expect("test data")))
    );
    assert_eq!(run.exchange(Seat(1), "6c".parse().expect("test data")), Ok(Card::JOKER));
    assert_eq!(run.cards[1].position, Some(6));
    assert!(!run.has_joker());
    assert_eq!(run.exchange(Seat(1), "6c".parse().expect("test data")), Err(MeldError::NoJokerThere));

    let mut three = meld("9h 9s X", Some("9"), &RAMI).expect("test data");
    assert_eq!(three.exchange(Seat(1), "9d".parse().expect("test data")), Err(MeldError::ThreeCardSet));
    let mut four = meld("9h 9s 9c X", Some("9"), &RAMI).expect("test data");
    assert_eq!(four.exchange_card(), Some("9d".parse().expect("test data")));
    assert_eq!(four.exchange(Seat(2), "9d".parse().expect("test data")), Ok(Card::JOKER));
}

#[test]
fn a_joker_standing_for_an_ace_is_placed_as_an_ace() {
    let run = meld("Qs Ks X", Some("As"), &RAMI).expect("test data");
    assert_eq!(run.ends(), Some((12, 14)));
    let joker = run.cards.iter().find(|p| p.card.is_joker()).expect("test data");
    assert_eq!((joker.rank, joker.position), (Rank::ACE, Some(14)));
}

#[test]
fn wild_groups_for_rumino() {
    let lay = MeldRules::RUMINO_LAY;
    let yes = ["7h 7h 7s", "Jh Qh Kh Ah", "Ah 2h 3h", "7h X 9h", "7h 8h X", "9s 9d X 9c", "X Qd Kd"];
    for codes in yes {
        assert!(forms_group(&cards(codes), &lay), "{codes}");
    }
    let no = ["Kh Ah 2h", "7h X X", "7h 8h 9h 10h Jh", "7h 8d 9h", "7h 9h Jh", "7h 7h", "9s 9d 9c 9h 9s"];
    for codes in no {
        assert!(!forms_group(&cards(codes), &lay), "{codes}");
    }
    let seven = MeldRules::RUMINO_SEVEN;
    assert!(forms_group(&cards("5h 6h 7h 8h 9h 10h Jh"), &seven));
    assert!(forms_group(&cards("8c 8c 8d 8h X 8s 8s"), &seven));
    assert!(!forms_group(&cards("8c 8c 8d 8h X X 8s"), &seven));
    assert!(forms_group(&cards("8h 9h 10h Jh Qh Kh Ah"), &seven));
}

#[test]
fn joker_codes_read_as_card_or_rank() {
    let card: JokerFor = serde_json::from_str("\"9c\"").expect("test data");
    let rank: JokerFor = serde_json::from_str("\"9\"").expect("test data");
    assert_eq!(card, JokerFor::Card("9c".parse().expect("test data")));
    assert_eq!(rank, JokerFor::Rank(Rank::new(9).expect("test data")));
    assert!(serde_json::from_str::<JokerFor>("\"X\"").is_err());
    assert_eq!(serde_json::to_string(&rank).expect("test data"), "\"9\"");
}
