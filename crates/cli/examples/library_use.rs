//! What `hone sim` and `hone analyze` do, through the crates' public APIs
//! alone: read a launch file, parse its source, resolve the launch against
//! the kernel, run it in the emulator, and analyse its memory accesses.
//!
//! `cargo run -p hone-cli --example library_use -- examples/analyze/copy.json`

use std::error::Error;
use std::path::Path;

use hone_analyzer::{analyze, report, LaunchSpec, Options};
use hone_launch::{buffer_to_json, Launch};

/// The emulator's run of the launch: faults and races as `hone sim` names
/// them, then each dumped buffer as `NAME = [values]`.
pub fn simulate(launch_file: &Path) -> Result<String, Box<dyn Error>> {
    let launch = Launch::read(launch_file)?;
    let parsed = launch.parse()?;
    let kernel = launch.kernel(&parsed)?;
    let mut data = launch.data(kernel)?;
    let report = hone_emulator::run(
        &parsed.module,
        &parsed.function_name(launch.kernel_name()),
        &data.config,
        &data.args,
        &mut data.buffers,
        &hone_emulator::Options::default(),
        None,
    )?;
    let mut out = String::new();
    for f in &report.faults {
        out.push_str(&format!("fault: {}\n", f.message));
    }
    for r in &report.races {
        out.push_str(&format!(
            "race on `{}` at {}\n",
            r.array,
            parsed.module.location(r.first.span)
        ));
    }
    for b in launch.dumped(&data.buffers) {
        out.push_str(&format!("{} = {}\n", b.name, buffer_to_json(b)));
    }
    Ok(out)
}

/// The analyzer's human report of the launch (the sm90 model, fixes looked
/// for), as `hone analyze` prints it.
pub fn analyze_report(launch_file: &Path) -> Result<String, Box<dyn Error>> {
    let launch = Launch::read(launch_file)?;
    let parsed = launch.parse()?;
    let data = launch.data(launch.kernel(&parsed)?)?;
    let kernel_name = parsed.function_name(launch.kernel_name());
    let spec = LaunchSpec {
        module: parsed.module,
        kernel: kernel_name,
        launch: data,
    };
    let analysis = analyze(&spec, &Options::default())?;
    Ok(report::human(&analysis))
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn Error>> {
    let Some(path) = std::env::args().nth(1) else {
        return Err("usage: library_use LAUNCH.json".into());
    };
    print!("{}", simulate(Path::new(&path))?);
    print!("{}", analyze_report(Path::new(&path))?);
    Ok(())
}
