//! The model-based strategy and sequential sampling on a real GPU recording:
//! hone's DSYMV (lower) tuning run on an NVIDIA H100
//! (`bench/results/symv/tune/dsymv_lower.csv.gz`, every measurement of the
//! job: the champion sieve's 3,184 valid configurations at four sizes, then
//! the ten champions at 48 sizes from 64 to 32768).

mod common;

use std::path::{Path, PathBuf};

use hone_tuner::dspline::Grid;
use hone_tuner::key::Family;
use hone_tuner::replay::{Recording, ReplayEvaluator};
use hone_tuner::rule::RuleKernel;
use hone_tuner::sampling::{
    agreement, agreement_within, log_spaced, sample_fixed, sample_sequential,
};
use hone_tuner::sampling::{SamplingResult, SequentialConfig};

const SIEVE_SIZES: [u64; 4] = [512, 2048, 8192, 32768];

const ROUTINES: [&str; 4] = ["dsymv_lower", "dsymv_upper", "ssymv_lower", "ssymv_upper"];

fn recording_path(routine: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../bench/results/symv/tune/{routine}.csv.gz"))
}

fn recording(routine: &str) -> Recording {
    Recording::load(&recording_path(routine)).expect("the committed H100 recording loads")
}

#[test]
fn bayes_reaches_two_percent_within_ten_percent_of_exhaustive_on_the_h100_sieve() {
    let rec = recording("dsymv_lower").at_sizes(&SIEVE_SIZES);
    assert_eq!(rec.sizes(), SIEVE_SIZES.to_vec());
    let c = common::bayes_against_random(&rec, &["ALG", "MX", "LDHINT", "SCHED"], 5);
    assert_eq!(c.configs, 3_184, "the sieve's valid configurations");
    println!("H100 DSYMV sieve: {}", c.summary());
    c.assert_claim();
}

/// ln(time) of `config` at `n` by the 48-point d-splines: the reference
/// between the measured sizes.
fn reference_time(fixed: &SamplingResult, config: &hone_tuner::Config, n: u64) -> f64 {
    let k = fixed
        .curves
        .kernels
        .iter()
        .position(|k| &k.config == config)
        .expect("a sampled kernel");
    fixed.curves.splines[k]
        .as_ref()
        .map_or(f64::INFINITY, |s| s.at(n).exp())
}

/// What the two sampling schemes gave on one routine's recording.
struct Comparison {
    line: String,
    fixed_sizes: usize,
    sequential_sizes: usize,
    within: f64,
    loss: f64,
}

fn compare_sampling(routine: &str) -> Comparison {
    let rec = recording(routine);
    // The job's sampling phase: 48 log-spaced sizes from 64 to 32768.
    let sampled = log_spaced(64, 32768, 48);
    // The kernels measured at every sampled size: the job's ten champions,
    // and the best L+U kernel where none of them is one.
    let kernels: Vec<RuleKernel> = rec
        .configs()
        .into_iter()
        .filter(|c| {
            sampled.iter().all(|&n| {
                rec.records
                    .iter()
                    .any(|r| r.size == n && &r.config == c && r.measurement.is_ok())
            })
        })
        .enumerate()
        .map(|(i, config)| RuleKernel {
            label: format!("K{i}"),
            config,
        })
        .collect();
    assert_eq!(sampled.len(), 48);
    assert!(
        (10..=11).contains(&kernels.len()),
        "{routine}: {}",
        kernels.len()
    );
    let grid = Grid {
        lo: 64,
        hi: 32768,
        step: 32,
    };
    let tol = 0.02;
    let mut replay = ReplayEvaluator::new(&rec);
    let fixed = sample_fixed(
        "fixed",
        kernels.clone(),
        &Family::default(),
        &sampled,
        grid,
        None,
        tol,
        &mut replay,
    )
    .unwrap();
    let mut cfg = SequentialConfig::new(grid);
    cfg.tolerance = tol;
    cfg.candidates = Some(sampled.clone());
    let mut replay = ReplayEvaluator::new(&rec);
    let seq = sample_sequential(
        "sequential",
        kernels.clone(),
        &Family::default(),
        &cfg,
        &mut replay,
    )
    .unwrap();
    assert_eq!(
        replay.misses, 0,
        "sequential sampling measures recorded sizes only"
    );
    assert!(seq.sizes.iter().all(|n| sampled.contains(n)));

    let within = agreement_within(&seq.rule, &fixed.rule, grid, tol, |c, n| {
        reference_time(&fixed, c, n)
    });
    let strict = agreement(&seq.rule, &fixed.rule, grid);
    let losses: Vec<f64> = (0..grid.len())
        .map(|i| {
            let n = grid.point(i);
            reference_time(&fixed, seq.rule.select(n), n)
                / reference_time(&fixed, fixed.rule.select(n), n)
                - 1.0
        })
        .collect();
    let loss = losses.iter().sum::<f64>() / losses.len() as f64;
    let worst = losses.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let line = format!(
        "{routine}: fixed {} sizes ({} intervals); sequential {} sizes ({} rounds, {:?}, {} intervals); \
         same kernel at {:.1}% of N, within 2% at {:.1}%; loss against the 48-point rule: mean {:.3}%, worst {:.2}%",
        fixed.sizes.len(),
        fixed.rule.intervals.len(),
        seq.sizes.len(),
        seq.rounds,
        seq.stopped,
        seq.rule.intervals.len(),
        100.0 * strict,
        100.0 * within,
        100.0 * loss,
        100.0 * worst
    );
    Comparison {
        line,
        fixed_sizes: fixed.sizes.len(),
        sequential_sizes: seq.sizes.len(),
        within,
        loss,
    }
}

/// Sequential sampling restricted to the sizes the run measured, against the
/// job's 48-point rule, on all four routines. The 48-point d-splines stand
/// for the truth between measured sizes.
#[test]
fn sequential_sampling_matches_the_48_point_rules_of_the_h100_runs() {
    let results: Vec<Comparison> = std::thread::scope(|scope| {
        let handles: Vec<_> = ROUTINES
            .iter()
            .map(|r| scope.spawn(move || compare_sampling(r)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for r in &results {
        println!("{}", r.line);
    }
    let fixed: usize = results.iter().map(|r| r.fixed_sizes).sum();
    let seq: usize = results.iter().map(|r| r.sequential_sizes).sum();
    println!("sizes measured in all: fixed {fixed}, sequential {seq}");
    for r in &results {
        assert!(r.loss < 0.005, "{}", r.line);
        assert!(r.within >= 0.9, "{}", r.line);
    }
    assert!(
        seq * 10 <= fixed * 6,
        "sequential {seq} against fixed {fixed}"
    );
}
