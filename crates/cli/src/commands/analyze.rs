//! `hone analyze`: memory-access analysis of one launch (coalescing and bank
//! conflicts per source access, diagrams, verified fixes).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use hone_analyzer::{analyze, diagram, report, LaunchSpec, Model, Options};

use crate::commands::sim::load_module;
use crate::exit;
use crate::launch::Launch;

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
    /// Worst requests drawn per site
    #[arg(long, default_value_t = 2)]
    pub worst: usize,
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
    let parsed = load_module(&launch)?;
    let module = parsed.module;
    let kernel_name = launch.file.kernel.clone();
    let Some((_, kernel)) = module
        .function(&kernel_name)
        .filter(|(_, f)| f.kind == hone_ir::FuncKind::Global)
    else {
        let known: Vec<&str> = module.kernels().map(|k| k.name.as_str()).collect();
        bail!(
            "kernel `{kernel_name}` not found in {} (kernels: {})",
            launch.source_path.display(),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        );
    };
    let config = launch.config()?;
    let (kargs, buffers) = launch.arguments(kernel)?;
    let model =
        Model::parse(&args.model).ok_or_else(|| anyhow!("unknown model `{}`", args.model))?;
    let spec = LaunchSpec {
        module,
        kernel: kernel_name,
        config,
        args: kargs,
        buffers,
    };
    let opts = Options {
        model,
        worst_warps: args.worst,
        suggest: !args.no_fix,
        ..Options::default()
    };
    let analysis = analyze(&spec, &opts).map_err(|e| anyhow!("{}: {e}", launch_path.display()))?;

    let mut diagrams: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for site in analysis.sites.iter().filter(|s| s.flagged(model)) {
            for (k, sample) in site.stats.worst.iter().enumerate() {
                let stem = diagram::file_stem(&analysis.kernel, site, k);
                let text = diagram::svg(site, sample, model);
                let svg_path = dir.join(format!("{stem}.svg"));
                std::fs::write(&svg_path, &text)
                    .with_context(|| format!("cannot write {}", svg_path.display()))?;
                let files = diagrams.entry(site.rank).or_default();
                files.push(svg_path.display().to_string());
                if !args.no_png {
                    let png = diagram::png(&text)
                        .map_err(|e| anyhow!("cannot render {}: {e}", svg_path.display()))?;
                    let png_path = dir.join(format!("{stem}.png"));
                    std::fs::write(&png_path, png)
                        .with_context(|| format!("cannot write {}", png_path.display()))?;
                    files.push(png_path.display().to_string());
                }
            }
        }
    }

    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report::json(&analysis, &diagrams))?
        );
    } else {
        print!("{}", report::human(&analysis));
        let written: usize = diagrams.values().map(Vec::len).sum();
        if let Some(dir) = &args.svg {
            println!("\n{written} diagram file(s) written to {}", dir.display());
        }
    }
    Ok(if analysis.completed && analysis.faults.is_empty() {
        exit::OK
    } else {
        exit::FAULT
    })
}
