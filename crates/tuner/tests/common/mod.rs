//! The model-based strategy against random search on a recorded exhaustive
//! run, shared by the tests on the synthetic and on the GPU recordings.

use hone_tuner::key::Family;
use hone_tuner::replay::{Recording, ReplayEvaluator};
use hone_tuner::strategy::{BayesOpt, Exhaustive, RandomSearch, Strategy};

/// What Bayesian optimisation and random search needed, per seed, to come
/// within 2% of the best configuration of a recording.
pub struct BayesComparison {
    pub configs: usize,
    pub sizes: usize,
    pub exhaustive_evaluations: usize,
    /// Configurations within 2% of the best.
    pub near_best: usize,
    /// Configurations each search may evaluate: 10% of the space.
    pub budget: usize,
    pub bayes: Vec<Option<usize>>,
    pub random: Vec<Option<usize>>,
}

impl BayesComparison {
    /// Mean configurations to reach 2%; a seed that never does counts as
    /// one over the budget.
    pub fn mean(&self, v: &[Option<usize>]) -> f64 {
        v.iter()
            .map(|x| x.unwrap_or(self.budget + 1) as f64)
            .sum::<f64>()
            / v.len() as f64
    }

    pub fn summary(&self) -> String {
        format!(
            "{} configs x {} sizes; exhaustive {} evaluations; {} configs within 2% of the best; \
             budget {} configs; configs evaluated to reach 2%: bayes {:?} (mean {:.1}), random {:?} (mean {:.1})",
            self.configs,
            self.sizes,
            self.exhaustive_evaluations,
            self.near_best,
            self.budget,
            self.bayes,
            self.mean(&self.bayes),
            self.random,
            self.mean(&self.random)
        )
    }

    /// The claim: every seed within 2% of the best inside the budget, and
    /// better than random on average.
    pub fn assert_claim(&self) {
        assert!(
            self.bayes
                .iter()
                .all(|x| x.is_some_and(|n| n <= self.budget)),
            "every seed reaches 2% within 10% of exhaustive: {}",
            self.summary()
        );
        assert!(
            self.mean(&self.bayes) < self.mean(&self.random),
            "the model beats random sampling: {}",
            self.summary()
        );
    }
}

/// Runs exhaustive search once, then `seeds` seeds of Bayesian optimisation
/// (treating `categorical` parameters as unordered) and of random search,
/// each with 10% of the space, side by side.
pub fn bayes_against_random(rec: &Recording, categorical: &[&str], seeds: u64) -> BayesComparison {
    let space = rec.valid_space().unwrap();
    let sizes = Family::default().keys(&rec.sizes());
    let all: Vec<usize> = (0..space.len()).collect();
    let mut replay = ReplayEvaluator::new(rec);
    let exhaustive = Exhaustive.run(&space, &all, &sizes, &mut replay).unwrap();
    assert_eq!(replay.misses, 0, "the recording is exhaustive");
    let best = exhaustive.best().unwrap().objective.unwrap();
    let near_best = exhaustive
        .ranking
        .iter()
        .filter(|r| r.objective.is_some_and(|o| o <= best + 1.02f64.ln()))
        .count();
    let budget = space.len() / 10;
    let runs: Vec<(Option<usize>, Option<usize>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..seeds)
            .map(|seed| {
                let (space, all, sizes) = (&space, &all, &sizes);
                let exhaustive_evaluations = exhaustive.evaluations;
                scope.spawn(move || {
                    let mut replay = ReplayEvaluator::new(rec);
                    let mut bo = BayesOpt::new(budget, seed);
                    bo.categorical = categorical.iter().map(|c| c.to_string()).collect();
                    let out = bo.run(space, all, sizes, &mut replay).unwrap();
                    assert_eq!(replay.misses, 0);
                    assert!(out.evaluations <= exhaustive_evaluations / 10 + sizes.len());
                    let mut replay = ReplayEvaluator::new(rec);
                    let rnd = RandomSearch { budget, seed }
                        .run(space, all, sizes, &mut replay)
                        .unwrap();
                    (
                        out.configs_to_reach(best, 0.02),
                        rnd.configs_to_reach(best, 0.02),
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    BayesComparison {
        configs: space.len(),
        sizes: sizes.len(),
        exhaustive_evaluations: exhaustive.evaluations,
        near_best,
        budget,
        bayes: runs.iter().map(|r| r.0).collect(),
        random: runs.iter().map(|r| r.1).collect(),
    }
}
