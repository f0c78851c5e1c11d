//! "Pile": a tiny second game that exists only to show that the table, the store, the protocol and the
//! REST API seat any [`TableGame`] without knowing it. Two players take 1 to 3 counters in turn from a
//! pile; each holds a hidden card (1 to 9) dealt from the seed. When the pile is empty each scores the
//! counters they took plus their card, and 5 more for taking the last counter; the higher score wins.

use romirami_game::{
    AnalysisScale, Outcome, RecordMeta, RecordStep, Refusal, RefusalKind, Seat, SeatOutcome, TableGame, Viewer, places,
};
use serde::{Deserialize, Serialize};

/// The options: how many counters the pile starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PileOptions {
    pub(crate) pile: u32,
}

impl Default for PileOptions {
    fn default() -> Self {
        PileOptions { pile: 12 }
    }
}

/// The one kind of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum PileAction {
    Take { count: u32 },
}

/// What a viewer sees: the pile, what each took, and the cards they may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PileView {
    pub(crate) pile: u32,
    pub(crate) to_act: Option<Seat>,
    pub(crate) taken: Vec<u32>,
    /// Each seat's card when the viewer may see it: its own, or every card once the game is over.
    pub(crate) cards: Vec<Option<u8>>,
}

/// Something that happened, as a viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum PileEvent {
    Dealt { seat: Seat, card: Option<u8> },
    Took { seat: Seat, count: u32, left: u32 },
    Over { cards: Vec<u8>, scores: Vec<i64>, abandoned: bool },
}

/// The record: enough to deal and replay the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PileRecord {
    pub(crate) format: String,
    pub(crate) id: uuid::Uuid,
    #[serde(with = "time::serde::rfc3339")]
    pub(crate) finished_at: time::OffsetDateTime,
    /// The players' names in seat order (`players`, as in every record format of ours).
    pub(crate) players: Vec<String>,
    pub(crate) seed: u64,
    pub(crate) options: PileOptions,
    pub(crate) actions: Vec<(Seat, u32)>,
    pub(crate) abandoned: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Pile {
    seed: u64,
    options: PileOptions,
    pile: u32,
    cards: Vec<u8>,
    taken: Vec<u32>,
    last: Option<Seat>,
    to_act: Seat,
    over: bool,
    abandoned: bool,
    actions: Vec<(Seat, u32)>,
    /// Every event with the seat it is private to, if any.
    events: Vec<PileEvent>,
}

/// SplitMix64: a portable generator, enough for a toy.
fn card(seed: u64, seat: u64) -> u8 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(seat + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    u8::try_from(z % 9).unwrap_or(0) + 1
}

impl Pile {
    fn scores(&self) -> Vec<i64> {
        (0..2)
            .map(|i| {
                let bonus = if self.last == Some(Seat(i as u8)) && !self.abandoned { 5 } else { 0 };
                i64::from(self.taken[i]) + i64::from(self.cards[i]) + bonus
            })
            .collect()
    }

    fn end(&mut self) {
        self.over = true;
        self.events.push(PileEvent::Over {
            cards: self.cards.clone(),
            scores: self.scores(),
            abandoned: self.abandoned,
        });
    }
}

impl TableGame for Pile {
    type Options = PileOptions;
    type Action = PileAction;
    type View = PileView;
    type Event = PileEvent;
    type Result = Vec<i64>;
    type Record = PileRecord;

    const NAME: &'static str = "pile";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;

    fn check_options(options: &PileOptions, _: usize) -> Result<(), String> {
        if (1..=100).contains(&options.pile) { Ok(()) } else { Err("a pile has 1 to 100 counters".into()) }
    }

    fn new(players: usize, seed: u64, options: &PileOptions) -> Result<Pile, String> {
        if players != 2 {
            return Err("pile is for 2 players".into());
        }
        let cards = vec![card(seed, 0), card(seed, 1)];
        let events = (0..2).map(|i| PileEvent::Dealt { seat: Seat(i), card: Some(cards[i as usize]) }).collect();
        Ok(Pile {
            seed,
            options: *options,
            pile: options.pile,
            cards,
            taken: vec![0, 0],
            last: None,
            to_act: Seat(0),
            over: false,
            abandoned: false,
            actions: Vec::new(),
            events,
        })
    }

    fn to_act(&self) -> Option<Seat> {
        (!self.over).then_some(self.to_act)
    }

    fn check(&self, seat: Seat, action: &PileAction) -> Result<(), Refusal> {
        let PileAction::Take { count } = *action;
        if self.over {
            return Err(Refusal::new(RefusalKind::GameOver, "the game is over"));
        }
        if seat != self.to_act {
            return Err(Refusal::new(RefusalKind::NotYourTurn, format!("it is {}'s turn", self.to_act)));
        }
        if !(1..=3).contains(&count) || count > self.pile {
            return Err(Refusal::new(
                RefusalKind::Illegal,
                format!("take 1 to 3 counters, at most the {} left", self.pile),
            ));
        }
        Ok(())
    }

    fn apply(&mut self, seat: Seat, action: &PileAction) -> Result<(), Refusal> {
        TableGame::check(self, seat, action)?;
        let PileAction::Take { count } = *action;
        self.pile -= count;
        self.taken[seat.index()] += count;
        self.actions.push((seat, count));
        self.events.push(PileEvent::Took { seat, count, left: self.pile });
        if self.pile == 0 {
            self.last = Some(seat);
            self.end();
        } else {
            self.to_act = seat.next(2);
        }
        Ok(())
    }

    fn legal(&self, seat: Seat) -> Vec<PileAction> {
        (1..=3u32).map(|count| PileAction::Take { count }).filter(|a| TableGame::check(self, seat, a).is_ok()).collect()
    }

    fn bot(&self, seat: Seat) -> Option<PileAction> {
        let best = PileAction::Take { count: (self.pile % 4).max(1) };
        if TableGame::check(self, seat, &best).is_ok() { Some(best) } else { self.legal(seat).first().copied() }
    }

    /// The other seat's hidden card is drawn again from `seed` (1 to 9, as dealt).
    fn determinize(&self, seat: Seat, seed: u64) -> Pile {
        let mut world = self.clone();
        let other = 1 - seat.index();
        world.cards[other] = card(seed, other as u64);
        world
    }

    fn value(&self, seat: Seat, _: &Pile) -> f64 {
        let scores = self.scores();
        let (own, other) = (scores[seat.index()], scores[1 - seat.index()]);
        if own > other {
            1.0
        } else if own == other {
            0.5
        } else {
            0.0
        }
    }

    fn entry_for(&self, seat: Seat, action: &PileAction) -> Option<serde_json::Value> {
        let PileAction::Take { count } = *action;
        TableGame::check(self, seat, action).ok().map(|()| serde_json::json!([seat, count]))
    }

    /// The score's lead over the other seat's, in points.
    const ANALYSIS: AnalysisScale = AnalysisScale { unit: "points", thresholds: [1.0, 3.0, 6.0] };

    fn analysis_value(&self, seat: Seat, _: &Pile) -> f64 {
        let scores = self.scores();
        (scores[seat.index()] - scores[1 - seat.index()]) as f64
    }

    fn view(&self, viewer: Viewer) -> PileView {
        PileView {
            pile: self.pile,
            to_act: TableGame::to_act(self),
            taken: self.taken.clone(),
            cards: (0..2u8).map(|i| (self.over || viewer.is(Seat(i))).then(|| self.cards[i as usize])).collect(),
        }
    }

    fn event_count(&self) -> usize {
        self.events.len()
    }

    fn events_for(&self, viewer: Viewer, since: usize, limit: usize) -> Vec<(usize, PileEvent)> {
        self.events
            .iter()
            .enumerate()
            .skip(since)
            .take(limit)
            .map(|(n, event)| match event {
                PileEvent::Dealt { seat, .. } if !viewer.is(*seat) => (n, PileEvent::Dealt { seat: *seat, card: None }),
                other => (n, other.clone()),
            })
            .collect()
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn abandon(&mut self) {
        if !self.over {
            self.abandoned = true;
            self.end();
        }
    }

    fn result(&self) -> Option<Vec<i64>> {
        self.over.then(|| self.scores())
    }

    fn outcome(&self) -> Option<Outcome> {
        let scores = TableGame::result(self)?;
        let places = places(&scores, |a, b| a > b);
        let seats = scores
            .iter()
            .zip(places)
            .map(|(&score, place)| SeatOutcome {
                score,
                place,
                winner: !self.abandoned && place == 1,
                details: serde_json::json!({ "total": score }),
            })
            .collect();
        let ended_by = if self.abandoned { "abandoned" } else { "pile" };
        Some(Outcome { ended_by: ended_by.into(), seats })
    }

    fn record(&self, meta: RecordMeta) -> Result<PileRecord, String> {
        if !self.over {
            return Err("the game is not over".into());
        }
        Ok(PileRecord {
            format: "pile-record/1".into(),
            id: meta.id,
            finished_at: meta.finished_at,
            players: meta.names,
            seed: self.seed,
            options: self.options,
            actions: self.actions.clone(),
            abandoned: self.abandoned,
        })
    }

    fn replay_steps(record: &PileRecord, each: &mut dyn FnMut(RecordStep<'_, Pile>)) -> Result<Pile, String> {
        let mut game = <Pile as TableGame>::new(record.players.len(), record.seed, &record.options)?;
        for &(seat, count) in &record.actions {
            let action = PileAction::Take { count };
            each(RecordStep { before: &game, seat, action: &action, entry: serde_json::json!([seat, count]) });
            TableGame::apply(&mut game, seat, &action).map_err(|r| r.message)?;
        }
        if record.abandoned {
            TableGame::abandon(&mut game);
        }
        Ok(game)
    }
}
