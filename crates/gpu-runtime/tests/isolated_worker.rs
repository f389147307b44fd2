//! The supervisor against the real worker binary, with the worker acting out
//! crashes, hangs and faults (no GPU needed).

use std::sync::Arc;
use std::time::{Duration, Instant};

use hone_gpu::protocol::Simulate;
use hone_gpu::smoke::{report_error, SmokeOptions};
use hone_gpu::{
    bundled_vcopy, libs, sweep, EvalOptions, EvalRequest, GpuError, ImageKind, IsolatedEvaluator,
    Limits, ModuleCache, ModuleSource, Outcome, SweepOptions, Target, Variant, WorkerCommand,
};
use hone_tuner::InvalidKind;

fn worker() -> WorkerCommand {
    WorkerCommand::new(env!("CARGO_BIN_EXE_hone-gpu-worker"))
}

fn fast_limits() -> Limits {
    Limits {
        startup: Duration::from_secs(20),
        host: Duration::from_secs(20),
        per_launch: Duration::from_millis(300),
    }
}

fn request(n: i64) -> EvalRequest {
    let t = bundled_vcopy();
    let config = t.configs().remove(0);
    EvalRequest {
        template: t,
        config,
        n,
        module: ModuleSource::Compile,
        options: EvalOptions::default(),
    }
}

fn assert_valid(o: &Outcome) {
    assert!(matches!(o, Outcome::Valid(m) if m.gbps > 0.0), "{o:?}");
}

fn reason(o: &Outcome) -> &str {
    match o {
        Outcome::Invalid { reason, .. } => reason,
        Outcome::Valid(_) => panic!("expected an invalid outcome"),
    }
}

fn kind(o: &Outcome) -> InvalidKind {
    match o {
        Outcome::Invalid { kind, .. } => *kind,
        Outcome::Valid(_) => panic!("expected an invalid outcome"),
    }
}

#[test]
fn one_worker_serves_many_requests() {
    let mut ev = IsolatedEvaluator::new(worker()).with_limits(fast_limits());
    assert_valid(
        &ev.evaluate_as(&request(4096), Some(Simulate::Succeed))
            .unwrap(),
    );
    let pid = ev.worker_pid().expect("a worker is running");
    assert_valid(
        &ev.evaluate_as(&request(1 << 20), Some(Simulate::Succeed))
            .unwrap(),
    );
    assert_eq!(ev.worker_pid(), Some(pid));
    assert_eq!((ev.started(), ev.restarts()), (1, 0));
    ev.shutdown();
    assert!(ev.worker_pid().is_none());
}

#[test]
fn a_crash_is_invalid_and_the_next_request_gets_a_new_worker() {
    let mut ev = IsolatedEvaluator::new(worker()).with_limits(fast_limits());
    assert_valid(
        &ev.evaluate_as(&request(4096), Some(Simulate::Succeed))
            .unwrap(),
    );
    let first = ev.worker_pid();
    let o = ev
        .evaluate_as(&request(4096), Some(Simulate::Crash))
        .unwrap();
    let r = reason(&o);
    assert!(r.contains("worker died in phase `check`"), "{r}");
    assert!(r.contains("signal 6"), "{r}");
    assert_eq!(kind(&o), InvalidKind::Runtime);
    assert_eq!(ev.restarts(), 1);
    assert_valid(
        &ev.evaluate_as(&request(4096), Some(Simulate::Succeed))
            .unwrap(),
    );
    assert_ne!(ev.worker_pid(), first);
    assert_eq!(ev.started(), 2);
}

#[test]
fn a_hang_times_out_per_launch_and_tuning_goes_on() {
    let limits = fast_limits();
    let mut ev = IsolatedEvaluator::new(worker()).with_limits(limits);
    let start = Instant::now();
    let o = ev
        .evaluate_as(&request(4096), Some(Simulate::Hang))
        .unwrap();
    let waited = start.elapsed();
    let r = reason(&o);
    assert!(r.contains("timed out after 0.3 s in phase `check`"), "{r}");
    assert_eq!(kind(&o), InvalidKind::Timeout);
    // The per-launch limit applied, not the much longer host limit.
    assert!(waited < limits.host / 2, "waited {waited:?}");
    assert!(waited >= limits.per_launch);
    assert_eq!(ev.restarts(), 1);
    assert!(ev.worker_pid().is_none(), "the hung worker was killed");
    assert_valid(
        &ev.evaluate_as(&request(4096), Some(Simulate::Succeed))
            .unwrap(),
    );
}

#[test]
fn a_fault_retires_the_worker_after_its_answer() {
    let mut ev = IsolatedEvaluator::new(worker()).with_limits(fast_limits());
    let o = ev
        .evaluate_as(&request(4096), Some(Simulate::Fault))
        .unwrap();
    assert!(reason(&o).contains("CUDA_ERROR_ILLEGAL_ADDRESS"), "{o:?}");
    assert_eq!(ev.restarts(), 1);
    assert!(ev.worker_pid().is_none());
    assert_valid(
        &ev.evaluate_as(&request(4096), Some(Simulate::Succeed))
            .unwrap(),
    );
    assert_eq!(ev.started(), 2);
}

#[test]
fn faults_in_a_row_each_cost_one_worker() {
    let mut ev = IsolatedEvaluator::new(worker()).with_limits(fast_limits());
    let script = [
        Simulate::Fault,
        Simulate::Crash,
        Simulate::Succeed,
        Simulate::Hang,
        Simulate::Fault,
        Simulate::Succeed,
    ];
    let outcomes: Vec<Outcome> = script
        .iter()
        .map(|s| ev.evaluate_as(&request(1024), Some(*s)).unwrap())
        .collect();
    let valid: Vec<bool> = outcomes.iter().map(|o| o.measurement().is_some()).collect();
    assert_eq!(valid, vec![false, false, true, false, false, true]);
    assert_eq!(ev.restarts(), 4);
    assert_eq!(ev.started(), 5);
}

#[test]
fn without_a_device_the_worker_reports_no_device_and_stays_up() {
    if libs::driver_library_present() {
        return;
    }
    let mut ev = IsolatedEvaluator::new(worker()).with_limits(fast_limits());
    let err = ev.device().unwrap_err();
    assert!(matches!(err, GpuError::NoDevice(_)), "{err:?}");
    assert!(err.to_string().starts_with("no CUDA device: "), "{err}");
    let err = ev.evaluate(&request(4096)).unwrap_err();
    assert!(matches!(err, GpuError::NoDevice(_)), "{err:?}");
    assert_eq!((ev.started(), ev.restarts()), (1, 0));
}

#[test]
fn smoke_without_a_device_says_so_and_exits_zero() {
    if libs::driver_library_present() {
        return;
    }
    let mut out = Vec::new();
    let err = hone_gpu::smoke(worker(), &SmokeOptions::default(), &mut out).unwrap_err();
    let mut printed = Vec::new();
    assert_eq!(report_error(&err, &mut printed), 0);
    let printed = String::from_utf8(printed).unwrap();
    assert!(printed.starts_with("no CUDA device: "), "{printed}");
}

#[test]
fn sweep_records_uncompilable_variants_and_keeps_order() {
    if libs::nvrtc_library_present() {
        return;
    }
    let t = Arc::new(bundled_vcopy());
    let variants: Vec<Variant> = t
        .configs()
        .into_iter()
        .take(5)
        .enumerate()
        .map(|(i, config)| Variant {
            label: format!("v{i}"),
            template: Arc::clone(&t),
            config,
            sizes: vec![1024, 4096],
        })
        .collect();
    let mut ev = IsolatedEvaluator::new(worker()).with_limits(fast_limits());
    let cache =
        ModuleCache::new(std::env::temp_dir().join(format!("hone-sweep-{}", std::process::id())));
    let target = Target {
        arch: 90,
        kind: ImageKind::Cubin,
        arch_specific: false,
    };
    let mut seen = 0;
    let results = sweep(
        &mut ev,
        &cache,
        target,
        (13, 0),
        variants,
        &SweepOptions::default(),
        |_| seen += 1,
    )
    .unwrap();
    assert_eq!(seen, 5);
    let labels: Vec<&str> = results.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, vec!["v0", "v1", "v2", "v3", "v4"]);
    for r in &results {
        assert_eq!(r.results.len(), 2);
        assert!(r.cache_hit.is_none());
        assert!(
            reason(&r.results[0].outcome).contains("NVRTC"),
            "{:?}",
            r.results[0]
        );
    }
    // Nothing reached the worker.
    assert_eq!(ev.started(), 0);
}

#[test]
fn extension_requests_are_supervised_like_evaluations() {
    use hone_gpu::ExtensionReply;
    let mut ev = IsolatedEvaluator::new(worker()).with_limits(fast_limits());
    let limit = Duration::from_secs(20);
    let payload = serde_json::json!({"n": 4096});
    match ev
        .extension_as("symv", payload.clone(), limit, Some(Simulate::Succeed))
        .unwrap()
    {
        ExtensionReply::Answer { payload: p, fatal } => {
            assert_eq!(p, payload);
            assert!(!fatal);
        }
        other => panic!("{other:?}"),
    }
    let first = ev.worker_pid().expect("a worker is running");

    match ev
        .extension_as("symv", payload.clone(), limit, Some(Simulate::Crash))
        .unwrap()
    {
        ExtensionReply::Died { phase, reason } => {
            assert_eq!(phase, "run");
            assert!(
                reason.contains("signal") || reason.contains("exit"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(ev.worker_pid().is_none(), "the dead worker is gone");

    // One announced launch of 300 ms: the hang is cut short quickly.
    let start = Instant::now();
    match ev
        .extension_as("symv", payload.clone(), limit, Some(Simulate::Hang))
        .unwrap()
    {
        ExtensionReply::TimedOut { phase, seconds } => {
            assert_eq!(phase, "run");
            assert!((seconds - 0.3).abs() < 1e-9, "{seconds}");
        }
        other => panic!("{other:?}"),
    }
    assert!(start.elapsed() < Duration::from_secs(15));

    match ev
        .extension_as("symv", payload.clone(), limit, Some(Simulate::Fault))
        .unwrap()
    {
        ExtensionReply::Answer { fatal, .. } => assert!(fatal),
        other => panic!("{other:?}"),
    }
    assert!(ev.worker_pid().is_none(), "a poisoned worker is retired");

    // The binary registers no extensions: a real request is refused, by a
    // fresh worker, without killing it.
    let err = ev.extension("symv", payload, limit).unwrap_err();
    assert!(err.to_string().contains("no extension `symv`"), "{err}");
    let last = ev
        .worker_pid()
        .expect("the worker survives a refused request");
    assert_ne!(first, last);
    assert_eq!(ev.restarts(), 3);
}
