//! `hone synth`: shared-memory synthesis from an annotated kernel (SHA,
//! SHA-sleeve, temporal blocking), verified in the emulator.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};
use clap::Args;
use hone_launch::{Launch, LaunchData};
use hone_synthesizer::{load_file, report, synthesize, Options};

use crate::commands::limits::LimitArgs;
use crate::exit;

#[derive(Args)]
pub struct SynthArgs {
    /// The annotated .cu file (`__opt__in[...]`, `__opt__(shared, global)`, `__insert()`)
    pub file: PathBuf,
    /// The kernel to synthesize (default: the first launch file's kernel)
    #[arg(long)]
    pub kernel: Option<String>,
    /// Profile launch file (JSON, as for `hone sim`; buffer contents are
    /// replaced by distinct values); repeat for several launches
    #[arg(long = "launch", value_name = "PROFILE.json", required = true)]
    pub launches: Vec<PathBuf>,
    /// Symbols to record and search over, comma-separated: integer variables
    /// and threadIdx.x, blockDim.y, blockIdx.z, gridDim.x... (default: chosen per access)
    #[arg(long, value_delimiter = ',')]
    pub vars: Option<Vec<String>>,
    /// Write the synthesized kernel to this file (default: standard output)
    #[arg(short = 'o', long, value_name = "OUT.cu")]
    pub output: Option<PathBuf>,
    /// Print the report (and the kernel) as JSON
    #[arg(long)]
    pub json: bool,
    /// Skip verification and emit the kernel unchecked
    #[arg(long)]
    pub unverified: bool,
    /// An extra verification launch file (its sizes must differ from the profile's); repeatable
    #[arg(long = "verify-launch", value_name = "LAUNCH.json")]
    pub verify_launches: Vec<PathBuf>,
    /// Fail instead of profiling again with other sizes when verification shows an
    /// expression that held only for the profile launches' sizes
    #[arg(long)]
    pub no_refine: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// A profile or verification launch for the annotated kernel: the launch
/// file's shape and arguments, whatever kernel it names.
fn launch_data(
    path: &Path,
    ak: &hone_synthesizer::AnnotatedKernel,
    max_memory: u64,
) -> Result<(Launch, LaunchData)> {
    let launch = Launch::read(path)?;
    let data = launch.data_within(&ak.kernel, max_memory)?;
    Ok((launch, data))
}

pub fn run(args: SynthArgs) -> Result<u8> {
    let first = Launch::read(&args.launches[0])?;
    let kernel = args
        .kernel
        .clone()
        .unwrap_or_else(|| first.file.kernel.clone());
    let ak = load_file(&args.file, &kernel, &first.frontend_options())?;
    let limits = args.limits.limits();
    let mut profile = Vec::new();
    for p in &args.launches {
        let (launch, data) = launch_data(p, &ak, limits.max_memory)?;
        if launch.file.kernel != kernel {
            eprintln!(
                "note: {} names kernel `{}`; its shape and arguments are used for `{kernel}`",
                p.display(),
                launch.file.kernel
            );
        }
        profile.push(data);
    }
    let mut verify_launches = Vec::new();
    for p in &args.verify_launches {
        verify_launches.push(launch_data(p, &ak, limits.max_memory)?.1);
    }
    let synth_opts = Options {
        vars: args.vars.clone(),
        verify_launches,
        unverified: args.unverified,
        refine: !args.no_refine,
        limits,
        ..Options::default()
    };
    let s = synthesize(&ak, &profile, &synth_opts)?;
    let emit = s.verified || args.unverified;
    if emit {
        if let Some(out) = &args.output {
            std::fs::write(out, &s.source)
                .map_err(|e| anyhow!("cannot write {}: {e}", out.display()))?;
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        let report = report::human(&s, emit.then_some(args.output.as_deref()).flatten());
        if args.output.is_none() && emit {
            // The kernel goes to standard output, the report beside it.
            print!("{}", s.source);
            eprint!("{report}");
        } else {
            print!("{report}");
        }
    }
    Ok(if s.verified || args.unverified {
        exit::OK
    } else {
        exit::FAULT
    })
}
