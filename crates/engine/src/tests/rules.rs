//! Rule-book examples, one or more tests per section of `docs/rules/romi-rami.md`.
//!
//! Each test is named after the section it checks (`s3_4_...` is §3 step 4) and builds its position
//! from a real game with [`super::support`], moving cards rather than making them up. Every legal move
//! goes through [`act`], which also checks that the move was listed and that no card was lost; every
//! illegal one through [`refuse`], which checks the error's code and rule and that nobody can see any
//! change: every viewer's view, every seat's legal actions, the material, the log and the events.

use std::collections::{BTreeSet, HashSet};
use std::ops::{Range, RangeInclusive};

use super::support::{
    Stash, assert_census, card, card_list, cards, census, contract, give_contracts, give_hand, give_suit_bonus,
    new_game, set_contract_market, set_first_player, set_number_deck, set_number_market, set_to_act, set_trophies,
    stack_contract_deck, stack_number_deck, stash_contract_deck, stash_number_supply, use_star,
};
use crate::{
    Action, Card, Cards, ContractId, EndReason, ExportError, Game, GameResult, GameRng, IllegalAction, LogEntry, Phase,
    RandomPlayer, RecordMeta, Requirement, ScoreBreakdown, Seat, Setup, SetupError, Trophy, TrophyWinners, TurnStep,
    Viewer, VisibleEvent, contract_target,
};

const S0: Seat = Seat(0);
const S1: Seat = Seat(1);
const S2: Seat = Seat(2);
const S3: Seat = Seat(3);

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

fn take(codes: &[&str]) -> Action {
    Action::Take { cards: cards(codes) }
}

fn complete(number: u8, codes: &[&str]) -> Action {
    Action::Complete { contract: contract(number), cards: cards(codes), star: false }
}

fn complete_star(number: u8, codes: &[&str]) -> Action {
    Action::Complete { contract: contract(number), cards: cards(codes), star: true }
}

fn discard(codes: &[&str]) -> Action {
    Action::Discard { cards: cards(codes) }
}

fn playing(seat: Seat, step: TurnStep) -> Phase {
    Phase::Playing { seat, step }
}

/// Every seat, then a spectator.
fn viewers(game: &Game) -> Vec<Viewer> {
    (0..game.players() as u8).map(|s| Viewer::Seat(Seat(s))).chain([Viewer::Spectator]).collect()
}

/// Everything anyone can observe of a game (every viewer's view as JSON, every seat's legal actions),
/// and what nobody may see but the rules depend on (the material, the deck and discard order, the log).
#[derive(Debug, PartialEq)]
struct Snapshot {
    views: Vec<String>,
    legal: Vec<Vec<Action>>,
    census: (Cards, [u8; 36]),
    number_deck: Vec<Card>,
    contract_deck: Vec<ContractId>,
    discard_pile: Vec<Card>,
    log: Vec<LogEntry>,
    event_count: usize,
}

fn snapshot(game: &Game) -> Snapshot {
    Snapshot {
        views: viewers(game)
            .into_iter()
            .map(|viewer| serde_json::to_string(&game.view(viewer)).expect("a view serializes"))
            .collect(),
        legal: (0..game.players() as u8).map(|s| game.legal_actions(Seat(s))).collect(),
        census: census(game),
        number_deck: game.number_deck.clone(),
        contract_deck: game.contract_deck.clone(),
        discard_pile: game.discard_pile.clone(),
        log: game.log.clone(),
        event_count: game.event_count(),
    }
}

/// A snapshot without the event counter, which grows with every action, taking back included (§7).
fn position(game: &Game) -> Snapshot {
    let mut copy = game.clone();
    copy.events.clear();
    Snapshot { event_count: 0, ..snapshot(&copy) }
}

/// Applies a legal action: it must be listed, accepted, and lose no card. Returns its events.
#[track_caller]
fn act(game: &mut Game, seat: Seat, action: Action) -> Range<usize> {
    assert!(game.legal_actions(seat).contains(&action), "{action:?} by {seat} should be listed as legal");
    let events = match game.apply(seat, &action) {
        Ok(applied) => applied.events,
        Err(e) => panic!("{action:?} by {seat} should be legal, but: {e}"),
    };
    assert_census(game);
    events
}

/// Refuses an illegal action: the error has this code and rule, `check` agrees with `apply`, the action is
/// not listed, and nothing anyone can see (or that the rules depend on) changed.
#[track_caller]
fn refuse(game: &mut Game, seat: Seat, action: Action, code: &str, rule: &str) -> IllegalAction {
    let before = snapshot(game);
    let checked = game.check(seat, &action);
    let err = match game.apply(seat, &action) {
        Ok(_) => panic!("{action:?} by {seat} should be refused with {code}"),
        Err(e) => e,
    };
    assert_eq!((err.code(), err.rule()), (code, rule), "{action:?} by {seat}: {err}");
    assert_eq!(checked.as_ref().err(), Some(&err), "check and apply give the same answer");
    assert!(!game.is_legal(seat, &action));
    assert!(!game.legal_actions(seat).contains(&action), "a refused action is not listed");
    assert_eq!(snapshot(game), before, "a refused action changes nothing");
    err
}

/// The events of `range` as `viewer` sees them.
fn seen(game: &Game, viewer: Viewer, range: &Range<usize>) -> Vec<VisibleEvent> {
    game.events_for(viewer, range.start).take_while(|(n, _)| *n < range.end).map(|(_, event)| event).collect()
}

/// Every distinct sub-multiset of `of` with a size in `sizes`.
fn sub_multisets(of: &Cards, sizes: RangeInclusive<usize>) -> Vec<Cards> {
    fn go(kinds: &[(Card, u8)], current: &mut Cards, sizes: &RangeInclusive<usize>, out: &mut Vec<Cards>) {
        let Some((&(card, copies), rest)) = kinds.split_first() else {
            if sizes.contains(&current.len()) {
                out.push(*current);
            }
            return;
        };
        for n in 0..=copies {
            current.add_n(card, n);
            go(rest, current, sizes, out);
            for _ in 0..n {
                current.remove(card);
            }
        }
    }
    let kinds: Vec<(Card, u8)> = of.kinds().collect();
    let mut out = Vec::new();
    let mut current = Cards::EMPTY;
    go(&kinds, &mut current, &sizes, &mut out);
    out
}

/// An oracle for §1.2 written apart from the engine's pattern tables: whether cards with these counts per
/// number (index 0 = the 1s) split into the requirements, each card used once, none left over.
fn fills(requirements: &[Requirement], numbers: [u8; 5]) -> bool {
    let Some((first, rest)) = requirements.split_first() else { return numbers == [0; 5] };
    match *first {
        Requirement::Set { size, number } => (0..5usize).any(|i| {
            let allowed = number.is_none_or(|wanted| usize::from(wanted) == i + 1);
            allowed && numbers[i] >= size && {
                let mut left = numbers;
                left[i] -= size;
                fills(rest, left)
            }
        }),
        Requirement::Run { size } => (0..=5 - usize::from(size)).any(|start| {
            let window = start..start + usize::from(size);
            numbers[window.clone()].iter().all(|&n| n > 0) && {
                let mut left = numbers;
                left[window].iter_mut().for_each(|n| *n -= 1);
                fills(rest, left)
            }
        }),
    }
}

/// Seat 0 of a 2-player game in its contract step (as if it had taken), with this hand and contract market.
fn at_contract_step(hand: &[&str], market: [Option<u8>; 4]) -> Game {
    let mut game = new_game(2, 5);
    set_contract_market(&mut game, market);
    give_hand(&mut game, S0, hand);
    set_to_act(&mut game, S0, TurnStep::Contracts);
    assert_eq!(game.seats[0].hand, cards(hand));
    assert_census(&game);
    game
}

fn market_cards(game: &Game) -> Cards {
    game.number_market.iter().flatten().collect()
}

fn empty_slots(game: &Game) -> usize {
    game.number_market.iter().filter(|slot| slot.is_none()).count()
}

// ---------------------------------------------------------------------------------------------------
// §1 Material
// ---------------------------------------------------------------------------------------------------

/// §1.1, §1.2: every new game holds the 92 number cards and the 36 contracts, each exactly once, dealt
/// as §2 says.
#[test]
fn s1_every_game_holds_92_number_cards_and_36_contracts() {
    for players in 2..=4 {
        for seed in 0..8 {
            let game = Game::new(players, seed).expect("2 to 4 players");
            assert_census(&game);
            let (numbers, _) = census(&game);
            assert_eq!(numbers.len(), 92);
            assert_eq!(numbers.number_counts(), [16, 20, 20, 20, 16]);
            let view = game.view(Viewer::Spectator);
            assert!(view.seats.iter().all(|seat| seat.hand_size == 3 && seat.contracts.is_empty()));
            assert_eq!(view.number_market.iter().flatten().count(), 6);
            assert_eq!(view.contract_market.iter().flatten().count(), 4);
            assert_eq!((view.number_deck, view.contract_deck, view.discard_pile), (92 - 3 * players - 6, 32, 0));
        }
    }
}

/// §1.2: the contract table, transcribed from the rule book row by row.
#[test]
fn s1_2_contract_table_matches_the_rule_book() {
    const BOOK: [&str; 36] = [
        "2 heart set4",
        "2 clover set4",
        "2 diamond set4",
        "4 cherry set5",
        "4 heart set5",
        "4 clover set5",
        "4 cherry set2 + set2 + set2",
        "4 clover set2 + set2 + set2",
        "5 cherry set2(1) + set4",
        "5 clover set2(5) + set4",
        "1 diamond set2(2) + set2",
        "1 heart set2(4) + set2",
        "5 heart set2(1) + run4",
        "5 cherry set2(5) + run4",
        "4 heart set3 + run3",
        "4 clover set3 + run3",
        "4 diamond set3 + run3",
        "4 cherry set3 + set3",
        "4 heart set3 + set3",
        "2 diamond set2 + set3",
        "2 cherry set2 + set3",
        "2 clover set2 + set3",
        "1 cherry run4",
        "1 diamond run4",
        "1 clover run4",
        "3 diamond run5",
        "3 heart run5",
        "3 cherry run5",
        "6 clover run3 + set4",
        "6 heart run3 + set4",
        "6 diamond set3 + run4",
        "6 cherry set3 + run4",
        "6 diamond set2 + run5",
        "6 clover set2 + run5",
        "9 heart run3 + set5",
        "9 diamond run3 + set5",
    ];
    for (id, row) in ContractId::all().zip(BOOK) {
        let printed = id.contract();
        let requirements: Vec<String> = printed.requirements.iter().map(ToString::to_string).collect();
        assert_eq!(format!("{} {} {}", printed.score, printed.suit, requirements.join(" + ")), row, "{id}");
        assert_eq!(printed.id, id);
    }
}

/// §1.3: four tiles, each with a suit side worth 3 and a combo side.
#[test]
fn s1_3_trophy_tiles_and_points() {
    let tiles: Vec<(Trophy, u8, Trophy, u8)> =
        Trophy::TILES.iter().map(|&(a, b)| (a, a.points(), b, b.points())).collect();
    assert_eq!(
        tiles,
        vec![
            (Trophy::Cherries, 3, Trophy::Combo2, 5),
            (Trophy::Hearts, 3, Trophy::Combo3, 4),
            (Trophy::Clovers, 3, Trophy::Combo4, 3),
            (Trophy::Diamonds, 3, Trophy::Combo5, 2),
        ]
    );
}

/// §1.4: each player starts with one unused Star, worth a point while unused (§5.4).
#[test]
fn s1_4_every_player_starts_with_an_unused_star() {
    let game = Game::new(4, 3).expect("4 players");
    for viewer in viewers(&game) {
        let view = game.view(viewer);
        assert!(view.seats.iter().all(|seat| !seat.star_used && seat.score.star == 1));
    }
}

// ---------------------------------------------------------------------------------------------------
// §2 Setup
// ---------------------------------------------------------------------------------------------------

/// §2.3, §2.4 and the record format: 3 cards to seat 0, then 3 to seat 1, ..., then 6 market cards, then
/// 4 contracts, all from the top (the first element) of the setup's decks.
#[test]
fn s2_deal_gives_each_seat_three_cards_in_turn_then_the_markets_from_the_top() {
    for players in 2..=4 {
        // Sorted decks (1ch 1ch 1ch 1ch 1di ...): dealing one card at a time would give other hands.
        let number_deck: Vec<Card> = Cards::full_deck().iter().collect();
        let contract_deck: Vec<ContractId> = ContractId::all().rev().collect();
        let trophies = [Trophy::Combo2, Trophy::Hearts, Trophy::Combo4, Trophy::Diamonds];
        let setup = Setup {
            players,
            first_player: S1,
            trophies,
            number_deck: number_deck.clone(),
            contract_deck: contract_deck.clone(),
        };
        let game = Game::from_setup(setup, 3).expect("a valid setup");
        for seat in 0..players {
            let dealt: Cards = number_deck[3 * seat..3 * seat + 3].iter().collect();
            assert_eq!(game.seats[seat].hand, dealt, "{players} players: seat {seat} gets the next 3 cards");
            assert_eq!(game.view(Viewer::Seat(Seat(seat as u8))).hand, Some(dealt));
        }
        let dealt = 3 * players;
        assert_eq!(market_cards(&game), number_deck[dealt..dealt + 6].iter().collect::<Cards>());
        let mut market: Vec<ContractId> = game.contract_market.iter().flatten().copied().collect();
        market.sort();
        let mut top_four = contract_deck[..4].to_vec();
        top_four.sort();
        assert_eq!(market, top_four);
        // The rest of each deck stays in order, the setup's next card on top (the end of the Vec).
        let rest: Vec<Card> = game.number_deck.iter().rev().copied().collect();
        assert_eq!(rest, number_deck[dealt + 6..]);
        let rest: Vec<ContractId> = game.contract_deck.iter().rev().copied().collect();
        assert_eq!(rest, contract_deck[4..]);
        assert_eq!((game.first_player(), game.trophies()), (S1, trophies));
        assert_eq!(game.phase(), playing(S1, TurnStep::Take), "§3: the first player starts");
        assert_census(&game);
    }
}

/// §2: the same seed gives the same setup, the same views and, with the same moves, the same game,
/// reshuffles included; another seed gives another deal.
#[test]
fn s2_the_same_seed_gives_the_same_game() {
    for players in 2..=4 {
        let mut a = Game::new(players, 2024).expect("valid");
        let mut b = Game::new(players, 2024).expect("valid");
        assert_eq!(a.setup, b.setup);
        assert_eq!(snapshot(&a), snapshot(&b));
        RandomPlayer::new(9).play_out(&mut a);
        RandomPlayer::new(9).play_out(&mut b);
        assert!(a.is_over());
        assert_eq!(a.log, b.log);
        assert_eq!(snapshot(&a), snapshot(&b));
        assert_eq!(a.result(), b.result());
        let c = Game::new(players, 2025).expect("valid");
        assert_ne!(a.setup.number_deck, c.setup.number_deck, "another seed shuffles differently");
        assert_ne!(a.setup.contract_deck, c.setup.contract_deck);
    }
}

/// §2.2, §2.5, §2.6: decks are shuffled, each tile shows a random side, the first player is random.
#[test]
fn s2_decks_trophy_sides_and_first_player_are_random() {
    let mut first_players = BTreeSet::new();
    let mut sides = BTreeSet::new();
    let sorted: Vec<Card> = Cards::full_deck().iter().collect();
    for seed in 0..64 {
        let game = Game::new(4, seed).expect("4 players");
        assert_eq!(game.setup.validate(), Ok(()));
        assert_ne!(game.setup.number_deck, sorted);
        first_players.insert(game.first_player());
        sides.extend(game.trophies());
        assert_eq!(game.phase(), playing(game.first_player(), TurnStep::Take));
    }
    assert_eq!(first_players.len(), 4, "every seat is sometimes the first player");
    assert_eq!(sides.len(), 8, "every side of every tile sometimes shows");
}

/// §2.1 and §1: a game needs 2 to 4 players, a first player at the table, the exact decks of §1.1 and
/// §1.2, and one side of each tile.
#[test]
fn s2_bad_setups_are_rejected() {
    for players in [0, 1, 5] {
        assert_eq!(Game::new(players, 1).err(), Some(SetupError::PlayerCount(players)));
    }
    let good = Setup::random(3, &mut GameRng::from_seed(1)).expect("3 players");
    assert!(Game::from_setup(good.clone(), 0).is_ok());
    let with = |change: &dyn Fn(&mut Setup)| {
        let mut setup = good.clone();
        change(&mut setup);
        setup
    };
    let one = good.number_deck.iter().position(|c| c.number() == 1).expect("the deck holds 1s");
    let cases = [
        (with(&|s| s.players = 1), SetupError::PlayerCount(1)),
        (with(&|s| s.players = 5), SetupError::PlayerCount(5)),
        (with(&|s| s.first_player = S3), SetupError::FirstPlayer(S3)),
        (with(&|s| s.number_deck.truncate(91)), SetupError::NumberDeck),
        (with(&|s| s.number_deck.push(card("3he"))), SetupError::NumberDeck),
        (with(&|s| s.number_deck[one] = card("2he")), SetupError::NumberDeck),
        (with(&|s| s.contract_deck.truncate(35)), SetupError::ContractDeck),
        (with(&|s| s.contract_deck.push(contract(5))), SetupError::ContractDeck),
        (with(&|s| s.contract_deck[0] = s.contract_deck[1]), SetupError::ContractDeck),
        (with(&|s| s.trophies[0] = Trophy::Hearts), SetupError::Trophy { position: 1 }),
        (with(&|s| s.trophies[3] = Trophy::Combo4), SetupError::Trophy { position: 4 }),
    ];
    for (setup, expected) in cases {
        assert_eq!(setup.validate(), Err(expected.clone()));
        assert_eq!(Game::from_setup(setup, 0).err(), Some(expected));
    }
}

// ---------------------------------------------------------------------------------------------------
// §3 A turn
// ---------------------------------------------------------------------------------------------------

/// §3: turns go in seat order from the first player, wrapping around; each starts with a take.
#[test]
fn s3_turns_follow_seat_order_from_the_first_player() {
    let mut game = new_game(3, 4);
    set_first_player(&mut game, S2);
    set_to_act(&mut game, S2, TurnStep::Take);
    for seat in [S2, S0, S1, S2, S0] {
        assert_eq!(game.phase(), playing(seat, TurnStep::Take));
        assert_eq!(game.to_act(), Some(seat));
        let first_take = game.legal_actions(seat)[0];
        act(&mut game, seat, first_take);
        assert_eq!(game.phase(), playing(seat, TurnStep::Contracts));
        let events = act(&mut game, seat, Action::Pass);
        let next = Seat((seat.0 + 1) % 3);
        assert_eq!(
            seen(&game, Viewer::Spectator, &events).last(),
            Some(&VisibleEvent::ToAct { seat: next, step: TurnStep::Take })
        );
    }
}

/// §3: the steps come in order, only the player to act acts, and a seat must be at the table.
#[test]
fn s3_only_the_player_to_act_acts_and_only_in_its_step() {
    let mut game = new_game(2, 6);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), Some("1ch")]);
    refuse(&mut game, S1, take(&["3he"]), "not_your_turn", "§3");
    refuse(&mut game, Seat(2), take(&["3he"]), "no_such_seat", "§2");
    assert!(game.legal_actions(S1).is_empty() && game.legal_actions(Seat(2)).is_empty());
    assert!(game.legal_actions(S0).iter().all(|a| matches!(a, Action::Take { .. })), "§3 step 1 comes first");
    refuse(&mut game, S0, Action::Pass, "wrong_step", "§3 step 2");
    refuse(&mut game, S0, complete(1, &["1ch"]), "wrong_step", "§3 step 2");
    refuse(&mut game, S0, discard(&["1ch"]), "wrong_step", "§3 step 4");
    refuse(&mut game, S0, Action::TakeBack, "wrong_step", "§7");
    act(&mut game, S0, take(&["3he"]));
    refuse(&mut game, S0, take(&["3cl"]), "wrong_step", "§3 step 1");
    refuse(&mut game, S1, Action::Pass, "not_your_turn", "§3");
    refuse(&mut game, S0, discard(&["3he"]), "wrong_step", "§3 step 4");
}

/// The takes §3.1 allows from `market`, worked out by brute force: 1 to 3 cards of one number or one suit.
fn allowed_takes(market: &Cards) -> BTreeSet<Cards> {
    let one_number = |c: &Cards| c.iter().all(|x| Some(x.number()) == c.iter().next().map(Card::number));
    let one_suit = |c: &Cards| c.iter().all(|x| Some(x.suit()) == c.iter().next().map(Card::suit));
    sub_multisets(market, 1..=3).into_iter().filter(|c| one_number(c) || one_suit(c)).collect()
}

/// The takes listed for `seat`, each listed once, and nothing but takes.
fn listed_takes(game: &Game, seat: Seat) -> BTreeSet<Cards> {
    let listed = game.legal_actions(seat);
    let takes: BTreeSet<Cards> = listed
        .iter()
        .map(|a| match a {
            Action::Take { cards } => *cards,
            other => panic!("only takes in the take step, not {other:?}"),
        })
        .collect();
    assert_eq!(takes.len(), listed.len(), "each take listed once");
    takes
}

/// §3.1: all taken cards share one number or one suit; the list of takes is exactly those, and every
/// other choice of 1 to 3 market cards is refused.
#[test]
fn s3_1_take_must_share_number_or_suit() {
    let mut game = new_game(2, 7);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), Some("1ch")]);
    let market = market_cards(&game);
    let allowed = allowed_takes(&market);
    assert_eq!(allowed.len(), 14, "6 singles, 3 pairs of 3s, 3 pairs of hearts, 3 3s, 3 hearts");
    assert_eq!(listed_takes(&game, S0), allowed);
    for choice in sub_multisets(&market, 1..=3) {
        if !allowed.contains(&choice) {
            refuse(&mut game, S0, Action::Take { cards: choice }, "take_mixed", "§3 step 1");
        }
    }
    let hand = game.seats[0].hand;
    act(&mut game, S0, take(&["3he", "4he", "5he"]));
    let mut expected = hand;
    expected.add_all(&cards(&["3he", "4he", "5he"]));
    assert_eq!(game.view(Viewer::Seat(S0)).hand, Some(expected));
    assert_eq!(market_cards(&game), cards(&["3cl", "3di", "1ch"]));
}

/// §3.1: a take is 1, 2 or 3 cards, all of them in the market (copies count).
#[test]
fn s3_1_take_one_to_three_cards_that_are_in_the_market() {
    let mut game = new_game(2, 8);
    set_number_market(&mut game, [Some("2ch"), Some("2di"), Some("2he"), Some("2cl"), Some("2ch"), Some("5he")]);
    give_hand(&mut game, S0, &["3ch", "3ch", "3ch"]);
    let allowed = allowed_takes(&market_cards(&game));
    assert!(allowed.contains(&cards(&["2ch", "2ch"])) && !allowed.contains(&cards(&["2ch", "2ch", "5he"])));
    assert_eq!(listed_takes(&game, S0), allowed, "copies of one card are one take, listed once");
    let err = refuse(&mut game, S0, take(&[]), "take_count", "§3 step 1");
    assert_eq!(err, IllegalAction::TakeCount { count: 0 });
    let err = refuse(&mut game, S0, take(&["2ch", "2di", "2he", "2cl"]), "take_count", "§3 step 1");
    assert_eq!(err, IllegalAction::TakeCount { count: 4 });
    refuse(&mut game, S0, take(&["2ch", "2ch", "2ch"]), "not_in_market", "§3 step 1");
    refuse(&mut game, S0, take(&["3ch"]), "not_in_market", "§3 step 1");
    act(&mut game, S0, take(&["2ch", "2ch", "2di"]));
    assert_eq!(market_cards(&game), cards(&["2he", "2cl", "5he"]));
    let slots = [None, None, Some(card("2he")), Some(card("2cl")), None, Some(card("5he"))];
    assert_eq!(game.number_market, slots, "each card taken leaves the first slot that holds it");
    assert_eq!(game.seats[0].hand, cards(&["3ch", "3ch", "3ch", "2ch", "2ch", "2di"]));
}

/// §3.1: the market is not refilled during the turn, only after the pass (§3.3); the take is public.
#[test]
fn s3_1_market_is_not_refilled_during_the_turn() {
    let mut game = new_game(2, 9);
    set_contract_market(&mut game, [Some(1), Some(2), Some(3), Some(4)]);
    give_hand(&mut game, S0, &["4he", "4cl", "4di", "4ch"]);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("5he"), Some("5cl"), Some("1ch")]);
    let deck = game.number_deck.len();
    let events = act(&mut game, S0, take(&["3he", "3cl", "3di"]));
    assert!(
        seen(&game, Viewer::Spectator, &events)
            .contains(&VisibleEvent::Took { seat: S0, cards: cards(&["3he", "3cl", "3di"]) })
    );
    assert_eq!((empty_slots(&game), game.number_deck.len()), (3, deck));
    act(&mut game, S0, complete(1, &["4he", "4cl", "4di", "4ch"]));
    assert_eq!((empty_slots(&game), game.number_deck.len()), (3, deck));
    assert_eq!(game.view(Viewer::Spectator).number_market.iter().flatten().count(), 3);
    assert_eq!(game.contract_market.iter().flatten().count(), 3, "the completed contract's slot stays empty");
    act(&mut game, S0, Action::Pass);
    assert_eq!((empty_slots(&game), game.number_deck.len()), (0, deck - 3));
    assert_eq!(game.contract_market.iter().flatten().count(), 4);
}

/// §3.2: a contract takes exactly as many cards as its requirements add up to, one fewer with the Star.
#[test]
fn s3_2_contract_takes_exactly_its_card_count() {
    let mut game =
        at_contract_step(&["4he", "4cl", "4di", "4ch", "4he", "2cl"], [Some(1), Some(4), Some(23), Some(26)]);
    let err = refuse(&mut game, S0, complete(1, &["4he", "4cl", "4di"]), "contract_card_count", "§3 step 2");
    assert!(matches!(err, IllegalAction::ContractCardCount { expected: 4, count: 3, star: false, .. }), "{err:?}");
    let err =
        refuse(&mut game, S0, complete(1, &["4he", "4cl", "4di", "4ch", "4he"]), "contract_card_count", "§3 step 2");
    assert!(matches!(err, IllegalAction::ContractCardCount { expected: 4, count: 5, .. }), "{err:?}");
    let err =
        refuse(&mut game, S0, complete_star(1, &["4he", "4cl", "4di", "4ch"]), "contract_card_count", "§3 step 2");
    assert!(matches!(err, IllegalAction::ContractCardCount { expected: 3, count: 4, star: true, .. }), "{err:?}");
    act(&mut game, S0, complete(1, &["4he", "4cl", "4di", "4ch"]));
    assert_eq!(game.seats[0].contracts, vec![contract(1)]);
    assert_eq!(game.seats[0].hand, cards(&["4he", "2cl"]));
}

/// §3.2, §1.2: the played cards must split so that each requirement is met, each card used once.
#[test]
fn s3_2_cards_must_split_to_meet_every_requirement() {
    let hand = ["3ch", "3di", "3he", "3cl", "3ch", "4he", "5cl", "1ch", "1di", "1he", "2cl"];
    let mut game = at_contract_step(&hand, [Some(15), Some(18), Some(29), Some(35)]);
    refuse(&mut game, S0, complete(15, &["1ch", "1di", "1he", "2cl", "3ch", "5cl"]), "does_not_fill", "§3 step 2");
    refuse(&mut game, S0, complete(18, &["3ch", "3di", "3he", "1ch", "1di", "2cl"]), "does_not_fill", "§3 step 2");
    refuse(
        &mut game,
        S0,
        complete(29, &["1ch", "1di", "1he", "2cl", "3ch", "4he", "5cl"]),
        "does_not_fill",
        "§3 step 2",
    );
    assert!(game.is_legal(S0, &complete(15, &["1ch", "1di", "1he", "2cl", "3ch", "4he"])));
    // Five 3s, a 4 and a 5: four 3s make the set4 and the fifth starts the run 3-4-5.
    act(&mut game, S0, complete(29, &["3ch", "3di", "3he", "3cl", "3ch", "4he", "5cl"]));
    assert_eq!(game.seats[0].hand, cards(&["1ch", "1di", "1he", "2cl"]));
}

/// §3.2: only contracts of the market, only with cards of the hand; a completed contract leaves the market.
#[test]
fn s3_2_cards_and_contract_must_be_available() {
    let mut game = at_contract_step(&["2ch", "2ch", "2di", "5he", "5he"], [Some(11), Some(12), Some(20), Some(21)]);
    refuse(&mut game, S0, complete(11, &["2ch", "2ch", "2di", "2di"]), "not_in_hand", "§3 step 2");
    refuse(&mut game, S0, complete(5, &["2ch", "2ch", "2di", "5he", "5he"]), "contract_not_in_market", "§3 step 2");
    act(&mut game, S0, complete(11, &["2ch", "2di", "5he", "5he"]));
    refuse(&mut game, S0, complete(11, &["2ch", "2ch", "2di", "2di"]), "contract_not_in_market", "§3 step 2");
    assert_eq!(game.contract_market[0], None);
}

/// §3.2, §1.2: `set2(1)` on #9 and #13 (and `set2(4)` on #12) takes a pair of that very number; the
/// Star may stand in for one of the pair.
#[test]
fn s3_2_specific_pair_on_contracts_9_and_13() {
    let hand = ["1ch", "1di", "2he", "2cl", "4ch", "4di", "4he", "4cl", "3ch", "5he", "5cl"];
    let mut game = at_contract_step(&hand, [Some(9), Some(13), Some(12), Some(11)]);
    refuse(&mut game, S0, complete(9, &["2he", "2cl", "4ch", "4di", "4he", "4cl"]), "does_not_fill", "§3 step 2");
    assert!(game.is_legal(S0, &complete(9, &["1ch", "1di", "4ch", "4di", "4he", "4cl"])));
    refuse(&mut game, S0, complete(13, &["5he", "5cl", "1ch", "2he", "3ch", "4ch"]), "does_not_fill", "§3 step 2");
    assert!(game.is_legal(S0, &complete(13, &["1ch", "1di", "2he", "3ch", "4ch", "5he"])));
    refuse(&mut game, S0, complete(12, &["2he", "2cl", "5he", "5cl"]), "does_not_fill", "§3 step 2");
    assert!(game.is_legal(S0, &complete(12, &["4ch", "4di", "2he", "2cl"])));
    assert!(game.is_legal(S0, &complete_star(9, &["1ch", "4ch", "4di", "4he", "4cl"])));
    refuse(&mut game, S0, complete_star(9, &["2he", "4ch", "4di", "4he", "4cl"]), "does_not_fill", "§3 step 2");
    refuse(&mut game, S0, complete_star(13, &["2he", "3ch", "4ch", "5he", "5cl"]), "does_not_fill", "§3 step 2");
    act(&mut game, S0, complete_star(13, &["1ch", "2he", "3ch", "4ch", "5he"]));
    refuse(&mut game, S0, complete_star(9, &["1di", "4di", "4he", "4cl", "2cl"]), "star_used", "§3 step 2");
    assert_eq!(game.seats[0].hand, cards(&["1di", "2cl", "4di", "4he", "4cl", "5cl"]));
}

/// §3.2, §1.4: the Star replaces one card, once per game; a used Star is public and no longer listed.
#[test]
fn s3_2_star_replaces_one_card_once_per_game() {
    let mut game =
        at_contract_step(&["4he", "4cl", "4di", "2he", "2cl", "2di", "2ch"], [Some(1), Some(2), Some(20), Some(21)]);
    assert!(game.legal_actions(S0).iter().any(|a| matches!(a, Action::Complete { star: true, .. })));
    refuse(&mut game, S0, complete_star(1, &["4he", "4cl", "4di", "2he"]), "contract_card_count", "§3 step 2");
    let events = act(&mut game, S0, complete_star(1, &["4he", "4cl", "4di"]));
    let shown =
        VisibleEvent::Completed { seat: S0, contract: contract(1), cards: cards(&["4he", "4cl", "4di"]), star: true };
    assert!(seen(&game, Viewer::Spectator, &events).contains(&shown));
    for viewer in viewers(&game) {
        let seat = &game.view(viewer).seats[0];
        assert!(seat.star_used && seat.score.star == 0, "{viewer:?} sees the Star used");
    }
    refuse(&mut game, S0, complete_star(2, &["2he", "2cl", "2di"]), "star_used", "§3 step 2");
    assert!(!game.legal_actions(S0).iter().any(|a| matches!(a, Action::Complete { star: true, .. })));
    act(&mut game, S0, complete(2, &["2he", "2cl", "2di", "2ch"]));
    assert_eq!(game.seats[0].contracts, vec![contract(1), contract(2)], "§3.2: any number of contracts, one at a time");
}

/// §3.2: the Star on a two-requirement contract (#20, set2 + set3); the Star is never a suit bonus.
#[test]
fn s3_2_star_on_a_two_requirement_contract() {
    let mut game = at_contract_step(&["2di", "2cl", "5di", "5ch", "3cl", "4di"], [Some(20), Some(1), Some(2), Some(3)]);
    refuse(&mut game, S0, complete_star(20, &["2di", "3cl", "4di", "5ch"]), "does_not_fill", "§3 step 2");
    let pile = game.discard_pile.clone();
    act(&mut game, S0, complete_star(20, &["2di", "2cl", "5di", "5ch"]));
    assert_eq!(game.seats[0].suit_bonus, cards(&["2di", "5di"]), "#20 is a diamond contract");
    assert_eq!(game.discard_pile[..pile.len()], pile[..]);
    assert_eq!(game.discard_pile[pile.len()..].iter().collect::<Cards>(), cards(&["2cl", "5ch"]));
    assert_eq!(game.seats[0].hand, cards(&["3cl", "4di"]));
}

/// §3.2: the Star on a three-requirement contract (#7, set2 + set2 + set2).
#[test]
fn s3_2_star_on_a_three_requirement_contract() {
    let mut game = at_contract_step(&["1ch", "1di", "3ch", "3he", "5cl", "2he"], [Some(7), Some(1), Some(2), Some(3)]);
    refuse(&mut game, S0, complete_star(7, &["1ch", "1di", "2he", "3ch", "5cl"]), "does_not_fill", "§3 step 2");
    refuse(&mut game, S0, complete(7, &["1ch", "1di", "2he", "3ch", "3he", "5cl"]), "does_not_fill", "§3 step 2");
    act(&mut game, S0, complete_star(7, &["1ch", "1di", "3ch", "3he", "5cl"]));
    assert_eq!(game.seats[0].suit_bonus, cards(&["1ch", "3ch"]), "#7 is a cherry contract");
    assert_eq!(game.seats[0].hand, cards(&["2he"]));
    assert!(game.seats[0].star_used);
}

/// §3.2: played cards of the contract's suit go to the (private) suit bonus pile, the others to the
/// (public) discard pile; the contract goes to the play area and its slot stays empty until the refill.
#[test]
fn s3_2_suit_cards_go_to_suit_bonus_and_others_to_discard() {
    let mut game = at_contract_step(&["2he", "2he", "2cl", "2di", "5ch"], [Some(1), Some(2), Some(3), Some(4)]);
    stack_contract_deck(&mut game, &[30]);
    let pile = game.discard_pile.clone();
    let spectator_before = game.view(Viewer::Spectator);
    let events = act(&mut game, S0, complete(1, &["2he", "2he", "2cl", "2di"]));
    let state = &game.seats[0];
    assert_eq!((state.suit_bonus, state.hand), (cards(&["2he", "2he"]), cards(&["5ch"])), "#1 is a heart contract");
    assert_eq!(game.discard_pile[..pile.len()], pile[..]);
    assert_eq!(game.discard_pile[pile.len()..].iter().collect::<Cards>(), cards(&["2cl", "2di"]));
    assert_eq!(game.contract_market, [None, Some(contract(2)), Some(contract(3)), Some(contract(4))]);

    let own = game.view(Viewer::Seat(S0));
    assert_eq!((own.suit_bonus, own.seats[0].score.suit_bonus), (Some(cards(&["2he", "2he"])), Some(2)));
    let public = game.view(Viewer::Spectator);
    assert_eq!(public.discard_pile, spectator_before.discard_pile + 2);
    assert_eq!(public.seats[0].contracts, vec![contract(1)]);
    assert_eq!(public.seats[0].score.contracts, 2);
    assert_eq!((public.seats[0].score.suit_bonus, public.seats[0].score.total), (None, None));
    let shown = VisibleEvent::Completed {
        seat: S0,
        contract: contract(1),
        cards: cards(&["2he", "2he", "2cl", "2di"]),
        star: false,
    };
    assert!(seen(&game, Viewer::Spectator, &events).contains(&shown), "§6: played cards are shown");

    act(&mut game, S0, Action::Pass);
    assert_eq!(game.contract_market[0], Some(contract(30)), "§3.3: refilled from the top of the contract deck");
}

/// §3.2: the Star is never a suit bonus: only the hand cards of the contract's suit are.
#[test]
fn s3_2_star_is_never_a_suit_bonus() {
    let mut game = at_contract_step(&["2he", "2he", "2he", "3cl"], [Some(1), Some(2), Some(3), Some(4)]);
    let pile = game.discard_pile.len();
    act(&mut game, S0, complete_star(1, &["2he", "2he", "2he"]));
    assert_eq!(game.seats[0].suit_bonus, cards(&["2he", "2he", "2he"]));
    assert_eq!(game.discard_pile.len(), pile);
    assert_eq!(game.view(Viewer::Seat(S0)).seats[0].score.suit_bonus, Some(3));
}

/// §3.2: the completions listed are exactly the ways to fill a market contract from the hand, with and
/// without the Star, checked against an oracle that splits cards into requirements by search.
#[test]
fn s3_2_listed_completions_are_exactly_the_fills() {
    let hand = ["1ch", "1di", "2he", "3cl", "3ch", "3di", "4he", "4cl", "5ch", "5di"];
    let mut game = at_contract_step(&hand, [Some(7), Some(13), Some(29), Some(1)]);
    let expected = |game: &Game, star_allowed: bool| -> HashSet<Action> {
        let mut all = HashSet::new();
        for id in game.contract_market.iter().flatten().copied() {
            let requirements = &id.contract().requirements;
            let count = usize::from(id.contract().card_count());
            for chosen in sub_multisets(&game.seats[0].hand, count - 1..=count) {
                let numbers = chosen.number_counts();
                if chosen.len() == count && fills(requirements, numbers) {
                    all.insert(Action::Complete { contract: id, cards: chosen, star: false });
                }
                let star_fills = (0..5).any(|i| {
                    let mut with_star = numbers;
                    with_star[i] += 1;
                    fills(requirements, with_star)
                });
                if star_allowed && chosen.len() == count - 1 && star_fills {
                    all.insert(Action::Complete { contract: id, cards: chosen, star: true });
                }
            }
        }
        all.insert(Action::Pass);
        all
    };
    for star_used in [false, true] {
        if star_used {
            use_star(&mut game, S0);
        }
        let listed = game.legal_actions(S0);
        let listed_set: HashSet<Action> = listed.iter().copied().collect();
        assert_eq!(listed_set.len(), listed.len(), "each action listed once");
        let wanted = expected(&game, !star_used);
        let offers = |number: u8| {
            wanted.iter().any(|a| matches!(a, Action::Complete { contract: c, .. } if *c == contract(number)))
        };
        assert!(offers(7) && offers(13), "pairs of 1s, 3s, 4s, 5s; 1-1 and 2-3-4-5");
        assert_eq!(offers(1), !star_used, "#1 (set4) only with the Star: three 3s");
        assert!(!offers(29), "#29 (run3 + set4) cannot be filled even with the Star");
        assert_eq!(listed_set, wanted, "star used: {star_used}");
    }
}

// ---------------------------------------------------------------------------------------------------
// §3 step 3: refill
// ---------------------------------------------------------------------------------------------------

/// §3.3: both markets are refilled from the top of their decks, each contract into the slot it left.
#[test]
fn s3_3_refill_takes_from_the_top_of_both_decks() {
    let mut game = new_game(2, 10);
    set_contract_market(&mut game, [Some(11), Some(1), Some(2), Some(3)]);
    give_hand(&mut game, S0, &["2di", "2di", "2cl", "2ch"]);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), Some("1ch")]);
    stack_number_deck(&mut game, &["5cl", "4cl", "2he", "1di"]);
    stack_contract_deck(&mut game, &[30, 31]);
    act(&mut game, S0, take(&["3he", "4he", "5he"]));
    act(&mut game, S0, complete(11, &["2di", "2di", "2cl", "2ch"]));
    let events = act(&mut game, S0, Action::Pass);
    assert_eq!(market_cards(&game), cards(&["3cl", "3di", "1ch", "5cl", "4cl", "2he"]));
    assert_eq!(game.number_deck.last(), Some(&card("1di")));
    assert_eq!(game.contract_market, [Some(contract(30)), Some(contract(1)), Some(contract(2)), Some(contract(3))]);
    assert_eq!(game.contract_deck.last(), Some(&contract(31)));
    let public = seen(&game, Viewer::Spectator, &events);
    assert!(public.contains(&VisibleEvent::ContractMarketRefilled { market: game.contract_market }));
    assert!(public.contains(&VisibleEvent::NumberMarketRefilled { market: game.number_market }));
    assert_eq!(game.phase(), playing(S1, TurnStep::Take));
}

/// §3.3: the number deck runs out in the middle of a refill (2 cards for 4 empty slots): the 2 cards are
/// drawn, then the discard pile is shuffled into a new deck and the refill goes on from it.
#[test]
fn s3_3_reshuffle_in_the_middle_of_a_refill() {
    let mut game = new_game(2, 11);
    give_hand(&mut game, S0, &["1ch", "1di", "1he"]);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), None]);
    set_number_deck(&mut game, &["2ch", "2di"]);
    assert_eq!(game.number_deck, card_list(&["2di", "2ch"]));
    let discarded: Cards = game.discard_pile.iter().collect();
    assert_eq!(discarded.len(), 92 - 3 - 3 - 5 - 2);
    act(&mut game, S0, take(&["3he", "3cl", "3di"]));
    let log_before = game.log.len();
    let events = act(&mut game, S0, Action::Pass);

    let Some(LogEntry::Shuffle { order }) = game.log.last().cloned() else {
        panic!("the record writes the reshuffle after the pass: {:?}", game.log.last())
    };
    assert_eq!(game.log.len(), log_before + 2);
    assert_eq!(game.log[log_before], LogEntry::Pass { seat: S0 });
    assert_eq!(order.iter().collect::<Cards>(), discarded, "the new deck is the discard pile");
    let mut expected_market = cards(&["4he", "5he", "2ch", "2di"]);
    expected_market.add(order[0]);
    expected_market.add(order[1]);
    assert_eq!(market_cards(&game), expected_market, "2 from the old deck, then 2 from the top of the new one");
    let deck_top_first: Vec<Card> = game.number_deck.iter().rev().copied().collect();
    assert_eq!(deck_top_first, order[2..]);
    assert!(game.discard_pile.is_empty());
    let public = seen(&game, Viewer::Spectator, &events);
    assert!(public.contains(&VisibleEvent::Reshuffled { deck: discarded.len() }));
    let view = game.view(Viewer::Spectator);
    assert_eq!((view.number_deck, view.discard_pile), (discarded.len() - 2, 0));
    assert_eq!(game.phase(), playing(S1, TurnStep::Take));
}

/// §3.3: when the contract deck is empty, the slot of a completed contract stays empty and play goes on.
#[test]
fn s3_3_empty_contract_deck_leaves_slots_empty() {
    let mut game = at_contract_step(&["2he", "2he", "2cl", "2di"], [Some(1), Some(2), Some(3), Some(4)]);
    stash_contract_deck(&mut game, S1);
    act(&mut game, S0, complete(1, &["2he", "2he", "2cl", "2di"]));
    let events = act(&mut game, S0, Action::Pass);
    assert_eq!(game.contract_market, [None, Some(contract(2)), Some(contract(3)), Some(contract(4))]);
    assert_eq!(game.view(Viewer::Spectator).contract_deck, 0);
    let public = seen(&game, Viewer::Spectator, &events);
    assert!(!public.iter().any(|e| matches!(e, VisibleEvent::ContractMarketRefilled { .. })));
    assert_eq!(game.phase(), playing(S1, TurnStep::Take), "the market is not empty, so the game goes on");
}

/// §3.3: when no number card is left to draw, the number market stays short and play goes on (§4 ends
/// the game only on an empty market).
#[test]
fn s3_3_number_market_stays_short_when_no_card_is_left() {
    let mut game = new_game(2, 12);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), Some("1ch")]);
    stash_number_supply(&mut game, Stash::Hand(S1));
    act(&mut game, S0, take(&["3he", "3cl"]));
    let events = act(&mut game, S0, Action::Pass);
    assert_eq!(market_cards(&game), cards(&["3di", "4he", "5he", "1ch"]));
    assert_eq!(empty_slots(&game), 2);
    assert!(!seen(&game, Viewer::Spectator, &events).iter().any(|e| matches!(e, VisibleEvent::Reshuffled { .. })));
    assert_eq!(game.phase(), playing(S1, TurnStep::Take));
}

// ---------------------------------------------------------------------------------------------------
// §3 step 4: hand limit and short hands
// ---------------------------------------------------------------------------------------------------

/// Seat 0 of a 2-player game with 9 cards in hand, about to take 3 more from a known market.
fn nine_card_hand() -> Game {
    let mut game = new_game(2, 13);
    give_hand(&mut game, S0, &["1ch", "1ch", "1di", "1di", "1he", "1he", "1cl", "1cl", "2ch"]);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), Some("5cl")]);
    game
}

/// §3.4: the hand limit comes after the refill: the market is full again when the player, holding 12,
/// must discard exactly down to 10; every 2-card discard is listed, nothing else.
#[test]
fn s3_4_hand_limit_after_refill() {
    let mut game = nine_card_hand();
    stack_number_deck(&mut game, &["2di", "2he", "2cl"]);
    act(&mut game, S0, take(&["3he", "3cl", "3di"]));
    act(&mut game, S0, Action::Pass);
    assert_eq!(game.phase(), playing(S0, TurnStep::Discard));
    assert_eq!(market_cards(&game), cards(&["4he", "5he", "5cl", "2di", "2he", "2cl"]), "refilled before the discard");
    assert_eq!(game.view(Viewer::Spectator).seats[0].hand_size, 12);

    let hand = game.seats[0].hand;
    let wanted: BTreeSet<Cards> = sub_multisets(&hand, 2..=2).into_iter().collect();
    let listed: Vec<Action> = game.legal_actions(S0);
    let listed_set: BTreeSet<Cards> = listed
        .iter()
        .map(|a| match a {
            Action::Discard { cards } => *cards,
            other => panic!("only discards in the discard step, not {other:?}"),
        })
        .collect();
    assert_eq!((listed_set.len(), listed.len()), (wanted.len(), wanted.len()));
    assert_eq!(listed_set, wanted);

    let err = refuse(&mut game, S0, discard(&["1ch"]), "discard_count", "§3 step 4");
    assert_eq!(err, IllegalAction::DiscardCount { expected: 2, count: 1 });
    refuse(&mut game, S0, discard(&["1ch", "1di", "1he"]), "discard_count", "§3 step 4");
    refuse(&mut game, S0, discard(&["5he", "5he"]), "discard_not_in_hand", "§3 step 4");
    refuse(&mut game, S0, Action::Pass, "wrong_step", "§3 step 2");
    refuse(&mut game, S0, take(&["4he"]), "wrong_step", "§3 step 1");
    refuse(&mut game, S0, Action::TakeBack, "wrong_step", "§7");
    refuse(&mut game, S1, discard(&["1ch", "2ch"]), "not_your_turn", "§3");

    let pile = game.discard_pile.len();
    let market = game.number_market;
    act(&mut game, S0, discard(&["1ch", "2ch"]));
    assert_eq!(game.seats[0].hand.len(), 10);
    assert_eq!(game.discard_pile[pile..].iter().collect::<Cards>(), cards(&["1ch", "2ch"]));
    assert_eq!(game.number_market, market, "the market was full: nothing to refill");
    assert_eq!(game.log.last(), Some(&LogEntry::Discard { seat: S0, cards: cards(&["1ch", "2ch"]) }));
    assert_eq!(game.phase(), playing(S1, TurnStep::Take));
}

/// §3.4: after the hand-limit discard the number market is refilled again: here no card was left for
/// the first refill, so the discarded cards are reshuffled into a deck and fill two of the empty slots.
#[test]
fn s3_4_market_refilled_again_after_the_hand_limit_discard() {
    let mut game = nine_card_hand();
    stash_number_supply(&mut game, Stash::SuitBonus(S1));
    act(&mut game, S0, take(&["3he", "3cl", "3di"]));
    act(&mut game, S0, Action::Pass);
    assert_eq!(game.phase(), playing(S0, TurnStep::Discard));
    assert_eq!(empty_slots(&game), 3, "nothing to refill from");
    let events = act(&mut game, S0, discard(&["1ch", "1di"]));
    assert_eq!(market_cards(&game), cards(&["4he", "5he", "5cl", "1ch", "1di"]));
    assert_eq!(empty_slots(&game), 1);
    assert!(game.number_deck.is_empty() && game.discard_pile.is_empty());
    assert_eq!(game.seats[0].hand.len(), 10);
    let n = game.log.len();
    assert_eq!(game.log[n - 2], LogEntry::Discard { seat: S0, cards: cards(&["1ch", "1di"]) });
    assert!(
        matches!(&game.log[n - 1], LogEntry::Shuffle { order } if order.iter().collect::<Cards>() == cards(&["1ch", "1di"]))
    );
    let public = seen(&game, Viewer::Spectator, &events);
    assert!(public.contains(&VisibleEvent::Reshuffled { deck: 2 }));
    assert!(public.contains(&VisibleEvent::NumberMarketRefilled { market: game.number_market }));
    assert_eq!(game.phase(), playing(S1, TurnStep::Take));
}

/// Seat 0 of a 2-player game that will take `5he`, complete #1 (hearts, set4) with four 4s and keep 1 card.
fn one_card_left_after_contract() -> Game {
    let mut game = new_game(2, 14);
    set_contract_market(&mut game, [Some(1), Some(2), Some(3), Some(4)]);
    give_hand(&mut game, S0, &["4he", "4cl", "4di", "4ch"]);
    set_number_market(&mut game, [Some("5he"), Some("3cl"), Some("3di"), Some("3he"), Some("2cl"), Some("1ch")]);
    game
}

/// §3.4: a hand of fewer than 3 cards after the refill draws from the top of the deck up to 3.
#[test]
fn s3_4_short_hand_draws_up_to_three() {
    let mut game = one_card_left_after_contract();
    stack_number_deck(&mut game, &["1di", "2ch", "3ch", "4cl"]);
    act(&mut game, S0, take(&["5he"]));
    act(&mut game, S0, complete(1, &["4he", "4cl", "4di", "4ch"]));
    assert_eq!(game.seats[0].hand, cards(&["5he"]));
    act(&mut game, S0, Action::Pass);
    assert_eq!(game.number_market[0], Some(card("1di")), "the market is refilled first (step 3)");
    assert_eq!(game.seats[0].hand, cards(&["5he", "2ch", "3ch"]), "then the hand draws the next two (step 4)");
    assert_eq!(game.number_deck.last(), Some(&card("4cl")));
    assert_eq!(game.phase(), playing(S1, TurnStep::Take));
}

/// §3.4: a short hand reshuffles the discard pile when the deck runs out while it draws.
#[test]
fn s3_4_short_hand_reshuffles_the_discard_pile() {
    let mut game = new_game(2, 15);
    set_contract_market(&mut game, [Some(2), Some(1), Some(3), Some(4)]);
    give_hand(&mut game, S0, &["4he", "4he", "4di", "4cl"]);
    set_number_market(&mut game, [Some("5he"), Some("3cl"), Some("3di"), Some("3he"), Some("2cl"), Some("1ch")]);
    stash_number_supply(&mut game, Stash::SuitBonus(S1));
    stack_number_deck(&mut game, &["1di"]);
    act(&mut game, S0, take(&["5he"]));
    act(&mut game, S0, complete(2, &["4he", "4he", "4di", "4cl"]));
    assert_eq!(game.discard_pile.iter().collect::<Cards>(), cards(&["4he", "4he", "4di"]), "#2 is a clover contract");
    let events = act(&mut game, S0, Action::Pass);
    assert_eq!(game.number_market[0], Some(card("1di")));
    let hand = game.seats[0].hand;
    assert_eq!(hand.len(), 3);
    let mut drawn = hand;
    assert!(drawn.remove(card("5he")));
    assert!(cards(&["4he", "4he", "4di"]).contains(&drawn), "drew {drawn:?} from the reshuffled discard pile");
    assert_eq!((game.number_deck.len(), game.discard_pile.len()), (1, 0));
    assert!(seen(&game, Viewer::Spectator, &events).contains(&VisibleEvent::Reshuffled { deck: 3 }));
}

/// §3.4: when no card is left anywhere, a short hand draws what there is: here one card, then none.
#[test]
fn s3_4_hand_that_cannot_be_refilled_draws_what_there_is() {
    for (deck, hand_after) in [(&["1ch", "1di"][..], &["5cl", "1di"][..]), (&["1ch"][..], &["5cl"][..])] {
        let mut game = new_game(2, 16);
        set_contract_market(&mut game, [Some(1), Some(2), Some(3), Some(4)]);
        give_hand(&mut game, S0, &["2he", "2he", "2he", "2he"]);
        set_number_market(&mut game, [Some("5cl"), Some("3cl"), Some("3di"), Some("3he"), Some("2cl"), Some("1he")]);
        stash_number_supply(&mut game, Stash::SuitBonus(S1));
        stack_number_deck(&mut game, deck);
        act(&mut game, S0, take(&["5cl"]));
        // All four hearts go to the suit bonus pile, so the discard pile stays empty.
        act(&mut game, S0, complete(1, &["2he", "2he", "2he", "2he"]));
        assert!(game.discard_pile.is_empty());
        let events = act(&mut game, S0, Action::Pass);
        assert_eq!(game.number_market[0], Some(card("1ch")));
        assert_eq!(game.seats[0].hand, cards(hand_after));
        assert!(game.number_deck.is_empty() && game.discard_pile.is_empty());
        let drew: Vec<VisibleEvent> = seen(&game, Viewer::Spectator, &events)
            .into_iter()
            .filter(|e| matches!(e, VisibleEvent::Drew { .. }))
            .collect();
        let expected: Vec<VisibleEvent> =
            if deck.len() == 2 { vec![VisibleEvent::Drew { seat: S0, count: 1, cards: None }] } else { Vec::new() };
        assert_eq!(drew, expected);
        assert_eq!(game.phase(), playing(S1, TurnStep::Take));
    }
}

// ---------------------------------------------------------------------------------------------------
// §4 End of the game
// ---------------------------------------------------------------------------------------------------

/// Contracts to park in play areas: none of them is #1, which the tests complete.
const SPARE_CONTRACTS: [u8; 12] = [10, 14, 16, 17, 18, 19, 22, 24, 25, 28, 31, 33];

/// §4: the last round starts when a player reaches 7 contracts (2 players), 6 (3) or 5 (4), and not
/// one contract before; the game then ends when the turn would pass back to the first player.
#[test]
fn s4_last_round_target_by_player_count() {
    for (players, target) in [(2, 7), (3, 6), (4, 5)] {
        assert_eq!(contract_target(players), target);
        for reaches in [true, false] {
            let last = Seat(players as u8 - 1);
            let mut game = new_game(players, 17);
            assert_eq!(game.view(Viewer::Spectator).contract_target, target);
            set_contract_market(&mut game, [Some(1), Some(2), Some(3), Some(4)]);
            let parked = if reaches { target - 1 } else { target - 2 };
            give_contracts(&mut game, last, &SPARE_CONTRACTS[..parked]);
            give_hand(&mut game, last, &["2he", "2he", "2cl", "2di"]);
            set_to_act(&mut game, last, TurnStep::Contracts);
            assert!(!game.is_last_round());
            let events = act(&mut game, last, complete(1, &["2he", "2he", "2cl", "2di"]));
            assert_eq!(game.is_last_round(), reaches, "{players} players, {} contracts", parked + 1);
            assert_eq!(game.view(Viewer::Spectator).last_round, reaches);
            let started = seen(&game, Viewer::Spectator, &events).contains(&VisibleEvent::LastRound { started: true });
            assert_eq!(started, reaches);
            act(&mut game, last, Action::Pass);
            if reaches {
                assert_eq!(game.phase(), Phase::Over { ended_by: EndReason::Contracts });
            } else {
                assert_eq!(game.phase(), playing(S0, TurnStep::Take));
            }
        }
    }
}

/// §4: the last round is played to its end: the seats after the one that reached the target still play,
/// and the game ends just before the first player (here seat 2 of 4) would play again.
#[test]
fn s4_last_round_ends_when_the_turn_would_pass_back_to_the_first_player() {
    let mut game = new_game(4, 18);
    set_first_player(&mut game, S2);
    set_contract_market(&mut game, [Some(1), Some(2), Some(3), Some(4)]);
    give_contracts(&mut game, S3, &SPARE_CONTRACTS[..4]);
    give_hand(&mut game, S3, &["2he", "2he", "2cl", "2di"]);
    set_number_market(&mut game, [Some("5ch"), Some("5di"), Some("5he"), Some("5cl"), Some("3ch"), Some("3di")]);
    set_to_act(&mut game, S3, TurnStep::Take);
    act(&mut game, S3, take(&["5ch"]));
    act(&mut game, S3, complete(1, &["2he", "2he", "2cl", "2di"]));
    act(&mut game, S3, Action::Pass);
    assert!(game.is_last_round());
    assert_eq!(game.phase(), playing(S0, TurnStep::Take), "seat 3 was not the last seat of the round");
    act(&mut game, S0, take(&["5di"]));
    act(&mut game, S0, Action::Pass);
    assert_eq!(game.phase(), playing(S1, TurnStep::Take));
    act(&mut game, S1, take(&["5he"]));
    let events = act(&mut game, S1, Action::Pass);
    assert_eq!(game.phase(), Phase::Over { ended_by: EndReason::Contracts });
    assert!(game.is_over() && game.to_act().is_none());
    let result = game.result().expect("a finished game has a result");
    assert_eq!(result.ended_by, EndReason::Contracts);
    assert!(seen(&game, Viewer::Spectator, &events).contains(&VisibleEvent::GameOver { result }));
    for seat in [S0, S1, S2, S3] {
        assert!(game.legal_actions(seat).is_empty());
        refuse(&mut game, seat, Action::Pass, "game_over", "§4");
    }
}

/// §4: the game ends at the end of a turn after which the number market is empty.
#[test]
fn s4_game_ends_when_the_number_market_is_empty() {
    let mut game = new_game(2, 19);
    set_number_market(&mut game, [Some("1ch"), Some("1di"), None, None, None, None]);
    stash_number_supply(&mut game, Stash::Hand(S1));
    act(&mut game, S0, take(&["1ch", "1di"]));
    assert_eq!(game.phase(), playing(S0, TurnStep::Contracts), "the turn goes on with an empty market");
    act(&mut game, S0, Action::Pass);
    assert_eq!(game.phase(), Phase::Over { ended_by: EndReason::Market });
    assert_eq!(game.result().map(|r| r.ended_by), Some(EndReason::Market));
    refuse(&mut game, S1, take(&["1ch"]), "game_over", "§4");
    assert!(game.legal_actions(S1).is_empty());
}

/// §4: the game ends at the end of a turn after which the contract market is empty, even while the
/// last round is on and the next seat is not the first player.
#[test]
fn s4_game_ends_when_the_contract_market_is_empty() {
    let mut game = at_contract_step(&["2he", "2he", "2cl", "2di"], [Some(1), None, None, None]);
    stash_contract_deck(&mut game, S1);
    act(&mut game, S0, complete(1, &["2he", "2he", "2cl", "2di"]));
    act(&mut game, S0, Action::Pass);
    assert_eq!(game.phase(), Phase::Over { ended_by: EndReason::Market });
}

// ---------------------------------------------------------------------------------------------------
// §5 Scoring
// ---------------------------------------------------------------------------------------------------

/// Ends a 2-player game whose seat 0 is the first player: seat 1 passes its contract step, so the last
/// round (which the position must have started) is over.
fn end_by_last_round(game: &mut Game) -> GameResult {
    assert!(game.is_last_round());
    set_to_act(game, S1, TurnStep::Contracts);
    act(game, S1, Action::Pass);
    assert_eq!(game.phase(), Phase::Over { ended_by: EndReason::Contracts });
    game.result().expect("the game is over")
}

fn breakdown(seat: Seat, contracts: u32, trophies: u32, suit_bonus: u32, star: u32) -> ScoreBreakdown {
    ScoreBreakdown { seat, total: contracts + trophies + suit_bonus + star, contracts, trophies, suit_bonus, star }
}

/// §5: contract points, suit trophies (counting contracts of the suit; a tie for the most awards nobody),
/// one point per suit bonus card, one for an unused Star; the highest total wins.
#[test]
fn s5_suit_trophies_ties_award_nobody() {
    let mut game = new_game(2, 20);
    set_trophies(&mut game, [Trophy::Cherries, Trophy::Hearts, Trophy::Clovers, Trophy::Diamonds]);
    // Seat 0: hearts 1, clovers 2, diamonds 2, cherries 2; 2+2+2+4+1+1+1 = 13 points.
    give_contracts(&mut game, S0, &[1, 2, 3, 4, 23, 24, 25]);
    // Seat 1: hearts 3, clovers 1, diamonds 1, cherries 2; 4+4+4+1+3+3+3 = 22 points.
    give_contracts(&mut game, S1, &[5, 6, 7, 12, 26, 27, 28]);
    set_contract_market(&mut game, [Some(29), Some(30), Some(31), Some(32)]);
    give_suit_bonus(&mut game, S0, &["2he", "3cl"]);
    give_suit_bonus(&mut game, S1, &[]);
    use_star(&mut game, S0);
    let leaders = TrophyWinners([
        (Trophy::Cherries, None),
        (Trophy::Hearts, Some(S1)),
        (Trophy::Clovers, Some(S0)),
        (Trophy::Diamonds, Some(S0)),
    ]);
    assert_eq!(game.trophy_winners(), leaders);
    assert_eq!(game.view(Viewer::Spectator).trophy_leaders, leaders);
    let result = end_by_last_round(&mut game);
    assert_eq!(result.trophy_winners, leaders);
    assert_eq!(result.scores, vec![breakdown(S0, 13, 6, 2, 0), breakdown(S1, 22, 3, 0, 1)]);
    assert_eq!(result.scores[0].total, 21);
    assert_eq!(result.winners, vec![S1], "26 beats 21, whatever the suit bonus piles");
}

/// §5, §1.2: combo trophies count size icons, so #7 (set2 + set2 + set2) counts three 2-icons.
#[test]
fn s5_combo_trophies_count_size_icons() {
    let mut game = new_game(2, 21);
    set_trophies(&mut game, [Trophy::Combo2, Trophy::Combo3, Trophy::Combo4, Trophy::Combo5]);
    // Seat 0: #7 (2,2,2), #11 (2,2), #35 (3,5), #4 (5): five 2s on two cards, one 3, no 4, two 5s.
    give_contracts(&mut game, S0, &[7, 11, 35, 4]);
    // Seat 1: #20 #21 #22 (2,3 each), #26 #27 (5), #29 (3,4), #2 (4): three 2s on three cards, four 3s,
    // two 4s, two 5s.
    give_contracts(&mut game, S1, &[20, 21, 22, 26, 27, 29, 2]);
    set_contract_market(&mut game, [Some(30), Some(31), Some(32), Some(33)]);
    give_suit_bonus(&mut game, S0, &[]);
    give_suit_bonus(&mut game, S1, &[]);
    let leaders = TrophyWinners([
        (Trophy::Combo2, Some(S0)),
        (Trophy::Combo3, Some(S1)),
        (Trophy::Combo4, Some(S1)),
        (Trophy::Combo5, None),
    ]);
    assert_eq!(game.trophy_winners(), leaders);
    let result = end_by_last_round(&mut game);
    assert_eq!(result.trophy_winners, leaders);
    assert_eq!(result.scores, vec![breakdown(S0, 18, 5, 0, 1), breakdown(S1, 20, 7, 0, 1)]);
    assert_eq!(result.winners, vec![S1]);
}

/// §5.2 with three players: a tie between the two leaders awards nobody even though the third has
/// fewer; a single leader wins; with no icon anywhere nobody wins. Trophies as they stand are public.
#[test]
fn s5_trophy_tie_between_two_of_three_players_awards_nobody() {
    let mut game = new_game(3, 33);
    set_trophies(&mut game, [Trophy::Cherries, Trophy::Hearts, Trophy::Clovers, Trophy::Diamonds]);
    give_contracts(&mut game, S0, &[4, 7, 1]); // cherries 2, hearts 1
    give_contracts(&mut game, S1, &[9, 14, 5, 12]); // cherries 2, hearts 2
    give_contracts(&mut game, S2, &[18, 2]); // cherries 1, clovers 1
    let leaders = TrophyWinners([
        (Trophy::Cherries, None),
        (Trophy::Hearts, Some(S1)),
        (Trophy::Clovers, Some(S2)),
        (Trophy::Diamonds, None),
    ]);
    assert_eq!(game.trophy_winners(), leaders);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.trophy_leaders, leaders);
    let trophies: Vec<u32> = view.seats.iter().map(|seat| seat.score.trophies).collect();
    assert_eq!(trophies, vec![0, 3, 3]);
}

/// A 2-player game that ends by the number market (§4) with the same contract points for both seats
/// (16, one contract of each suit, so no suit trophy is won) and the given suit bonus piles and Stars.
fn equal_contracts_game(bonus: [&[&str]; 2], star_used: [bool; 2]) -> Game {
    let mut game = new_game(2, 22);
    set_trophies(&mut game, [Trophy::Cherries, Trophy::Hearts, Trophy::Clovers, Trophy::Diamonds]);
    give_contracts(&mut game, S0, &[5, 6, 17, 4]);
    give_contracts(&mut game, S1, &[15, 8, 31, 21]);
    for (seat, pile) in [S0, S1].into_iter().zip(bonus) {
        give_suit_bonus(&mut game, seat, pile);
    }
    for (seat, used) in [S0, S1].into_iter().zip(star_used) {
        if used {
            use_star(&mut game, seat);
        }
    }
    set_number_market(&mut game, [Some("1ch"), None, None, None, None, None]);
    stash_number_supply(&mut game, Stash::Hand(S1));
    act(&mut game, S0, take(&["1ch"]));
    act(&mut game, S0, Action::Pass);
    assert_eq!(game.phase(), Phase::Over { ended_by: EndReason::Market });
    game
}

/// §5: equal totals and equal suit bonus piles share the win.
#[test]
fn s5_shared_win() {
    let game = equal_contracts_game([&["2he"], &["2cl"]], [false, false]);
    let result = game.result().expect("over");
    assert!(result.trophy_winners.0.iter().all(|(_, winner)| winner.is_none()));
    assert_eq!(result.scores, vec![breakdown(S0, 16, 0, 1, 1), breakdown(S1, 16, 0, 1, 1)]);
    assert_eq!(result.winners, vec![S0, S1]);
}

/// §5: equal totals are broken by the larger suit bonus pile, whichever seat holds it.
#[test]
fn s5_tie_broken_by_suit_bonus() {
    let game = equal_contracts_game([&["2he", "2cl"], &["2di"]], [true, false]);
    let result = game.result().expect("over");
    assert_eq!(result.scores, vec![breakdown(S0, 16, 0, 2, 0), breakdown(S1, 16, 0, 1, 1)]);
    assert_eq!(result.winners, vec![S0]);

    let game = equal_contracts_game([&["2di"], &["2he", "2cl"]], [false, true]);
    let result = game.result().expect("over");
    assert_eq!(result.scores[0].total, result.scores[1].total);
    assert_eq!(result.winners, vec![S1]);
}

// ---------------------------------------------------------------------------------------------------
// §6 What each person may see
// ---------------------------------------------------------------------------------------------------

/// §6: a spectator's view has no hand and no suit bonus pile, and no seat's suit bonus or full total.
#[test]
fn s6_spectator_view_has_no_hand_and_no_suit_bonus() {
    let mut game = new_game(3, 23);
    give_suit_bonus(&mut game, S1, &["2he", "2he"]);
    let view = game.view(Viewer::Spectator);
    assert_eq!((view.hand, view.suit_bonus), (None, None));
    for seat in &view.seats {
        assert_eq!((seat.score.suit_bonus, seat.score.total), (None, None));
        assert_eq!(seat.score.public_total, seat.score.contracts + seat.score.trophies + seat.score.star);
        assert_eq!(seat.hand_size, game.seats[seat.seat.index()].hand.len(), "hand sizes are public");
    }
    let json = serde_json::to_string(&view).expect("a view serializes");
    for key in ["\"hand\"", "\"suit_bonus\"", "\"total\""] {
        assert!(!json.contains(key), "{key} in {json}");
    }
    set_to_act(&mut game, S2, TurnStep::Take);
    assert_eq!(game.view(Viewer::Spectator).phase, playing(S2, TurnStep::Take), "whose turn it is is public");
}

/// §6: a seat's view holds its own hand and suit bonus pile and its own full score, nobody else's.
#[test]
fn s6_seat_view_shows_its_own_hand_only() {
    let mut game = new_game(3, 24);
    give_suit_bonus(&mut game, S0, &["3he"]);
    give_suit_bonus(&mut game, S1, &["2he", "2he"]);
    for me in [S0, S1, S2] {
        let view = game.view(Viewer::Seat(me));
        let state = &game.seats[me.index()];
        assert_eq!((view.hand, view.suit_bonus), (Some(state.hand), Some(state.suit_bonus)));
        for seat in &view.seats {
            let mine = seat.seat == me;
            let bonus = game.seats[seat.seat.index()].suit_bonus.len() as u32;
            assert_eq!(seat.score.suit_bonus, mine.then_some(bonus), "{me} looking at {}", seat.seat);
            assert_eq!(seat.score.total, mine.then_some(seat.score.public_total + bonus));
        }
    }
    assert_eq!(game.view(Viewer::Seat(Seat(7))).hand, None, "a seat that is not at the table sees no hand");
}

/// §6: hands and suit bonus piles never show in another viewer's view or events, even after a turn is
/// played: every copy of 1ch is in seat 1's hand and every 5ch in seat 2's suit bonus pile.
#[test]
fn s6_private_cards_never_reach_other_viewers() {
    let mut game = new_game(3, 25);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), Some("2cl")]);
    give_hand(&mut game, S1, &["1ch", "1ch", "1ch", "1ch"]);
    give_suit_bonus(&mut game, S2, &["5ch", "5ch", "5ch", "5ch"]);
    act(&mut game, S0, take(&["3he", "3cl", "3di"]));
    act(&mut game, S0, Action::Pass);
    for viewer in viewers(&game) {
        let view = serde_json::to_string(&game.view(viewer)).expect("a view serializes");
        let events: Vec<VisibleEvent> = game.events_for(viewer, 0).map(|(_, e)| e).collect();
        let seen = view + &serde_json::to_string(&events).expect("events serialize");
        assert_eq!(seen.contains("1ch"), viewer == Viewer::Seat(S1), "{viewer:?}");
        assert_eq!(seen.contains("5ch"), viewer == Viewer::Seat(S2), "{viewer:?}");
    }
}

/// §6: the suit bonus piles (and so the totals) are revealed to everybody once the game is over.
#[test]
fn s6_public_score_hides_suit_bonus_until_the_end() {
    let mut game = new_game(2, 26);
    give_suit_bonus(&mut game, S1, &["2he", "2cl"]);
    set_number_market(&mut game, [Some("1ch"), None, None, None, None, None]);
    stash_number_supply(&mut game, Stash::Hand(S1));
    for viewer in [Viewer::Spectator, Viewer::Seat(S0)] {
        let score = game.view(viewer).seats[1].score;
        assert_eq!((score.suit_bonus, score.total), (None, None));
    }
    assert_eq!(game.view(Viewer::Seat(S1)).seats[1].score.suit_bonus, Some(2));
    act(&mut game, S0, take(&["1ch"]));
    act(&mut game, S0, Action::Pass);
    let result = game.result().expect("the market is empty: the game is over");
    for viewer in viewers(&game) {
        let view = game.view(viewer);
        assert_eq!(view.result.as_ref(), Some(&result));
        for (seat, score) in view.seats.iter().zip(&result.scores) {
            assert_eq!((seat.score.suit_bonus, seat.score.total), (Some(score.suit_bonus), Some(score.total)));
        }
        assert_eq!(view.seats[1].score.suit_bonus, Some(2));
    }
}

/// §6: cards drawn into a short hand and cards discarded for the hand limit are shown to their owner;
/// the others learn how many.
#[test]
fn s6_drawn_and_discarded_cards_are_shown_only_to_their_owner() {
    let mut game = one_card_left_after_contract();
    stack_number_deck(&mut game, &["1di", "2ch", "3ch"]);
    act(&mut game, S0, take(&["5he"]));
    act(&mut game, S0, complete(1, &["4he", "4cl", "4di", "4ch"]));
    let events = act(&mut game, S0, Action::Pass);
    let drew = |viewer| seen(&game, viewer, &events).into_iter().find(|e| matches!(e, VisibleEvent::Drew { .. }));
    let secret = Some(cards(&["2ch", "3ch"]));
    assert_eq!(drew(Viewer::Seat(S0)), Some(VisibleEvent::Drew { seat: S0, count: 2, cards: secret }));
    for viewer in [Viewer::Seat(S1), Viewer::Spectator] {
        assert_eq!(drew(viewer), Some(VisibleEvent::Drew { seat: S0, count: 2, cards: None }));
    }

    let mut game = nine_card_hand();
    act(&mut game, S0, take(&["3he", "3cl", "3di"]));
    act(&mut game, S0, Action::Pass);
    let events = act(&mut game, S0, discard(&["1cl", "2ch"]));
    let discarded =
        |viewer| seen(&game, viewer, &events).into_iter().find(|e| matches!(e, VisibleEvent::Discarded { .. }));
    let secret = Some(cards(&["1cl", "2ch"]));
    assert_eq!(discarded(Viewer::Seat(S0)), Some(VisibleEvent::Discarded { seat: S0, count: 2, cards: secret }));
    for viewer in [Viewer::Seat(S1), Viewer::Spectator] {
        assert_eq!(discarded(viewer), Some(VisibleEvent::Discarded { seat: S0, count: 2, cards: None }));
    }
}

/// §6: the order of both decks is hidden from everybody: two games that differ only in deck order look
/// the same to every viewer, before and after a turn.
#[test]
fn s6_deck_order_is_hidden_from_everybody() {
    let mut a = new_game(3, 27);
    let mut b = a.clone();
    let bottom = b.number_deck[0];
    let other = b.number_deck.iter().position(|&c| c != bottom).expect("the deck holds different cards");
    b.number_deck.swap(0, other);
    b.contract_deck.swap(0, 1);
    assert_ne!((&a.number_deck, &a.contract_deck), (&b.number_deck, &b.contract_deck));
    for game in [&mut a, &mut b] {
        let first_take = game.legal_actions(S0)[0];
        act(game, S0, first_take);
        act(game, S0, Action::Pass);
    }
    for viewer in viewers(&a) {
        assert_eq!(a.view(viewer), b.view(viewer));
        assert!(a.events_for(viewer, 0).eq(b.events_for(viewer, 0)));
    }
    assert_eq!(format!("{a:?}"), format!("{b:?}"), "a game printed to a log shows no deck either");
}

/// §6: once the game is over everything may be revealed: the record holds the initial deck orders and
/// replays to the same game; before the end there is no record.
#[test]
fn s6_everything_is_revealed_at_the_end() {
    let meta = || RecordMeta {
        id: uuid::Uuid::nil(),
        started_at: time::OffsetDateTime::UNIX_EPOCH,
        finished_at: time::OffsetDateTime::UNIX_EPOCH,
        names: vec!["Ana".to_owned(), "Bo".to_owned()],
        shuffle: None,
    };
    let mut game = Game::new(2, 28).expect("2 players");
    assert_eq!(game.record(meta()).err(), Some(ExportError::NotOver));
    RandomPlayer::new(3).play_out(&mut game);
    let record = game.record(meta()).expect("a finished game exports");
    assert_eq!((&record.number_deck, &record.contract_deck), (&game.setup.number_deck, &game.setup.contract_deck));
    let replayed = record.verify().expect("the record replays");
    assert_eq!(position(&replayed), position(&game));
}

// ---------------------------------------------------------------------------------------------------
// §7 Taking back a move
// ---------------------------------------------------------------------------------------------------

/// §7: the take can be taken back: the cards return to their market slots and the turn starts over,
/// with nothing of the take left in the log.
#[test]
fn s7_take_back_the_take() {
    let mut game = new_game(2, 29);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), Some("1ch")]);
    let before = position(&game);
    act(&mut game, S0, take(&["3he", "4he", "5he"]));
    assert!(game.can_take_back() && game.view(Viewer::Spectator).can_take_back);
    let events = act(&mut game, S0, Action::TakeBack);
    assert_eq!(position(&game), before);
    let back = VisibleEvent::TookBack { seat: S0, contract: None, cards: cards(&["3he", "4he", "5he"]), star: false };
    assert!(seen(&game, Viewer::Spectator, &events).contains(&back));
    assert!(!game.can_take_back());
    refuse(&mut game, S0, Action::TakeBack, "wrong_step", "§7");
    act(&mut game, S0, take(&["3he", "3cl", "3di"]));
    assert_eq!(game.log.len(), before.log.len() + 1);
    assert_eq!(game.log.last(), Some(&LogEntry::Take { seat: S0, cards: cards(&["3he", "3cl", "3di"]) }));
}

/// §7: contracts are taken back one at a time, last first, then the take; the Star comes back with the
/// contract that used it, the cards go back to the hand (from the suit bonus and discard piles) and the
/// contract to its slot.
#[test]
fn s7_take_back_contracts_one_at_a_time() {
    let mut game = new_game(2, 30);
    set_contract_market(&mut game, [Some(1), Some(20), Some(2), Some(3)]);
    give_hand(&mut game, S0, &["4he", "4cl", "4di", "4ch", "2di", "2cl", "5di", "5ch"]);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("1he"), Some("5he"), Some("1ch")]);
    let start = position(&game);
    act(&mut game, S0, take(&["1he"]));
    let taken = position(&game);
    act(&mut game, S0, complete(1, &["4he", "4cl", "4di", "4ch"]));
    let one_contract = position(&game);
    act(&mut game, S0, complete_star(20, &["2di", "2cl", "5di", "5ch"]));
    assert!(game.seats[0].star_used);
    assert_eq!(game.seats[0].suit_bonus, cards(&["4he", "2di", "5di"]));
    assert_eq!(game.contract_market, [None, None, Some(contract(2)), Some(contract(3))]);

    let events = act(&mut game, S0, Action::TakeBack);
    assert_eq!(position(&game), one_contract, "only the last contract is taken back");
    assert!(!game.seats[0].star_used, "the Star comes back");
    let back = VisibleEvent::TookBack {
        seat: S0,
        contract: Some(contract(20)),
        cards: cards(&["2di", "2cl", "5di", "5ch"]),
        star: true,
    };
    assert!(seen(&game, Viewer::Spectator, &events).contains(&back));
    assert_eq!(game.phase(), playing(S0, TurnStep::Contracts));

    act(&mut game, S0, Action::TakeBack);
    assert_eq!(position(&game), taken);
    assert_eq!(game.phase(), playing(S0, TurnStep::Contracts));
    act(&mut game, S0, Action::TakeBack);
    assert_eq!(position(&game), start);
    assert_eq!(game.phase(), playing(S0, TurnStep::Take));
}

/// §7: once the turn has passed (the refill happened), nothing can be taken back, by anybody.
#[test]
fn s7_no_take_back_after_pass() {
    let mut game = new_game(2, 31);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), Some("1ch")]);
    act(&mut game, S0, take(&["3he"]));
    act(&mut game, S0, Action::Pass);
    assert!(!game.can_take_back() && !game.view(Viewer::Spectator).can_take_back);
    refuse(&mut game, S0, Action::TakeBack, "not_your_turn", "§3");
    refuse(&mut game, S1, Action::TakeBack, "wrong_step", "§7");
    let first_take = game.legal_actions(S1)[0];
    act(&mut game, S1, first_take);
    refuse(&mut game, S0, Action::TakeBack, "not_your_turn", "§3");
    assert!(game.legal_actions(S1).contains(&Action::TakeBack), "seat 1 may take back its own take");
}

/// §7: in a contract step with nothing done this turn there is nothing to take back.
#[test]
fn s7_nothing_to_take_back() {
    let mut game = at_contract_step(&["2he", "2he", "2cl", "2di"], [Some(1), Some(2), Some(3), Some(4)]);
    assert!(!game.legal_actions(S0).contains(&Action::TakeBack));
    refuse(&mut game, S0, Action::TakeBack, "nothing_to_take_back", "§7");
}

/// §7, §4: taking back the contract that started the last round calls the last round off, so the game
/// does not end when the turn passes back to the first player.
#[test]
fn s7_last_round_revoked_when_its_contract_is_taken_back() {
    let mut game = new_game(2, 32);
    set_contract_market(&mut game, [Some(1), Some(2), Some(3), Some(4)]);
    give_contracts(&mut game, S1, &SPARE_CONTRACTS[..6]);
    give_hand(&mut game, S1, &["2he", "2he", "2cl", "2di"]);
    set_number_market(&mut game, [Some("3he"), Some("3cl"), Some("3di"), Some("4he"), Some("5he"), Some("1ch")]);
    set_to_act(&mut game, S1, TurnStep::Take);
    act(&mut game, S1, take(&["1ch"]));
    act(&mut game, S1, complete(1, &["2he", "2he", "2cl", "2di"]));
    assert!(game.is_last_round() && game.view(Viewer::Spectator).last_round);

    // Without taking back, passing ends the game: seat 1 is the last seat before the first player.
    let mut kept = game.clone();
    act(&mut kept, S1, Action::Pass);
    assert_eq!(kept.phase(), Phase::Over { ended_by: EndReason::Contracts });

    let events = act(&mut game, S1, Action::TakeBack);
    assert!(!game.is_last_round() && !game.view(Viewer::Spectator).last_round);
    assert!(seen(&game, Viewer::Spectator, &events).contains(&VisibleEvent::LastRound { started: false }));
    act(&mut game, S1, Action::Pass);
    assert_eq!(game.phase(), playing(S0, TurnStep::Take));
}
