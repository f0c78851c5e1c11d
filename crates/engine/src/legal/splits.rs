//! The ways to take a quota of cards of one number among the suits: listed in one order, counted in a
//! table worked out at compile time, and found by position.

/// Calls `found` with every way to take `quota` cards of one number from `held[s]` cards of each suit
/// `s`: how many of each suit, the first suit varying slowest. The one order every listing here uses.
pub(super) fn for_each_split(held: [u8; 4], quota: u8, mut found: impl FnMut([u8; 4]) -> bool) {
    for a in 0..=held[0].min(quota) {
        for b in 0..=held[1].min(quota - a) {
            for c in 0..=held[2].min(quota - a - b) {
                let d = quota - a - b - c;
                if d <= held[3] && !found([a, b, c, d]) {
                    return;
                }
            }
        }
    }
}

/// How many ways [`for_each_split`] lists for the cards of one number held as `group` (see
/// [`crate::cards::Cards::number_group`]) and each quota from 0 to 8 (no contract takes more cards), indexed by
/// `group`: the coefficients of the product over the suits of `1 + x + ... + x^held`, worked out at
/// compile time (36 KiB).
pub(super) fn split_table() -> &'static [[u8; QUOTAS]; 4096] {
    static COUNTS: [[u8; QUOTAS]; 4096] = {
        let mut table = [[0u8; QUOTAS]; 4096];
        let mut group = 0;
        while group < 4096 {
            let mut poly = [0u16; QUOTAS];
            poly[0] = 1;
            let mut suit = 0;
            while suit < 4 {
                let held = (group >> (3 * suit)) & 7;
                let before = poly;
                let mut q = 0;
                while q < QUOTAS {
                    let mut sum = 0;
                    let mut taken = 0;
                    while taken <= held && taken <= q {
                        sum += before[q - taken];
                        taken += 1;
                    }
                    poly[q] = sum;
                    q += 1;
                }
                suit += 1;
            }
            let mut q = 0;
            while q < QUOTAS {
                // At most 161 (four suits of 7 copies, 8 cards): it fits a byte.
                table[group][q] = poly[q] as u8;
                q += 1;
            }
            group += 1;
        }
        table
    };
    &COUNTS
}

/// The quotas [`split_table`] counts for: 0 to 8 cards of one number.
pub(super) const QUOTAS: usize = 9;

/// The four suits' counts of a [`crate::cards::Cards::number_group`].
#[cfg(test)]
pub(super) fn held(group: usize) -> [u8; 4] {
    std::array::from_fn(|suit| ((group >> (3 * suit)) & 7) as u8)
}

/// The `n`th way [`for_each_split`] lists for the cards of one number held as `group` (see
/// [`crate::cards::Cards::number_group`]), found suit by suit: the ways that give the first suit `a` cards are as
/// many as the ways to take the rest of the quota from the later suits, which [`split_table`] counts.
pub(super) fn nth_split(table: &[[u8; QUOTAS]; 4096], group: usize, quota: u8, mut n: usize) -> [u8; 4] {
    let mut split = [0; 4];
    let mut left = usize::from(quota);
    for (suit, taken) in split.iter_mut().take(3).enumerate() {
        // The group without this suit and the ones before it.
        let later_suits = group & !((8 << (3 * suit)) - 1) & 0o7777;
        // At most as many cards as the suit holds and the quota leaves: step past the ways that give
        // the suit each count below the one taken, without branching on `n` (as random as the choice).
        let mut going = true;
        for _ in 0..((group >> (3 * suit)) & 7).min(left) {
            let ways = usize::from(table[later_suits][left.min(QUOTAS - 1)]);
            going &= n >= ways;
            n -= if going { ways } else { 0 };
            *taken += u8::from(going);
            left -= usize::from(going);
        }
        debug_assert!(usize::from(*taken) <= (group >> (3 * suit)) & 7, "n is below the number of splits");
    }
    split[3] = left as u8;
    split
}
