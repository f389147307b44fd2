//! `hone tune`, `hone rule` and `hone report` end to end on recorded runs
//! (no GPU needed): replay, resume after an interruption, shards and their
//! merge, the rule's forms, the plots and exports, and the no-GPU error.

use std::path::{Path, PathBuf};
use std::process::Command;

use hone_tuner::sampling::linear_spaced;
use hone_tuner::{
    DeviceProps, Recording, Rule, Space, SpaceSpec, SyntheticEvaluator, SyntheticModel, TuningDb,
};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout, self.stderr))
    }

    fn ok(self) -> Run {
        assert_eq!(
            self.code, 0,
            "stdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        self
    }
}

fn hone(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_hone"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("hone runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    }
}

/// A fresh directory, removed when the test ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("hone-tune-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const JOB: &str = r#"
name = "generic"
sizes = [1000, 4000, 16000]
strategy = { kind = "champion", top_k = 4, depth = 10 }
constraints = ["A <= max_a", "A * B <= 12"]

[kernel]
name = "generic-kernel"

[[param]]
name = "A"
values = [1, 2, 3, 4, 5, 6]

[[param]]
name = "B"
values = [1, 2, 3]

[sampling]
lo = 1000
hi = 64000
step = 100
mode = "fixed"
count = 12
spacing = "linear"
tolerance = 0.01
"#;

const SIEVE: [u64; 3] = [1000, 4000, 16000];

/// The job, its device properties, and a recording of every valid
/// configuration at every size the job asks for, from the synthetic model
/// whose curves cross.
fn setup(dir: &Path) -> (PathBuf, PathBuf, PathBuf, usize) {
    let job = dir.join("job.toml");
    std::fs::write(&job, JOB).unwrap();
    let props = dir.join("device.json");
    std::fs::write(&props, r#"{"max_a": 5}"#).unwrap();
    let spec = hone_tuner::JobSpec::from_toml(JOB, "job.toml").unwrap();
    let space: SpaceSpec = spec.space_spec();
    let valid = Space::new(space, DeviceProps::new().with("max_a", 5))
        .unwrap()
        .enumerate();
    let mut sizes: Vec<u64> = SIEVE.to_vec();
    sizes.extend(linear_spaced(1000, 64000, 12));
    sizes.sort_unstable();
    sizes.dedup();
    let mut synth = SyntheticEvaluator::new(SyntheticModel::Generic, 7);
    let rec =
        hone_tuner::replay::record_all(&valid, &Default::default(), &sizes, &mut synth).unwrap();
    let path = dir.join("recording.csv");
    rec.save(&path).unwrap();
    (job, props, path, valid.len())
}

fn tune(job: &Path, rec: &Path, props: &Path, db: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "tune",
        s(job),
        "--replay",
        s(rec),
        "--device-props",
        s(props),
        "--db",
        s(db),
        "--json",
    ];
    args.extend_from_slice(extra);
    hone(&args)
}

fn rule_of(v: &Value) -> Rule {
    serde_json::from_value(v["rule"].clone()).expect("a rule in the output")
}

fn job_id(db: &Path) -> (TuningDb, i64) {
    let db = TuningDb::open(db).unwrap();
    let id = db.job_id("generic").unwrap().expect("the job is stored");
    (db, id)
}

#[test]
fn replayed_tuning_resumes_and_yields_a_rule_covering_the_range() {
    let dir = scratch("replay");
    let (job, props, rec, valid) = setup(&dir);
    // A = 6 breaks the device's max_a = 5, and A * B <= 12 removes 5x3.
    assert_eq!(valid, 14);
    let db = dir.join("t.sqlite");
    let first = tune(&job, &rec, &props, &db, &[]).ok().json();
    assert_eq!(first["complete"], true);
    assert_eq!(first["valid_configs"], 14);
    assert_eq!(first["resumed"], false);
    let measured = first["measured"].as_u64().unwrap() as usize;
    let reused = first["reused"].as_u64().unwrap() as usize;
    // Search: 14 x 3; sampling: 4 champions x 12 sizes, of which 1000 came
    // from the search.
    assert_eq!(measured, 14 * 3 + 4 * 11);
    assert_eq!(reused, 4);
    assert_eq!(first["champions"].as_array().unwrap().len(), 4);
    assert_eq!(first["statuses"]["ok"].as_u64(), Some(measured as u64));
    assert_eq!(first["replay_misses"], 0);
    let rule = rule_of(&first);
    rule.validate().unwrap();
    assert_eq!((rule.lo, rule.hi), (1000, 64000));
    assert_eq!(rule.intervals[0].start, 1000);
    assert_eq!(rule.intervals.last().unwrap().end, None);
    assert!(
        rule.intervals.len() >= 2,
        "the synthetic curves cross: {rule:?}"
    );
    let (store, id) = job_id(&db);
    assert_eq!(store.measurements(id).unwrap().len(), measured);

    // Running again resumes and measures nothing.
    let again = tune(&job, &rec, &props, &db, &[]).ok().json();
    assert_eq!(again["resumed"], true);
    assert_eq!(again["measured"], 0);
    assert_eq!(again["reused"].as_u64(), Some((measured + reused) as u64));
    assert_eq!(rule_of(&again), rule);

    // The human-readable form lists the champions and every interval.
    let text = hone(&[
        "tune",
        s(&job),
        "--replay",
        s(&rec),
        "--device-props",
        s(&props),
        "--db",
        s(&db),
    ])
    .ok()
    .stdout;
    assert!(text.contains("0 new measurement(s)"), "{text}");
    assert!(text.contains("Rank 4"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains(" <= N")).count(),
        rule.intervals.len(),
        "{text}"
    );
}

#[test]
fn an_interrupted_run_resumes_where_it_stopped() {
    let dir = scratch("interrupt");
    let (job, props, rec, _) = setup(&dir);
    let whole = tune(&job, &rec, &props, &dir.join("whole.sqlite"), &[])
        .ok()
        .json();
    let db = dir.join("t.sqlite");
    let cut = tune(&job, &rec, &props, &db, &["--max-measurements", "20"])
        .ok()
        .json();
    assert_eq!(cut["complete"], false);
    let (store, id) = job_id(&db);
    let kept = store.measurements(id).unwrap();
    assert_eq!(kept.len(), 20);
    assert_eq!(store.jobs().unwrap()[0].status, "running");
    drop(store);
    let rest = tune(&job, &rec, &props, &db, &[]).ok().json();
    assert_eq!(rest["resumed"], true);
    assert_eq!(
        rest["measured"].as_u64().unwrap() + 20,
        whole["measured"].as_u64().unwrap()
    );
    assert_eq!(rule_of(&rest), rule_of(&whole));
    // What was measured before the stop is kept as it was.
    let (store, id) = job_id(&db);
    let after = store.measurements(id).unwrap();
    for m in &kept {
        assert!(after.contains(m), "{m:?} changed");
    }
    assert_eq!(store.jobs().unwrap()[0].status, "finished");
}

#[test]
fn shards_merge_into_the_whole_job() {
    let dir = scratch("shards");
    let (job, props, rec, valid) = setup(&dir);
    let whole = tune(&job, &rec, &props, &dir.join("whole.sqlite"), &[])
        .ok()
        .json();
    let mut searched = 0;
    for i in 0..2 {
        let db = dir.join(format!("shard{i}.sqlite"));
        let shard = format!("{i}/2");
        let v = tune(&job, &rec, &props, &db, &["--shard", &shard])
            .ok()
            .json();
        assert_eq!(v["shard"], serde_json::json!([i, 2]));
        assert!(v.get("rule").is_none(), "a shard stops after the search");
        searched += v["candidates"].as_u64().unwrap() as usize;
    }
    assert_eq!(searched, valid);
    let merged = dir.join("merged.sqlite");
    let m = hone(&[
        "tune",
        "--merge",
        s(&merged),
        s(&dir.join("shard0.sqlite")),
        s(&dir.join("shard1.sqlite")),
        "--json",
    ])
    .ok()
    .json();
    let inserted: u64 = m["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["inserted"].as_u64().unwrap())
        .sum();
    assert_eq!(inserted as usize, valid * SIEVE.len());
    // The merged database finishes the job: only the sampling is new.
    let done = tune(&job, &rec, &props, &merged, &[]).ok().json();
    assert_eq!(done["resumed"], true);
    assert_eq!(done["measured"].as_u64(), Some(4 * 11));
    assert_eq!(rule_of(&done), rule_of(&whole));
}

#[test]
fn rule_and_report_write_every_form() {
    let dir = scratch("forms");
    let (job, props, rec, _) = setup(&dir);
    let db = dir.join("t.sqlite");
    let tuned = rule_of(&tune(&job, &rec, &props, &db, &[]).ok().json());

    let (rj, rr, rc) = (
        dir.join("rule.json"),
        dir.join("rule.rs"),
        dir.join("rule.h"),
    );
    let out = hone(&[
        "rule",
        "--db",
        s(&db),
        "--kernel",
        "generic-kernel",
        "--out-json",
        s(&rj),
        "--out-rust",
        s(&rr),
        "--out-c",
        s(&rc),
    ])
    .ok()
    .stdout;
    let loaded = Rule::load(&rj).unwrap();
    assert_eq!(loaded, tuned, "the refit reproduces the tuned rule");
    assert!(out.contains("alpha by GCV"), "{out}");
    for iv in &loaded.intervals {
        let label = &loaded.kernels[iv.kernel].label;
        assert!(
            out.lines()
                .any(|l| l.starts_with(label.as_str()) && l.contains(&iv.start.to_string())),
            "interval {iv:?} missing from\n{out}"
        );
    }
    let rust = std::fs::read_to_string(&rr).unwrap();
    assert!(rust.contains("pub fn select(n: u64) -> &'static str"));
    let c = std::fs::read_to_string(&rc).unwrap();
    assert!(
        c.contains("#ifndef HONE_RULE_") && c.contains("#endif"),
        "{c}"
    );
    for iv in &loaded.intervals {
        let key = loaded.kernels[iv.kernel].config.key();
        assert!(rust.contains(&key) && c.contains(&key), "{key}");
    }
    // The Rust and C forms, compiled, select what the loaded rule selects.
    let sizes: Vec<u64> = (0..=70).map(|i| i * 1000).chain([1 << 20]).collect();
    let want: Vec<String> = sizes.iter().map(|&n| loaded.select(n).key()).collect();
    let list = sizes
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let rust_main = dir.join("main.rs");
    std::fs::write(
        &rust_main,
        format!(
            "{rust}\nfn main() {{ for n in [{list}u64] {{ println!(\"{{}}\", select(n)); }} }}\n"
        ),
    )
    .unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let bin = dir.join("rule-rs");
    let built = Command::new(&rustc)
        .args(["--edition", "2021", "-o", s(&bin), s(&rust_main)])
        .status()
        .expect("rustc runs");
    assert!(built.success());
    let got = String::from_utf8(Command::new(&bin).output().unwrap().stdout).unwrap();
    assert_eq!(got.lines().collect::<Vec<_>>(), want);
    if Command::new("cc").arg("--version").output().is_ok() {
        let c_main = dir.join("main.c");
        let ident = "generic";
        std::fs::write(
            &c_main,
            format!(
                "#include <stdio.h>\n#include \"{}\"\nint main(void) {{ unsigned long long ns[] = {{ {list} }};\n for (unsigned i = 0; i < sizeof ns / sizeof *ns; ++i) puts(hone_{ident}_select(ns[i]).key);\n return 0; }}\n",
                s(&rc)
            ),
        )
        .unwrap();
        let cbin = dir.join("rule-c");
        let built = Command::new("cc")
            .args(["-std=c99", "-Wall", "-Werror", "-o", s(&cbin), s(&c_main)])
            .status()
            .unwrap();
        assert!(built.success());
        let got = String::from_utf8(Command::new(&cbin).output().unwrap().stdout).unwrap();
        assert_eq!(got.lines().collect::<Vec<_>>(), want);
    }

    // A given alpha is used for every kernel.
    let fixed = hone(&["rule", "--db", s(&db), "--alpha", "0.5", "--json"])
        .ok()
        .json();
    assert_eq!(fixed["alpha"], "given");
    for f in fixed["fits"].as_array().unwrap() {
        assert_eq!(f["alpha"].as_f64(), Some(0.5));
    }
    serde_json::from_value::<Rule>(fixed["rule"].clone())
        .unwrap()
        .validate()
        .unwrap();

    let report_dir = dir.join("report");
    let r = hone(&[
        "report",
        "--db",
        s(&db),
        "-o",
        s(&report_dir),
        "--work",
        "2 * N",
        "--unit",
        "GFLOP/s",
        "--export",
        "csv,json",
        "--export",
        "t4",
        "--json",
    ])
    .ok()
    .json();
    let files: Vec<PathBuf> = r["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| PathBuf::from(f.as_str().unwrap()))
        .collect();
    let svgs: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.extension().unwrap() == "svg")
        .collect();
    // The range spans under three decades: the plot and the relative plot.
    assert_eq!(svgs.len(), 2, "{files:?}");
    for f in &svgs {
        let svg = std::fs::read_to_string(f).unwrap();
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(
            svg.matches("class=\"spline\"").count(),
            4,
            "{}",
            f.display()
        );
        assert_eq!(
            svg.matches("class=\"strip\"").count(),
            loaded.intervals.len()
        );
    }
    assert!(std::fs::read_to_string(svgs[0])
        .unwrap()
        .contains(">GFLOP/s<"));
    let (store, id) = job_id(&db);
    let stored = store.measurements(id).unwrap().len();
    let csv = Recording::load(&report_dir.join("generic.csv")).unwrap();
    assert_eq!(csv.records.len(), stored);
    let json = Recording::load(&report_dir.join("generic.json")).unwrap();
    assert_eq!(json, csv);
    let t4: Value =
        serde_json::from_str(&std::fs::read_to_string(report_dir.join("generic.t4.json")).unwrap())
            .unwrap();
    assert_eq!(t4["schema_version"], "1.0.0");
    assert_eq!(t4["results"].as_array().unwrap().len(), stored);

    // The exported recording replays to the same rule in a fresh database.
    let again = tune(
        &job,
        &report_dir.join("generic.json"),
        &props,
        &dir.join("r.sqlite"),
        &[],
    )
    .ok()
    .json();
    assert_eq!(rule_of(&again), tuned);
}

#[test]
fn a_recording_with_gaps_reports_its_misses() {
    let dir = scratch("gaps");
    let (job, props, rec, _) = setup(&dir);
    let mut recording = Recording::load(&rec).unwrap();
    // Forget one configuration at the middle sieve size.
    let gone = recording
        .records
        .iter()
        .position(|r| r.size == 4000)
        .unwrap();
    let key = recording.records.remove(gone).config.key();
    let gappy = dir.join("gappy.json");
    recording.save(&gappy).unwrap();
    let v = tune(&job, &gappy, &props, &dir.join("t.sqlite"), &[])
        .ok()
        .json();
    assert_eq!(v["replay_misses"], 1);
    assert_eq!(v["statuses"]["missing"], 1);
    // The gap is stored as what it is, and the rest of the job goes on.
    let db = TuningDb::open(dir.join("t.sqlite")).unwrap();
    let id = db.job_id("generic").unwrap().unwrap();
    let stored = db.measurements(id).unwrap();
    let hole = stored
        .iter()
        .find(|m| m.config.key() == key && m.size == 4000)
        .expect("the missing point is recorded");
    assert_eq!(hole.measurement.status(), "missing");
    rule_of(&v).validate().unwrap();
}

#[test]
fn bad_input_is_reported_with_exit_code_2() {
    let dir = scratch("bad");
    let (job, props, rec, _) = setup(&dir);
    let db = dir.join("t.sqlite");
    let r = tune(&job, &rec, &props, &db, &["--shard", "2/2"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--shard `2/2`"), "{}", r.stderr);
    let r = tune(&job, &rec, &props, &db, &["--replay-pace", "100000"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--replay-pace 100000"), "{}", r.stderr);
    let r = hone(&["tune", s(&dir.join("missing.toml")), "--db", s(&db)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("missing.toml"), "{}", r.stderr);
    // Without the device property that a constraint names, the space cannot be built.
    let r = hone(&["tune", s(&job), "--replay", s(&rec), "--db", s(&db)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("max_a"), "{}", r.stderr);
    let r = hone(&["rule", "--db", s(&dir.join("none.sqlite"))]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no such tuning database"), "{}", r.stderr);
    assert!(!dir.join("none.sqlite").exists());
    tune(&job, &rec, &props, &db, &[]).ok();
    let r = hone(&["rule", "--db", s(&db), "--kernel", "other"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("generic-kernel"), "{}", r.stderr);
}

#[test]
fn without_a_gpu_tune_says_so_and_exits_2() {
    if hone_gpu::libs::driver_library_present() {
        // A CUDA machine: the GPU path is exercised by the bench run instead.
        return;
    }
    let dir = scratch("nogpu");
    let db = dir.join("t.sqlite");
    let r = hone(&["tune", "kernels/examples/vcopy.tune.toml", "--db", s(&db)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("error: no CUDA device: "), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(!db.exists(), "nothing is created without a device");
    // A library kernel's job goes the same way.
    let r = hone(&["tune", "kernels/symv/tune/dsymv_lower.toml", "--db", s(&db)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("error: no CUDA device: "), "{}", r.stderr);
    assert!(!db.exists());
}

/// An interval of a rule: start, end, kernel label, configuration by name.
type IntervalKernel = (
    u64,
    Option<u64>,
    String,
    std::collections::BTreeMap<String, String>,
);

#[test]
fn the_recorded_symv_run_replays_to_the_shipped_rule() {
    // The H100 run in bench/results/symv/tune: replaying every measurement
    // of DSYMV lower with its job draws the rule hone ships.
    let dir = scratch("symv-run");
    let v = hone(&[
        "tune",
        "kernels/symv/tune/dsymv_lower.toml",
        "--replay",
        "bench/results/symv/tune/dsymv_lower.csv.gz",
        "--device-props",
        "bench/results/symv/tune/h100-props.json",
        "--db",
        s(&dir.join("t.sqlite")),
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(v["valid_configs"], 3184);
    assert_eq!(v["statuses"]["ok"], 3184 * 4 + 10 * 47);
    // The sampling's largest size was measured by the sieve already.
    assert_eq!(v["reused"], 10);
    assert!(v.get("replay_misses").is_none_or(|m| m == 0), "{v}");
    let shipped = Rule::load(root().join("kernels/symv/rules/dsymv_lower.json")).unwrap();
    // The same intervals with the same kernels (parameter order aside: the
    // shipped rule was refitted from the database by `hone rule`).
    let intervals = |r: &Rule| -> Vec<IntervalKernel> {
        r.intervals
            .iter()
            .map(|i| {
                let k = &r.kernels[i.kernel];
                let config = k
                    .config
                    .entries()
                    .iter()
                    .map(|(n, v)| (n.clone(), v.to_string()))
                    .collect();
                (i.start, i.end, k.label.clone(), config)
            })
            .collect()
    };
    let replayed = rule_of(&v);
    assert_eq!(intervals(&replayed), intervals(&shipped));
    assert_eq!(intervals(&shipped).len(), 5);
}

#[test]
fn the_recorded_gpu_run_replays_to_its_rule() {
    // The H200 run in bench/results/tune: replaying its database with the
    // bundled job answers every point from the recording and draws the rule
    // the GPU run drew. (`hone rule` refits the same way: see
    // rule_and_report_write_every_form.)
    let dir = scratch("gpu-run");
    let results = root().join("bench/results/tune");
    let recorded = dir.join("vcopy.sqlite");
    std::fs::copy(results.join("vcopy.sqlite"), &recorded).unwrap();
    let want = Rule::load(results.join("rule.json")).unwrap();
    let v = hone(&[
        "tune",
        "kernels/examples/vcopy.tune.toml",
        "--replay",
        s(&recorded),
        "--db",
        s(&dir.join("t.sqlite")),
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(v["valid_configs"], 59);
    assert_eq!(v["device"]["name"], "NVIDIA H200");
    let gpu: Value =
        serde_json::from_str(&std::fs::read_to_string(results.join("tune.json")).unwrap()).unwrap();
    assert_eq!(v["champions"], gpu["champions"]);
    assert_eq!(
        v["measured"].as_u64().unwrap() + v["reused"].as_u64().unwrap(),
        gpu["reused"].as_u64().unwrap()
    );
    assert_eq!(v["statuses"], gpu["statuses"]);
    // The GPU run's rule, fitted before rules kept what the search measured:
    // the replay gives 65536, one of the search's sizes, to the kernel the
    // search measured fastest there, and every other size as the GPU run did.
    let replayed = rule_of(&v);
    let points: Vec<u64> = replayed
        .intervals
        .iter()
        .filter(|i| i.end == Some(i.start + 1))
        .map(|i| i.start)
        .collect();
    assert_eq!(points, [65536]);
    assert_ne!(replayed.select(65536), want.select(65536));
    let mut probes: Vec<u64> = (10..=28).map(|e| 1u64 << e).collect();
    for i in replayed.intervals.iter().chain(&want.intervals) {
        probes.extend([i.start.saturating_sub(1), i.start, i.start + 1]);
    }
    for n in probes.into_iter().filter(|&n| n != 65536) {
        assert_eq!(replayed.select(n), want.select(n), "{n}");
    }
}
