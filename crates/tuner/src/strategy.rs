//! Search strategies over a valid space: exhaustive, random, the paper's
//! champion sieve, and Bayesian optimisation.
//!
//! A configuration's objective over several sizes is the mean of its log median
//! times (the log of their geometric mean): each size weighs the same whatever its
//! absolute time, and a configuration invalid at any size is invalid.

mod bayes;
mod champion;

pub use bayes::BayesOpt;
pub use champion::{champion_points, ChampionSieve};

use crate::key::ProblemKey;
use crate::measure::{run_tasks, Evaluator, Measurement, Stop, StopAt, Task};
use crate::space::ValidSpace;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A configuration in a strategy's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ranked {
    /// Position in the valid space.
    pub index: usize,
    /// Mean log median time over the sizes (lower is better); `None` if invalid.
    pub objective: Option<f64>,
    /// Champion points, for the champion sieve.
    pub points: Option<f64>,
}

/// What a strategy found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub strategy: String,
    /// Evaluated configurations, best first (invalid ones last).
    pub ranking: Vec<Ranked>,
    /// Calls made to the evaluator.
    pub evaluations: usize,
    /// Configurations in the order they were evaluated.
    pub order: Vec<usize>,
    /// Best objective after each configuration in `order` (`INFINITY` while none is valid).
    pub trace: Vec<f64>,
    /// The fastest configuration at each size, where the strategy ranks per
    /// size (the champion sieve), in the order of the sizes.
    #[serde(default)]
    pub size_winners: Vec<usize>,
}

impl Outcome {
    pub fn best(&self) -> Option<&Ranked> {
        self.ranking.first().filter(|r| r.objective.is_some())
    }

    /// The first count of evaluated configurations whose best is within `rel`
    /// (e.g. 0.02) of time `exp(target)`, where `target` is an objective value.
    pub fn configs_to_reach(&self, target: f64, rel: f64) -> Option<usize> {
        let limit = target + (1.0 + rel).ln();
        self.trace.iter().position(|&b| b <= limit).map(|p| p + 1)
    }
}

/// A search strategy.
pub trait Strategy {
    fn name(&self) -> String;

    /// Evaluator calls the strategy will make for `candidates` configurations and
    /// `sizes` sizes, when known in advance (for progress bars).
    fn planned_evaluations(&self, candidates: usize, sizes: usize) -> Option<usize>;

    /// Searches `candidates` (positions in `space`) at `sizes`.
    fn run(
        &mut self,
        space: &ValidSpace,
        candidates: &[usize],
        sizes: &[ProblemKey],
        eval: &mut dyn Evaluator,
    ) -> Result<Outcome, Stop>;
}

/// Evaluates one configuration at every size; stops at the first invalid size,
/// since the objective is then undefined anyway.
pub(crate) fn objective_of(
    space: &ValidSpace,
    index: usize,
    sizes: &[ProblemKey],
    eval: &mut dyn Evaluator,
    calls: &mut usize,
) -> Result<Option<f64>, Stop> {
    Ok(objectives_of(space, &[index], sizes, eval, calls)?.remove(0))
}

/// [`objective_of`] for several configurations, measured as one batch of
/// tasks (at once, on a backend of several devices).
pub(crate) fn objectives_of(
    space: &ValidSpace,
    indices: &[usize],
    sizes: &[ProblemKey],
    eval: &mut dyn Evaluator,
    calls: &mut usize,
) -> Result<Vec<Option<f64>>, Stop> {
    let tasks: Vec<Task> = indices
        .iter()
        .map(|&i| Task::new(space.config(i), sizes.to_vec(), StopAt::Invalid))
        .collect();
    let measured = run_tasks(eval, &tasks)?;
    Ok(measured
        .iter()
        .map(|ms| {
            *calls += ms.len();
            let times: Vec<f64> = ms.iter().filter_map(Measurement::time_s).collect();
            (times.len() == sizes.len())
                .then(|| times.iter().map(|t| t.ln()).sum::<f64>() / sizes.len().max(1) as f64)
        })
        .collect())
}

/// Records evaluations and builds the [`Outcome`].
#[derive(Default)]
pub(crate) struct Tally {
    pub evaluations: usize,
    pub order: Vec<usize>,
    pub trace: Vec<f64>,
    pub results: Vec<(usize, Option<f64>)>,
    best: f64,
}

impl Tally {
    pub fn new() -> Self {
        Tally {
            best: f64::INFINITY,
            ..Default::default()
        }
    }

    pub fn add(&mut self, index: usize, objective: Option<f64>) {
        if let Some(o) = objective {
            self.best = self.best.min(o);
        }
        self.order.push(index);
        self.trace.push(self.best);
        self.results.push((index, objective));
    }

    pub fn finish(self, strategy: String) -> Outcome {
        let mut ranking: Vec<Ranked> = self
            .results
            .iter()
            .map(|&(index, objective)| Ranked {
                index,
                objective,
                points: None,
            })
            .collect();
        sort_ranking(&mut ranking);
        Outcome {
            strategy,
            ranking,
            evaluations: self.evaluations,
            order: self.order,
            trace: self.trace,
            size_winners: Vec::new(),
        }
    }
}

/// Valid first by objective, ties and invalid ones by position.
pub(crate) fn sort_ranking(r: &mut [Ranked]) {
    r.sort_by(|a, b| match (a.objective, b.objective) {
        (Some(x), Some(y)) => x.total_cmp(&y).then(a.index.cmp(&b.index)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.index.cmp(&b.index),
    });
}

/// Every candidate, in order.
#[derive(Debug, Clone, Default)]
pub struct Exhaustive;

impl Strategy for Exhaustive {
    fn name(&self) -> String {
        "exhaustive".into()
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
        let mut tally = Tally::new();
        let objectives = objectives_of(space, candidates, sizes, eval, &mut tally.evaluations)?;
        for (&i, o) in candidates.iter().zip(objectives) {
            tally.add(i, o);
        }
        Ok(tally.finish(self.name()))
    }
}

/// A seeded random sample of `budget` candidates without repetition.
#[derive(Debug, Clone)]
pub struct RandomSearch {
    pub budget: usize,
    pub seed: u64,
}

impl Strategy for RandomSearch {
    fn name(&self) -> String {
        format!("random(budget={}, seed={})", self.budget, self.seed)
    }

    fn planned_evaluations(&self, candidates: usize, sizes: usize) -> Option<usize> {
        Some(self.budget.min(candidates) * sizes)
    }

    fn run(
        &mut self,
        space: &ValidSpace,
        candidates: &[usize],
        sizes: &[ProblemKey],
        eval: &mut dyn Evaluator,
    ) -> Result<Outcome, Stop> {
        let mut order = candidates.to_vec();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(self.seed));
        order.truncate(self.budget);
        let mut tally = Tally::new();
        let objectives = objectives_of(space, &order, sizes, eval, &mut tally.evaluations)?;
        for (i, o) in order.into_iter().zip(objectives) {
            tally.add(i, o);
        }
        Ok(tally.finish(self.name()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::config::Config;
    use crate::measure::{FnEvaluator, InvalidKind, Timing};
    use crate::space::{DeviceProps, Param, Space, SpaceSpec};

    pub(crate) fn n_keys(sizes: &[u64]) -> Vec<ProblemKey> {
        crate::key::Family::default().keys(sizes)
    }

    pub(crate) fn bowl_space() -> ValidSpace {
        Space::new(
            SpaceSpec::new()
                .param(Param::range("X", 0, 19, 1))
                .param(Param::range("Y", 0, 19, 1)),
            DeviceProps::new(),
        )
        .unwrap()
        .enumerate()
    }

    /// A smooth bowl with its minimum at X=13, Y=6; X=0 fails to compile.
    pub(crate) fn bowl(c: &Config, n: u64) -> Measurement {
        let x = c.get_int("X").unwrap() as f64;
        let y = c.get_int("Y").unwrap() as f64;
        if x == 0.0 {
            return Measurement::invalid(InvalidKind::Compile, "x=0");
        }
        let t = (n as f64) * 1e-6 * (1.0 + 0.01 * ((x - 13.0).powi(2) + 2.0 * (y - 6.0).powi(2)));
        Measurement::Ok(Timing::single(t))
    }

    #[test]
    fn exhaustive_finds_the_minimum() {
        let space = bowl_space();
        let all: Vec<usize> = (0..space.len()).collect();
        let out = Exhaustive
            .run(&space, &all, &n_keys(&[100, 200]), &mut FnEvaluator(bowl))
            .unwrap();
        let best = space.config(out.best().unwrap().index);
        assert_eq!(best.key(), "X=13,Y=6");
        // Invalid configurations stop after the first size: 20 of them at 1 call each.
        assert_eq!(out.evaluations, 380 * 2 + 20);
        assert_eq!(out.ranking.len(), 400);
        assert!(out.ranking[380..].iter().all(|r| r.objective.is_none()));
        assert_eq!(out.trace.len(), 400);
        assert!(out.trace.windows(2).all(|w| w[1] <= w[0]));
        let target = out.best().unwrap().objective.unwrap();
        assert_eq!(
            out.configs_to_reach(target, 0.0),
            Some(
                out.order
                    .iter()
                    .position(|&i| i == out.best().unwrap().index)
                    .unwrap()
                    + 1
            )
        );
    }

    #[test]
    fn random_is_seeded_and_budgeted() {
        let space = bowl_space();
        let all: Vec<usize> = (0..space.len()).collect();
        let run = |seed| {
            RandomSearch { budget: 50, seed }
                .run(&space, &all, &n_keys(&[100]), &mut FnEvaluator(bowl))
                .unwrap()
        };
        let a = run(1);
        assert_eq!(a.order.len(), 50);
        assert_eq!(a.order, run(1).order);
        assert_ne!(a.order, run(2).order);
        let mut distinct = a.order.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 50);
        assert_eq!(a.evaluations, 50);
    }
}
