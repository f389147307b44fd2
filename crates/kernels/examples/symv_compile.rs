//! Compiles the SYMV benchmark's candidate kernels with NVRTC for one
//! architecture, with no GPU needed, and keeps the cubins and the compiler's
//! resource report: the quickest way to catch a compile error, a spill or a
//! register count that breaks MULTIPLICITY before any device time is spent.
//!
//! ```text
//! symv_compile [--arch 90] [--out DIR] [--verbose-ptxas] [--precision d|s]
//!              [--uplo L|U] [--atomic B,UX,M,MX,VEC,STEPS,NP,SYNC,LDHINT,SCHED]...
//!              [--lu B,NB]...
//! ```
//!
//! Without `--atomic`/`--lu` it compiles every candidate of the benchmark.
//! Cubins go to DIR (default `symv_cubins`) as `<precision>_<uplo>_<config>.cubin`;
//! disassemble them with `cuobjdump -sass` or `cuobjdump -res-usage`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use hone_gpu::{nvrtc, CompileOptions, ImageKind, Target};
use hone_kernels::symv::bench::{atomic, candidates, config_label, lu};
use hone_kernels::symv::space::DeviceLimits;
use hone_kernels::symv::{symv_template, Algorithm, Config, Precision, Uplo};

struct Args {
    arch: u32,
    out: PathBuf,
    verbose: bool,
    precisions: Vec<Precision>,
    uplos: Vec<Uplo>,
    configs: Vec<(Algorithm, Config)>,
}

fn parse_list<const K: usize>(flag: &str, s: &str) -> Result<[i64; K], String> {
    let v: Vec<i64> = s
        .split(',')
        .map(|p| p.trim().parse::<i64>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{flag} {s}: {e}"))?;
    v.try_into()
        .map_err(|v: Vec<i64>| format!("{flag} {s}: expected {K} values, got {}", v.len()))
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        arch: 90,
        out: PathBuf::from("symv_cubins"),
        verbose: false,
        precisions: Precision::ALL.to_vec(),
        uplos: vec![Uplo::Lower],
        configs: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--arch" => args.arch = value()?.parse().map_err(|e| format!("--arch: {e}"))?,
            "--out" => args.out = PathBuf::from(value()?),
            "--verbose-ptxas" => args.verbose = true,
            "--precision" => args.precisions = vec![value()?.parse()?],
            "--uplo" => args.uplos = vec![value()?.parse()?],
            "--atomic" => args
                .configs
                .push((Algorithm::Atomic, atomic(parse_list::<10>("--atomic", &value()?)?))),
            "--lu" => {
                let [b, nb] = parse_list::<2>("--lu", &value()?)?;
                args.configs.push((Algorithm::LowerUpper, lu(b, nb)));
            }
            "-h" | "--help" => {
                return Err("usage: symv_compile [--arch 90] [--out DIR] [--verbose-ptxas] \
                     [--precision d|s] [--uplo L|U] [--atomic B,UX,M,MX,VEC,STEPS,NP,SYNC,LDHINT,SCHED]... \
                     [--lu B,NB]..."
                    .to_string())
            }
            other => return Err(format!("unknown argument `{other}` (try --help)")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match nvrtc::version() {
        Ok((a, b)) => println!("NVRTC {a}.{b}, sm_{}", args.arch),
        Err(e) => {
            println!("{e}");
            return ExitCode::SUCCESS;
        }
    }
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        eprintln!("{}: {e}", args.out.display());
        return ExitCode::from(1);
    }
    let target = Target {
        arch: args.arch,
        kind: ImageKind::Cubin,
        arch_specific: false,
    };
    let limits = DeviceLimits::h100_sxm();
    let mut failures = 0;
    for &p in &args.precisions {
        for &u in &args.uplos {
            let list = if args.configs.is_empty() {
                candidates(p)
            } else {
                args.configs.clone()
            };
            for (alg, config) in list {
                let t = symv_template(p, u, alg);
                let label = format!(
                    "{}_{}_{}_{}",
                    p.blas_prefix(),
                    u.letter(),
                    alg,
                    config_label(&config).replace([' ', '='], "")
                );
                let defines = match t.violations(&config, &limits).and_then(|v| {
                    if v.is_empty() {
                        t.defines(&config, args.arch >= 90)
                    } else {
                        Err(hone_kernels::symv::SymvError::Config(format!(
                            "violates {}",
                            v.join("; ")
                        )))
                    }
                }) {
                    Ok(d) => d,
                    Err(e) => {
                        println!("{label}: {e}");
                        failures += 1;
                        continue;
                    }
                };
                let mut options = CompileOptions {
                    defines,
                    ..Default::default()
                };
                if args.verbose {
                    options.extra.push("--ptxas-options=-v".to_string());
                }
                let start = Instant::now();
                match nvrtc::compile(&t.source, &format!("{}.cu", t.entry), &options, &target) {
                    Ok(m) => {
                        let path = args.out.join(format!("{label}.cubin"));
                        if let Err(e) = std::fs::write(&path, &m.image) {
                            eprintln!("{}: {e}", path.display());
                        }
                        let info: Vec<&str> = m
                            .log
                            .lines()
                            .filter(|l| {
                                l.contains("registers")
                                    || l.contains("spill")
                                    || l.contains("stack")
                                    || l.contains("warning")
                            })
                            .collect();
                        println!(
                            "{label}: ok in {:.2} s, {} bytes | {}",
                            start.elapsed().as_secs_f64(),
                            m.image.len(),
                            info.join(" | ")
                        );
                    }
                    Err(e) => {
                        failures += 1;
                        println!("{label}: {e}");
                    }
                }
            }
        }
    }
    println!("{failures} failure(s)");
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
