//! What the batch scripts ask Slurm for, and how they run `hone`. Every value
//! that reaches a script is checked here, so that a script never holds a
//! directive Slurm would misread or a line the shell would split.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::SlurmError;

/// The resources and environment of the shard tasks and the merge job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resources {
    /// Shards of the search space: array tasks.
    pub shards: u32,
    pub partition: Option<String>,
    pub account: Option<String>,
    /// Time limit of each shard task (Slurm's forms: `MM`, `HH:MM:SS`, `D-HH:MM`, ...).
    pub time: Option<String>,
    /// Time limit of the merge-and-fit job.
    pub merge_time: Option<String>,
    /// GPUs per task; 0 asks for none (a replayed job).
    pub gpus_per_task: u32,
    pub cpus_per_task: Option<u32>,
    /// At most this many shard tasks at once (the array's `%` limit).
    pub max_parallel: Option<u32>,
    /// Environment modules loaded before `hone` runs (`module load M`).
    pub modules: Vec<String>,
    /// Further `sbatch` options, written as `#SBATCH` lines of both scripts.
    pub sbatch_options: Vec<String>,
}

impl Default for Resources {
    fn default() -> Self {
        Resources {
            shards: 4,
            partition: None,
            account: None,
            time: None,
            merge_time: None,
            gpus_per_task: 1,
            cpus_per_task: None,
            max_parallel: None,
            modules: Vec::new(),
            sbatch_options: Vec::new(),
        }
    }
}

/// How the scripts run `hone tune` (and `hone rule`, `hone report`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TuneCommand {
    /// The `hone` binary (absolute).
    pub hone: PathBuf,
    /// The job file (absolute).
    pub job_file: PathBuf,
    /// The job's name.
    pub job_name: String,
    /// Options every `hone tune` of the run gets (measurement options, a
    /// replayed recording), paths in them absolute.
    pub tune_args: Vec<String>,
    /// Whether the job samples over size, so that a rule and plots come out.
    pub has_sampling: bool,
}

fn bad(option: &'static str, value: &str, message: &str) -> SlurmError {
    SlurmError::Setting {
        option,
        value: value.to_string(),
        message: message.to_string(),
    }
}

/// A name Slurm and the shell take as one word: a partition, account,
/// module, job name.
fn check_word(option: &'static str, value: &str) -> Result<(), SlurmError> {
    let ok = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.+/:@,=".contains(c));
    if ok {
        Ok(())
    } else {
        Err(bad(
            option,
            value,
            "expected a name of letters, digits and _ - . + / : @ , =",
        ))
    }
}

/// Slurm's time limits: `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S`, or
/// `UNLIMITED`.
pub fn check_time(option: &'static str, value: &str) -> Result<(), SlurmError> {
    let numbers = |s: &str, most: usize| {
        let parts: Vec<&str> = s.split(':').collect();
        parts.len() <= most
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    };
    let ok = value.eq_ignore_ascii_case("unlimited")
        || match value.split_once('-') {
            Some((days, rest)) => numbers(days, 1) && numbers(rest, 3),
            None => numbers(value, 3),
        };
    if ok {
        Ok(())
    } else {
        Err(bad(
            option,
            value,
            "expected a Slurm time limit such as 30, 2:00:00 or 1-12:00:00",
        ))
    }
}

impl Resources {
    /// Checks every value that goes into a script.
    pub fn check(&self) -> Result<(), SlurmError> {
        if self.shards == 0 {
            return Err(bad("--shards", "0", "a run needs at least one shard"));
        }
        if let Some(p) = &self.partition {
            check_word("--partition", p)?;
        }
        if let Some(a) = &self.account {
            check_word("--account", a)?;
        }
        if let Some(t) = &self.time {
            check_time("--time", t)?;
        }
        if let Some(t) = &self.merge_time {
            check_time("--merge-time", t)?;
        }
        if self.cpus_per_task == Some(0) {
            return Err(bad("--cpus-per-task", "0", "give at least one CPU"));
        }
        if self.max_parallel == Some(0) {
            return Err(bad("--max-parallel", "0", "allow at least one task"));
        }
        for m in &self.modules {
            check_word("--module", m)?;
        }
        for o in &self.sbatch_options {
            let ok = o.starts_with("--")
                && o.len() > 2
                && !o.chars().any(|c| c.is_control() || c.is_whitespace());
            if !ok {
                return Err(bad(
                    "--sbatch-option",
                    o,
                    "expected one sbatch option without spaces, such as --qos=high or --constraint=a100",
                ));
            }
            let name = o[2..].split('=').next().unwrap_or_default();
            if ["array", "dependency", "output", "error", "job-name"].contains(&name) {
                return Err(bad(
                    "--sbatch-option",
                    o,
                    "hone writes this one itself; edit the scripts to change it",
                ));
            }
        }
        Ok(())
    }
}

impl TuneCommand {
    pub fn check(&self) -> Result<(), SlurmError> {
        check_word("job name", &self.job_name)?;
        for (what, path) in [("hone", &self.hone), ("job file", &self.job_file)] {
            if !path.is_absolute() {
                return Err(bad(
                    "path",
                    &path.display().to_string(),
                    &format!("the {what} must be named by an absolute path"),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_take_slurms_forms() {
        for ok in [
            "30",
            "30:00",
            "2:00:00",
            "1-12",
            "1-12:30",
            "1-12:30:00",
            "UNLIMITED",
        ] {
            check_time("--time", ok).unwrap();
        }
        for bad in [
            "",
            "2h",
            "1-",
            "-3",
            "1:2:3:4",
            "1-2:3:4:5",
            "2:00:00\n#SBATCH",
        ] {
            let err = check_time("--time", bad).unwrap_err().to_string();
            assert!(err.starts_with("--time `"), "{err}");
        }
    }

    #[test]
    fn values_that_would_break_a_script_are_refused() {
        let with = |f: &dyn Fn(&mut Resources)| {
            let mut r = Resources::default();
            f(&mut r);
            r.check().map_err(|e| e.to_string())
        };
        assert!(with(&|_| {}).is_ok());
        let err = with(&|r| r.partition = Some("gpu\n#SBATCH --x".into())).unwrap_err();
        assert!(err.starts_with("--partition `gpu"), "{err}");
        let err = with(&|r| r.modules = vec!["cuda 12".into()]).unwrap_err();
        assert!(err.contains("--module `cuda 12`"), "{err}");
        let err = with(&|r| r.sbatch_options = vec!["qos=high".into()]).unwrap_err();
        assert!(err.contains("such as --qos=high"), "{err}");
        let err = with(&|r| r.sbatch_options = vec!["--array=0-9".into()]).unwrap_err();
        assert!(err.contains("hone writes this one itself"), "{err}");
        let err = with(&|r| r.shards = 0).unwrap_err();
        assert!(err.contains("at least one shard"), "{err}");
        assert!(with(&|r| r.sbatch_options = vec!["--qos=high".into()]).is_ok());
    }
}
