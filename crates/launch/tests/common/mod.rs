//! What the launch tests share.

use hone_emulator::{run_with_symbols, Options};

/// Runs `kernel` on the launch's data, with its `symbols`.
pub fn run(
    parsed: &hone_frontend::Parsed,
    kernel: &str,
    data: &mut hone_launch::LaunchData,
) -> hone_emulator::Report {
    let mut symbols = data.symbols(&parsed.module).unwrap();
    run_with_symbols(
        &parsed.module,
        kernel,
        &data.config,
        &data.args,
        &mut data.buffers,
        &mut symbols,
        &Options::default(),
        None,
    )
    .unwrap()
}
