//! Tuning job files and tuning databases that are malformed, hostile or
//! damaged: each is refused with exit code 2 and a message naming the file
//! (and the line or field), never a panic, a signal or a process that
//! allocates without end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use hone_tuner::{DeviceProps, Space, SyntheticEvaluator, SyntheticModel};

const JOB: &str = r#"name = "small"
sizes = [1000, 4000]
strategy = { kind = "champion", top_k = 2, depth = 4 }
constraints = ["A * B <= 12"]

[kernel]
name = "small-kernel"

[[param]]
name = "A"
values = [1, 2, 3, 4]

[[param]]
name = "B"
values = [1, 2, 3]

[sampling]
lo = 1000
hi = 16000
step = 100
mode = "fixed"
count = 6
spacing = "linear"
"#;

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("hone-bad-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn hone(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hone"))
        .args(args)
        .output()
        .unwrap()
}

/// Exit code 2 by the process itself; its standard error.
fn refused(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A recording of every valid configuration of `JOB` at the sizes it asks
/// for, and a tuning database made by replaying it.
fn tuned(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let job = dir.join("small.tune.toml");
    std::fs::write(&job, JOB).unwrap();
    let spec = hone_tuner::JobSpec::from_toml(JOB, "small.tune.toml").unwrap();
    let valid = Space::new(spec.space_spec(), DeviceProps::new())
        .unwrap()
        .enumerate();
    let mut sizes = vec![1000, 4000];
    sizes.extend(hone_tuner::sampling::linear_spaced(1000, 16000, 6));
    let mut synth = SyntheticEvaluator::new(SyntheticModel::Generic, 3);
    let rec =
        hone_tuner::replay::record_all(&valid, &Default::default(), &sizes, &mut synth).unwrap();
    let recording = dir.join("recording.csv");
    rec.save(&recording).unwrap();
    let db = dir.join("tuned.sqlite");
    let out = hone(&["tune", s(&job), "--replay", s(&recording), "--db", s(&db)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (job, recording, db)
}

#[test]
fn bad_job_files_name_the_file_and_the_line_or_field() {
    let dir = scratch("jobs");
    let (_, recording, _) = tuned(&dir.0);
    let cases: [(&str, &str, &[&str]); 9] = [
        (
            "top_k = 2",
            "top_k = \"two\"",
            &["line 3", "invalid type: string \"two\""],
        ),
        ("name = \"B\"", "name = \"B\"\nbogus = 1", &["bogus"]),
        ("sizes = [1000, 4000]\n", "", &["give `sizes`"]),
        (
            "values = [1, 2, 3, 4]",
            "range = { start = -9223372036854775808, end = 9223372036854775807 }",
            &[
                "parameter `A`",
                "range has 18446744073709551616 values",
                "65535",
            ],
        ),
        (
            "values = [1, 2, 3, 4]",
            "range = { start = 1, end = 10, step = 0 }",
            &["parameter `A`", "positive step"],
        ),
        (
            "sizes = [1000, 4000]",
            "sizes = { lo = 1, hi = 1000000000000, count = 1000000000000 }",
            &["`sizes` asks for 1000000000000 sizes", "100000"],
        ),
        (
            "step = 100",
            "step = 1\nhi = 1000000000000000",
            &["duplicate key"],
        ),
        (
            "hi = 16000\nstep = 100",
            "hi = 1000000000000000\nstep = 1",
            &["sampling: the grid", "larger `step`"],
        ),
        (
            "count = 6",
            "count = 100000000000",
            &["sampling asks for 100000000000 sizes"],
        ),
    ];
    for (i, (from, to, wants)) in cases.iter().enumerate() {
        assert!(JOB.contains(from), "{from}");
        let path = dir.0.join(format!("bad{i}.tune.toml"));
        std::fs::write(&path, JOB.replacen(from, to, 1)).unwrap();
        let t = Instant::now();
        let err = refused(&hone(&[
            "tune",
            s(&path),
            "--replay",
            s(&recording),
            "--db",
            s(&dir.0.join(format!("bad{i}.sqlite"))),
        ]));
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "{to}: {:?}",
            t.elapsed()
        );
        assert!(err.contains(&format!("bad{i}.tune.toml")), "{to}: {err}");
        for w in wants.iter() {
            assert!(err.contains(w), "{to}: wants `{w}` in {err}");
        }
    }
    // A constraint that does not parse names the constraint.
    let path = dir.0.join("constraint.tune.toml");
    std::fs::write(&path, JOB.replacen("A * B <= 12", "A * (B <= 12", 1)).unwrap();
    let err = refused(&hone(&[
        "tune",
        s(&path),
        "--replay",
        s(&recording),
        "--db",
        s(&dir.0.join("c.sqlite")),
    ]));
    assert!(err.contains("A * (B <= 12"), "{err}");
    // Not text at all.
    let path = dir.0.join("binary.tune.toml");
    std::fs::write(&path, [0xff, 0xfe, 0, 1, 2]).unwrap();
    let err = refused(&hone(&[
        "tune",
        s(&path),
        "--replay",
        s(&recording),
        "--db",
        s(&dir.0.join("b.sqlite")),
    ]));
    assert!(err.contains("binary.tune.toml"), "{err}");
}

#[test]
fn damaged_tuning_databases_are_refused_naming_the_file() {
    let dir = scratch("dbs");
    let (job, recording, db) = tuned(&dir.0);
    let good = std::fs::read(&db).unwrap();
    assert!(good.len() > 8192, "{} bytes", good.len());
    let mut damaged: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() / 2].to_vec()),
        ("text", b"measurements, not a database\n".to_vec()),
    ];
    // The schema page wiped: SQLite's header is intact, the tables are gone.
    let mut wiped = good.clone();
    wiped[100..4096].fill(0);
    damaged.push(("wiped", wiped));
    // Every page after the first overwritten with noise.
    let mut noisy = good.clone();
    let mut x = 0x9e3779b97f4a7c15u64;
    for b in &mut noisy[4096..] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = x as u8;
    }
    damaged.push(("noisy", noisy));
    for (name, bytes) in &damaged {
        let path = dir.0.join(format!("{name}.sqlite"));
        for command in [
            vec!["rule", "--db", s(&path)],
            vec!["report", "--db", s(&path), "--out", s(&dir.0)],
            vec!["tune", s(&job), "--replay", s(&recording), "--db", s(&path)],
            vec!["tune", s(&job), "--replay", s(&path), "--db", s(&db)],
        ] {
            std::fs::write(&path, bytes).unwrap();
            let err = refused(&hone(&command));
            assert!(
                err.contains(&format!("{name}.sqlite")),
                "{name} {command:?}: {err}"
            );
        }
    }
}

#[test]
fn another_programs_database_is_refused_and_left_as_it_was() {
    let dir = scratch("schema");
    let (job, recording, _) = tuned(&dir.0);
    // Tables of another program; and a `jobs` table of another shape.
    for (name, schema, wants) in [
        (
            "people",
            "CREATE TABLE people (name TEXT);",
            "not a tuning database: it holds the tables people",
        ),
        (
            "shaped",
            "CREATE TABLE jobs (what TEXT); CREATE TABLE measurements (x REAL);",
            "table `jobs` has no column `id`",
        ),
    ] {
        let path = dir.0.join(format!("{name}.sqlite"));
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(schema).unwrap();
        drop(conn);
        let before = std::fs::read(&path).unwrap();
        for command in [
            vec!["rule", "--db", s(&path)],
            vec!["report", "--db", s(&path), "--out", s(&dir.0)],
            vec!["tune", s(&job), "--replay", s(&recording), "--db", s(&path)],
        ] {
            let err = refused(&hone(&command));
            assert!(
                err.contains(&format!("{name}.sqlite")) && err.contains(wants),
                "{command:?}: {err}"
            );
        }
        assert_eq!(std::fs::read(&path).unwrap(), before, "{name} was changed");
        assert!(!dir.0.join(format!("{name}.sqlite-wal")).exists());
    }
}
