//! The two batch scripts of a run, written for the cluster's users to read
//! and edit: what each part does is said in comments, the resources are
//! plain `#SBATCH` lines, and the values a user may change (modules, the
//! `hone` binary, the options of `hone tune`) sit in one place near the top.

use std::fmt::Write as _;
use std::path::Path;

use crate::error::SlurmError;
use crate::layout::Layout;
use crate::settings::{Resources, TuneCommand};

/// One word for the shell: quoted where it needs to be.
fn quote(word: &str) -> Result<String, SlurmError> {
    shlex::try_quote(word)
        .map(|q| q.into_owned())
        .map_err(|e| SlurmError::Setting {
            option: "argument",
            value: word.escape_debug().to_string(),
            message: e.to_string(),
        })
}

fn path_word(path: &Path) -> Result<String, SlurmError> {
    quote(&path.to_string_lossy())
}

/// A path in an `#SBATCH` line, where Slurm takes the rest of the line as
/// the value and no quoting applies.
fn directive_path(path: &Path) -> Result<String, SlurmError> {
    let text = path.to_string_lossy();
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(SlurmError::Setting {
            option: "--slurm",
            value: text.into_owned(),
            message: "Slurm's #SBATCH lines cannot name a directory with spaces; choose another"
                .into(),
        });
    }
    Ok(text.into_owned())
}

/// `0-3`, `1,4-6`: the shard indices as Slurm's `--array` takes them.
pub fn array_spec(shards: &[u32]) -> String {
    let mut sorted = shards.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(",")
}

/// The `#SBATCH` lines both scripts share.
fn common_directives(s: &mut String, res: &Resources, time: Option<&String>) {
    let _ = writeln!(s, "#SBATCH --ntasks=1");
    if res.gpus_per_task > 0 {
        let _ = writeln!(s, "#SBATCH --gpus-per-task={}", res.gpus_per_task);
    }
    if let Some(c) = res.cpus_per_task {
        let _ = writeln!(s, "#SBATCH --cpus-per-task={c}");
    }
    if let Some(p) = &res.partition {
        let _ = writeln!(s, "#SBATCH --partition={p}");
    }
    if let Some(a) = &res.account {
        let _ = writeln!(s, "#SBATCH --account={a}");
    }
    if let Some(t) = time {
        let _ = writeln!(s, "#SBATCH --time={t}");
    }
    for o in &res.sbatch_options {
        let _ = writeln!(s, "#SBATCH {o}");
    }
}

/// The environment lines: `set -euo pipefail`, the modules, the binary.
fn preamble(s: &mut String, cmd: &TuneCommand, res: &Resources) -> Result<(), SlurmError> {
    s.push_str("\nset -eo pipefail\n\n");
    if res.modules.is_empty() {
        s.push_str("# Load what hone needs here (e.g. `module load cuda`).\n");
    } else {
        s.push_str("# What hone needs: CUDA's driver libraries on the compute node.\n");
        for m in &res.modules {
            let _ = writeln!(s, "module load {m}");
        }
    }
    let _ = writeln!(
        s,
        "\n# The hone binary; HONE in the environment of `sbatch` overrides it.\nHONE=${{HONE:-{}}}",
        path_word(&cmd.hone)?
    );
    let _ = writeln!(s, "JOB={}", path_word(&cmd.job_file)?);
    Ok(())
}

/// `"$HONE" tune` options every run of the job gets, one per line.
fn tune_options(cmd: &TuneCommand) -> Result<String, SlurmError> {
    let mut lines = Vec::new();
    let mut args = cmd.tune_args.iter().peekable();
    while let Some(a) = args.next() {
        let mut line = quote(a)?;
        // An option and its value stay on one line.
        if a.starts_with("--") {
            if let Some(v) = args.next_if(|v| !v.starts_with("--")) {
                line.push(' ');
                line.push_str(&quote(v)?);
            }
        }
        lines.push(line);
    }
    let mut s = String::from("TUNE_OPTIONS=(");
    if lines.is_empty() {
        s.push(')');
    } else {
        for l in lines {
            let _ = write!(s, "\n    {l}");
        }
        s.push_str("\n)");
    }
    Ok(s)
}

/// The array script: task `i` runs shard `i` of the job.
pub fn shards_script(
    layout: &Layout,
    cmd: &TuneCommand,
    res: &Resources,
) -> Result<String, SlurmError> {
    let n = res.shards;
    let dir = directive_path(&layout.dir)?;
    let logs = directive_path(&layout.logs())?;
    let mut s = String::new();
    let _ = write!(
        s,
        "#!/bin/bash
# hone: tuning job `{name}` on Slurm, part 1 of 2: the shards.
#
# Task i of this job array runs shard i of {n} of the job's search space
# (`hone tune --shard i/{n}`){gpu} and stores each measurement in
# shards/shard-i.sqlite the moment it is taken. A task that fails, runs out of
# time or is pre-empted keeps what it measured: running shard i again resumes
# from its database (pre-empted tasks are requeued and do so by themselves).
# When every task has succeeded, merge.sbatch (submitted with
# --dependency=afterok on this array) merges the shards, fits the d-splines
# and writes the rule.
#
# Written by `hone tune JOB --slurm DIR`: edit what you need (modules,
# account, time limits); `hone tune --slurm DIR --submit` submits the scripts
# as they are. Submitted again after a failure, it runs only the shards that
# are neither finished nor still queued. By hand:
#   array=$(sbatch --parsable {dir}/shards.sbatch)
#   sbatch --dependency=afterok:$array {dir}/merge.sbatch
# and one shard again: sbatch --array=2 {dir}/shards.sbatch
# Progress across shards: hone tune --status {dir}
#
#SBATCH --job-name=hone-{name}-shards
#SBATCH --array={array}{throttle}
#SBATCH --output={logs}/shard-%a.out
#SBATCH --open-mode=append
#SBATCH --requeue
",
        name = cmd.job_name,
        gpu = if res.gpus_per_task == 1 {
            " on one GPU".to_string()
        } else if res.gpus_per_task > 1 {
            format!(" on {} GPUs", res.gpus_per_task)
        } else {
            " without a GPU".to_string()
        },
        array = array_spec(&(0..n).collect::<Vec<_>>()),
        throttle = res
            .max_parallel
            .map(|k| format!("%{k}"))
            .unwrap_or_default(),
    );
    common_directives(&mut s, res, res.time.as_ref());
    preamble(&mut s, cmd, res)?;
    let _ = write!(
        s,
        "SHARDS={n}
DB={db_dir}/shard-${{SLURM_ARRAY_TASK_ID}}.sqlite
# Options of every `hone tune` of this run (measurement, replay).
{options}

echo \"shard ${{SLURM_ARRAY_TASK_ID}}/$SHARDS of job {name} on $(hostname) at $(date --iso-8601=seconds)\"
mkdir -p \"$(dirname \"$DB\")\"
\"$HONE\" tune \"$JOB\" --shard \"${{SLURM_ARRAY_TASK_ID}}/$SHARDS\" --db \"$DB\" \"${{TUNE_OPTIONS[@]}}\"
",
        db_dir = path_word(&layout.shards_dir())?,
        options = tune_options(cmd)?,
        name = cmd.job_name,
    );
    Ok(s)
}

/// The merge-and-fit script, run after the array.
pub fn merge_script(
    layout: &Layout,
    cmd: &TuneCommand,
    res: &Resources,
) -> Result<String, SlurmError> {
    let n = res.shards;
    let logs = directive_path(&layout.logs())?;
    let fits = if cmd.has_sampling {
        "the search is answered
# from the shards, the sampling over size measures the surviving kernels;
# then it fits the d-splines and writes the rule (rule.json, rule.rs,
# rule.h), the run (tune.json) and the plots (report/)."
    } else {
        "the search is answered
# from the shards; then it writes the run with its plans (tune.json)."
    };
    let mut s = String::new();
    let _ = write!(
        s,
        "#!/bin/bash
# hone: tuning job `{name}` on Slurm, part 2 of 2: merge and fit.
#
# Runs once every shard task has succeeded (it is submitted with
# --dependency=afterok on the array). Merges the {n} shard databases into
# tuning.sqlite and finishes the job there: {fits}
#
# Written by `hone tune JOB --slurm DIR`; edit freely. Run again, it merges
# again (measurements already merged are kept) and writes the results anew.
#
#SBATCH --job-name=hone-{name}-merge
#SBATCH --output={logs}/merge-%j.out
",
        name = cmd.job_name,
    );
    common_directives(&mut s, res, res.merge_time.as_ref());
    preamble(&mut s, cmd, res)?;
    let quoted_dir = path_word(&layout.dir)?;
    let _ = write!(
        s,
        "DIR={quoted_dir}
SHARDS={n}
{options}

echo \"merge and fit of job {name} on $(hostname) at $(date --iso-8601=seconds)\"
shard_dbs=()
for ((i = 0; i < SHARDS; i++)); do
    shard_dbs+=(\"$DIR/shards/shard-$i.sqlite\")
done
\"$HONE\" tune --merge \"$DIR/tuning.sqlite\" \"${{shard_dbs[@]}}\"
\"$HONE\" tune \"$JOB\" --db \"$DIR/tuning.sqlite\" \"${{TUNE_OPTIONS[@]}}\" --json > \"$DIR/tune.json.part\"
mv \"$DIR/tune.json.part\" \"$DIR/tune.json\"
",
        options = tune_options(cmd)?,
        name = cmd.job_name,
    );
    if cmd.has_sampling {
        let _ = write!(
            s,
            "\"$HONE\" rule --db \"$DIR/tuning.sqlite\" --job {name} \\
    --out-json \"$DIR/rule.json\" --out-rust \"$DIR/rule.rs\" --out-c \"$DIR/rule.h\"
\"$HONE\" report --db \"$DIR/tuning.sqlite\" --job {name} --out \"$DIR/report\"
",
            name = cmd.job_name
        );
    }
    s.push_str("echo \"done: results in $DIR\"\n");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn arrays_are_written_as_ranges() {
        assert_eq!(array_spec(&[0, 1, 2, 3]), "0-3");
        assert_eq!(array_spec(&[5, 1, 3, 2, 7, 8]), "1-3,5,7-8");
        assert_eq!(array_spec(&[4]), "4");
        assert_eq!(array_spec(&[]), "");
    }

    fn command() -> TuneCommand {
        TuneCommand {
            hone: PathBuf::from("/opt/hone/bin/hone"),
            job_file: PathBuf::from("/home/ana/jobs/dsymv lower.toml"),
            job_name: "dsymv_lower".into(),
            tune_args: [
                "--reps",
                "20",
                "--warmup",
                "2",
                "--no-flush",
                "--check-max",
                "8192",
            ]
            .map(String::from)
            .to_vec(),
            has_sampling: true,
        }
    }

    fn cluster() -> Resources {
        Resources {
            shards: 8,
            partition: Some("gpu".into()),
            account: Some("proj42".into()),
            time: Some("2:00:00".into()),
            merge_time: Some("30:00".into()),
            gpus_per_task: 1,
            cpus_per_task: Some(4),
            max_parallel: Some(4),
            modules: vec!["cuda/12.4".into()],
            sbatch_options: vec!["--qos=normal".into()],
        }
    }

    fn golden(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/expected")
            .join(name)
    }

    #[test]
    fn scripts_for_a_gpu_cluster() {
        let layout = Layout::new("/scratch/ana/dsymv-run");
        let (cmd, res) = (command(), cluster());
        hone_testkit::assert_expected(
            &golden("gpu-cluster.shards.sbatch"),
            &shards_script(&layout, &cmd, &res).unwrap(),
        );
        hone_testkit::assert_expected(
            &golden("gpu-cluster.merge.sbatch"),
            &merge_script(&layout, &cmd, &res).unwrap(),
        );
    }

    #[test]
    fn scripts_for_a_replayed_job_without_gpus() {
        let layout = Layout::new("/tmp/run");
        let cmd = TuneCommand {
            tune_args: [
                "--replay",
                "/data/rec.csv.gz",
                "--device-props",
                "/data/h100.json",
            ]
            .map(String::from)
            .to_vec(),
            has_sampling: false,
            ..command()
        };
        let res = Resources {
            shards: 3,
            gpus_per_task: 0,
            ..Resources::default()
        };
        hone_testkit::assert_expected(
            &golden("replay.shards.sbatch"),
            &shards_script(&layout, &cmd, &res).unwrap(),
        );
        hone_testkit::assert_expected(
            &golden("replay.merge.sbatch"),
            &merge_script(&layout, &cmd, &res).unwrap(),
        );
    }

    #[test]
    fn a_directory_with_spaces_is_refused() {
        let err = shards_script(&Layout::new("/tmp/my run"), &command(), &cluster())
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot name a directory with spaces"), "{err}");
    }
}
