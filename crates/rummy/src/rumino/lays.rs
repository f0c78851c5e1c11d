//! Lays and ruminos (rumino §3), card values and the lowest deadwood of a hand (rumino §4).
//!
//! The engine groups every hand itself (§4 "Decided"): [`deadwood`] is the smallest total left over by
//! any grouping of the hand into disjoint lays, found exactly by a search over subsets of the hand
//! (a hand holds at most 8 cards here, 256 subsets). A property test compares it with a brute force
//! that tries every partition and every card a joker could stand for.

use crate::cards::Card;

/// A card as the lay rules see it: a rank 1 (ace) to 13 (king) and a suit 0 to 3, or a joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tile {
    /// 0 for a joker, else 1 (ace) to 13 (king).
    rank: u8,
    suit: u8,
}

impl Tile {
    pub(crate) fn of(card: Card) -> Tile {
        match (card.rank(), card.suit()) {
            (Some(rank), Some(suit)) => Tile { rank: rank.number(), suit: suit.index() as u8 },
            _ => Tile { rank: 0, suit: 0 },
        }
    }

    pub(crate) fn is_joker(self) -> bool {
        self.rank == 0
    }

    /// 1 (ace) to 13 (king); 0 for a joker.
    pub(crate) fn rank(self) -> u8 {
        self.rank
    }

    /// 0 to 3; 0 for a joker too.
    pub(crate) fn suit(self) -> u8 {
        self.suit
    }

    /// §4: ace 1, 2 to 10 their number, J, Q, K 10, joker 10.
    fn value(self) -> u32 {
        match self.rank {
            0 => 10,
            r => u32::from(r.min(10)),
        }
    }
}

/// A card's deadwood value (rumino §4): ace 1; 2 to 10 their number; J, Q, K 10; joker 10.
pub fn card_value(card: Card) -> u32 {
    Tile::of(card).value()
}

/// Whether `tiles` are one suit's consecutive positions (§3.2: ace at 1 or at 14, no wrap-around), each
/// at most once, `len` long once the jokers fill the gaps or extend an end.
fn is_straight_flush(tiles: &[Tile], len: usize) -> bool {
    let mut naturals = tiles.iter().filter(|t| !t.is_joker()).peekable();
    let Some(first) = naturals.peek().copied() else { return false };
    if tiles.iter().any(|t| !t.is_joker() && t.suit != first.suit) {
        return false;
    }
    // All aces low, or all aces high: two aces in one straight flush would need 14 positions.
    [false, true].into_iter().any(|ace_high| {
        let mut seen = 0u16;
        let (mut low, mut high) = (u8::MAX, 0);
        for t in tiles.iter().filter(|t| !t.is_joker()) {
            let position = if t.rank == 1 && ace_high { 14 } else { t.rank };
            if seen & (1 << position) != 0 {
                return false;
            }
            seen |= 1 << position;
            low = low.min(position);
            high = high.max(position);
        }
        // The jokers fill the gaps; any left over extend an end, which always fits in 1..=14.
        usize::from(high - low) < len
    })
}

/// Whether `tiles` all share one rank (jokers aside) and at least one is natural.
fn is_same_rank(tiles: &[Tile]) -> bool {
    let mut naturals = tiles.iter().filter(|t| !t.is_joker());
    match naturals.next() {
        Some(first) => naturals.all(|t| t.rank == first.rank),
        None => false,
    }
}

fn jokers(tiles: &[Tile]) -> usize {
    tiles.iter().filter(|t| t.is_joker()).count()
}

/// §3: 3 or 4 cards forming a set (§3.1) or a straight flush (§3.2), with at most one joker (§3.3).
pub(crate) fn is_lay_tiles(tiles: &[Tile]) -> bool {
    (3..=4).contains(&tiles.len())
        && jokers(tiles) <= 1
        && (is_same_rank(tiles) || is_straight_flush(tiles, tiles.len()))
}

/// §3.4: 7 cards of one rank, or a straight flush of 7, with at most one joker.
pub(crate) fn is_rumino_tiles(tiles: &[Tile]) -> bool {
    tiles.len() == 7 && jokers(tiles) <= 1 && (is_same_rank(tiles) || is_straight_flush(tiles, 7))
}

/// Whether `cards` form a lay (rumino §3): a set or a straight flush of 3 or 4 cards, at most one joker.
pub fn is_lay(cards: &[Card]) -> bool {
    let tiles: Vec<Tile> = cards.iter().map(|&c| Tile::of(c)).collect();
    is_lay_tiles(&tiles)
}

/// Whether `cards` are a rumino (rumino §3.4).
pub fn is_rumino(cards: &[Card]) -> bool {
    let tiles: Vec<Tile> = cards.iter().map(|&c| Tile::of(c)).collect();
    is_rumino_tiles(&tiles)
}

/// The largest hand [`deadwood`] and [`best_grouping`] accept: the search keeps a table of `2^n` entries.
pub const MAX_GROUPED_HAND: usize = 12;

/// The best grouping of a hand (rumino §4): its lays, the cards left over and their total value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grouping {
    /// The lays, each as the hand's cards that form it.
    pub lays: Vec<Vec<Card>>,
    /// The cards in no lay.
    pub deadwood_cards: Vec<Card>,
    /// Their total value: the hand's deadwood.
    pub deadwood: u32,
}

/// The lowest deadwood of `hand` (rumino §4), over every grouping into disjoint lays.
///
/// # Panics
/// When `hand` holds more than [`MAX_GROUPED_HAND`] cards (a Rumino hand holds 7 or 8).
pub fn deadwood(hand: &[Card]) -> u32 {
    Search::new(hand).best(full(hand.len()))
}

/// A grouping of `hand` that reaches its lowest deadwood (rumino §4).
///
/// # Panics
/// As [`deadwood`].
pub fn best_grouping(hand: &[Card]) -> Grouping {
    Search::new(hand).grouping(hand, full(hand.len()))
}

fn full(n: usize) -> u16 {
    assert!(n <= MAX_GROUPED_HAND, "a hand of {n} cards is larger than the search allows");
    ((1u32 << n) - 1) as u16
}

/// A memo entry not yet worked out (a deadwood is at most 12 × 10).
const UNKNOWN: u8 = u8::MAX;

/// The memoized search over one hand: the best deadwood of any subset of it, as a bit mask over the
/// hand's positions. One search answers for the whole hand and for the hand less any card (a discard).
///
/// Its tables are sized to the hand (`2^n` memo entries, the lays it holds): the bots build thousands of
/// searches a decision, nearly all over 7 or 8 cards, and a table sized for the largest hand was most of
/// their cost.
pub(crate) struct Search {
    values: [u8; MAX_GROUPED_HAND],
    /// Every subset of the hand that is a lay.
    lays: Vec<u16>,
    memo: Vec<u8>,
}

impl Search {
    pub(crate) fn new(hand: &[Card]) -> Search {
        let n = hand.len();
        let all = full(n);
        let mut tiles = [Tile { rank: 0, suit: 0 }; MAX_GROUPED_HAND];
        let mut values = [0u8; MAX_GROUPED_HAND];
        for (i, &card) in hand.iter().enumerate() {
            tiles[i] = Tile::of(card);
            values[i] = tiles[i].value() as u8;
        }
        // Two cards can share a lay only if one is a joker, they share a rank, or they are of one suit
        // at most 3 positions apart: supersets of any other pair are skipped.
        let mut fits = [0u16; MAX_GROUPED_HAND];
        for i in 0..n {
            for j in i + 1..n {
                if could_share(tiles[i], tiles[j]) {
                    fits[i] |= 1 << j;
                    fits[j] |= 1 << i;
                }
            }
        }
        let mut search = Search { values, lays: Vec::new(), memo: vec![UNKNOWN; usize::from(all) + 1] };
        for i in 0..n {
            for j in (i + 1..n).filter(|&j| fits[i] & (1 << j) != 0) {
                for k in (j + 1..n).filter(|&k| fits[i] & fits[j] & (1 << k) != 0) {
                    search.add_if_lay(&[tiles[i], tiles[j], tiles[k]], 1 << i | 1 << j | 1 << k);
                    for l in (k + 1..n).filter(|&l| fits[i] & fits[j] & fits[k] & (1 << l) != 0) {
                        search.add_if_lay(&[tiles[i], tiles[j], tiles[k], tiles[l]], 1 << i | 1 << j | 1 << k | 1 << l);
                    }
                }
            }
        }
        search
    }

    fn add_if_lay(&mut self, tiles: &[Tile], mask: u16) {
        if is_lay_tiles(tiles) {
            self.lays.push(mask);
        }
    }

    /// The lowest deadwood of the cards in `mask`: its lowest card is either left over or in one of the
    /// lays inside `mask` that hold it, and the rest is searched the same way.
    pub(crate) fn best(&mut self, mask: u16) -> u32 {
        if mask == 0 {
            return 0;
        }
        let known = self.memo[usize::from(mask)];
        if known != UNKNOWN {
            return u32::from(known);
        }
        let lowest = mask & mask.wrapping_neg();
        let mut best = u32::from(self.values[lowest.trailing_zeros() as usize]) + self.best(mask & !lowest);
        for i in 0..self.lays.len() {
            let lay = self.lays[i];
            if lay & lowest != 0 && lay & !mask == 0 {
                best = best.min(self.best(mask & !lay));
            }
        }
        self.memo[usize::from(mask)] = best as u8;
        best
    }

    /// The mask of a whole hand of `n` cards.
    pub(crate) fn all(n: usize) -> u16 {
        full(n)
    }

    /// The lowest deadwood of the hand less its card at `at`.
    pub(crate) fn best_without(&mut self, hand_len: usize, at: usize) -> u32 {
        self.best(full(hand_len) & !(1 << at))
    }

    /// A grouping of the cards of `hand` in `mask` that reaches their lowest deadwood.
    pub(crate) fn grouping(&mut self, hand: &[Card], mut mask: u16) -> Grouping {
        let deadwood = self.best(mask);
        let (mut lays, mut deadwood_cards) = (Vec::new(), Vec::new());
        while mask != 0 {
            let lowest = mask & mask.wrapping_neg();
            let target = self.best(mask);
            let lay = self.lays.iter().copied().filter(|&lay| lay & lowest != 0 && lay & !mask == 0).find(|&lay| {
                let rest = mask & !lay;
                // `best` of the rest is known once `best(mask)` is: every such rest was searched.
                u32::from(self.memo[usize::from(rest)]) == target || (rest == 0 && target == 0)
            });
            match lay {
                Some(lay) => {
                    lays.push((0..hand.len()).filter(|i| lay & (1 << i) != 0).map(|i| hand[i]).collect());
                    mask &= !lay;
                }
                None => {
                    deadwood_cards.push(hand[lowest.trailing_zeros() as usize]);
                    mask &= !lowest;
                }
            }
        }
        Grouping { lays, deadwood_cards, deadwood }
    }
}

/// Whether two cards could be in one lay (§3): a joker, one rank, or one suit at most 3 positions apart
/// (an ace at 1 or at 14).
fn could_share(a: Tile, b: Tile) -> bool {
    if a.is_joker() || b.is_joker() || a.rank == b.rank {
        return true;
    }
    if a.suit != b.suit {
        return false;
    }
    let high = |t: Tile| if t.rank == 1 { 14 } else { t.rank };
    a.rank.abs_diff(b.rank) <= 3 || high(a).abs_diff(high(b)) <= 3
}

/// The 7 cards of a rumino inside `cards` (7 or 8 of them), if there is one; with `must_hold`, only a
/// rumino holding that card counts. Leaves out the first card it can, so the answer is fixed for a hand.
pub(crate) fn find_rumino(cards: &[Card], must_hold: Option<Card>) -> Option<Vec<Card>> {
    // Seven cards with at most one joker hold 6 naturals of one suit or of one rank: nearly every hand
    // is turned away here without looking further.
    let (mut suits, mut ranks) = ([0u8; 4], [0u8; 14]);
    for tile in cards.iter().map(|&c| Tile::of(c)).filter(|t| !t.is_joker()) {
        suits[usize::from(tile.suit)] += 1;
        ranks[usize::from(tile.rank)] += 1;
    }
    if suits.iter().chain(&ranks).all(|&n| n < 6) {
        return None;
    }
    let tiles: Vec<Tile> = cards.iter().map(|&c| Tile::of(c)).collect();
    if cards.len() == 7 {
        let holds = must_hold.is_none_or(|c| cards.contains(&c));
        return (holds && is_rumino_tiles(&tiles)).then(|| cards.to_vec());
    }
    (0..cards.len()).find_map(|out| {
        let kept: Vec<Card> = (0..cards.len()).filter(|&i| i != out).map(|i| cards[i]).collect();
        let kept_tiles: Vec<Tile> = (0..tiles.len()).filter(|&i| i != out).map(|i| tiles[i]).collect();
        let holds = must_hold.is_none_or(|c| kept.contains(&c));
        (holds && is_rumino_tiles(&kept_tiles)).then_some(kept)
    })
}
