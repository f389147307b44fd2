//! `hone tune --slurm` against a real Slurm: a single-node controller and
//! compute daemon on this machine (hone_testkit::slurm), no GPU. The job is
//! DSYMV's recorded H100 run replayed (3184 configurations, 13,206
//! measurements): four shard tasks and the dependent merge-and-fit job must
//! give exactly the rule of the one-process run. A second run has one task
//! killed part-way; re-submitting runs only that shard, which resumes from
//! its database, and the rule is again the same.
//!
//! Runs under `HONE_SLURM_TEST=1` (as .ci/run does); `HONE_SLURM_RESULTS=FILE`
//! writes the shard count and wall times as JSON. Writing the scripts and
//! the errors for bad options need no scheduler and are tested always.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hone_testkit::slurm::{slurm_test_requested, MiniCluster};
use hone_tuner::Rule;
use serde_json::{json, Value};
use support::{hone_with, root, Outcome};

const JOB: &str = "kernels/symv/tune/dsymv_lower.toml";
const RECORDING: &str = "bench/results/symv/tune/dsymv_lower.csv.gz";
const PROPS: &str = "bench/results/symv/tune/h100-props.json";
const SHARDS: u32 = 4;
const KILLED: u32 = 2;
/// Measurements the killed task takes before it hangs.
const BEFORE_KILL: usize = 300;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(o: Outcome) -> Outcome {
    assert_eq!(o.code, 0, "stdout: {}\nstderr: {}", o.stdout, o.stderr);
    o
}

struct Env {
    conf: String,
}

impl Env {
    fn hone(&self, args: &[&str], extra: &[(&str, &str)]) -> Outcome {
        let mut env = vec![("SLURM_CONF", self.conf.as_str())];
        env.extend_from_slice(extra);
        hone_with(args, &env)
    }

    fn status(&self, dir: &Path) -> Value {
        ok(self.hone(&["tune", "--status", s(dir), "--json"], &[])).json()
    }

    fn wait(&self, cluster: &MiniCluster, dir: &Path, what: &str, done: impl Fn(&Value) -> bool) {
        cluster.wait_for(what, Duration::from_secs(180), |_| done(&self.status(dir)));
    }
}

fn shard_states(v: &Value) -> Vec<String> {
    v["shards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["state"].as_str().unwrap().to_string())
        .collect()
}

fn complete(v: &Value) -> bool {
    v["merge"] == "finished" && shard_states(v).iter().all(|s| s == "finished")
}

fn rule_file(path: PathBuf) -> Rule {
    Rule::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn tune_json_rule(dir: &Path) -> Rule {
    let text = std::fs::read_to_string(dir.join("tune.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    serde_json::from_value(v["rule"].clone()).unwrap()
}

fn write_run(env: &Env, dir: &Path, extra: &[(&str, &str)]) -> Outcome {
    let shards = SHARDS.to_string();
    ok(env.hone(
        &[
            "tune",
            JOB,
            "--replay",
            RECORDING,
            "--device-props",
            PROPS,
            "--slurm",
            s(dir),
            "--shards",
            &shards,
            "--gpus-per-task",
            "0",
            "--submit",
        ],
        extra,
    ))
}

#[test]
fn a_sharded_job_on_slurm_gives_the_one_process_rule_and_resubmits_what_a_kill_left() {
    if !slurm_test_requested() {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let base = scratch.path();
    let started = Instant::now();
    let cluster = MiniCluster::start(&base.join("slurm"));
    let startup_s = started.elapsed().as_secs_f64();
    let env = Env {
        conf: cluster.conf().display().to_string(),
    };

    // The one-process run.
    let whole = ok(env.hone(
        &[
            "tune",
            JOB,
            "--replay",
            RECORDING,
            "--device-props",
            PROPS,
            "--db",
            s(&base.join("whole.sqlite")),
            "--json",
        ],
        &[],
    ))
    .json();
    let want: Rule = serde_json::from_value(whole["rule"].clone()).unwrap();
    // `hone rule` on its database: the rule file the merge job's must equal
    // (refitted from stored configurations, whose parameters are in name order).
    let want_file = base.join("whole-rule.json");
    ok(env.hone(
        &[
            "rule",
            "--db",
            s(&base.join("whole.sqlite")),
            "--out-json",
            s(&want_file),
        ],
        &[],
    ));
    let want_file = rule_file(want_file);
    assert_eq!(want_file.intervals, want.intervals);

    // 1. Four shards and the merge, submitted at once.
    let run = base.join("run");
    let t = Instant::now();
    let out = write_run(&env, &run, &[]);
    assert!(
        out.stdout.contains("submitted shard(s) 0-3 as array job"),
        "{}",
        out.stdout
    );
    env.wait(&cluster, &run, "the shards and the merge", complete);
    let run_s = t.elapsed().as_secs_f64();
    assert_eq!(tune_json_rule(&run), want);
    assert_eq!(rule_file(run.join("rule.json")), want_file);
    assert!(run.join("report").is_dir() && run.join("rule.h").is_file());
    let status = env.status(&run);
    let measured: u64 = status["shards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["measurements"].as_u64().unwrap())
        .sum();
    assert_eq!(
        measured,
        3184 * 4,
        "every configuration at the sieve's four sizes"
    );
    let text = ok(env.hone(&["tune", "--status", s(&run)], &[])).stdout;
    assert!(text.contains("search: 4 of 4 shard(s) finished"), "{text}");
    assert!(text.contains("merge and fit: finished"), "{text}");
    let again = ok(env.hone(&["tune", "--slurm", s(&run), "--submit"], &[])).stdout;
    assert!(
        again.contains("nothing to submit: the run is finished"),
        "{again}"
    );

    // 2. The same job with shard 2's task killed part-way: a wrapper around
    // hone stops that shard after some measurements and hangs until killed.
    let hone = PathBuf::from(env!("CARGO_BIN_EXE_hone"));
    let wrapper = base.join("hone-hangs-on-shard-2");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ncase \"$*\" in\n*\"--shard {KILLED}/{SHARDS}\"*)\n    \"{h}\" \"$@\" --max-measurements {BEFORE_KILL}\n    exec sleep 600 ;;\nesac\nexec \"{h}\" \"$@\"\n",
            h = hone.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let killed = base.join("killed");
    let t = Instant::now();
    write_run(&env, &killed, &[("HONE", s(&wrapper))]);
    env.wait(
        &cluster,
        &killed,
        "three shards done and shard 2 hanging",
        |v| {
            let states = shard_states(v);
            let hung = &v["shards"][KILLED as usize];
            states.iter().filter(|s| *s == "finished").count() == 3
                && hung["state"] == "running"
                && hung["measurements"].as_u64() == Some(BEFORE_KILL as u64)
        },
    );
    let task = env.status(&killed)["shards"][KILLED as usize]["queued"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    cluster
        .command("scancel", &[&task])
        .unwrap_or_else(|| panic!("scancel {task} failed"));
    env.wait(
        &cluster,
        &killed,
        "the killed shard stopped, the merge stuck",
        |v| v["shards"][KILLED as usize]["state"] == "stopped" && v["merge"] == "never_starts",
    );
    let text = ok(env.hone(&["tune", "--status", s(&killed)], &[])).stdout;
    assert!(text.contains("will never start"), "{text}");
    assert!(text.contains(&format!("{BEFORE_KILL}/")), "{text}");
    // Re-submitted with the plain binary: only shard 2 runs, resuming.
    let resubmit = ok(env.hone(&["tune", "--slurm", s(&killed), "--submit"], &[])).stdout;
    assert!(
        resubmit.contains("cancelled the earlier merge job"),
        "{resubmit}"
    );
    assert!(
        resubmit.contains(&format!("submitted shard(s) {KILLED} as array job")),
        "{resubmit}"
    );
    env.wait(
        &cluster,
        &killed,
        "the re-submitted shard and merge",
        complete,
    );
    let killed_s = t.elapsed().as_secs_f64();
    let log = std::fs::read_to_string(killed.join(format!("logs/shard-{KILLED}.out"))).unwrap();
    assert!(
        log.contains(&format!("{BEFORE_KILL} from the database")),
        "the shard did not resume from its database:\n{log}"
    );
    assert_eq!(tune_json_rule(&killed), want);
    assert_eq!(rule_file(killed.join("rule.json")), want_file);
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(killed.join("slurm.json")).unwrap()).unwrap();
    assert_eq!(manifest["submissions"][1]["shards"], json!([KILLED]));

    let result = json!({
        "job": JOB,
        "recording": RECORDING,
        "shards": SHARDS,
        "slurm": cluster.command("sinfo", &["--version"]).unwrap_or_default().trim(),
        "machine_cpus": std::thread::available_parallelism().map_or(1, |n| n.get()),
        "cluster_start_s": startup_s,
        "sharded_run_s": run_s,
        "killed_and_resubmitted_run_s": killed_s,
        "test_s": started.elapsed().as_secs_f64(),
        // Asserted above to equal the one-process run's, in both runs.
        "rule": want
            .intervals
            .iter()
            .map(|i| json!({"from": i.start, "to": i.end, "kernel": want.kernels[i.kernel].label}))
            .collect::<Vec<_>>(),
    });
    println!("{}", serde_json::to_string_pretty(&result).unwrap());
    if let Ok(path) = std::env::var("HONE_SLURM_RESULTS") {
        let path = root().join(path);
        std::fs::write(&path, serde_json::to_string_pretty(&result).unwrap() + "\n")
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

#[test]
fn without_slurm_the_scripts_are_written_and_bad_options_named() {
    // No scheduler needed to write the scripts.
    let scratch = tempfile::tempdir().unwrap();
    let run = scratch.path().join("run");
    let out = ok(hone_with(
        &[
            "tune",
            "kernels/examples/vcopy.tune.toml",
            "--slurm",
            s(&run),
            "--shards",
            "8",
            "--partition",
            "gpu",
            "--time",
            "1:30:00",
            "--module",
            "cuda/12.4",
            "--sbatch-option=--qos=high",
            "--check-max",
            "4194304",
        ],
        &[],
    ));
    assert!(out.stdout.contains("wrote "), "{}", out.stdout);
    let shards = std::fs::read_to_string(run.join("shards.sbatch")).unwrap();
    for line in [
        "#SBATCH --array=0-7",
        "#SBATCH --gpus-per-task=1",
        "#SBATCH --partition=gpu",
        "#SBATCH --time=1:30:00",
        "#SBATCH --qos=high",
        "module load cuda/12.4",
        "    --check-max 4194304",
    ] {
        assert!(shards.contains(line), "no `{line}` in\n{shards}");
    }
    let merge = std::fs::read_to_string(run.join("merge.sbatch")).unwrap();
    assert!(merge.contains("\"$HONE\" rule --db"), "{merge}");
    // The same command again keeps the scripts; status reads the run
    // without a queue (none here, or no job of ours in it).
    let again = ok(hone_with(
        &[
            "tune",
            "kernels/examples/vcopy.tune.toml",
            "--slurm",
            s(&run),
            "--shards",
            "8",
            "--partition",
            "gpu",
            "--time",
            "1:30:00",
            "--module",
            "cuda/12.4",
            "--sbatch-option=--qos=high",
            "--check-max",
            "4194304",
        ],
        &[],
    ));
    assert!(again.stdout.starts_with("kept "), "{}", again.stdout);
    let status = ok(hone_with(&["tune", "--status", s(&run), "--json"], &[])).json();
    assert_eq!(status["shards"].as_array().unwrap().len(), 8);
    assert_eq!(status["merge"], "not_submitted");

    for (args, message) in [
        (
            vec!["--time", "2h"],
            "--time `2h`: expected a Slurm time limit",
        ),
        (vec!["--partition", "a b"], "--partition `a b`"),
        (vec!["--sbatch-option=qos"], "--sbatch-option `qos`"),
        (
            vec!["--max-measurements", "5"],
            "--max-measurements does not go with --slurm",
        ),
    ] {
        let other = scratch.path().join("other");
        let mut all = vec![
            "tune",
            "kernels/examples/vcopy.tune.toml",
            "--slurm",
            s(&other),
        ];
        all.extend(args);
        let r = hone_with(&all, &[]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains(message), "{}", r.stderr);
    }
    let r = hone_with(&["tune", "--status", s(scratch.path())], &[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no Slurm run here"), "{}", r.stderr);
}
