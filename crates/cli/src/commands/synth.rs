//! `hone synth`: shared-memory synthesis from an annotated kernel (SHA,
//! SHA-sleeve, temporal blocking), verified in the emulator.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};
use clap::Args;
use hone_launch::{Launch, LaunchData};
use hone_synthesizer::tunable::{tunable, TemplateOptions};
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
    /// Also write a tuning template into this folder: the kernel as written and
    /// the synthesized one, with block shape and planes per thread (z-chunks)
    /// as parameters, each variant checked in the emulator first
    /// (`NAME.cu`, `NAME.json`, `NAME.tune.toml`; tune with `hone tune`)
    #[arg(long, value_name = "DIR")]
    pub template: Option<PathBuf>,
    /// The template's name (default: the kernel's, with `_tuned`)
    #[arg(long, value_name = "NAME", requires = "template")]
    pub template_name: Option<String>,
    /// How each argument that sets the problem size follows the size N the
    /// tuner varies, comma-separated (`nx=N,ny=N,nz=N`)
    #[arg(
        long,
        value_name = "ARG=EXPR,...",
        value_delimiter = ',',
        requires = "template"
    )]
    pub problem: Vec<String>,
    /// The naive kernel the annotated one was made from (same parameters): it
    /// races the synthesized kernel and is the reference the template checks
    /// against (default: the annotated kernel as written)
    #[arg(long, value_name = "FILE.cu[:KERNEL]", requires = "template")]
    pub naive: Option<String>,
    /// Problem sizes N to tune at, comma-separated
    #[arg(
        long,
        value_name = "N,...",
        value_delimiter = ',',
        requires = "template"
    )]
    pub sizes: Vec<i64>,
    /// Block extents along x the template tries, comma-separated
    #[arg(long, value_delimiter = ',', requires = "template", default_values_t = [16, 32, 64, 128, 256])]
    pub block_x: Vec<i64>,
    /// Block extents along y the template tries, comma-separated
    #[arg(long, value_delimiter = ',', requires = "template", default_values_t = [1, 2, 4, 8, 16])]
    pub block_y: Vec<i64>,
    /// Planes per thread (z-chunk lengths) the template tries, comma-separated; 0 is the whole walk
    #[arg(long, value_delimiter = ',', requires = "template", default_values_t = [0, 4, 8, 16, 32, 64])]
    pub chunks: Vec<i64>,
    /// Unroll factors the template tries on the chunked walks (`#pragma unroll`),
    /// comma-separated; 1 alone adds no parameter
    #[arg(long, value_delimiter = ',', requires = "template", default_values_t = [1])]
    pub unroll: Vec<i64>,
    /// Also try the chunked kernels with their pointer parameters declared
    /// `__restrict__` (a RESTRICT parameter; the template's buffers never overlap)
    #[arg(long, requires = "template")]
    pub restrict: bool,
    /// Also race the starting kernel chunked with a register queue along its
    /// walk: a load that reads what another read one plane earlier takes it
    /// from a register (found in the emulator, checked at run time)
    #[arg(long, requires = "template")]
    pub queue: bool,
    /// Units in the last place of the output's largest magnitude by which an
    /// element near zero may differ from the naive kernel's when the template
    /// is tuned (its variants sum terms in other orders); 0 checks within the
    /// relative tolerance alone
    #[arg(long, requires = "template", default_value_t = 16.0)]
    pub rounding_ulps: f64,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Writes the tuning template of a verified synthesis into `dir`.
fn write_template(
    args: &SynthArgs,
    ak: &hone_synthesizer::AnnotatedKernel,
    s: &hone_synthesizer::Synthesis,
    profile: &LaunchData,
    dir: &Path,
) -> Result<()> {
    let mut opts = TemplateOptions {
        sizes: args.sizes.clone(),
        block_x: args.block_x.clone(),
        block_y: args.block_y.clone(),
        chunks: args.chunks.clone(),
        unroll: args.unroll.clone(),
        restrict: args.restrict,
        queue: args.queue,
        rounding_ulps: args.rounding_ulps,
        ..TemplateOptions::default()
    };
    for p in &args.problem {
        let (arg, expr) = p
            .split_once('=')
            .ok_or_else(|| anyhow!("--problem `{p}`: expected ARG=EXPR"))?;
        opts.problem
            .insert(arg.trim().to_string(), expr.trim().to_string());
    }
    if opts.sizes.is_empty() {
        return Err(anyhow!(
            "--template needs --sizes (the problem sizes N to tune at)"
        ));
    }
    let name = args
        .template_name
        .clone()
        .unwrap_or_else(|| format!("{}_tuned", ak.name));
    let naive = match &args.naive {
        Some(spec) => {
            let (file, kernel) = match spec.rsplit_once(':') {
                Some((f, k)) if !k.contains('/') => (f, Some(k.to_string())),
                _ => (spec.as_str(), None),
            };
            let path = Path::new(file);
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
            let parsed = hone_frontend::parse_source(file, &text, &Default::default())?;
            let kernel = match kernel {
                Some(k) => k,
                None => parsed
                    .module
                    .functions
                    .iter()
                    .find(|f| f.kind == hone_ir::FuncKind::Global)
                    .map(|f| f.name.clone())
                    .ok_or_else(|| anyhow!("{file}: no kernel"))?,
            };
            parsed.kernel(&kernel, file)?;
            Some((parsed.module, kernel))
        }
        None => None,
    };
    let t = tunable(
        ak,
        s,
        naive.as_ref().map(|(m, k)| (m, k.as_str())),
        profile,
        &name,
        &opts,
    )?;
    std::fs::create_dir_all(dir).map_err(|e| anyhow!("cannot create {}: {e}", dir.display()))?;
    let write = |file: String, text: &str| -> Result<()> {
        let path = dir.join(file);
        std::fs::write(&path, text).map_err(|e| anyhow!("cannot write {}: {e}", path.display()))
    };
    write(format!("{name}.cu"), &t.source)?;
    write(
        format!("{name}.json"),
        &(serde_json::to_string_pretty(&t.template)? + "\n"),
    )?;
    write(format!("{name}.tune.toml"), &t.job)?;
    eprintln!(
        "tuning template written to {}/{name}.{{cu,json,tune.toml}}:",
        dir.display()
    );
    for v in &t.variants {
        match (&v.chunked, &v.unchunked_because) {
            (Some(ind), _) => eprintln!(
                "  variant {} ({}): chunked along z{}{}; {} emulator runs agree with the kernel as written",
                v.variant,
                v.name,
                if ind.is_empty() {
                    String::new()
                } else {
                    format!(" (advancing {})", ind.join(", "))
                },
                if v.accumulated.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; chunks add their column sums into {}, which must be zero before a launch",
                        v.accumulated.join(", ")
                    )
                },
                v.checks.len()
            ),
            (None, why) => eprintln!(
                "  variant {} ({}): whole columns only ({}); {} emulator runs bit-equal",
                v.variant,
                v.name,
                why.as_deref().unwrap_or("not chunked"),
                v.checks.len()
            ),
        }
        for (load, source) in &v.queue {
            eprintln!("    `{load}` takes what `{source}` read a plane earlier, where the index is the same");
        }
    }
    for why in &t.left_out {
        eprintln!("  not entered: {why}");
    }
    eprintln!(
        "  tune: hone tune {}/{name}.tune.toml --db {name}.sqlite",
        dir.display()
    );
    Ok(())
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
    if let Some(dir) = &args.template {
        if s.verified {
            write_template(&args, &ak, &s, &profile[0], dir)?;
        } else {
            eprintln!("no tuning template: the synthesized kernel was not verified");
        }
    }
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
