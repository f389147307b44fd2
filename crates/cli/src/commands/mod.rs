pub mod analyze;
pub mod ddgemm;
pub mod difftest;
pub mod gpurun;
pub mod limits;
pub mod measure;
pub mod ozaki;
pub mod parse;
pub mod refit;
pub mod report;
pub mod retune;
pub mod routine;
pub mod rule;
pub mod sim;
pub mod synth;
pub mod tune;

use anyhow::Result;
use hone_frontend::Parsed;
use hone_launch::Launch;

/// Parses a launch's source and prints the front end's diagnostics, which
/// may concern other functions than the launch's kernel.
pub fn parse_launch(launch: &Launch) -> Result<Parsed> {
    let parsed = launch.parse()?;
    for d in &parsed.diagnostics {
        eprintln!("{d}");
    }
    Ok(parsed)
}
