//! The run's directory: the two scripts, the record of submissions, one
//! database per shard, the logs, and what the merge job writes.

use std::path::PathBuf;

/// Paths inside a run's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub dir: PathBuf,
}

impl Layout {
    pub fn new(dir: impl Into<PathBuf>) -> Layout {
        Layout { dir: dir.into() }
    }

    /// The array script: one task per shard.
    pub fn shards_script(&self) -> PathBuf {
        self.dir.join("shards.sbatch")
    }

    /// The merge-and-fit script.
    pub fn merge_script(&self) -> PathBuf {
        self.dir.join("merge.sbatch")
    }

    pub fn manifest(&self) -> PathBuf {
        self.dir.join("slurm.json")
    }

    pub fn shards_dir(&self) -> PathBuf {
        self.dir.join("shards")
    }

    pub fn shard_db(&self, i: u32) -> PathBuf {
        self.shards_dir().join(format!("shard-{i}.sqlite"))
    }

    pub fn logs(&self) -> PathBuf {
        self.dir.join("logs")
    }

    /// The shards merged; the whole job finishes here.
    pub fn merged_db(&self) -> PathBuf {
        self.dir.join("tuning.sqlite")
    }

    /// `hone tune --json` of the finished job.
    pub fn tune_json(&self) -> PathBuf {
        self.dir.join("tune.json")
    }

    pub fn rule_json(&self) -> PathBuf {
        self.dir.join("rule.json")
    }

    pub fn rule_rust(&self) -> PathBuf {
        self.dir.join("rule.rs")
    }

    pub fn rule_c(&self) -> PathBuf {
        self.dir.join("rule.h")
    }

    /// `hone report`'s plots.
    pub fn report(&self) -> PathBuf {
        self.dir.join("report")
    }

    /// The directory as the scripts name it: absolute (against the working
    /// directory, links kept), as a batch job may start anywhere.
    pub fn absolute(&self) -> std::io::Result<Layout> {
        Ok(Layout::new(std::path::absolute(&self.dir)?))
    }
}
