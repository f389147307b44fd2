//! Tuning on several devices through `DevicePool`, with workers that report
//! simulated devices and act out evaluations (no GPU needed): the work is
//! shared, every measurement names its device, a device whose worker keeps
//! dying is retired without stopping the others or leaving a trace in the
//! results, and devices of two models are told apart.

use std::path::Path;
use std::time::Duration;

use hone_gpu::devices::{group_by_model, mixed_devices_error};
use hone_gpu::protocol::Simulate;
use hone_gpu::tuning::device_info;
use hone_gpu::{
    bundled_vcopy, DevicePool, DeviceProps, IsolatedEvaluator, Limits, TemplateEvaluator,
    TuneOptions, WorkerCommand,
};
use hone_tuner::{
    run_tasks, run_whole_job, Evaluator, InvalidKind, JobReport, JobSpec, Measurement, OnDevice,
    ParamValue, ProblemKey, Sink, StopAt, Task, TuningDb,
};

const JOB: &str = r#"
name = "vcopy-devices"
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

/// How a simulated device behaves.
#[derive(Clone, Copy)]
enum Behaviour {
    /// Measures every variant, but one variant faults wherever it runs.
    Healthy,
    /// Its worker aborts on every request.
    Dying,
}

/// A lane on a simulated device `name` at `mhz`, ordinal `ordinal`.
fn lane(ordinal: u32, name: &str, mhz: u32, behaviour: Behaviour) -> (TemplateEvaluator, OnDevice) {
    let worker = IsolatedEvaluator::new(WorkerCommand::new(env!("CARGO_BIN_EXE_hone-gpu-worker")))
        .with_limits(Limits {
            startup: Duration::from_secs(20),
            host: Duration::from_secs(20),
            per_launch: Duration::from_millis(300),
        });
    let mut eval = TemplateEvaluator::new(bundled_vcopy(), worker, TuneOptions::default())
        .simulate(move |c, _| {
            Some(match behaviour {
                Behaviour::Dying => Simulate::Crash,
                Behaviour::Healthy => match (c["BLOCK_SIZE"], c["ELEMS_PER_THREAD"], c["VEC"]) {
                    (128, 2, 1) => Simulate::Fault,
                    _ => Simulate::Succeed,
                },
            })
        });
    let props = eval
        .connect_simulated(DeviceProps::simulated(ordinal, name, mhz))
        .expect("the worker reports the simulated device");
    assert_eq!((props.ordinal, props.name.as_str()), (ordinal, name));
    let on = OnDevice {
        ordinal,
        info: device_info(&props),
    };
    (eval, on)
}

fn run(pool: &mut DevicePool<TemplateEvaluator>, db: &TuningDb) -> Result<JobReport, String> {
    run_text(JOB, pool, db)
}

/// The job with every value of the template's parameters (59 variants).
fn large_job() -> String {
    JOB.replace("values = [128, 256]", "values = [64, 128, 256, 512, 1024]")
        .replace("values = [1, 2]\n", "values = [1, 2, 4, 8]\n")
        .replace("values = [1, 4]", "values = [1, 2, 4]")
}

fn run_text(
    text: &str,
    pool: &mut DevicePool<TemplateEvaluator>,
    db: &TuningDb,
) -> Result<JobReport, String> {
    let spec = JobSpec::from_toml(text, "job.toml").unwrap();
    let device = pool.device().unwrap().info.clone();
    run_whole_job(&spec, Path::new("."), &device, db, pool).map_err(|e| e.to_string())
}

/// The job on one healthy device: what the others must reproduce.
fn reference(text: &str) -> JobReport {
    let db = TuningDb::open_in_memory().unwrap();
    let mut one = DevicePool::new(vec![lane(0, "Sim H100", 1980, Behaviour::Healthy)]);
    run_text(text, &mut one, &db).unwrap()
}

fn kind_of(db: &TuningDb, job: i64, key: &str) -> Option<InvalidKind> {
    db.measurements(job)
        .unwrap()
        .iter()
        .find(|s| s.config.key() == key)
        .and_then(|s| match &s.measurement {
            Measurement::Invalid { kind, .. } => Some(*kind),
            Measurement::Ok(_) => None,
        })
}

#[test]
fn two_devices_share_the_work_and_give_the_rule_of_one() {
    let alone = reference(JOB);
    let db = TuningDb::open_in_memory().unwrap();
    let mut pool = DevicePool::new(vec![
        lane(0, "Sim H100", 1980, Behaviour::Healthy),
        lane(1, "Sim H100", 1980, Behaviour::Healthy),
    ]);
    let both = run(&mut pool, &db).unwrap();
    assert_eq!(both.rule, alone.rule);
    assert_eq!(both.champions, alone.champions);
    assert_eq!(both.measured, alone.measured);
    // A variant's own fault is recorded as such, whichever device ran it.
    assert_eq!(
        kind_of(&db, both.job_id, "BLOCK_SIZE=128,ELEMS_PER_THREAD=2,VEC=1"),
        Some(InvalidKind::Runtime)
    );
    let reports = pool.reports();
    assert!(reports.iter().all(|r| r.retired.is_none()), "{reports:?}");
    assert!(
        reports.iter().all(|r| r.measurements > 0),
        "both devices got work: {reports:?}"
    );
    assert_eq!(
        reports.iter().map(|r| r.measurements).sum::<usize>(),
        both.measured
    );
    // Each measurement names its device and ordinal, as the workers reported them.
    let shares = db.job_devices(both.job_id).unwrap();
    let mut seen: Vec<(Option<u32>, String)> = shares
        .iter()
        .map(|s| (s.ordinal, s.device.uuid.clone()))
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        vec![
            (Some(0), "GPU-simulated-0-Sim H100".to_string()),
            (Some(1), "GPU-simulated-1-Sim H100".to_string()),
        ]
    );
    assert!(shares
        .iter()
        .all(|s| s.device.clock_mhz == Some(1980.0) && s.device.name == "Sim H100"));
    // Resuming on the pool measures nothing new.
    let again = run(&mut pool, &db).unwrap();
    assert_eq!(
        (again.measured, again.reused),
        (0, both.measured + both.reused)
    );
}

/// Stops the handing out of work after `after` measurements, as
/// `hone tune --max-measurements` does (or an interruption would).
struct Interrupt<'a> {
    pool: &'a mut DevicePool<TemplateEvaluator>,
    after: usize,
    seen: usize,
}

impl Evaluator for Interrupt<'_> {
    fn evaluate(
        &mut self,
        c: &hone_tuner::Config,
        k: &ProblemKey,
    ) -> Result<Measurement, hone_tuner::Stop> {
        self.pool.evaluate(c, k)
    }

    fn evaluate_tasks(
        &mut self,
        tasks: &[Task],
        sink: &mut Sink<'_>,
    ) -> Result<(), hone_tuner::Stop> {
        let (after, seen) = (self.after, &mut self.seen);
        self.pool.evaluate_tasks(tasks, &mut |t| {
            *seen += 1;
            sink(t)?;
            if *seen >= after {
                Err(hone_tuner::Stop::Limit(after))
            } else {
                Ok(())
            }
        })
    }
}

#[test]
fn an_interrupted_run_on_two_devices_resumes_without_losing_a_measurement() {
    let alone = reference(JOB);
    let db = TuningDb::open_in_memory().unwrap();
    let mut pool = DevicePool::new(vec![
        lane(0, "Sim H100", 1980, Behaviour::Healthy),
        lane(1, "Sim H100", 1980, Behaviour::Healthy),
    ]);
    let spec = JobSpec::from_toml(JOB, "job.toml").unwrap();
    let device = pool.device().unwrap().info.clone();
    let mut cut = Interrupt {
        pool: &mut pool,
        after: 7,
        seen: 0,
    };
    let err = run_whole_job(&spec, Path::new("."), &device, &db, &mut cut)
        .unwrap_err()
        .to_string();
    assert!(err.contains("stopped after 7"), "{err}");
    // Every measurement taken was stored, those in flight at the stop too.
    let taken = cut.seen;
    assert!(taken >= 7);
    let job = db.job_id(&spec.name).unwrap().unwrap();
    assert_eq!(db.measurement_count(job).unwrap(), taken);
    let resumed = run(&mut pool, &db).unwrap();
    assert!(resumed.resumed);
    assert_eq!(resumed.measured + taken, alone.measured);
    assert_eq!(resumed.rule, alone.rule);
}

#[test]
fn a_device_whose_worker_keeps_dying_is_retired_and_the_others_finish() {
    let job = large_job();
    let alone = reference(&job);
    assert_eq!(alone.valid_configs, 59);
    let db = TuningDb::open_in_memory().unwrap();
    let mut pool = DevicePool::new(vec![
        lane(0, "Sim H100", 1980, Behaviour::Healthy),
        lane(1, "Sim H100", 1980, Behaviour::Dying),
        lane(2, "Sim H100", 1980, Behaviour::Healthy),
    ]);
    // The dying lane must see this many variants before the healthy ones
    // finish the 59; each costs it a worker restart, which a loaded machine
    // makes slow, so the bar is kept low enough to be reached every time.
    pool.retire_after = 2;
    let report = run_text(&job, &mut pool, &db).unwrap();
    assert_eq!(report.rule, alone.rule);
    assert_eq!(report.measured, alone.measured);
    let reports = pool.reports();
    let dying = &reports[1];
    let why = dying
        .retired
        .as_deref()
        .expect("the dying device is retired");
    assert!(why.contains("in a row"), "{why}");
    // What it measured is kept only where another device's worker died on
    // the same variant too.
    let stored = db.measurements(report.job_id).unwrap();
    assert!(stored
        .iter()
        .filter(|s| s.ordinal == Some(1))
        .all(|s| s.config.key() == "BLOCK_SIZE=128,ELEMS_PER_THREAD=2,VEC=1"));
    assert!(dying.restarts >= pool.retire_after);
    assert!(reports[0].retired.is_none() && reports[2].retired.is_none());
    // Only the real fault is invalid: the dying device's variants went back
    // to the queue and were measured elsewhere.
    let invalid: Vec<String> = stored
        .iter()
        .filter(|s| !s.measurement.is_ok())
        .map(|s| s.config.key())
        .collect();
    assert!(
        invalid
            .iter()
            .all(|k| k == "BLOCK_SIZE=128,ELEMS_PER_THREAD=2,VEC=1"),
        "{invalid:?}"
    );
}

#[test]
fn the_last_device_standing_records_what_its_worker_does() {
    let mut pool = DevicePool::new(vec![
        lane(0, "Sim H100", 1980, Behaviour::Dying),
        lane(1, "Sim H100", 1980, Behaviour::Dying),
    ]);
    pool.retire_after = 2;
    let tasks: Vec<Task> = bundled_vcopy()
        .configs()
        .iter()
        .take(6)
        .map(|c| {
            let config = hone_tuner::Config::new(
                c.iter()
                    .map(|(k, v)| (k.clone(), ParamValue::Int(*v)))
                    .collect(),
            );
            Task::new(config, vec![ProblemKey::n(4096)], StopAt::Never)
        })
        .collect();
    let measured = run_tasks(&mut pool, &tasks).unwrap();
    // One device is retired; the other, alone, is not second-guessed: each
    // worker death is the variant's failure, as on one device.
    let reports = pool.reports();
    assert_eq!(
        reports.iter().filter(|r| r.retired.is_some()).count(),
        1,
        "{reports:?}"
    );
    assert!(measured.iter().all(|ms| matches!(
        ms.as_slice(),
        [Measurement::Invalid {
            kind: InvalidKind::Runtime,
            ..
        }]
    )));
}

#[test]
fn devices_of_two_models_are_told_apart_and_not_mixed_in_one_job() {
    let (a, on_a) = lane(0, "Sim H100", 1980, Behaviour::Healthy);
    let (b, on_b) = lane(1, "Sim A100", 1410, Behaviour::Healthy);
    let devices = [on_a.clone(), on_b.clone()];
    assert_eq!(group_by_model(&devices), vec![vec![0], vec![1]]);
    let err = mixed_devices_error(&devices).to_string();
    assert!(
        err.contains("Sim H100") && err.contains("Sim A100") && err.contains("--per-device-rules"),
        "{err}"
    );
    // Put in one pool anyway, the job refuses the other model's measurements.
    let db = TuningDb::open_in_memory().unwrap();
    let mut pool = DevicePool::new(vec![(a, on_a), (b, on_b)]);
    let err = run(&mut pool, &db).unwrap_err();
    assert!(err.contains("one device model"), "{err}");
}
