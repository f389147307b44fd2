//! `hone ddgemm`: the double-double GEMM report (speed, errors against the
//! exact product on several input kinds, and the measured instruction
//! bound), written by `hone_kernels::gemm::dd_report`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, Result};
use clap::Args;
use hone_gpu::Gpu;
use hone_kernels::gemm::dd::InputKind;
use hone_kernels::gemm::dd_report::{madd_name, run, DdReportOptions};
use hone_kernels::gemm::GemmRules;

use super::routine::Common;
use crate::exit;

#[derive(Args)]
pub struct DdgemmArgs {
    /// Where the report goes (ddgemm.md, .csv, .json; created if missing)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Variants (default: ddgemm_nn, ddgemm_tn, ddgemm_split_nn, ddgemm_split_tn)
    #[arg(long, value_name = "V,V", value_delimiter = ',')]
    pub variants: Vec<String>,
    /// Square sizes N (default: 1024, 2048, 4096, 8192)
    #[arg(long, value_name = "N,N", value_delimiter = ',')]
    pub sizes: Vec<usize>,
    /// Multiply-adds on each tile: 0 accurate, 1 sloppy, 2 lazy (default: all)
    #[arg(long, value_name = "M,M", value_delimiter = ',')]
    pub madd: Vec<i64>,
    /// Input kinds: phi=P ((rand - 0.5) exp(P randn)) or ill=B (condition
    /// about 2^B) (default: phi=0.5, phi=4, ill=40)
    #[arg(long, value_name = "KIND,KIND", value_delimiter = ',')]
    pub kinds: Vec<String>,
    /// Also the double-double product on the INT8 tensor cores (Ozaki
    /// scheme II) with these numbers of moduli (1 to 34), or fit (the
    /// fewest each input kind needs for an error of at most sqrt(k) 2^-104
    /// (|A| |B|)_ij in every entry), on the interleaved variants (default:
    /// none)
    #[arg(long, value_name = "L,L", value_delimiter = ',')]
    pub int8_moduli: Vec<String>,
    #[command(flatten)]
    pub common: Common,
}

fn kind(word: &str) -> Result<InputKind> {
    let bad = || anyhow!("input kind `{word}`: expected phi=P (P >= 0) or ill=B (1 to 100)");
    match word.split_once('=') {
        Some(("phi", p)) => {
            let p: f64 = p.parse().map_err(|_| bad())?;
            if !(0.0..=50.0).contains(&p) {
                return Err(bad());
            }
            Ok(InputKind::Phi(p))
        }
        Some(("ill", b)) => {
            let b: u32 = b.trim_start_matches("2^").parse().map_err(|_| bad())?;
            if !(1..=100).contains(&b) {
                return Err(bad());
            }
            Ok(InputKind::IllConditioned(b))
        }
        _ => Err(bad()),
    }
}

pub fn run_cmd(args: DdgemmArgs) -> Result<u8> {
    let mut options = DdReportOptions::defaults(args.common.measure());
    if !args.variants.is_empty() {
        options.variants = args.variants.clone();
    }
    if !args.sizes.is_empty() {
        options.sizes = args.sizes.clone();
    }
    if !args.madd.is_empty() {
        options.madds = args.madd.clone();
    }
    if !args.kinds.is_empty() {
        options.kinds = args.kinds.iter().map(|k| kind(k)).collect::<Result<_>>()?;
    }
    options.int8_moduli = args
        .int8_moduli
        .iter()
        .map(|w| match w.as_str() {
            "fit" => Ok(hone_kernels::gemm::dd_report::FIT_MODULI),
            _ => w
                .parse::<usize>()
                .ok()
                .filter(|&l| l != hone_kernels::gemm::dd_report::FIT_MODULI)
                .ok_or_else(|| anyhow!("--int8-moduli {w}: expected a count (1 to 34) or fit")),
        })
        .collect::<Result<_>>()?;
    options.validate().map_err(|e| anyhow!("{e}"))?;
    let folder = match &args.common.rules {
        Some(d) => Some(GemmRules::load_dir(d).map_err(|e| anyhow!("{e}"))?),
        None => None,
    };
    let gpu = Gpu::open(args.common.device).map_err(|e| anyhow!("{e}"))?;
    // as `hone run gemm`: the device model's rules, each variant that
    // `hone retune gemm` tuned here in place of its built-in one
    let rules = folder.unwrap_or_else(|| GemmRules::for_device(&gpu.props().name).0);
    eprintln!("{}", gpu.props());
    let start = Instant::now();
    let report = run(&gpu, &rules, &options, &mut |r| {
        eprintln!(
            "[{:7.1} s] {} N={} {}: {} TFLOP/s, {} of bound, {}",
            start.elapsed().as_secs_f64(),
            r.variant,
            r.n,
            madd_name(r.madd),
            r.tflops
                .map(|t| format!("{t:.3}"))
                .unwrap_or_else(|| "-".into()),
            r.share_of_bound()
                .map(|s| format!("{s:.2}"))
                .unwrap_or_else(|| "-".into()),
            r.status
        )
    })
    .map_err(|e| anyhow!("{e}"))?;
    finish(start, report.markdown(""), |footer| {
        report.write(&args.out, footer)
    })?;
    Ok(if report.all_ok() {
        exit::OK
    } else {
        exit::FAULT
    })
}

/// Writes a report with the command line and its duration as the footer,
/// prints its markdown and the files written.
pub(super) fn finish(
    start: Instant,
    markdown: String,
    write: impl FnOnce(&str) -> hone_kernels::routine::Result<Vec<PathBuf>>,
) -> Result<()> {
    let command: Vec<String> = std::env::args().collect();
    let footer = format!(
        "Command: `{}` ({:.0} s).\n",
        command.join(" "),
        start.elapsed().as_secs_f64()
    );
    let written = write(&footer).map_err(|e| anyhow!("{e}"))?;
    println!("{markdown}");
    for p in written {
        println!("wrote {}", p.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_kinds_parse_and_bad_ones_are_named() {
        assert_eq!(kind("phi=0.5").unwrap(), InputKind::Phi(0.5));
        assert_eq!(kind("ill=2^40").unwrap(), InputKind::IllConditioned(40));
        assert_eq!(kind("ill=30").unwrap(), InputKind::IllConditioned(30));
        for bad in ["phi", "phi=-1", "ill=0", "cond=3"] {
            assert!(kind(bad).unwrap_err().to_string().contains(bad), "{bad}");
        }
    }
}
