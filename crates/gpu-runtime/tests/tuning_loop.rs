//! The tuner's job runner driving the isolated worker through
//! `TemplateEvaluator`, with the worker acting out successes, a fault and a
//! hang (no GPU needed): bad variants become invalid measurements of the
//! right kind, the job finishes, and a second run measures nothing.

use std::path::Path;
use std::time::Duration;

use hone_gpu::protocol::Simulate;
use hone_gpu::{
    bundled_vcopy, IsolatedEvaluator, Limits, TemplateEvaluator, TuneOptions, WorkerCommand,
};
use hone_tuner::{
    run_job, run_whole_job, DeviceInfo, DeviceProps, InvalidKind, JobSpec, Measurement, ProblemKey,
    Stop, TuningDb,
};

const JOB: &str = r#"
name = "vcopy-simulated"
sizes = [1024, 65536]
strategy = { kind = "champion", top_k = 3, depth = 25 }
constraints = ["BLOCK_SIZE * ELEMS_PER_THREAD * VEC <= 16384"]

[kernel]
name = "vcopy"

[[param]]
name = "BLOCK_SIZE"
values = [128, 256]

[[param]]
name = "ELEMS_PER_THREAD"
values = [1, 2]

[[param]]
name = "VEC"
values = [1, 4]

[sampling]
lo = 1024
hi = 1048576
step = 1024
mode = "fixed"
count = 4
spacing = "log"
"#;

fn evaluator() -> TemplateEvaluator {
    let worker = IsolatedEvaluator::new(WorkerCommand::new(env!("CARGO_BIN_EXE_hone-gpu-worker")))
        .with_limits(Limits {
            startup: Duration::from_secs(20),
            host: Duration::from_secs(20),
            per_launch: Duration::from_millis(300),
        });
    TemplateEvaluator::new(bundled_vcopy(), worker, TuneOptions::default()).simulate(|c, _| {
        Some(match (c["BLOCK_SIZE"], c["ELEMS_PER_THREAD"], c["VEC"]) {
            (128, 2, 1) => Simulate::Fault,
            (256, 1, 1) => Simulate::Hang,
            _ => Simulate::Succeed,
        })
    })
}

#[test]
fn faults_and_hangs_are_recorded_and_the_job_finishes() {
    let spec = JobSpec::from_toml(JOB, "job.toml").unwrap();
    let db = TuningDb::open_in_memory().unwrap();
    let device = DeviceInfo::synthetic("simulated", DeviceProps::new());
    let mut eval = evaluator();
    let report = run_whole_job(&spec, Path::new("."), &device, &db, &mut eval).unwrap();
    assert_eq!(report.valid_configs, 8);
    // Every variant at both sizes: a fault or a hang is a property of the
    // variant at one size, so the sieve goes on to the next size.
    let search_calls = 8 * 2;
    assert_eq!(report.search.evaluations, search_calls);
    assert_eq!(report.champions.len(), 3);
    // Sampling: 3 champions at 4 sizes, of which 1024 was measured in the search.
    assert_eq!(report.measured, search_calls + 3 * 3);
    assert_eq!(report.reused, 3);
    let stored = db.measurements(report.job_id).unwrap();
    let kind_of = |key: &str| {
        stored
            .iter()
            .find(|s| s.config.key() == key)
            .map(|s| match &s.measurement {
                Measurement::Invalid { kind, .. } => Some(*kind),
                Measurement::Ok(_) => None,
            })
            .expect("measured")
    };
    assert_eq!(
        kind_of("BLOCK_SIZE=128,ELEMS_PER_THREAD=2,VEC=1"),
        Some(InvalidKind::Runtime)
    );
    assert_eq!(
        kind_of("BLOCK_SIZE=256,ELEMS_PER_THREAD=1,VEC=1"),
        Some(InvalidKind::Timeout)
    );
    let ok = stored.iter().filter(|s| s.measurement.is_ok()).count();
    assert_eq!(ok, report.measured - 4);
    // Valid measurements carry the template's bytes as GB/s.
    let t = stored
        .iter()
        .find_map(|s| s.measurement.timing().filter(|_| s.size == 65536))
        .unwrap();
    let expected = 8.0 * 65536.0 / t.median_s / 1e9;
    assert!((t.gbps.unwrap() - expected).abs() < 1e-6 * expected);
    let stats = eval.stats();
    assert_eq!(stats.evaluations, report.measured);
    assert_eq!(stats.valid, ok);
    assert_eq!(
        eval.restarts(),
        4,
        "a restart after each fault and each hang"
    );
    assert_eq!(stats.invalid_of(InvalidKind::Timeout), 2);
    assert_eq!(stats.invalid_of(InvalidKind::Runtime), 2);
    let rule = report.rule.unwrap();
    rule.validate().unwrap();
    assert_eq!(db.jobs().unwrap()[0].status, "finished");

    let again = run_job(
        &spec,
        Path::new("."),
        &device,
        &db,
        &mut evaluator(),
        (0, 1),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(
        (again.measured, again.reused),
        (0, report.measured + report.reused)
    );
    assert_eq!(again.rule.unwrap(), rule);
}

#[test]
fn without_a_device_connect_reports_no_device_and_evaluations_stop() {
    let worker = IsolatedEvaluator::new(WorkerCommand::new(env!("CARGO_BIN_EXE_hone-gpu-worker")));
    let mut eval = TemplateEvaluator::new(bundled_vcopy(), worker, TuneOptions::default());
    let cache = hone_gpu::ModuleCache::new(std::env::temp_dir().join("hone-tuning-loop-cache"));
    match eval.connect(cache) {
        // A CUDA machine: nothing more to check here.
        Ok(props) => assert!(props.sm_count > 0),
        Err(e) => {
            assert!(
                e.to_string().starts_with("no CUDA device"),
                "unexpected error: {e}"
            );
            let c =
                hone_tuner::Config::parse_key("BLOCK_SIZE=128,ELEMS_PER_THREAD=1,VEC=4").unwrap();
            let stop = hone_tuner::Evaluator::evaluate(&mut eval, &c, &ProblemKey::n(4096));
            // Not connected: the worker is asked to compile and answers that
            // it has no device, which stops the run.
            let failure = match stop {
                Err(Stop::Failed(e)) => e,
                other => panic!("expected the run to stop, got {other:?}"),
            };
            assert!(
                failure.to_string().starts_with("no CUDA device"),
                "{failure}"
            );
            assert_eq!(eval.stats().evaluations, 0);
        }
    }
}
