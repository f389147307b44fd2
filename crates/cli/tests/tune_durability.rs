//! `hone tune` killed with SIGKILL at random moments, again and again, over
//! one job: every measurement a reader saw committed before a kill is still
//! in the database after it, and the job resumed to its end draws the rule
//! of an uninterrupted run. Measurements come from a replayed recording, so
//! no GPU is needed, paced at half a millisecond each so that the kills land
//! among the commits however loaded the machine is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hone_tuner::db::StoredMeasurement;
use hone_tuner::sampling::linear_spaced;
use hone_tuner::{
    DeviceProps, Rule, Space, SpaceSpec, SyntheticEvaluator, SyntheticModel, TuningDb,
};

const JOB: &str = r#"
name = "durable"
sizes = [1000, 4000, 16000]
strategy = { kind = "champion", top_k = 4, depth = 10 }
constraints = ["A * B <= max_ab"]

[kernel]
name = "durable-kernel"

[[param]]
name = "A"
range = { start = 1, end = 24, step = 1 }

[[param]]
name = "B"
range = { start = 1, end = 12, step = 1 }

[sampling]
lo = 1000
hi = 64000
step = 100
mode = "fixed"
count = 12
spacing = "linear"
tolerance = 0.01
"#;

const KILLS: usize = 50;

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The job, its device properties, and a recording of every valid
/// configuration at every size the job asks for.
fn setup(dir: &Path) -> [PathBuf; 3] {
    let job = dir.join("durable.tune.toml");
    std::fs::write(&job, JOB).unwrap();
    let props = dir.join("device.json");
    std::fs::write(&props, r#"{"max_ab": 96}"#).unwrap();
    let spec = hone_tuner::JobSpec::from_toml(JOB, "durable.tune.toml").unwrap();
    let space: SpaceSpec = spec.space_spec();
    let valid = Space::new(space, DeviceProps::new().with("max_ab", 96))
        .unwrap()
        .enumerate();
    let mut sizes = vec![1000, 4000, 16000];
    sizes.extend(linear_spaced(1000, 64000, 12));
    sizes.sort_unstable();
    sizes.dedup();
    let mut synth = SyntheticEvaluator::new(SyntheticModel::Generic, 11);
    let rec =
        hone_tuner::replay::record_all(&valid, &Default::default(), &sizes, &mut synth).unwrap();
    let recording = dir.join("recording.csv");
    rec.save(&recording).unwrap();
    [job, props, recording]
}

fn tune(files: &[PathBuf; 3], db: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hone"));
    c.arg("tune")
        .arg(&files[0])
        .arg("--replay")
        .arg(&files[2])
        .arg("--device-props")
        .arg(&files[1])
        .arg("--replay-pace")
        .arg("0.5")
        .arg("--db")
        .arg(db)
        .arg("--json")
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    c
}

fn finish(files: &[PathBuf; 3], db: &Path) -> Rule {
    let out = tune(files, db).stderr(Stdio::piped()).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_value(v["rule"].clone()).expect("a rule")
}

/// Measurements committed so far and the largest row id among them, as a
/// read-only reader sees them (cheap enough to ask between two commits);
/// none while the database or its tables do not exist yet.
fn count(db: &Path) -> (usize, i64) {
    count_on(&mut None, db)
}

/// [`count`] through `reader`, opened once the database exists and kept:
/// polling then takes microseconds, so a kill lands within a few commits of
/// its moment on a machine of any speed.
fn count_on(reader: &mut Option<rusqlite::Connection>, db: &Path) -> (usize, i64) {
    if reader.is_none() {
        *reader = rusqlite::Connection::open_with_flags(
            db,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .ok();
    }
    let Some(conn) = reader else {
        return (0, 0);
    };
    conn.query_row(
        "SELECT COUNT(*), COALESCE(MAX(id), 0) FROM measurements",
        [],
        |r| Ok((r.get::<_, i64>(0)? as usize, r.get::<_, i64>(1)?)),
    )
    .unwrap_or((0, 0))
}

/// Rows of the measurements table with ids up to `id`.
fn rows_up_to(db: &Path, id: i64) -> usize {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("the database opens after any kill");
    conn.query_row(
        "SELECT COUNT(*) FROM measurements WHERE id <= ?1",
        [id],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n as usize)
    .unwrap_or(0)
}

/// The job's measurements by (configuration, problem), as a reader sees
/// them now; none before the job exists.
fn committed(db: &Path) -> HashMap<(String, String), StoredMeasurement> {
    let tables =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .and_then(|c| {
                c.query_row(
                    "SELECT COUNT(*) FROM sqlite_master WHERE name = 'measurements'",
                    [],
                    |r| r.get::<_, i64>(0),
                )
            })
            .unwrap_or(0);
    if tables == 0 {
        return HashMap::new();
    }
    let store = TuningDb::open(db).expect("the database opens after any kill");
    let Some(id) = store.job_id("durable").expect("jobs are readable") else {
        return HashMap::new();
    };
    store
        .measurements(id)
        .expect("measurements are readable")
        .into_iter()
        .map(|m| ((m.config.key(), m.problem.to_string()), m))
        .collect()
}

/// A small deterministic generator; the seed is printed so a failure can be
/// replayed.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

#[test]
fn tuning_killed_fifty_times_keeps_every_commit_and_draws_the_same_rule() {
    let dir = std::env::temp_dir().join(format!("hone-durability-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dir = Scratch(dir);
    let files = setup(&dir.0);

    // An uninterrupted run, timed, for the rule and the kill moments.
    let whole_db = dir.0.join("whole.sqlite");
    let t = Instant::now();
    let whole_rule = finish(&files, &whole_db);
    let whole_time = t.elapsed();
    let whole = committed(&whole_db);
    assert!(whole.len() > 500, "{} measurements", whole.len());

    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    eprintln!("kill moments from seed {seed}");
    let mut rng = Lcg(seed);
    // Kill moments: one run in five is killed at a random moment of its
    // start (opening the database, building the space; at its first commit
    // at the latest); the others once a
    // random number of new measurements (at most 1/KILLS of the job) have
    // been committed, or at once when the job is complete
    // (while the rule is fitted and stored). Waiting on commits rather than
    // on time keeps the kills among the commits on a machine of any speed.
    let target = (whole.len() / KILLS).max(1) as u64;
    let db = dir.0.join("killed.sqlite");
    let mut seen = committed(&db);
    let mut kills = 0;
    let mut runs = 0;
    let mut progressed = 0;
    while kills < KILLS {
        runs += 1;
        assert!(runs < 4 * KILLS, "only {kills} kills in {runs} runs");
        let early = rng.below(5) == 0;
        let want = (seen.len() + 1 + rng.below(target) as usize).min(whole.len());
        let delay = Duration::from_micros(rng.below(30_000));
        let mut child = tune(&files, &db).stdout(Stdio::null()).spawn().unwrap();
        let mut polled = (0, 0);
        if early {
            // Within the start: at the random moment, or at the first new
            // commit if that comes sooner (a fast machine starts quickly).
            let t = Instant::now();
            let mut reader = None;
            while t.elapsed() < delay && child.try_wait().unwrap().is_none() {
                polled = count_on(&mut reader, &db);
                if polled.0 > seen.len() {
                    break;
                }
                std::thread::sleep(Duration::from_micros(50));
            }
            polled = count(&db);
        } else {
            let t = Instant::now();
            let mut reader = None;
            while child.try_wait().unwrap().is_none() {
                polled = count_on(&mut reader, &db);
                if polled.0 >= want {
                    break;
                }
                assert!(t.elapsed() < Duration::from_secs(60), "no progress");
                std::thread::sleep(Duration::from_micros(50));
            }
        }
        if child.try_wait().unwrap().is_some() {
            // The run ended on its own (the job was done): nothing to kill.
            seen = committed(&db);
            continue;
        }
        child.kill().unwrap();
        let status = child.wait().unwrap();
        assert!(status.code().is_none(), "killed by a signal: {status:?}");
        kills += 1;
        // What a reader saw committed just before the kill survives it.
        if polled.0 > 0 {
            assert_eq!(
                rows_up_to(&db, polled.1),
                polled.0,
                "kill {kills}: measurements committed before the kill are lost"
            );
        }
        let after = committed(&db);
        for (key, m) in &seen {
            assert_eq!(
                after.get(key),
                Some(m),
                "kill {kills}: {key:?} was committed before the kill and is lost or changed"
            );
        }
        // Every measurement is one the uninterrupted run made too.
        for (key, m) in &after {
            let w = whole
                .get(key)
                .unwrap_or_else(|| panic!("{key:?} not in the whole run"));
            assert_eq!(m.measurement, w.measurement, "{key:?}");
        }
        if after.len() > seen.len() {
            progressed += 1;
        }
        seen = after;
    }
    eprintln!(
        "{kills} kills in {runs} runs ({progressed} after new commits), {} of {} measurements committed by then; the whole run took {whole_time:?}",
        seen.len(),
        whole.len()
    );
    // Most kills fell while measurements were being committed.
    assert!(
        progressed >= KILLS / 3,
        "only {progressed} kills after new commits"
    );

    let rule = finish(&files, &db);
    assert_eq!(rule, whole_rule);
    let last = committed(&db);
    assert_eq!(last.len(), whole.len());
    for (key, m) in &last {
        assert_eq!(m.measurement, whole[key].measurement, "{key:?}");
    }
}
