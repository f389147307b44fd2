//! `hone ozaki`: DGEMM emulated on the INT8 tensor cores against cuBLAS
//! DGEMM, speed and errors on the same inputs (`hone_kernels::gemm::ozaki`).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, Result};
use clap::Args;
use hone_gpu::Gpu;
use hone_kernels::gemm::ozaki::{Crt, MODULI};
use hone_kernels::gemm::ozaki_report::{run, OzakiOptions};
use hone_kernels::gemm::Layout;

use super::routine::Common;
use crate::exit;

#[derive(Args)]
pub struct OzakiArgs {
    /// Where the report goes (ozaki.md, ozaki.json; created if missing)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Square sizes N (default: 2048, 4096, 8192)
    #[arg(long, value_name = "N,N", value_delimiter = ',')]
    pub sizes: Vec<usize>,
    /// Numbers of moduli (1 to 34), or fit: the fewest the inputs need for
    /// an error of at most sqrt(k) 2^-53 (|A| |B|)_ij in every entry
    /// (default 14, 15, 16, fit)
    #[arg(long, value_name = "L,L", value_delimiter = ',')]
    pub moduli: Vec<String>,
    /// Input spreads phi: entries (rand - 0.5) exp(phi randn) (default 0.5, 4)
    #[arg(long, value_name = "P,P", value_delimiter = ',')]
    pub phi: Vec<f64>,
    /// op(A) op(B): NN (default), NT, TN or TT
    #[arg(long, default_value = "NN")]
    pub layout: String,
    #[command(flatten)]
    pub common: Common,
}

pub fn run_cmd(args: OzakiArgs) -> Result<u8> {
    let words = if args.moduli.is_empty() {
        vec!["14".into(), "15".into(), "16".into(), "fit".into()]
    } else {
        args.moduli.clone()
    };
    let fit = words.iter().any(|w| w == "fit");
    let mut moduli = Vec::new();
    for w in words.iter().filter(|w| *w != "fit") {
        let l: usize = w
            .parse()
            .map_err(|_| anyhow!("--moduli {w}: expected a count or fit"))?;
        Crt::new(l).map_err(|e| anyhow!("--moduli: {e} (at most {})", MODULI.len()))?;
        moduli.push(l);
    }
    if let Some(p) = args.phi.iter().find(|p| !(0.0..=50.0).contains(*p)) {
        return Err(anyhow!("--phi {p}: expected 0 to 50"));
    }
    let options = OzakiOptions {
        layout: args.layout.parse::<Layout>().map_err(|e| anyhow!("{e}"))?,
        sizes: if args.sizes.is_empty() {
            vec![2048, 4096, 8192]
        } else {
            args.sizes.clone()
        },
        moduli,
        fit,
        phis: if args.phi.is_empty() {
            vec![0.5, 4.0]
        } else {
            args.phi.clone()
        },
        measure: args.common.measure(),
    };
    let gpu = Gpu::open(args.common.device).map_err(|e| anyhow!("{e}"))?;
    eprintln!("{}", gpu.props());
    let start = Instant::now();
    let report = run(&gpu, &options, &mut |r| {
        eprintln!(
            "[{:7.1} s] N={} phi={} {}: {} ms, x{} cuBLAS, median error {:.1e} {}",
            start.elapsed().as_secs_f64(),
            r.n,
            r.phi,
            r.implementation,
            r.medians_ms
                .first()
                .map(|m| format!("{m:.3}"))
                .unwrap_or_else(|| "-".into()),
            r.speedup
                .map(|s| format!("{s:.2}"))
                .unwrap_or_else(|| "-".into()),
            r.accuracy.elementwise_median,
            r.status
        )
    })
    .map_err(|e| anyhow!("{e}"))?;
    super::ddgemm::finish(start, report.markdown(""), |footer| {
        report.write(&args.out, footer)
    })?;
    Ok(if report.rows.iter().all(|r| r.status == "ok") {
        exit::OK
    } else {
        exit::FAULT
    })
}
