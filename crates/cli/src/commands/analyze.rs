//! `hone analyze`: memory-access analysis of one launch (coalescing and bank
//! conflicts per source access, diagrams, verified fixes).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use hone_analyzer::compiled::{CompiledCode, CompilerHandle};
use hone_analyzer::patterns::SynthesizerHandle;
use hone_analyzer::{analyze, diagram, report, LaunchSpec, Model, Options};
use hone_launch::Launch;

use crate::commands::limits::{LimitArgs, Watch};
use crate::commands::parse_launch;
use crate::exit;

#[derive(Args)]
pub struct AnalyzeArgs {
    /// The .cu file to analyse (overrides the launch file's `source`), or the
    /// launch file itself when --launch is not given
    pub file: PathBuf,
    /// The launch file (JSON, as for `hone sim`): kernel, grid, block, args
    #[arg(long)]
    pub launch: Option<PathBuf>,
    /// Global-memory model: sm90 (32-byte sectors) or cc11 (the half-warp
    /// coalescing conditions of compute capability 1.1)
    #[arg(long, default_value = "sm90", value_parser = ["sm90", "cc11"])]
    pub model: String,
    /// Print the result as JSON
    #[arg(long)]
    pub json: bool,
    /// Write thread-to-address diagrams (SVG and PNG) of the worst requests
    /// of every wasteful site into this directory
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Write only SVG diagrams, no PNG
    #[arg(long)]
    pub no_png: bool,
    /// Do not look for fixes (faster)
    #[arg(long)]
    pub no_fix: bool,
    /// Look for fixes at this many of the most wasteful source accesses (the sites one access
    /// makes, as a record's members, count once)
    #[arg(long, default_value_t = 6, value_name = "N")]
    pub fix_sites: usize,
    /// Worst requests drawn per site
    #[arg(long, default_value_t = 2)]
    pub worst: usize,
    /// Also write the analysis as one self-contained HTML page (source with
    /// each line's traffic, ranked sites, diagrams inline, fixes)
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Count the source's accesses, one request each, instead of the
    /// memory instructions of the compiled kernel (which needs NVRTC and
    /// nvdisasm, but no GPU)
    #[arg(long)]
    pub source_model: bool,
    /// The architecture the kernel is compiled for when its instructions are
    /// counted (90 for sm_90)
    #[arg(long, default_value_t = 90)]
    pub arch: u32,
    /// Write the compiled kernel's disassembly, as the GPU runs it and with
    /// every loop rolled (`compiled.sass`, `rolled.sass`), into this
    /// directory: the instructions the counts were matched with
    #[arg(long, value_name = "DIR", conflicts_with = "source_model")]
    pub sass: Option<PathBuf>,
    /// Time the kernel and each verified fix on the GPU (same inputs,
    /// outputs compared there), after the analysis
    #[arg(long)]
    pub measure: bool,
    /// With --measure: time with this launch file (the same kernel, larger
    /// buffers and grid) instead of the analysed one
    #[arg(long, value_name = "LAUNCH.json", requires = "measure")]
    pub measure_launch: Option<PathBuf>,
    /// With --measure: timed runs per kernel
    #[arg(long, default_value_t = 50, requires = "measure")]
    pub reps: u32,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Compiles analysed modules with NVRTC for `sm_{arch}` and disassembles
/// them, so the analyzer counts the compiled code's memory instructions.
/// With `sass`, the first module's listings (the analysed kernel's; later
/// ones are the fixes') are written there.
pub fn compiler(arch: u32, sass: Option<PathBuf>) -> CompilerHandle {
    let written = std::sync::atomic::AtomicBool::new(false);
    CompilerHandle(Arc::new(move |m: &hone_ir::Module| {
        let l = hone_gpu::sass::listings(m, arch).map_err(|e| e.to_string())?;
        if let Some(dir) = &sass {
            if !written.swap(true, std::sync::atomic::Ordering::SeqCst) {
                let write = |name: &str, text: &str| {
                    let path = dir.join(name);
                    std::fs::create_dir_all(dir)
                        .and_then(|_| std::fs::write(&path, text))
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))
                };
                write("compiled.sass", &l.compiled)?;
                write("rolled.sass", &l.rolled)?;
            }
        }
        Ok(CompiledCode::parse(
            &l.compiled,
            &l.rolled,
            &format!("sm_{arch}, NVRTC {}.{}", l.nvrtc.0, l.nvrtc.1),
        ))
    }))
}

/// Writes shared-memory tiles for the analyzer's `shared-stencil` fix with
/// `hone synth`: the annotated module profiled on the analysed launch, the
/// kernel it writes checked on launches derived from it. Each of its
/// launches may run a minute at most (less where the user's limit says so):
/// a fix search should not outlast the analysis.
pub fn synthesizer(mut limits: hone_emulator::Limits) -> SynthesizerHandle {
    const MOST: std::time::Duration = std::time::Duration::from_secs(60);
    limits.time_limit = Some(limits.time_limit.map_or(MOST, |t| t.min(MOST)));
    let opts = hone_synthesizer::Options {
        limits,
        ..Default::default()
    };
    SynthesizerHandle(Arc::new(
        move |text: &str, kernel: &str, launch: &hone_analyzer::LaunchData| {
            let run = || hone_synthesizer::synthesize_checked(text, kernel, launch, &opts);
            // A failure of the synthesizer on a kernel it was not written for
            // loses this one fix, not the analysis.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
                .unwrap_or_else(|_| Err("the synthesizer stopped on this kernel".to_string()))
        },
    ))
}

pub fn run(args: AnalyzeArgs) -> Result<u8> {
    let (source, launch_path) = match &args.launch {
        Some(l) => (Some(args.file.clone()), l.clone()),
        None if args.file.extension().is_some_and(|e| e == "json") => (None, args.file.clone()),
        None => bail!(
            "{}: give the launch file with --launch LAUNCH.json (it names the kernel, grid, block and arguments)",
            args.file.display()
        ),
    };
    let mut launch = Launch::read(&launch_path)?;
    if let Some(src) = source {
        launch.source_path = src;
    }
    let parsed = parse_launch(&launch)?;
    let limits = args.limits.limits();
    let data = launch.data_within(launch.kernel(&parsed)?, limits.max_memory)?;
    let model =
        Model::parse(&args.model).ok_or_else(|| anyhow!("unknown model `{}`", args.model))?;
    let kernel_name = parsed.function_name(launch.kernel_name());
    let spec = LaunchSpec {
        module: parsed.module,
        kernel: kernel_name,
        launch: data,
    };
    let opts = Options {
        model,
        worst_warps: args.worst,
        suggest: !args.no_fix,
        suggest_sites: args.fix_sites,
        synthesizer: Some(synthesizer(limits.clone())),
        limits,
        compiler: (!args.source_model).then(|| compiler(args.arch, args.sass.clone())),
        ..Options::default()
    };
    let watch = Watch::start(&opts.progress);
    let analysis = analyze(&spec, &opts).map_err(|e| anyhow!("{}: {e}", launch_path.display()))?;
    drop(watch);

    // The page carries its diagrams inline: without --svg they are drawn
    // into a scratch folder that is removed once the page is written.
    let scratch = (args.html.is_some() && args.svg.is_none())
        .then(|| std::env::temp_dir().join(format!("hone-analyze-html-{}", std::process::id())));
    let diagrams = match args.svg.as_ref().or(scratch.as_ref()) {
        Some(dir) => diagram::write_all(&analysis, model, dir, !args.no_png && scratch.is_none())?,
        None => BTreeMap::new(),
    };
    let mut json = report::json(&analysis, &diagrams);
    let measured = if args.measure {
        let timed_launch = args.measure_launch.as_ref().unwrap_or(&launch_path);
        let source = args.launch.as_ref().map(|_| args.file.as_path());
        let m = crate::commands::measure::measure(
            &analysis,
            timed_launch,
            args.measure_launch.is_none(),
            source.filter(|_| args.measure_launch.is_none()),
            args.reps,
            opts.limits.max_memory,
        )?;
        json["measured"] = serde_json::to_value(&m)?;
        Some(m)
    } else {
        None
    };
    if let Some(path) = &args.html {
        let mut sources = BTreeMap::new();
        for site in json["sites"].as_array().into_iter().flatten() {
            if let Some(file) = site["file"].as_str() {
                if !sources.contains_key(file) {
                    if let Ok(text) = std::fs::read_to_string(file) {
                        sources.insert(file.to_string(), text);
                    }
                }
            }
        }
        let page =
            hone_report::analysis_page(&json, &sources, &|p| std::fs::read_to_string(p).ok());
        std::fs::write(path, page).map_err(|e| anyhow!("cannot write {}: {e}", path.display()))?;
        if let Some(dir) = &scratch {
            let _ = std::fs::remove_dir_all(dir);
        }
        eprintln!("wrote {}", path.display());
    }

    if args.json {
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        print!("{}", report::human(&analysis));
        if let Some(m) = &measured {
            print!("{}", crate::commands::measure::human(m));
        }
        let written: usize = diagrams.values().map(Vec::len).sum();
        if let Some(dir) = args.svg.as_ref().filter(|_| scratch.is_none()) {
            println!("\n{written} diagram file(s) written to {}", dir.display());
        }
    }
    Ok(if analysis.completed && analysis.faults.is_empty() {
        exit::OK
    } else {
        exit::FAULT
    })
}
