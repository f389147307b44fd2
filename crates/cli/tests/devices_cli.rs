//! `hone tune --devices`: the selection's errors and the no-GPU message on
//! any machine, and on a GPU two workers sharing one device (`--devices 0,0`),
//! which exercises the queue, the lanes and the per-device records where
//! only one GPU is at hand.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
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

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("hone-devices-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A small vcopy job (24 variants, two sizes, six sampled sizes) in `dir`.
fn small_job(dir: &Path) -> PathBuf {
    let examples = root().join("kernels/examples").canonicalize().unwrap();
    let job = format!(
        r#"
name = "vcopy-devices"
sizes = [65536, 1048576]
strategy = {{ kind = "champion", top_k = 3, depth = 10 }}
constraints = ["BLOCK_SIZE * ELEMS_PER_THREAD * VEC <= 16384"]

[kernel]
name = "vcopy"
template = "{t}"
sources = ["{c}"]

[[param]]
name = "BLOCK_SIZE"
values = [64, 128, 256, 512]

[[param]]
name = "ELEMS_PER_THREAD"
values = [1, 2]

[[param]]
name = "VEC"
values = [1, 2, 4]

[sampling]
lo = 65536
hi = 4194304
step = 1024
mode = "fixed"
count = 6
spacing = "log"
"#,
        t = examples.join("vcopy.json").display(),
        c = examples.join("vcopy.cu").display()
    );
    let path = dir.join("job.toml");
    std::fs::write(&path, job).unwrap();
    path
}

#[test]
fn bad_selections_are_reported_with_exit_code_2() {
    let dir = scratch("bad");
    let job = small_job(&dir.0);
    let db = dir.0.join("t.sqlite");
    let r = hone(&["tune", s(&job), "--db", s(&db), "--devices", "0,one"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("--devices `0,one`: `one` is not a device ordinal"),
        "{}",
        r.stderr
    );
    let r = hone(&["tune", s(&job), "--db", s(&db), "--per-device-rules"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--devices"), "{}", r.stderr);
    let r = hone(&[
        "tune",
        s(&job),
        "--db",
        s(&db),
        "--devices",
        "all",
        "--replay",
        s(&db),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
    assert!(!db.exists(), "nothing is created for bad arguments");
}

#[test]
fn without_a_gpu_devices_all_says_so_and_exits_2() {
    if hone_gpu::libs::driver_library_present() {
        // A CUDA machine: `two_workers_share_one_gpu` runs there.
        return;
    }
    let dir = scratch("nogpu");
    let job = small_job(&dir.0);
    let db = dir.0.join("t.sqlite");
    for selection in ["all", "0,1"] {
        let r = hone(&["tune", s(&job), "--db", s(&db), "--devices", selection]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("no CUDA device"), "{}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        assert!(!db.exists());
    }
}

#[test]
fn two_workers_share_one_gpu() {
    let dir = scratch("gpu");
    let job = small_job(&dir.0);
    let db = dir.0.join("t.sqlite");
    let args = [
        "tune",
        s(&job),
        "--db",
        s(&db),
        "--devices",
        "0,0",
        "--reps",
        "10",
        "--warmup",
        "2",
        "--json",
    ];
    let r = hone(&args);
    if r.code == 2 && r.stderr.contains("no CUDA device") {
        eprintln!("no GPU here, skipped: {}", r.stderr.trim());
        return;
    }
    assert_eq!(r.code, 0, "stdout: {}\nstderr: {}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["complete"], true);
    let lanes = v["devices"].as_array().expect("one entry per worker");
    assert_eq!(lanes.len(), 2);
    let mut total = 0;
    for lane in lanes {
        assert_eq!(lane["ordinal"], 0);
        assert!(lane["retired"].is_null(), "{lane}");
        let measured = lane["measured"].as_u64().unwrap();
        assert!(measured > 0, "both workers got work: {lanes:?}");
        total += measured;
    }
    assert_eq!(total, v["measured"].as_u64().unwrap());
    assert!(v["rule"]["intervals"]
        .as_array()
        .is_some_and(|i| !i.is_empty()));
    // Stored with their device; a second run measures nothing new.
    let again: Value = serde_json::from_str(&hone(&args).stdout).unwrap();
    assert_eq!(again["measured"], 0);
    assert_eq!(again["rule"], v["rule"]);
    let stored = hone_tuner::TuningDb::open(&db).unwrap();
    let id = stored.job_id("vcopy-devices").unwrap().unwrap();
    let shares = stored.job_devices(id).unwrap();
    assert_eq!(shares.len(), 1, "one device, ordinal 0: {shares:?}");
    assert_eq!(shares[0].ordinal, Some(0));
    assert_eq!(shares[0].measurements, total as usize);
}
