//! The model-based strategy against exhaustive and random search on a recorded
//! run: it must come within 2% of the best configuration using at most 10% of
//! the evaluations exhaustive search needs.
//!
//! By default the recording is made once by the synthetic SYMV backend over a
//! 6,400-combination space (2,912 valid); set `HONE_TUNER_RECORDING` to a CSV or
//! JSON recording (e.g. exported from a GPU run) to use that instead.

use hone_tuner::replay::{record_all, Recording, ReplayEvaluator};
use hone_tuner::space::{DeviceProps, Param, Space, SpaceSpec};
use hone_tuner::strategy::{BayesOpt, Exhaustive, RandomSearch, Strategy};
use hone_tuner::synthetic::{SyntheticEvaluator, SyntheticModel};
use std::path::Path;

fn recording() -> Recording {
    if let Ok(path) = std::env::var("HONE_TUNER_RECORDING") {
        return Recording::load(Path::new(&path)).expect("HONE_TUNER_RECORDING is readable");
    }
    let spec = SpaceSpec::new()
        .param(Param::range("BLOCK_SIZE", 32, 256, 32))
        .param(Param::range("UX", 8, 32, 1))
        .param(Param::range("MULTIPLICITY", 1, 8, 1))
        .param(Param::range("MX", 0, 3, 1))
        .constraint(
            "MULTIPLICITY * 8 * (UX + max(BLOCK_SIZE * UX, UX * UX)) <= unified_l1_smem_per_sm",
        );
    let valid = Space::new(spec, DeviceProps::tesla_k20())
        .unwrap()
        .enumerate();
    let mut synth = SyntheticEvaluator::new(SyntheticModel::symv_k20(), 2013);
    let rec = record_all(&valid, &[4000], &mut synth);
    // Through the CSV form, as a recorded GPU run would arrive.
    Recording::from_csv_str(&rec.to_csv_string(), "generated").unwrap()
}

#[test]
fn bayes_reaches_two_percent_within_ten_percent_of_exhaustive() {
    let rec = recording();
    let space = rec.valid_space().unwrap();
    let sizes = rec.sizes();
    assert!(
        space.len() >= 2_000,
        "the recording has {} configurations",
        space.len()
    );
    let all: Vec<usize> = (0..space.len()).collect();

    let mut replay = ReplayEvaluator::new(&rec);
    let exhaustive = Exhaustive.run(&space, &all, &sizes, &mut replay);
    let best = exhaustive.best().unwrap().objective.unwrap();
    let near_best = exhaustive
        .ranking
        .iter()
        .filter(|r| r.objective.is_some_and(|o| o <= best + 1.02f64.ln()))
        .count();
    let budget = space.len() / 10;

    // Seeds run side by side; each has its own replay of the recording.
    let runs: Vec<(Option<usize>, Option<usize>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..5u64)
            .map(|seed| {
                let (rec, space, all, sizes) = (&rec, &space, &all, &sizes);
                let exhaustive_evaluations = exhaustive.evaluations;
                scope.spawn(move || {
                    let mut replay = ReplayEvaluator::new(rec);
                    let mut bo = BayesOpt::new(budget, seed);
                    bo.categorical = vec!["MX".into()];
                    let out = bo.run(space, all, sizes, &mut replay);
                    assert_eq!(replay.misses, 0);
                    assert!(out.evaluations <= exhaustive_evaluations / 10 + sizes.len());
                    let mut replay = ReplayEvaluator::new(rec);
                    let rnd = RandomSearch { budget, seed }.run(space, all, sizes, &mut replay);
                    (
                        out.configs_to_reach(best, 0.02),
                        rnd.configs_to_reach(best, 0.02),
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let bayes_needed: Vec<Option<usize>> = runs.iter().map(|r| r.0).collect();
    let random_needed: Vec<Option<usize>> = runs.iter().map(|r| r.1).collect();
    let show = |v: &[Option<usize>]| {
        v.iter()
            .map(|x| x.map_or("-".to_string(), |n| n.to_string()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mean = |v: &[Option<usize>]| {
        v.iter()
            .map(|x| x.unwrap_or(budget + 1) as f64)
            .sum::<f64>()
            / v.len() as f64
    };
    println!(
        "space {} configs x {} sizes; exhaustive {} evaluations; {} configs within 2% of best; budget {} configs",
        space.len(),
        sizes.len(),
        exhaustive.evaluations,
        near_best,
        budget
    );
    println!(
        "configs evaluated to reach 2% of best: bayes [{}] mean {:.1}; random [{}] mean {:.1}",
        show(&bayes_needed),
        mean(&bayes_needed),
        show(&random_needed),
        mean(&random_needed)
    );
    assert!(
        bayes_needed.iter().all(|x| x.is_some_and(|n| n <= budget)),
        "every seed reaches 2% within the budget: {bayes_needed:?}"
    );
    assert!(
        mean(&bayes_needed) < mean(&random_needed),
        "the model beats random sampling"
    );
}
