//! The champion sieve of Imamura et al. (IPSJ HPC-138, 2013, §3.5 and §4.2).
//!
//! Every valid configuration runs at each representative size; at each size the
//! configurations are ranked by time and the first `depth` (25) places earn
//! points; the points are summed and the `top_k` (10) highest totals survive.
//!
//! Scoring direction. The paper says the top 25 receive points "determined by
//! rank/25". Read literally with the usual place numbers (1 = fastest) this would
//! give the 25th place the most points, which contradicts the purpose of picking
//! champions by the most points. We therefore read "rank" as the place counted
//! from the bottom of the top 25: the fastest gets 25/25 = 1, the second 24/25,
//! ..., the 25th 1/25, and places beyond 25 get nothing. In place numbers `p`:
//! `points = (depth + 1 - p) / depth`.
//!
//! Ties in time share the order of their positions in the space (a stable sort),
//! so results are deterministic.
//!
//! With `size_winners`, the fastest configuration at each size also survives
//! when its points do not place it in the top `top_k`: a kernel that wins
//! only in the middle of the size range (too few blocks for the kernels that
//! win at both ends) earns the points of one size and is otherwise dropped
//! before the sampling stage could show where it wins.

use super::{sort_ranking, Outcome, Ranked, Strategy, Tally};
use crate::key::ProblemKey;
use crate::measure::{run_tasks, Evaluator, Measurement, Stop, StopAt, Task};
use crate::space::ValidSpace;

/// The champion sieve.
#[derive(Debug, Clone)]
pub struct ChampionSieve {
    /// How many configurations survive (the paper keeps 10).
    pub top_k: usize,
    /// How many places earn points at each size (the paper uses 25).
    pub depth: usize,
    /// Also keep the fastest configuration at each size (not in the paper).
    pub size_winners: bool,
}

impl Default for ChampionSieve {
    fn default() -> Self {
        ChampionSieve {
            top_k: 10,
            depth: 25,
            size_winners: false,
        }
    }
}

/// Champion points from times: `times[s][c]` is configuration `c`'s median time
/// at size `s` (`None` if invalid there). Returns each configuration's total.
pub fn champion_points(times: &[Vec<Option<f64>>], ncfg: usize, depth: usize) -> Vec<f64> {
    let mut points = vec![0.0; ncfg];
    for per_size in times {
        let mut valid: Vec<(usize, f64)> = per_size
            .iter()
            .enumerate()
            .filter_map(|(c, t)| t.map(|t| (c, t)))
            .collect();
        valid.sort_by(|a, b| a.1.total_cmp(&b.1));
        for (place0, (c, _)) in valid.iter().take(depth).enumerate() {
            points[*c] += (depth - place0) as f64 / depth as f64;
        }
    }
    points
}

impl Strategy for ChampionSieve {
    fn name(&self) -> String {
        let winners = if self.size_winners {
            ", size winners"
        } else {
            ""
        };
        format!(
            "champion(top_k={}, depth={}{winners})",
            self.top_k, self.depth
        )
    }

    fn planned_evaluations(&self, candidates: usize, sizes: usize) -> Option<usize> {
        Some(candidates * sizes)
    }

    fn run(
        &mut self,
        space: &ValidSpace,
        candidates: &[usize],
        sizes: &[ProblemKey],
        eval: &mut dyn Evaluator,
    ) -> Result<Outcome, Stop> {
        let mut times = vec![vec![None; candidates.len()]; sizes.len()];
        let mut tally = Tally::new();
        let tasks: Vec<Task> = candidates
            .iter()
            .map(|&i| Task::new(space.config(i), sizes.to_vec(), StopAt::SizeIndependent))
            .collect();
        let measured = run_tasks(eval, &tasks)?;
        for ((ci, &i), ms) in candidates.iter().enumerate().zip(&measured) {
            tally.evaluations += ms.len();
            let mut sum = 0.0;
            for (si, m) in ms.iter().enumerate() {
                if let Measurement::Ok(t) = m {
                    times[si][ci] = Some(t.median_s);
                    sum += t.median_s.ln();
                }
            }
            let all_valid = ms.len() == sizes.len() && ms.iter().all(Measurement::is_ok);
            let objective = all_valid.then(|| sum / sizes.len().max(1) as f64);
            tally.add(i, objective);
        }
        let points = champion_points(&times, candidates.len(), self.depth);
        let mut ranking: Vec<Ranked> = candidates
            .iter()
            .enumerate()
            .map(|(ci, &index)| Ranked {
                index,
                objective: tally.results[ci].1,
                points: Some(points[ci]),
            })
            .collect();
        // Most points first; equal points fall back to the objective, then position.
        sort_ranking(&mut ranking);
        ranking.sort_by(|a, b| b.points.unwrap_or(0.0).total_cmp(&a.points.unwrap_or(0.0)));
        let size_winners = times
            .iter()
            .filter_map(|per_size| {
                per_size
                    .iter()
                    .enumerate()
                    .filter_map(|(c, t)| t.map(|t| (c, t)))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|(c, _)| candidates[c])
            })
            .collect();
        let mut out = tally.finish(self.name());
        out.ranking = ranking;
        out.size_winners = size_winners;
        Ok(out)
    }
}

impl ChampionSieve {
    /// The surviving configurations (positions in the space), best first;
    /// with `size_winners`, then each size's fastest not already among them.
    pub fn champions(&self, outcome: &Outcome) -> Vec<usize> {
        let mut out: Vec<usize> = outcome
            .ranking
            .iter()
            .filter(|r| r.points.unwrap_or(0.0) > 0.0)
            .take(self.top_k)
            .map(|r| r.index)
            .collect();
        if self.size_winners {
            for &w in &outcome.size_winners {
                if !out.contains(&w) {
                    out.push(w);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::measure::{FnEvaluator, InvalidKind, Timing};
    use crate::strategy::tests::{bowl, bowl_space, n_keys};

    #[test]
    fn first_place_gets_the_most_points() {
        // Three sizes, four configurations, depth 3.
        let t = |v: f64| Some(v);
        let times = vec![
            vec![t(1.0), t(2.0), t(3.0), t(4.0)],
            vec![t(2.0), t(1.0), t(3.0), None],
            vec![t(1.0), t(3.0), t(2.0), t(0.5)],
        ];
        let p = champion_points(&times, 4, 3);
        // Size 0: c0 3/3, c1 2/3, c2 1/3. Size 1: c1 3/3, c0 2/3, c2 1/3.
        // Size 2: c3 3/3, c0 2/3, c2 1/3.
        let expect = [7.0 / 3.0, 5.0 / 3.0, 1.0, 1.0];
        for (a, b) in p.iter().zip(expect) {
            assert!((a - b).abs() < 1e-12, "{p:?}");
        }
    }

    #[test]
    fn paper_scoring_with_depth_25() {
        // 30 configurations with distinct times at one size: places 1..25 earn
        // 25/25 .. 1/25, places 26..30 nothing.
        let times = vec![(0..30).map(|c| Some(1.0 + c as f64)).collect::<Vec<_>>()];
        let p = champion_points(&times, 30, 25);
        assert_eq!(p[0], 1.0);
        assert!((p[1] - 24.0 / 25.0).abs() < 1e-12);
        assert!((p[24] - 1.0 / 25.0).abs() < 1e-12);
        assert!(p[25..].iter().all(|&x| x == 0.0));
    }

    #[test]
    fn sieve_keeps_the_top_k_by_points() {
        let space = bowl_space();
        let all: Vec<usize> = (0..space.len()).collect();
        let sieve = ChampionSieve::default();
        let out = sieve
            .clone()
            .run(
                &space,
                &all,
                &n_keys(&[100, 1000, 5000]),
                &mut FnEvaluator(bowl),
            )
            .unwrap();
        let champs = sieve.champions(&out);
        assert_eq!(champs.len(), 10);
        assert_eq!(space.config(champs[0]).key(), "X=13,Y=6");
        // The bowl ranks the same at every size, so the champion earns 3 full points.
        assert_eq!(out.ranking[0].points, Some(3.0));
        let pts: Vec<f64> = out.ranking.iter().map(|r| r.points.unwrap()).collect();
        assert!(pts.windows(2).all(|w| w[0] >= w[1]));
        // Compile failures run once, not at every size.
        assert_eq!(out.evaluations, 380 * 3 + 20);
    }

    #[test]
    fn winners_at_different_sizes_all_score() {
        // Kernel a wins two small sizes, b the three large ones (it faults at the
        // smallest), c is never first but always second: with depth 2, c (5 x 1/2)
        // outranks a (2 x 1), which a ranking by wins alone would not do.
        let space = crate::space::Space::new(
            crate::space::SpaceSpec::new().param(crate::space::Param::new("K", ["a", "b", "c"])),
            Default::default(),
        )
        .unwrap()
        .enumerate();
        let mut ev = FnEvaluator(|c: &Config, n: u64| {
            let k = c.get("K").unwrap().as_str().unwrap().to_string();
            let t = match (k.as_str(), n < 1000) {
                ("a", true) | ("b", false) => 1.0,
                ("c", _) => 2.0,
                _ => 3.0,
            };
            if k == "b" && n == 10 {
                return Measurement::invalid(InvalidKind::Runtime, "fault");
            }
            Measurement::Ok(Timing::single(t))
        });
        let sieve = ChampionSieve {
            top_k: 2,
            depth: 2,
            size_winners: false,
        };
        let out = sieve
            .clone()
            .run(
                &space,
                &[0, 1, 2],
                &n_keys(&[10, 100, 2000, 5000, 8000]),
                &mut ev,
            )
            .unwrap();
        let champs: Vec<String> = sieve
            .champions(&out)
            .iter()
            .map(|&i| space.config(i).key())
            .collect();
        assert_eq!(champs, ["K=b", "K=c"]);
        let pts: Vec<f64> = out.ranking.iter().map(|r| r.points.unwrap()).collect();
        assert_eq!(pts, [3.0, 2.5, 2.0]);
        // b failed at one size with a runtime fault, so its later sizes still ran.
        assert_eq!(out.evaluations, 15);
        // The fastest at each size: a at the two small ones, b above.
        let winners: Vec<String> = out
            .size_winners
            .iter()
            .map(|&i| space.config(i).key())
            .collect();
        assert_eq!(winners, ["K=a", "K=a", "K=b", "K=b", "K=b"]);
        // Keeping the size winners brings a back, after the ranked champions.
        let keep = ChampionSieve {
            size_winners: true,
            ..sieve
        };
        let champs: Vec<String> = keep
            .champions(&out)
            .iter()
            .map(|&i| space.config(i).key())
            .collect();
        assert_eq!(champs, ["K=b", "K=c", "K=a"]);
    }
}
