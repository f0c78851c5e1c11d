//! The duel's figures: the Wilson interval of a share, and percentiles of decision times.

use serde::Serialize;

/// The 95% Wilson score interval of `wins` out of `n` (wins may be fractional: shared wins).
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let p = (wins / n).clamp(0.0, 1.0);
    let z2 = Z * Z;
    let center = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// Decision times of one level, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct DecisionTimes {
    /// The median.
    pub p50: f64,
    /// The 99th percentile.
    pub p99: f64,
    /// The longest.
    pub max: f64,
}

impl DecisionTimes {
    /// The times of `micros` (sorted in place), nearest-rank percentiles.
    pub fn of(micros: &mut [u64]) -> DecisionTimes {
        if micros.is_empty() {
            return DecisionTimes::default();
        }
        micros.sort_unstable();
        let rank = |q: f64| micros[((q * micros.len() as f64).ceil() as usize).clamp(1, micros.len()) - 1];
        let ms = |us: u64| us as f64 / 1000.0;
        DecisionTimes { p50: ms(rank(0.50)), p99: ms(rank(0.99)), max: ms(micros[micros.len() - 1]) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wilson_interval_is_the_textbook_one() {
        // 60 of 100: 50.2% to 69.1% (Wilson 1927, as any table gives it).
        let (low, high) = wilson(60.0, 100.0);
        assert!((low - 0.502).abs() < 0.001 && (high - 0.691).abs() < 0.001, "{low} {high}");
        let (low, high) = wilson(0.0, 10.0);
        assert!(low == 0.0 && (high - 0.278).abs() < 0.001, "{low} {high}");
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let mut times: Vec<u64> = (1..=100).map(|ms| ms * 1000).collect();
        let times = DecisionTimes::of(&mut times);
        assert_eq!((times.p50, times.p99, times.max), (50.0, 99.0, 100.0));
        assert_eq!(DecisionTimes::of(&mut []), DecisionTimes::default());
    }
}
