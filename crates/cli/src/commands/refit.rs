//! What `hone rule`, `hone report` and `hone tune --replay` share: opening
//! a tuning database that must exist. Finding a job in it and fitting again
//! are the tuner's ([`hone_tuner::refit`]).

use std::path::Path;

use anyhow::{bail, Context, Result};
use hone_tuner::TuningDb;

/// Opens a tuning database that must already exist (opening creates one).
pub fn open_existing(path: &Path) -> Result<TuningDb> {
    if !path.is_file() {
        bail!("{}: no such tuning database", path.display());
    }
    TuningDb::open(path).with_context(|| format!("opening {}", path.display()))
}
