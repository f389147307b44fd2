//! hone's memory-access analyzer: runs a kernel launch in the emulator, costs
//! every global and shared-memory request as it happens, and reports per
//! source access how much traffic it wastes and why.
//!
//! - Global memory is costed in 32-byte sectors, the sm_70-and-later model
//!   ([`sectors`]), and checked against the three coalescing conditions of
//!   compute capability 1.1 that the profiling-support paper uses ([`cc11`]).
//! - Shared memory is costed in wavefronts over 32 banks ([`banks`]).
//! - Sites are ranked by their excess (sectors, transactions or wavefronts
//!   beyond the ideal) summed over the launch.
//! - For the worst requests [`diagram`] draws the thread-to-address picture of
//!   the paper's figure 2.
//! - [`patterns`] matches each wasteful access against a catalogue of fixes,
//!   rewrites the kernel, and verifies the rewrite in the emulator: same
//!   outputs on random inputs (under the stated change of data layout, if
//!   any), and the predicted cost after the change.
//!
//! ```no_run
//! # fn demo(spec: &hone_analyzer::LaunchSpec) -> Result<(), hone_analyzer::AnalyzeError> {
//! let analysis = hone_analyzer::analyze(spec, &hone_analyzer::Options::default())?;
//! print!("{}", hone_analyzer::report::human(&analysis));
//! # Ok(()) }
//! ```

pub mod analysis;
pub mod banks;
pub mod cc11;
pub mod collect;
pub mod compiled;
pub mod diagram;
pub mod patterns;
pub mod report;
pub mod sectors;
mod shape;
mod walk;

pub use analysis::{analyze, measure, Analysis, Cost, LaunchSpec, Measured, Site, Totals};
pub use hone_launch::LaunchData;

use serde::Serialize;

/// Which global-memory model ranks the sites and drives the fixes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// 32-byte sectors (compute capability 7.0 and later).
    #[default]
    Sm90,
    /// The three half-warp conditions of compute capability 1.1.
    Cc11,
}

impl Model {
    pub fn name(self) -> &'static str {
        match self {
            Model::Sm90 => "sm90",
            Model::Cc11 => "cc11",
        }
    }
    pub fn parse(s: &str) -> Option<Model> {
        match s {
            "sm90" => Some(Model::Sm90),
            "cc11" => Some(Model::Cc11),
            _ => None,
        }
    }
}

/// Knobs of [`analyze`].
#[derive(Clone, Debug)]
pub struct Options {
    pub model: Model,
    /// Requests kept per site for diagrams (the worst ones).
    pub worst_warps: usize,
    /// Look for fixes in the catalogue and verify them.
    pub suggest: bool,
    /// Flagged source accesses (each group of sites once, at its best-ranked
    /// site), best-ranked first, for which fixes are looked for.
    pub suggest_sites: usize,
    /// Random inputs each fix is verified on, besides the launch's own.
    pub random_trials: u32,
    /// What the analysed launch may use in the emulator.
    pub limits: hone_emulator::Limits,
    /// Counters the analysed launch updates as it runs.
    pub progress: hone_emulator::Progress,
    /// Compiles the kernel so that the compiled code's memory instructions
    /// are counted ([`compiled`]); without one, the source's accesses are.
    pub compiler: Option<compiled::CompilerHandle>,
    /// Writes the shared-memory tile of a stencil's neighbour reads
    /// ([`patterns::Synthesizer`]); without one, that fix is not offered.
    pub synthesizer: Option<patterns::SynthesizerHandle>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            model: Model::Sm90,
            worst_warps: 2,
            suggest: true,
            suggest_sites: 6,
            random_trials: 2,
            limits: hone_emulator::Limits::default(),
            progress: hone_emulator::Progress::default(),
            compiler: None,
            synthesizer: None,
        }
    }
}

/// Failures that stop an analysis before any site is costed.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    #[error(transparent)]
    Setup(#[from] hone_emulator::SetupError),
    /// Writing diagrams: the file or folder and the reason.
    #[error("{0}")]
    Output(String),
    /// The launch cannot be set up (contents given for a variable the module lacks).
    #[error("{0}")]
    Launch(String),
}
