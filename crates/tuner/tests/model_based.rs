//! The model-based strategy against exhaustive and random search on a recorded
//! run: it must come within 2% of the best configuration using at most 10% of
//! the evaluations exhaustive search needs.
//!
//! By default the recording is made once by the synthetic SYMV backend over a
//! 6,400-combination space (2,912 valid); set `HONE_TUNER_RECORDING` to a CSV or
//! JSON recording (e.g. exported from a GPU run) to use that instead.

mod common;

use hone_tuner::key::Family;
use hone_tuner::replay::{record_all, Recording};
use hone_tuner::space::{DeviceProps, Param, Space, SpaceSpec};
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
    let rec = record_all(&valid, &Family::default(), &[4000], &mut synth).unwrap();
    // Through the CSV form, as a recorded GPU run would arrive.
    Recording::from_csv_str(&rec.to_csv_string(), "generated").unwrap()
}

#[test]
fn bayes_reaches_two_percent_within_ten_percent_of_exhaustive() {
    let rec = recording();
    let c = common::bayes_against_random(&rec, &["MX"], 5);
    assert!(
        c.configs >= 2_000,
        "the recording has {} configurations",
        c.configs
    );
    println!("{}", c.summary());
    c.assert_claim();
}
