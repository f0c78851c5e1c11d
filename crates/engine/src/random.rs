//! Portable randomness: a seeded ChaCha8 stream and the few draws the game needs from it.
//!
//! The draws are written here rather than taken from `rand`'s distributions because the engine promises
//! that a seed gives the same game on every machine and with every future version of the dependencies.
//! ChaCha8's output stream is fixed by its specification; what is built on it below is fixed by this file.

use rand_chacha::ChaCha8Core;
use rand_core::SeedableRng;
use rand_core::block::Generator;

/// How many 32-bit words one call of the ChaCha8 core produces (four 16-word blocks).
const WORDS: usize = 64;

/// The generator a game keeps for its reshuffles, and that [`crate::RandomPlayer`] uses for its choices.
///
/// It reads the ChaCha8 core's output itself, word after word as `rand_chacha::ChaCha8Rng` does (a
/// 64-bit draw is two words, the first one low): the same stream, which a test compares draw by draw,
/// without the general buffer's bookkeeping on every draw (a random game makes about 400 draws).
///
/// Its `Debug` output never shows its state, so it is safe in a log line.
#[derive(Clone)]
pub struct GameRng {
    core: ChaCha8Core,
    words: [u32; WORDS],
    /// The next word of `words` to hand out; `WORDS` when they are used up.
    next: usize,
}

impl GameRng {
    /// A generator seeded from `seed`: the seed's little-endian bytes, followed by zeros, form the
    /// 32-byte ChaCha key.
    pub fn from_seed(seed: u64) -> GameRng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        GameRng { core: ChaCha8Core::from_seed(key), words: [0; WORDS], next: WORDS }
    }

    /// The next 32-bit word of the stream.
    #[inline]
    fn next_u32(&mut self) -> u32 {
        if self.next >= WORDS {
            self.core.generate(&mut self.words);
            self.next = 0;
        }
        let word = self.words[self.next];
        self.next += 1;
        word
    }

    /// The next two words of the stream, the first one low.
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        if self.next + 2 <= WORDS {
            let (lo, hi) = (self.words[self.next], self.words[self.next + 1]);
            self.next += 2;
            return (u64::from(hi) << 32) | u64::from(lo);
        }
        self.next_u64_across()
    }

    /// [`GameRng::next_u64`] when fewer than two words are left: the second one (or both) from the
    /// next output of the core.
    #[cold]
    fn next_u64_across(&mut self) -> u64 {
        let lo = self.next_u32();
        let hi = self.next_u32();
        (u64::from(hi) << 32) | u64::from(lo)
    }

    /// A uniform integer in `0..n`, by rejection so that every value is exactly as likely.
    ///
    /// # Panics
    /// When `n` is 0.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0) has no value to return");
        if let Some(small) = SMALL.get(n) {
            // The same draws and the same answer as below, without dividing (see `Small`).
            loop {
                let x = self.next_u64();
                if x <= small.zone {
                    return small.remainder(x) as usize;
                }
            }
        }
        self.below_large(n)
    }

    /// [`GameRng::below`] for `n` of 256 or more, by dividing.
    #[cold]
    fn below_large(&mut self, n: usize) -> usize {
        let n = n as u64;
        // The largest multiple of n that fits in u64, so that `x % n` is uniform for x below it.
        let zone = u64::MAX - (u64::MAX % n + 1) % n;
        loop {
            let x = self.next_u64();
            if x <= zone {
                return (x % n) as usize;
            }
        }
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u32() & 1 == 1
    }

    /// Shuffles `items` in place with the Fisher–Yates algorithm, last position first.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// [`GameRng::below`]'s arithmetic for one small `n`, worked out at compile time: a 64-bit division
/// takes tens of cycles, and a random game asks for hundreds of draws (a shuffle of 92 cards alone
/// asks for 91), nearly all below 256.
#[derive(Clone, Copy)]
struct Small {
    n: u64,
    /// `u64::MAX - (u64::MAX % n + 1) % n`, as `below` computes it.
    zone: u64,
    /// `2^128 / n` rounded up (wrapping to 0 for `n` = 1), for [`Small::remainder`].
    magic: u128,
}

impl Small {
    const fn new(n: u64) -> Small {
        let magic = if n == 1 { 0 } else { u128::MAX / n as u128 + 1 };
        Small { n, zone: u64::MAX - (u64::MAX % n + 1) % n, magic }
    }

    /// `x % n` by multiplying: the fractional part of `x / n` is `magic * x` modulo `2^128`, and
    /// multiplying it by `n` puts the remainder in the bits above 128. Exact for every 64-bit `x` and
    /// `n` (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019); a test compares
    /// it with `%`.
    fn remainder(&self, x: u64) -> u64 {
        let fraction = self.magic.wrapping_mul(u128::from(x));
        let low = ((fraction as u64 as u128) * u128::from(self.n)) >> 64;
        let high = (fraction >> 64) * u128::from(self.n);
        ((high + low) >> 64) as u64
    }
}

/// [`Small`] for each `n` from 1 to 255 (index 0 is never used: `below(0)` panics first).
static SMALL: [Small; 256] = {
    let mut table = [Small { n: 1, zone: u64::MAX, magic: 0 }; 256];
    let mut n = 1;
    while n < 256 {
        table[n] = Small::new(n as u64);
        n += 1;
    }
    table
};

impl std::fmt::Debug for GameRng {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GameRng { .. }")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_fixed_for_a_seed() {
        // If this changes, seeds no longer give the games they gave before: a breaking change.
        let mut rng = GameRng::from_seed(42);
        let draws: Vec<usize> = (0..8).map(|_| rng.below(100)).collect();
        let mut again = GameRng::from_seed(42);
        let repeat: Vec<usize> = (0..8).map(|_| again.below(100)).collect();
        assert_eq!(draws, repeat);
        assert_eq!(draws, GOLDEN_SEED_42.to_vec());
    }

    #[test]
    fn the_stream_is_chacha8rng_word_by_word() {
        use rand_core::Rng;
        for seed in [0, 1, 42, u64::MAX] {
            let mut key = [0u8; 32];
            key[..8].copy_from_slice(&seed.to_le_bytes());
            let mut reference = rand_chacha::ChaCha8Rng::from_seed(key);
            let mut rng = GameRng::from_seed(seed);
            let mut mix = GameRng::from_seed(seed ^ 1);
            // Mixed word and double-word draws, across many outputs of the core and at every offset.
            for _ in 0..5000 {
                if mix.next_u32() % 3 == 0 {
                    assert_eq!(rng.next_u32(), reference.next_u32());
                } else {
                    assert_eq!(rng.next_u64(), reference.next_u64());
                }
            }
        }
    }

    const GOLDEN_SEED_42: [usize; 8] = [79, 99, 2, 2, 22, 45, 23, 33];

    #[test]
    fn the_small_table_divides_as_the_division_does() {
        let mut rng = GameRng::from_seed(11);
        for n in 1..256u64 {
            let small = SMALL[n as usize];
            assert_eq!(small.zone, u64::MAX - (u64::MAX % n + 1) % n);
            let zone = small.zone;
            let edges = [0, 1, n - 1, n, n + 1, zone - 1, zone, u64::MAX - 1, u64::MAX, u64::MAX / 2, 1 << 63];
            let around_multiples = (1..64u32).flat_map(|bits| {
                let multiple = (u64::MAX >> (64 - bits)) / n * n;
                [multiple.wrapping_sub(1), multiple, multiple.wrapping_add(1)]
            });
            let random = (0..2000).map(|_| rng.next_u64());
            for x in edges.into_iter().chain(around_multiples).chain(random) {
                assert_eq!(small.remainder(x), x % n, "{x} % {n}");
            }
        }
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = GameRng::from_seed(7);
        for n in 1..50 {
            for _ in 0..20 {
                assert!(rng.below(n) < n);
            }
        }
    }
}
