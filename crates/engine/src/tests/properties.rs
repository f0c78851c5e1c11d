//! Property tests over many random games.
//!
//! Every property plays random games. proptest draws a [`Plan`]: the game's seed, 2 to 4 players, the
//! seed of the action picker, and how often the picker passes early or takes back (§7). The picker then
//! chooses each action among [`Game::legal_actions`], so a failing case prints the plan that replays it.
//!
//! 1. Conservation (§1): after every action, each of the 92 number cards and 36 contracts is somewhere,
//!    exactly once.
//! 2. One source of truth (STYLE.md §3): an action is listed by `legal_actions` exactly when `check`,
//!    `is_legal` and `apply` accept it, and a refused action changes nothing.
//! 3. Every game ends (§4).
//! 4. Records (record-format.md) replay to the same result, abandoned games too, and a tampered record
//!    is refused.
//! 5. Determinism: the same seed and the same actions give the same views, events and record.
//! 6. Redaction (§6): no view or event carries a secret to someone else. Checked twice: by reading the
//!    JSON a viewer gets, and by changing hidden state and seeing that no other viewer's JSON changes.

use std::collections::HashSet;
use std::mem::discriminant;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::action::{Action, EndReason, Phase, Seat};
use crate::cards::{CARD_KINDS, Card, Cards};
use crate::contracts::{CONTRACT_COUNT, ContractId};
use crate::error::IllegalAction;
use crate::game::{Game, HAND_LIMIT, Shuffler, contract_target};
use crate::random::GameRng;
use crate::record::{EntryFault, LogEntry, Record, RecordMeta, ReplayError};
use crate::view::{Event, View, Viewer};

use super::support;

/// No game may take more actions than this to end (§4); random games take a few hundred.
const MAX_ACTIONS: usize = 5_000;

/// Everything that decides one random game.
#[derive(Clone, Copy, Debug)]
struct Plan {
    /// The game's seed ([`Game::new`]).
    seed: u64,
    /// 2 to 4.
    players: usize,
    /// The seed of the [`Picker`].
    picks: u64,
    /// How often, in percent, the picker passes at once in the contract step, so that hands grow and the
    /// hand limit and the reshuffles (§3 steps 3 and 4) come up.
    pass_percent: usize,
    /// How often, in percent, the picker takes back when it may (§7).
    take_back_percent: usize,
}

fn plans() -> impl Strategy<Value = Plan> {
    (any::<u64>(), 2usize..=4, any::<u64>(), 0usize..=70, prop_oneof![Just(0usize), 1usize..=30]).prop_map(
        |(seed, players, picks, pass_percent, take_back_percent)| Plan {
            seed,
            players,
            picks,
            pass_percent,
            take_back_percent,
        },
    )
}

/// No regression files: the crate's source tree belongs to its authors, and a failure prints its plan.
///
/// `ROMIRAMI_PROPTEST_FACTOR=N` in the environment runs every property N times as many cases, for a
/// soak run (`ROMIRAMI_PROPTEST_FACTOR=20 cargo test --release -p romirami-engine properties`).
fn config(cases: u32) -> ProptestConfig {
    let factor = std::env::var("ROMIRAMI_PROPTEST_FACTOR").ok().and_then(|f| f.parse::<u32>().ok()).unwrap_or(1);
    ProptestConfig {
        cases: cases.saturating_mul(factor.max(1)),
        failure_persistence: None,
        max_shrink_iters: 64,
        ..ProptestConfig::default()
    }
}

/// Picks legal actions at random, from its own seeded generator.
struct Picker {
    rng: GameRng,
    plan: Plan,
    legal: Vec<Action>,
}

impl Picker {
    fn new(plan: &Plan) -> Picker {
        Picker { rng: GameRng::from_seed(plan.picks), plan: *plan, legal: Vec::new() }
    }

    /// The seat to act and one of its legal actions; `None` when the game is over or nothing is listed.
    fn pick(&mut self, game: &Game) -> Option<(Seat, Action)> {
        let seat = game.to_act()?;
        game.legal_actions_into(seat, &mut self.legal);
        if self.legal.contains(&Action::TakeBack) && self.rng.below(100) < self.plan.take_back_percent {
            return Some((seat, Action::TakeBack));
        }
        if self.legal.contains(&Action::Pass) && self.rng.below(100) < self.plan.pass_percent {
            return Some((seat, Action::Pass));
        }
        self.legal.retain(|action| *action != Action::TakeBack);
        if self.legal.is_empty() {
            return None;
        }
        Some((seat, self.legal[self.rng.below(self.legal.len())]))
    }
}

fn new_game(plan: &Plan) -> Game {
    Game::new(plan.players, plan.seed).expect("plans have 2 to 4 players")
}

/// Plays the plan's game to its end (§4), which must come within [`MAX_ACTIONS`], calling `each` on the
/// dealt game and after every action. Returns the finished game and the actions applied, in order.
fn play(
    plan: &Plan,
    mut each: impl FnMut(&mut Game) -> Result<(), TestCaseError>,
) -> Result<(Game, Vec<(Seat, Action)>), TestCaseError> {
    let mut game = new_game(plan);
    let mut picker = Picker::new(plan);
    let mut actions = Vec::new();
    each(&mut game)?;
    while !game.is_over() {
        prop_assert!(
            actions.len() < MAX_ACTIONS,
            "§4: not over after {} actions, in {:?}",
            actions.len(),
            game.phase()
        );
        let Some((seat, action)) = picker.pick(&game) else {
            return Err(TestCaseError::fail(format!(
                "nothing is legal in {:?} after {} actions, yet the game goes on",
                game.phase(),
                actions.len()
            )));
        };
        if let Err(error) = game.apply(seat, &action) {
            return Err(TestCaseError::fail(format!("listed action {action:?} by {seat} refused: {error}")));
        }
        actions.push((seat, action));
        each(&mut game)?;
    }
    Ok((game, actions))
}

fn nothing(_: &mut Game) -> Result<(), TestCaseError> {
    Ok(())
}

fn viewers(game: &Game) -> Vec<Viewer> {
    std::iter::once(Viewer::Spectator).chain(game.seats_iter().map(Viewer::Seat)).collect()
}

/// Everything any viewer can learn of the game now.
fn views(game: &Game) -> Vec<View> {
    viewers(game).into_iter().map(|viewer| game.view(viewer)).collect()
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("views, events and records serialize")
}

// ---------------------------------------------------------------------------------------------------
// 1. Conservation
// ---------------------------------------------------------------------------------------------------

fn assert_conserved(game: &Game) -> Result<(), TestCaseError> {
    let (cards, contracts) = support::census(game);
    prop_assert_eq!(cards, Cards::full_deck(), "§1.1: the 92 number cards, each once, in {:?}", game.phase());
    prop_assert_eq!(contracts, [1u8; CONTRACT_COUNT], "§1.2: the 36 contracts, each once, in {:?}", game.phase());
    Ok(())
}

proptest! {
    #![proptest_config(config(600))]

    /// §1: nothing is created, lost or duplicated by any action or automatic step.
    #[test]
    fn p1_every_card_and_contract_is_somewhere_exactly_once(plan in plans()) {
        play(&plan, |game| assert_conserved(game))?;
    }
}

// ---------------------------------------------------------------------------------------------------
// 2. One source of truth for legality
// ---------------------------------------------------------------------------------------------------

/// What an action could change, to show that a refused one changed nothing.
#[derive(Debug, PartialEq)]
struct Snapshot {
    views: Vec<View>,
    event_count: usize,
    number_deck: Vec<Card>,
    contract_deck: Vec<ContractId>,
    discard_pile: Vec<Card>,
    seats: Vec<(Cards, Cards, Vec<ContractId>, bool)>,
    phase: Phase,
    log_len: usize,
    last_log: Option<LogEntry>,
    can_take_back: bool,
}

fn snapshot(game: &Game) -> Snapshot {
    Snapshot {
        views: views(game),
        event_count: game.event_count(),
        number_deck: game.number_deck.clone(),
        contract_deck: game.contract_deck.clone(),
        discard_pile: game.discard_pile.clone(),
        seats: game.seats.iter().map(|s| (s.hand, s.suit_bonus, s.contracts.clone(), s.star_used)).collect(),
        phase: game.phase,
        log_len: game.log.len(),
        last_log: game.log.last().cloned(),
        can_take_back: game.can_take_back(),
    }
}

fn random_card(rng: &mut GameRng) -> Card {
    Card::from_index(rng.below(CARD_KINDS))
}

/// `n` cards drawn at random from `pool` (all of it when it holds fewer).
fn some_of(rng: &mut GameRng, pool: &Cards, n: usize) -> Cards {
    let mut cards: Vec<Card> = pool.iter().collect();
    rng.shuffle(&mut cards);
    cards.into_iter().take(n).collect()
}

/// A random action by a random seat, mostly near-misses of legal ones: takes of 0 to 4 cards from the
/// market and outside it, completions of random contracts with random hand cards, with and without the
/// Star, discards, passes and take-backs, now and then by the wrong seat or a seat not at the table.
fn candidate(rng: &mut GameRng, game: &Game) -> (Seat, Action) {
    let players = game.players();
    let to_act = game.to_act().unwrap_or(Seat(0));
    let seat = if rng.below(6) == 0 { Seat(rng.below(players + 2) as u8) } else { to_act };
    let hand = game.seats.get(seat.index()).map_or(Cards::EMPTY, |s| s.hand);
    let action = match rng.below(7) {
        0..=1 => {
            let n = rng.below(5);
            let from_market = rng.below(n + 1);
            let mut cards = some_of(rng, &game.number_market_cards(), from_market);
            for _ in from_market..n {
                cards.add(random_card(rng));
            }
            Action::Take { cards }
        }
        2..=4 => {
            let in_market: Vec<ContractId> = game.contract_market.iter().flatten().copied().collect();
            let contract = if !in_market.is_empty() && rng.below(4) != 0 {
                in_market[rng.below(in_market.len())]
            } else {
                ContractId::new(1 + rng.below(CONTRACT_COUNT) as u8).expect("1 to 36")
            };
            let star = rng.coin();
            let wanted = usize::from(contract.contract().card_count()) - usize::from(star);
            let n = if rng.below(4) == 0 { (wanted + rng.below(3)).saturating_sub(1) } else { wanted };
            let mut cards = some_of(rng, &hand, n);
            if rng.below(5) == 0 {
                let first = cards.iter().next();
                if let Some(card) = first {
                    cards.remove(card);
                }
                cards.add(random_card(rng));
            }
            Action::Complete { contract, cards, star }
        }
        5 => {
            let n = if rng.coin() { hand.len().saturating_sub(HAND_LIMIT) } else { rng.below(4) };
            let mut cards = some_of(rng, &hand, n);
            if rng.below(4) == 0 {
                cards.add(random_card(rng));
            }
            Action::Discard { cards }
        }
        _ => {
            if rng.coin() {
                Action::Pass
            } else {
                Action::TakeBack
            }
        }
    };
    (seat, action)
}

/// At one moment of a game: the listed actions are distinct and each one applies (on a copy); random
/// other actions are refused by `check`, `is_legal` and `apply` alike, and refusing changes nothing.
fn assert_one_source_of_truth(game: &mut Game, rng: &mut GameRng, candidates: usize) -> Result<(), TestCaseError> {
    for seat in (0..game.players() as u8 + 1).map(Seat) {
        if Some(seat) != game.to_act() {
            prop_assert!(game.legal_actions(seat).is_empty(), "{} is not to act but has legal actions", seat);
        }
    }
    let legal = game.to_act().map(|seat| game.legal_actions(seat)).unwrap_or_default();
    let listed: HashSet<Action> = legal.iter().copied().collect();
    prop_assert_eq!(listed.len(), legal.len(), "legal_actions lists an action twice");
    prop_assert_eq!(legal.is_empty(), game.is_over(), "only a finished game has no legal action");
    if let Some(seat) = game.to_act() {
        for action in &legal {
            prop_assert_eq!(game.check(seat, action), Ok(()), "listed {:?} refused by check", action);
            prop_assert!(game.is_legal(seat, action), "listed {:?} refused by is_legal", action);
            let mut copy = game.clone();
            let before = copy.event_count();
            let applied = copy.apply(seat, action);
            prop_assert_eq!(
                applied.map(|a| a.events),
                Ok(before..copy.event_count()),
                "listed {:?} refused by apply, or its events misnumbered",
                action
            );
            assert_conserved(&copy)?;
        }
    }
    let mut before = None;
    for _ in 0..candidates {
        let (seat, action) = candidate(rng, game);
        let is_listed = Some(seat) == game.to_act() && listed.contains(&action);
        let checked = game.check(seat, &action);
        prop_assert_eq!(checked.is_ok(), is_listed, "check and legal_actions disagree on {:?} by {}", action, seat);
        prop_assert_eq!(game.is_legal(seat, &action), is_listed, "is_legal and legal_actions disagree on {:?}", action);
        if game.is_over() {
            prop_assert_eq!(&checked, &Err(IllegalAction::GameOver));
        }
        if !is_listed {
            let before = before.get_or_insert_with(|| snapshot(game));
            let applied = game.apply(seat, &action);
            prop_assert_eq!(applied.map(|a| a.events), checked.map(|()| 0..0), "apply and check disagree");
            prop_assert_eq!(&snapshot(game), before, "refused {:?} by {} changed the game", action, seat);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(64))]

    /// STYLE.md §3: `legal_actions`, `check`, `is_legal` and `apply` are one definition of legality.
    #[test]
    fn p2_listed_actions_are_exactly_the_accepted_ones(plan in plans()) {
        let mut rng = GameRng::from_seed(plan.picks ^ 0x5eed);
        play(&plan, |game| assert_one_source_of_truth(game, &mut rng, 16))?;
    }
}

// ---------------------------------------------------------------------------------------------------
// 3. Every game ends
// ---------------------------------------------------------------------------------------------------

fn every_game_ends(plan: &Plan) -> Result<(), TestCaseError> {
    let (game, actions) = play(plan, nothing)?;
    prop_assert!(actions.len() < MAX_ACTIONS);
    prop_assert_eq!(game.to_act(), None);
    for seat in game.seats_iter() {
        prop_assert!(game.legal_actions(seat).is_empty(), "a finished game lists actions for {}", seat);
        prop_assert_eq!(game.check(seat, &Action::Pass), Err(IllegalAction::GameOver));
    }
    let result = game.result().expect("a finished game has a result");
    match game.phase() {
        Phase::Over { ended_by: EndReason::Contracts } => {
            let target = contract_target(game.players());
            prop_assert!(game.seats.iter().any(|s| s.contracts.len() >= target), "§4: ended by contracts");
            prop_assert!(!result.winners.is_empty());
        }
        Phase::Over { ended_by: EndReason::Market } => {
            prop_assert!(
                game.number_market.iter().all(Option::is_none) || game.contract_market.iter().all(Option::is_none),
                "§4: ended by an empty market, but both hold cards"
            );
            prop_assert!(!result.winners.is_empty());
        }
        other => prop_assert!(false, "a game left alone ends by the rules, not {:?}", other),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(600))]

    /// §4: every game ends, and for one of the two reasons of §4 that holds when it ends.
    #[test]
    fn p3_every_game_ends(plan in plans()) {
        every_game_ends(&plan)?;
    }
}

// ---------------------------------------------------------------------------------------------------
// 4. Records
// ---------------------------------------------------------------------------------------------------

fn meta(plan: &Plan) -> RecordMeta {
    RecordMeta {
        id: Uuid::from_u64_pair(plan.seed, plan.picks),
        started_at: OffsetDateTime::UNIX_EPOCH,
        finished_at: OffsetDateTime::UNIX_EPOCH + time::Duration::minutes(21),
        names: (0..plan.players).map(|seat| format!("player {seat}")).collect(),
        // The game's own seed: the record's shuffle proof must hold (`Record::check_shuffle`).
        shuffle: Some(crate::ShuffleProof::new(
            plan.seed,
            plan.picks.to_le_bytes().repeat(4).try_into().expect("32 bytes"),
        )),
    }
}

/// The record, written to JSON and read back, which must give the same record.
fn exported(game: &Game, plan: &Plan) -> Result<Record, TestCaseError> {
    let record = game.record(meta(plan)).map_err(|e| TestCaseError::fail(format!("export: {e}")))?;
    let text = json(&record);
    let parsed: Record =
        serde_json::from_str(&text).map_err(|e| TestCaseError::fail(format!("the record does not parse: {e}")))?;
    prop_assert_eq!(&parsed, &record, "the record changed on its way through JSON");
    Ok(parsed)
}

/// The replayed game is the played one, except for the events of moves taken back (§7), which a record
/// does not hold.
fn assert_same_position(replayed: &Game, game: &Game) -> Result<(), TestCaseError> {
    prop_assert_eq!(&replayed.log, &game.log);
    for viewer in viewers(game) {
        let mut mine = replayed.view(viewer);
        let mut theirs = game.view(viewer);
        mine.event_count = 0;
        theirs.event_count = 0;
        prop_assert_eq!(mine, theirs, "the replay's view for {:?} differs", viewer);
    }
    Ok(())
}

fn records_replay(plan: &Plan) -> Result<(), TestCaseError> {
    let (game, _) = play(plan, nothing)?;
    let record = exported(&game, plan)?;
    prop_assert!(record.result.ended_by != EndReason::Abandoned);
    let replayed = record.verify().map_err(|e| TestCaseError::fail(format!("verify: {e}")))?;
    prop_assert_eq!(replayed.result(), game.result());
    prop_assert_eq!(Some(record.result.clone()), game.result());
    assert_same_position(&replayed, &game)?;
    Ok(())
}

fn abandoned_games_replay(plan: &Plan, stop: u16) -> Result<(), TestCaseError> {
    let (finished, actions) = play(plan, nothing)?;
    let stop = actions.len() * usize::from(stop) / 65_536;
    let mut game = new_game(plan);
    for (seat, action) in &actions[..stop] {
        game.apply(*seat, action).map_err(|e| TestCaseError::fail(format!("replaying {action:?}: {e}")))?;
    }
    prop_assert!(!game.is_over());
    prop_assert_eq!(game.record(meta(plan)).err(), Some(crate::record::ExportError::NotOver));
    game.abandon();
    prop_assert_eq!(game.phase(), Phase::Over { ended_by: EndReason::Abandoned });
    let record = exported(&game, plan)?;
    prop_assert!(json(&record).contains(r#""ended_by":"abandoned""#));
    prop_assert!(record.result.winners.is_empty());
    let replayed = record.verify().map_err(|e| TestCaseError::fail(format!("verify: {e}")))?;
    prop_assert_eq!(replayed.result(), game.result());
    assert_same_position(&replayed, &game)?;
    // Claiming that the rules ended it is refused: the log stops before the end.
    let mut claimed = record.clone();
    claimed.result.ended_by = finished.result().expect("the whole game was played").ended_by;
    prop_assert!(matches!(claimed.verify(), Err(ReplayError::Unfinished(_))));
    Ok(())
}

proptest! {
    #![proptest_config(config(300))]

    /// record-format.md: a finished game's record replays, through JSON, to the same result and position.
    #[test]
    fn p4_records_replay_to_the_same_result(plan in plans()) {
        records_replay(&plan)?;
    }

    /// record-format.md: a game given up midway exports, and verifies, as `abandoned`.
    #[test]
    fn p4_abandoned_games_replay(plan in plans(), stop in any::<u16>()) {
        abandoned_games_replay(&plan, stop)?;
    }
}

/// Verifies a tampered record, which must fail; returns the error.
fn refused(record: &Record, what: &str) -> Result<ReplayError, TestCaseError> {
    match record.verify() {
        Ok(_) => Err(TestCaseError::fail(format!("a record with {what} verifies"))),
        Err(error) => Ok(error),
    }
}

fn tampered_records_are_refused(plan: &Plan, tamper: u64) -> Result<(), TestCaseError> {
    let (game, _) = play(plan, nothing)?;
    let record = exported(&game, plan)?;
    prop_assert!(record.verify().is_ok());
    let mut rng = GameRng::from_seed(tamper);
    let log = &record.log;

    // An entry dropped: the turn's steps no longer fit, a shuffle is missing, or the score differs.
    for _ in 0..3 {
        let index = rng.below(log.len());
        let mut tampered = record.clone();
        tampered.log.remove(index);
        refused(&tampered, &format!("entry {index} ({:?}) dropped", log[index]))?;
    }

    // A card of a take changed to one that is not in the market at that moment (§3 step 1).
    let takes: Vec<usize> = (0..log.len()).filter(|&i| matches!(log[i], LogEntry::Take { .. })).collect();
    let index = takes[rng.below(takes.len())];
    let LogEntry::Take { seat, cards } = log[index] else { unreachable!("takes holds take entries") };
    let mut prefix = record.clone();
    prefix.log.truncate(index);
    let before = prefix.replay().map_err(|e| TestCaseError::fail(format!("a prefix does not replay: {e}")))?;
    let market = before.number_market_cards();
    let absent: Vec<Card> = Card::all().filter(|&card| market.count(card) == 0).collect();
    let mut changed = cards;
    changed.remove(cards.iter().nth(rng.below(cards.len())).expect("a take holds a card"));
    changed.add(absent[rng.below(absent.len())]);
    let mut tampered = record.clone();
    tampered.log[index] = LogEntry::Take { seat, cards: changed };
    let error = refused(&tampered, &format!("take {index} changed to {changed}"))?;
    let not_in_market = EntryFault::Illegal(IllegalAction::NotInMarket { cards: changed });
    prop_assert_eq!(error, ReplayError::Entry { index, fault: not_in_market }, "take {} changed to {}", index, changed);

    // Two neighbouring entries of different kinds swapped.
    let swaps: Vec<usize> = (1..log.len()).filter(|&i| discriminant(&log[i - 1]) != discriminant(&log[i])).collect();
    let index = swaps[rng.below(swaps.len())];
    let mut tampered = record.clone();
    tampered.log.swap(index - 1, index);
    refused(&tampered, &format!("entries {} and {index} swapped", index - 1))?;

    // A shuffle that is not a permutation of the discard pile (§3 step 3).
    let shuffles: Vec<usize> = (0..log.len()).filter(|&i| matches!(log[i], LogEntry::Shuffle { .. })).collect();
    if !shuffles.is_empty() {
        let index = shuffles[rng.below(shuffles.len())];
        let LogEntry::Shuffle { order } = &log[index] else { unreachable!("shuffles holds shuffle entries") };
        let mut wrong_card = order.clone();
        let at = rng.below(order.len());
        wrong_card[at] = Card::from_index((order[at].index() + 1 + rng.below(CARD_KINDS - 1)) % CARD_KINDS);
        let mut one_short = order.clone();
        one_short.pop();
        for order in [wrong_card, one_short] {
            let mut tampered = record.clone();
            tampered.log[index] = LogEntry::Shuffle { order };
            let error = refused(&tampered, &format!("shuffle {index} changed"))?;
            prop_assert_eq!(error, ReplayError::Entry { index, fault: EntryFault::NotAPermutation });
        }
    }

    // A score, a trophy winner, the winners or the reason for the end changed (§5, §4).
    let seat = rng.below(record.result.scores.len());
    for part in 0..5 {
        let mut tampered = record.clone();
        let score = &mut tampered.result.scores[seat];
        *[&mut score.total, &mut score.contracts, &mut score.trophies, &mut score.suit_bonus, &mut score.star][part] +=
            1;
        let error = refused(&tampered, &format!("score part {part} of seat {seat} changed"))?;
        prop_assert!(matches!(error, ReplayError::ResultMismatch(_)), "{:?}", error);
    }
    let mut tampered = record.clone();
    let tile = rng.below(4);
    let winner = &mut tampered.result.trophy_winners.0[tile].1;
    *winner = match *winner {
        Some(Seat(s)) => {
            if rng.coin() {
                None
            } else {
                Some(Seat((s + 1) % plan.players as u8))
            }
        }
        None => Some(Seat(rng.below(plan.players) as u8)),
    };
    prop_assert!(matches!(refused(&tampered, "a trophy winner changed")?, ReplayError::ResultMismatch(_)));
    let mut tampered = record.clone();
    let first = tampered.result.winners[0];
    tampered.result.winners = vec![Seat((first.0 + 1) % plan.players as u8)];
    prop_assert!(matches!(refused(&tampered, "the winners changed")?, ReplayError::ResultMismatch(_)));
    let mut tampered = record.clone();
    tampered.result.ended_by = match record.result.ended_by {
        EndReason::Contracts => EndReason::Market,
        _ => EndReason::Contracts,
    };
    prop_assert!(matches!(refused(&tampered, "ended_by changed")?, ReplayError::ResultMismatch(_)));
    let mut tampered = record.clone();
    tampered.result.ended_by = EndReason::Abandoned;
    prop_assert!(matches!(refused(&tampered, "ended_by abandoned")?, ReplayError::NotAbandoned(_)));
    let mut tampered = record.clone();
    tampered.first_player = Seat((record.first_player.0 + 1) % plan.players as u8);
    refused(&tampered, "another first player")?;
    Ok(())
}

proptest! {
    #![proptest_config(config(150))]

    /// record-format.md: a checker refuses a record whose log or result was changed.
    #[test]
    fn p4_tampered_records_are_refused(plan in plans(), tamper in any::<u64>()) {
        tampered_records_are_refused(&plan, tamper)?;
    }
}

// ---------------------------------------------------------------------------------------------------
// 5. Determinism
// ---------------------------------------------------------------------------------------------------

fn same_seed_same_game(plan: &Plan) -> Result<(), TestCaseError> {
    let mut first = Vec::new();
    let (game, actions) = play(plan, |game| {
        first.push(views(game));
        Ok(())
    })?;
    let mut again = new_game(plan);
    let mut second = vec![views(&again)];
    for (seat, action) in &actions {
        again.apply(*seat, action).map_err(|e| TestCaseError::fail(format!("{action:?} refused: {e}")))?;
        second.push(views(&again));
    }
    prop_assert_eq!(first.len(), second.len());
    for (step, (one, two)) in first.iter().zip(&second).enumerate() {
        prop_assert_eq!(one, two, "the views differ after action {}", step);
    }
    for viewer in viewers(&game) {
        let events = |g: &Game| g.events_for(viewer, 0).map(|(n, e)| format!("{n} {}", json(&e))).collect::<Vec<_>>();
        prop_assert_eq!(events(&game), events(&again), "the events for {:?} differ", viewer);
    }
    prop_assert_eq!(json(&game.record(meta(plan)).expect("over")), json(&again.record(meta(plan)).expect("over")));
    Ok(())
}

proptest! {
    #![proptest_config(config(200))]

    /// A seed and a list of actions give the same game, view by view and event by event, and the same
    /// record: the engine keeps no hidden randomness or order of its own.
    #[test]
    fn p5_same_seed_and_actions_give_the_same_game(plan in plans()) {
        same_seed_same_game(&plan)?;
    }
}

// ---------------------------------------------------------------------------------------------------
// 6. Redaction
// ---------------------------------------------------------------------------------------------------

/// The card codes (`[1-5](ch|di|he|cl)`) in a text, as a multiset.
fn card_codes(text: &str) -> Cards {
    text.as_bytes()
        .windows(3)
        .filter_map(|w| std::str::from_utf8(w).ok())
        .filter(|w| w.as_bytes()[0].is_ascii_digit())
        .filter_map(|w| w.parse::<Card>().ok())
        .collect()
}

/// §6 by reading: each view holds exactly the cards its viewer may see (the number market, and for a
/// seat its own hand and suit bonus pile), other seats' suit bonus and total only once the game is over,
/// and each event exactly the cards that are shown at the table.
fn assert_views_redacted(game: &Game, events_seen: &mut usize) -> Result<(), TestCaseError> {
    let over = game.is_over();
    for viewer in viewers(game) {
        let text = json(&game.view(viewer));
        let value: serde_json::Value = serde_json::from_str(&text).expect("a view is JSON");
        let own = match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        };
        let mut may_see = game.number_market_cards();
        if let Some(seat) = own {
            may_see.add_all(&game.seats[seat.index()].hand);
            may_see.add_all(&game.seats[seat.index()].suit_bonus);
        }
        prop_assert_eq!(card_codes(&text), may_see, "the cards in the view of {:?}", viewer);
        prop_assert_eq!(value.get("hand").is_some(), own.is_some(), "hand key in the view of {:?}", viewer);
        prop_assert_eq!(value.get("suit_bonus").is_some(), own.is_some(), "suit_bonus key for {:?}", viewer);
        if own.is_none() && !over {
            for key in [r#""hand""#, r#""suit_bonus""#, r#""total""#] {
                prop_assert!(!text.contains(key), "the spectator's view holds {}: {}", key, text);
            }
        }
        let seats = value["seats"].as_array().expect("a view lists its seats");
        prop_assert_eq!(seats.len(), game.players());
        for (k, seat) in seats.iter().enumerate() {
            let sees = over || own == Some(Seat(k as u8));
            for key in ["suit_bonus", "total"] {
                prop_assert_eq!(
                    seat["score"].get(key).is_some(),
                    sees,
                    "{} of seat {} in the view of {:?}",
                    key,
                    k,
                    viewer
                );
            }
        }
    }
    for viewer in viewers(game) {
        for (n, visible) in game.events_for(viewer, *events_seen) {
            let text = json(&visible);
            let shown = match game.events[n] {
                Event::Took { cards, .. } | Event::Completed { cards, .. } | Event::TookBack { cards, .. } => cards,
                Event::NumberMarketRefilled { market } => market.iter().flatten().collect(),
                Event::Drew { seat, cards } | Event::Discarded { seat, cards } if viewer == Viewer::Seat(seat) => cards,
                _ => Cards::EMPTY,
            };
            prop_assert_eq!(card_codes(&text), shown, "event {} for {:?}: {}", n, viewer, text);
        }
    }
    *events_seen = game.event_count();
    Ok(())
}

/// Which hidden pile to change.
#[derive(Clone, Copy, Debug)]
enum Pile {
    Hand,
    SuitBonus,
}

fn pile(game: &mut Game, seat: Seat, pile: Pile) -> &mut Cards {
    let state = &mut game.seats[seat.index()];
    match pile {
        Pile::Hand => &mut state.hand,
        Pile::SuitBonus => &mut state.suit_bonus,
    }
}

/// Swaps a random card of a seat's pile with a card of another kind in `other` (the number deck or the
/// discard pile, chosen by `in_deck`); `None` when no such pair exists.
fn swap_with_stack(rng: &mut GameRng, game: &Game, seat: Seat, which: Pile, in_deck: bool) -> Option<Game> {
    let mut changed = game.clone();
    let cards: Vec<Card> = pile(&mut changed, seat, which).iter().collect();
    let card = *cards.get(rng.below(cards.len().max(1)))?;
    let stack = if in_deck { &mut changed.number_deck } else { &mut changed.discard_pile };
    let others: Vec<usize> = (0..stack.len()).filter(|&i| stack[i] != card).collect();
    let at = *others.get(rng.below(others.len().max(1)))?;
    let other = std::mem::replace(&mut stack[at], card);
    let held = pile(&mut changed, seat, which);
    held.remove(card);
    held.add(other);
    Some(changed)
}

/// Swaps a card of a seat's hand with one of another kind in its suit bonus pile.
fn swap_hand_and_bonus(rng: &mut GameRng, game: &Game, seat: Seat) -> Option<Game> {
    let mut changed = game.clone();
    let state = &mut changed.seats[seat.index()];
    let hand: Vec<Card> = state.hand.iter().collect();
    let card = *hand.get(rng.below(hand.len().max(1)))?;
    let bonus: Vec<Card> = state.suit_bonus.iter().filter(|&c| c != card).collect();
    let other = *bonus.get(rng.below(bonus.len().max(1)))?;
    state.hand.remove(card);
    state.hand.add(other);
    state.suit_bonus.remove(other);
    state.suit_bonus.add(card);
    Some(changed)
}

/// Changes the order of a deck (or the discard pile) so that it differs; `None` when it cannot.
fn reorder<T: Copy + PartialEq>(rng: &mut GameRng, items: &mut [T]) -> Option<()> {
    let before = items.to_vec();
    rng.shuffle(items);
    if items == before.as_slice() {
        let i = (1..items.len()).find(|&i| items[i] != items[0])?;
        items.swap(0, i);
    }
    Some(())
}

/// §6 by indistinguishability: copies of the game that differ only in what a viewer may not see give that
/// viewer byte-identical view JSON, while the owner of a changed pile sees the change; the game's `Debug`
/// text shows only market cards and is the same for every copy.
fn assert_hidden_state_is_invisible(game: &Game, rng: &mut GameRng) -> Result<(), TestCaseError> {
    if game.is_over() {
        return Ok(());
    }
    let debug = format!("{game:?}");
    prop_assert!(!debug.contains("hand") && !debug.contains("suit_bonus"), "Debug shows a pile: {}", debug);
    prop_assert_eq!(card_codes(&debug), game.number_market_cards(), "Debug shows cards off the market: {}", debug);
    let views: Vec<(Viewer, String)> = viewers(game).into_iter().map(|v| (v, json(&game.view(v)))).collect();

    let mut changes: Vec<(String, Option<Seat>, Game)> = Vec::new();
    for seat in game.seats_iter() {
        let tries = [
            ("hand <-> number deck", swap_with_stack(rng, game, seat, Pile::Hand, true)),
            ("hand <-> discard pile", swap_with_stack(rng, game, seat, Pile::Hand, false)),
            ("suit bonus <-> number deck", swap_with_stack(rng, game, seat, Pile::SuitBonus, true)),
            ("suit bonus <-> discard pile", swap_with_stack(rng, game, seat, Pile::SuitBonus, false)),
            ("hand <-> suit bonus", swap_hand_and_bonus(rng, game, seat)),
        ];
        for (what, changed) in tries {
            if let Some(changed) = changed {
                changes.push((format!("{what} of {seat}"), Some(seat), changed));
            }
        }
    }
    let mut changed = game.clone();
    if reorder(rng, &mut changed.number_deck).is_some() {
        changes.push(("number deck order".into(), None, changed));
    }
    let mut changed = game.clone();
    if reorder(rng, &mut changed.contract_deck).is_some() {
        changes.push(("contract deck order".into(), None, changed));
    }
    let mut changed = game.clone();
    let deck_kinds: Cards = changed.number_deck.iter().collect();
    if let Some(at) = changed.discard_pile.iter().position(|card| deck_kinds.count(*card) < deck_kinds.len() as u8) {
        let card = changed.discard_pile[at];
        let other = changed.number_deck.iter().position(|c| *c != card).expect("the deck holds another kind");
        std::mem::swap(&mut changed.discard_pile[at], &mut changed.number_deck[other]);
        changes.push(("discard pile <-> number deck".into(), None, changed));
    }
    let mut changed = game.clone();
    changed.shuffler = Shuffler::Random(GameRng::from_seed(rng.below(usize::MAX) as u64));
    changes.push(("generator state".into(), None, changed));

    for (what, victim, changed) in &changes {
        assert_conserved(changed)?;
        for (viewer, before) in &views {
            let after = json(&changed.view(*viewer));
            if victim.map(Viewer::Seat) == Some(*viewer) {
                prop_assert_ne!(&after, before, "{}: its owner does not see the change", what);
            } else {
                prop_assert_eq!(&after, before, "{} shows in the view of {:?}", what, viewer);
            }
        }
        prop_assert_eq!(&format!("{changed:?}"), &debug, "{} shows in Debug", what);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(60))]

    /// §6: the views and events each viewer gets hold exactly what that viewer may see.
    #[test]
    fn p6_views_and_events_hold_only_what_the_viewer_may_see(plan in plans()) {
        let mut events_seen = 0;
        play(&plan, |game| assert_views_redacted(game, &mut events_seen))?;
    }
}

proptest! {
    #![proptest_config(config(50))]

    /// §6: changing what a viewer may not see (another seat's hand or suit bonus pile, the deck orders,
    /// the discard pile's contents, the generator) changes nothing in that viewer's view.
    #[test]
    fn p6_hidden_state_does_not_reach_other_viewers(plan in plans()) {
        let mut rng = GameRng::from_seed(plan.picks ^ 0x6);
        play(&plan, |game| {
            if rng.below(4) == 0 {
                assert_hidden_state_is_invisible(game, &mut rng)?;
            }
            Ok(())
        })?;
    }
}
