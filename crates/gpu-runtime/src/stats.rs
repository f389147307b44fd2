//! Summary statistics of repeated timings.

use serde::{Deserialize, Serialize};

/// Median and spread of a set of samples (milliseconds for timings).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub count: usize,
    pub min: f64,
    /// First quartile.
    pub q1: f64,
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    pub max: f64,
    pub mean: f64,
}

impl Stats {
    /// Summarises `samples`; `None` when there are none or one is not finite.
    pub fn from_samples(samples: &[f64]) -> Option<Stats> {
        if samples.is_empty() || samples.iter().any(|s| !s.is_finite()) {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(Stats {
            count: sorted.len(),
            min: sorted[0],
            q1: quantile(&sorted, 0.25),
            median: quantile(&sorted, 0.5),
            q3: quantile(&sorted, 0.75),
            max: sorted[sorted.len() - 1],
            mean: sorted.iter().sum::<f64>() / sorted.len() as f64,
        })
    }

    /// Interquartile range over the median: a scale-free spread.
    pub fn relative_iqr(&self) -> f64 {
        if self.median > 0.0 {
            (self.q3 - self.q1) / self.median
        } else {
            0.0
        }
    }
}

/// Linear interpolation between closest ranks (the default of R and NumPy).
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let pos = p * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn odd_count_median_is_the_middle_sample() {
        let s = Stats::from_samples(&[5.0, 1.0, 4.0, 2.0, 3.0]).unwrap();
        assert_eq!(
            (s.min, s.q1, s.median, s.q3, s.max),
            (1.0, 2.0, 3.0, 4.0, 5.0)
        );
        assert_eq!(s.mean, 3.0);
        assert_eq!(s.count, 5);
    }

    #[test]
    fn even_count_median_averages_the_middle_pair() {
        let s = Stats::from_samples(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(s.median, 2.5);
        assert_eq!(s.q1, 1.75);
        assert_eq!(s.q3, 3.25);
    }

    #[test]
    fn empty_or_non_finite_samples_have_no_stats() {
        assert!(Stats::from_samples(&[]).is_none());
        assert!(Stats::from_samples(&[1.0, f64::NAN]).is_none());
        assert!(Stats::from_samples(&[f64::INFINITY]).is_none());
    }

    proptest! {
        #[test]
        fn summary_is_ordered_and_within_the_samples(v in prop::collection::vec(0.0f64..1e6, 1..200)) {
            let s = Stats::from_samples(&v).unwrap();
            prop_assert!(s.min <= s.q1 && s.q1 <= s.median && s.median <= s.q3 && s.q3 <= s.max);
            prop_assert!(s.min <= s.mean && s.mean <= s.max * (1.0 + 1e-12));
            let below = v.iter().filter(|&&x| x <= s.median).count();
            prop_assert!(below * 2 >= v.len());
            prop_assert!(s.relative_iqr() >= 0.0);
        }
    }
}
