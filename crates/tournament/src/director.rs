//! The director: a tournament's state and every change to it, with no I/O and no clock.
//!
//! It takes joins, withdrawals, pauses, finished games and the time, and answers with [`Effect`]s: open
//! these tables, and "I changed" (store me and tell the watchers). Its runner (in the server) carries
//! them out in that order: the director is stored before its tables open, and a table's id and deal
//! come from the tournament's secret and the table's number, so a runner that restarts opens exactly
//! the tables the stored director planned, never one twice, and reads the results of those that
//! finished meanwhile from the store.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use romirami_game::commitment::Contribution;

use crate::deals::{Deal, Secret};
use crate::pairing::{self, Met};
use crate::spec::{Format, Millis, Spec, Start};
use crate::standings::{self, Standing};
use crate::state::{Dealing, Entrant, Phase, PlayerKey, Round, SeatResult, Status, Table, TableKey};

/// Games in a row a player may leave to the bot before the director withdraws them.
pub const ABSENCES: u8 = 2;

/// What the runner does for the director.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Open this table and start its game at once: its players are seated, each is told "your table
    /// is ready".
    Open(OpenTable),
    /// The director changed: store it, then tell whoever follows the tournament.
    Changed,
}

/// A table to open.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenTable {
    /// Its id (the game's id too).
    pub table: TableKey,
    /// Its round.
    pub round: u32,
    /// Who sits where.
    pub seats: Vec<PlayerKey>,
    /// The deal, in a duplicate tournament (every table of the round the same).
    pub deal: Option<Deal>,
}

impl OpenTable {
    /// The table `table` of `round`, to open with the round's deal.
    fn of(round: &Round, table: &Table) -> OpenTable {
        OpenTable { table: table.id, round: round.n, seats: table.seats.clone(), deal: round.deal.clone() }
    }
}

/// Why the director refuses a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// Joining after the start (Swiss), or after the end.
    #[error("the tournament takes no more players")]
    Closed,
    /// Every place taken.
    #[error("the tournament is full")]
    Full,
    /// Already a player of it.
    #[error("you are already in this tournament")]
    AlreadyIn,
    /// Not a player of it (or no longer).
    #[error("you are not playing in this tournament")]
    NotIn,
    /// Pausing outside a running arena.
    #[error("only a running arena can be paused")]
    NotArena,
    /// A result that does not fit its table.
    #[error("a result for {0} seats does not fit the table")]
    BadResult(usize),
    /// A contribution when no round's deal awaits the player's.
    #[error("no deal of this tournament awaits your contribution")]
    NotDealing,
    /// A second contribution to the same deal.
    #[error("you already contributed to this round's deal")]
    AlreadyContributed,
}

/// A tournament, as its director keeps it (and the store, as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Director {
    /// Its spec.
    pub spec: Spec,
    secret: Secret,
    /// Where it stands.
    pub phase: Phase,
    /// Everyone who joined (and did not withdraw before the start), in the order they joined.
    pub players: Vec<Entrant>,
    /// Its rounds (an arena's pairings), in order.
    pub rounds: Vec<Round>,
    /// When it started.
    pub started_at: Option<Millis>,
    /// When the next Swiss round is paired (the countdown).
    pub next_round_at: Option<Millis>,
    /// How many tables it opened: the next table's number.
    tables_opened: u64,
}

impl Director {
    /// A new tournament that takes joins. `secret` is 32 fresh random bytes (it makes the deals).
    pub fn new(spec: Spec, secret: [u8; 32]) -> Director {
        Director {
            spec,
            secret: Secret(secret),
            phase: Phase::Waiting,
            players: Vec::new(),
            rounds: Vec::new(),
            started_at: None,
            next_round_at: None,
            tables_opened: 0,
        }
    }

    /// When an arena's window closes.
    pub fn ends_at(&self) -> Option<Millis> {
        match self.spec.format {
            Format::Arena { minutes } => Some(self.started_at? + u64::from(minutes) * self.spec.minute_ms),
            Format::Swiss { .. } => None,
        }
    }

    /// The standings now.
    pub fn standings(&self) -> Vec<Standing> {
        standings::standings(&self.spec.format, &self.players, &self.rounds)
    }

    /// The tables not finished yet.
    pub fn open_tables(&self) -> impl Iterator<Item = (&Round, &Table)> {
        self.rounds
            .iter()
            .flat_map(|round| round.tables.iter().map(move |t| (round, t)))
            .filter(|(_, t)| t.results.is_none())
    }

    /// The table `table` as an [`OpenTable`] (for a runner that opens again what it may not have opened).
    pub fn plan_of(&self, table: TableKey) -> Option<OpenTable> {
        self.rounds.iter().find_map(|round| {
            let t = round.tables.iter().find(|t| t.id == table)?;
            (!round.is_dealing()).then(|| OpenTable::of(round, t))
        })
    }

    /// The player's entry.
    fn entrant(&mut self, player: PlayerKey) -> Option<&mut Entrant> {
        self.players.iter_mut().find(|e| e.id == player)
    }

    /// `player` joins. In a Swiss tournament only before the start; in an arena until its window closes.
    /// A start "when full" starts at the last place taken.
    ///
    /// # Errors
    /// [`Refusal::Closed`], [`Refusal::Full`], [`Refusal::AlreadyIn`] (unless they had withdrawn from a
    /// running arena: then they come back).
    pub fn join(&mut self, player: PlayerKey, name: &str, now: Millis) -> Result<Vec<Effect>, Refusal> {
        let open = match (self.phase, self.spec.format) {
            (Phase::Waiting, _) => true,
            (Phase::Running, Format::Arena { .. }) => self.ends_at().is_some_and(|end| now < end),
            _ => false,
        };
        if !open {
            return Err(Refusal::Closed);
        }
        if let Some(entrant) = self.entrant(player) {
            if entrant.status == Status::Withdrawn {
                entrant.status = Status::Active;
                entrant.free_since = now;
                return Ok(vec![Effect::Changed]);
            }
            return Err(Refusal::AlreadyIn);
        }
        if self.players.len() >= self.spec.max_players as usize {
            return Err(Refusal::Full);
        }
        self.players.push(Entrant {
            id: player,
            name: name.to_owned(),
            status: Status::Active,
            absences: 0,
            free_since: now,
        });
        let full = self.players.len() == self.spec.max_players as usize;
        if self.phase == Phase::Waiting && full && self.spec.start == Start::WhenFull {
            return Ok(self.start(now));
        }
        Ok(vec![Effect::Changed])
    }

    /// `player` withdraws: before the start they leave the list; after it they are seated no more (the
    /// game they play, if any, goes on) and stay in the standings.
    ///
    /// # Errors
    /// [`Refusal::NotIn`], or [`Refusal::Closed`] after the end.
    pub fn withdraw(&mut self, player: PlayerKey) -> Result<Vec<Effect>, Refusal> {
        match self.phase {
            Phase::Finished => Err(Refusal::Closed),
            Phase::Waiting => {
                let before = self.players.len();
                self.players.retain(|e| e.id != player);
                if self.players.len() == before { Err(Refusal::NotIn) } else { Ok(vec![Effect::Changed]) }
            }
            Phase::Running => {
                let entrant = self.entrant(player).filter(|e| matches!(e.status, Status::Active | Status::Paused));
                let entrant = entrant.ok_or(Refusal::NotIn)?;
                entrant.status = Status::Withdrawn;
                Ok(vec![Effect::Changed])
            }
        }
    }

    /// In a running arena, `player` pauses (not seated again until they come back) or comes back.
    ///
    /// # Errors
    /// [`Refusal::NotArena`], [`Refusal::NotIn`].
    pub fn pause(&mut self, player: PlayerKey, paused: bool, now: Millis) -> Result<Vec<Effect>, Refusal> {
        if !(self.phase == Phase::Running && matches!(self.spec.format, Format::Arena { .. })) {
            return Err(Refusal::NotArena);
        }
        let entrant = self.entrant(player).filter(|e| matches!(e.status, Status::Active | Status::Paused));
        let entrant = entrant.ok_or(Refusal::NotIn)?;
        entrant.status = if paused { Status::Paused } else { Status::Active };
        entrant.free_since = now;
        Ok(vec![Effect::Changed])
    }

    /// `player` gives their contribution to the deal of the duplicate round being dealt; the round's
    /// tables open when it is the last one awaited.
    ///
    /// # Errors
    /// [`Refusal::NotDealing`] when no round's deal awaits the player's contribution,
    /// [`Refusal::AlreadyContributed`] for a second one.
    pub fn contribute(&mut self, player: PlayerKey, value: &Contribution) -> Result<Vec<Effect>, Refusal> {
        let (at, index) = self
            .rounds
            .iter()
            .enumerate()
            .filter(|(_, round)| round.is_dealing())
            .find_map(|(at, round)| Some((at, round.dealing.as_ref()?.index_of(player)?)))
            .ok_or(Refusal::NotDealing)?;
        let Some(dealing) = self.rounds[at].dealing.as_mut() else { return Err(Refusal::NotDealing) };
        if dealing.has(index) {
            return Err(Refusal::AlreadyContributed);
        }
        dealing.set(index, value, false);
        if dealing.awaits() {
            return Ok(vec![Effect::Changed]);
        }
        let mut effects = self.make_deal(at);
        effects.push(Effect::Changed);
        Ok(effects)
    }

    /// The time passes: a deal whose wait is over, a start at its time, the next Swiss round after its
    /// countdown, an arena's new tables and its end.
    pub fn tick(&mut self, now: Millis) -> Vec<Effect> {
        let due = self
            .rounds
            .iter()
            .position(|round| round.is_dealing() && round.dealing.as_ref().is_some_and(|d| now >= d.until));
        if let Some(at) = due {
            let mut effects = self.make_deal(at);
            effects.push(Effect::Changed);
            return effects;
        }
        match self.phase {
            Phase::Waiting => match self.spec.start {
                Start::At(at) if now >= at => self.start(now),
                _ => Vec::new(),
            },
            Phase::Running => match self.spec.format {
                Format::Swiss { .. } => match self.next_round_at {
                    Some(at) if now >= at => self.next_swiss_round(now),
                    _ => Vec::new(),
                },
                Format::Arena { .. } => self.arena_tick(now),
            },
            Phase::Finished => Vec::new(),
        }
    }

    /// A game of the tournament finished: `results` by seat. A table's second report changes nothing.
    ///
    /// # Errors
    /// [`Refusal::BadResult`] when the results do not fit the table. An unknown table is ignored.
    pub fn finished(&mut self, table: TableKey, results: &[SeatResult], now: Millis) -> Result<Vec<Effect>, Refusal> {
        let Some(found) = self.rounds.iter_mut().flat_map(|r| r.tables.iter_mut()).find(|t| t.id == table) else {
            return Ok(Vec::new());
        };
        if found.results.is_some() {
            return Ok(Vec::new());
        }
        if results.len() != found.seats.len() {
            return Err(Refusal::BadResult(results.len()));
        }
        found.results = Some(results.to_vec());
        let seats = found.seats.clone();
        for (player, result) in seats.iter().zip(results) {
            let Some(entrant) = self.entrant(*player) else { continue };
            entrant.free_since = now;
            entrant.absences = if result.absent { entrant.absences.saturating_add(1) } else { 0 };
            if entrant.absences >= ABSENCES && matches!(entrant.status, Status::Active | Status::Paused) {
                entrant.status = Status::Absent;
            }
        }
        let mut effects = match self.spec.format {
            Format::Swiss { rounds } => self.swiss_round_finished(rounds, now),
            Format::Arena { .. } => self.arena_tick(now),
        };
        effects.push(Effect::Changed);
        effects.dedup();
        Ok(effects)
    }

    /// The start: the first round (Swiss) or the first tables (arena); a tournament that cannot fill a
    /// table ends with none.
    fn start(&mut self, now: Millis) -> Vec<Effect> {
        self.started_at = Some(now);
        if self.players.len() < usize::from(self.spec.seats) {
            self.phase = Phase::Finished;
            return vec![Effect::Changed];
        }
        self.phase = Phase::Running;
        for entrant in &mut self.players {
            entrant.free_since = now;
        }
        let mut effects = match self.spec.format {
            Format::Swiss { .. } => self.next_swiss_round(now),
            Format::Arena { .. } => self.arena_tick(now),
        };
        effects.push(Effect::Changed);
        effects.dedup();
        effects
    }

    /// Active players in the order of the standings.
    fn ranked(&self, wanted: impl Fn(&Entrant) -> bool) -> Vec<PlayerKey> {
        let keep: HashSet<PlayerKey> = self.players.iter().filter(|e| wanted(e)).map(|e| e.id).collect();
        self.standings().into_iter().map(|line| line.player).filter(|p| keep.contains(p)).collect()
    }

    /// Pairs the next Swiss round, or ends the tournament when too few players are left.
    fn next_swiss_round(&mut self, now: Millis) -> Vec<Effect> {
        self.next_round_at = None;
        let ranked = self.ranked(|e| e.status == Status::Active);
        if ranked.len() < usize::from(self.spec.seats) {
            self.phase = Phase::Finished;
            return vec![Effect::Changed];
        }
        let mut met = Met::default();
        for table in self.rounds.iter().flat_map(|r| &r.tables) {
            met.add_table(&table.seats);
        }
        let byes_had = |p: PlayerKey| self.rounds.iter().filter(|r| r.byes.contains(&p)).count() as u32;
        let (groups, byes) = pairing::swiss(&ranked, usize::from(self.spec.seats), &met, byes_had);
        self.open_round(groups, byes, now)
    }

    /// A new round of `groups` (each rotated by the round's number, so that seats change hands) and
    /// `byes`: its tables planned and asked for.
    fn open_round(&mut self, groups: Vec<Vec<PlayerKey>>, byes: Vec<PlayerKey>, now: Millis) -> Vec<Effect> {
        let n = u32::try_from(self.rounds.len() + 1).unwrap_or(u32::MAX);
        let deal = self.spec.duplicate.then(|| self.secret.deal(u64::from(n)));
        let mut tables = Vec::with_capacity(groups.len());
        for mut seats in groups {
            let len = seats.len().max(1);
            seats.rotate_left((n as usize - 1) % len);
            let id = self.secret.table_id(self.tables_opened);
            self.tables_opened += 1;
            tables.push(Table { id, seats, results: None });
        }
        // A duplicate round's players add their contributions to its deal first (`contribute`): its
        // tables open with the deal made.
        let dealing = deal.is_some().then(|| {
            let players = tables.iter().flat_map(|t| t.seats.iter().copied()).collect();
            Dealing::new(players, now + self.spec.deal_wait_ms)
        });
        self.rounds.push(Round { n, deal, tables, byes, started_at: now, dealing });
        let at = self.rounds.len() - 1;
        let mut effects =
            if self.spec.duplicate && self.spec.deal_wait_ms > 0 { Vec::new() } else { self.make_deal(at) };
        effects.push(Effect::Changed);
        effects
    }

    /// The deal of the `at`-th round made (the server draws every contribution still missing), and its
    /// tables asked for.
    fn make_deal(&mut self, at: usize) -> Vec<Effect> {
        let Some(round) = self.rounds.get_mut(at) else { return Vec::new() };
        if let (Some(dealing), Some(deal)) = (round.dealing.as_mut(), round.deal.as_mut()) {
            for index in 0..dealing.players.len() {
                if !dealing.has(index) {
                    dealing.set(index, &self.secret.contribution(round.n, index), true);
                }
            }
            deal.contributions = dealing.values().unwrap_or_default();
        }
        let round = &self.rounds[at];
        round.tables.iter().map(|t| Effect::Open(OpenTable::of(round, t))).collect()
    }

    /// After a Swiss game: when it was the round's last, the countdown to the next (or the end).
    fn swiss_round_finished(&mut self, rounds: u32, now: Millis) -> Vec<Effect> {
        if !self.rounds.last().is_some_and(Round::is_over) {
            return Vec::new();
        }
        if self.rounds.len() >= rounds as usize {
            self.phase = Phase::Finished;
        } else {
            self.next_round_at = Some(now + self.spec.round_pause_ms);
        }
        vec![Effect::Changed]
    }

    /// An arena's time: new tables for the free players while its window is open, its end when the
    /// window closed and the last game finished.
    fn arena_tick(&mut self, now: Millis) -> Vec<Effect> {
        let Some(end) = self.ends_at() else { return Vec::new() };
        if now >= end {
            if self.open_tables().next().is_none() {
                self.phase = Phase::Finished;
                return vec![Effect::Changed];
            }
            return Vec::new();
        }
        let busy: HashSet<PlayerKey> = self.open_tables().flat_map(|(_, t)| t.seats.iter().copied()).collect();
        let ranked = self.ranked(|e| e.status == Status::Active && !busy.contains(&e.id));
        let free: Vec<(PlayerKey, Millis, Vec<PlayerKey>)> = ranked
            .into_iter()
            .map(|p| {
                let since = self.players.iter().find(|e| e.id == p).map_or(now, |e| e.free_since);
                (p, since, self.last_table(p))
            })
            .collect();
        let groups = pairing::arena(&free, usize::from(self.spec.seats), now);
        if groups.is_empty() {
            return Vec::new();
        }
        self.open_round(groups, Vec::new(), now)
    }

    /// The players at `player`'s last table.
    fn last_table(&self, player: PlayerKey) -> Vec<PlayerKey> {
        let last = self.rounds.iter().rev().flat_map(|r| &r.tables).find(|t| t.seats.contains(&player));
        last.map(|t| t.seats.iter().copied().filter(|p| *p != player).collect()).unwrap_or_default()
    }
}
