//! The thesis's six benchmark cases: each synthesizes from the thesis's
//! profile launch, passes hone's own verification, and its emitted kernel
//! (parsed back from the text) gives the same outputs as the naive kernels
//! written by hand in `examples/synth/` (two naive launches for temporal
//! blocking), on a launch of other sizes.

mod support;

use hone_emulator::{Buffer, KernelArg, LaunchConfig};
use hone_ir::{Module, Type};
use hone_synthesizer::{fill_random, synthesize, Options, Synthesis};
use support::{load_case, run, CASES};

fn naive(file: &str) -> Module {
    let path = support::examples_dir().join(file);
    let p = hone_frontend::parse_file(&path, &Default::default()).unwrap();
    assert!(!p.has_errors(), "{:?}", p.diagnostics);
    p.module
}

fn emitted(s: &Synthesis) -> Module {
    let p = hone_frontend::parse_source("out.cu", &s.source, &Default::default()).unwrap();
    assert!(!p.has_errors(), "{:?}\n{}", p.diagnostics, s.source);
    p.module
}

fn synth(i: usize) -> (Synthesis, Module) {
    let (ak, profile) = load_case(&CASES[i]);
    let s = synthesize(&ak, &[profile], &Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", CASES[i].name));
    assert!(
        s.verified,
        "{}: {:#?}",
        CASES[i].name, s.verification.checks
    );
    assert!(!s.verification.checks.is_empty() && s.verification.checks.iter().all(|c| c.passed));
    let m = emitted(&s);
    (s, m)
}

fn floats(name: &str, n: usize) -> Buffer {
    Buffer::zeros(name, Type::FLOAT, n)
}

const COEF: [f64; 7] = [0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.19];

/// Diffusion on a 12x10x4 grid with 6x5 blocks.
fn diffusion_check(case: usize, twice: bool) -> Synthesis {
    let (s, m) = synth(case);
    let (nx, ny, nz) = (12i64, 10i64, 4i64);
    let n = (nx * ny * nz) as usize;
    let cfg = LaunchConfig::new([2, 2, 1], [6, 5, 1]);
    let mut input = vec![floats("in", n)];
    fill_random(&mut input, 42);
    let ints = [KernelArg::Int(nx), KernelArg::Int(ny), KernelArg::Int(nz)];
    let coef: Vec<KernelArg> = COEF.iter().map(|&c| KernelArg::Float(c)).collect();
    // Hand-written reference: the naive kernel, once or twice.
    let reference = naive("diffusion.cu");
    let mut bufs = vec![input[0].clone(), floats("out", n)];
    let args: Vec<KernelArg> = [KernelArg::Buffer(0), KernelArg::Buffer(1)]
        .into_iter()
        .chain(ints)
        .chain(coef.clone())
        .collect();
    run(
        &reference,
        "diffusion_kernel",
        &cfg,
        &args,
        &mut bufs,
        false,
    );
    if twice {
        bufs.swap(0, 1);
        run(
            &reference,
            "diffusion_kernel",
            &cfg,
            &args,
            &mut bufs,
            false,
        );
    }
    let want = bufs[1].clone();
    // The synthesized kernel.
    let mut cfg_s = cfg.clone();
    let (mut bufs, args): (Vec<Buffer>, Vec<KernelArg>) = if twice {
        let bufs = vec![input[0].clone(), floats("mid", n), floats("out", n)];
        let args = [
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
        ]
        .into_iter()
        .chain(ints)
        .chain(coef)
        .collect();
        (bufs, args)
    } else {
        (vec![input.remove(0), floats("out", n)], args)
    };
    cfg_s.dynamic_shared_bytes = s.shared_bytes(&cfg_s, &args).unwrap();
    assert!(cfg_s.dynamic_shared_bytes > 0);
    run(&m, &s.kernel, &cfg_s, &args, &mut bufs, twice);
    assert_eq!(
        bufs.last().unwrap().data,
        want.data,
        "{}: outputs differ from the naive kernel",
        CASES[case].name
    );
    s
}

/// Himeno on a 14x10x5 grid (12x8x3 interior) with 6x4 blocks.
fn himeno_check(case: usize, twice: bool) {
    let (s, m) = synth(case);
    let (nx, ny, nz) = (14i64, 10i64, 5i64);
    let n = (nx * ny * nz) as usize;
    let cfg = LaunchConfig::new([2, 2, 1], [6, 4, 1]);
    let mut inputs = vec![
        floats("p", n),
        floats("a", 4 * n),
        floats("b", 3 * n),
        floats("c", 3 * n),
        floats("wrk1", n),
        floats("bnd", n),
    ];
    fill_random(&mut inputs, 7);
    let outs = || vec![floats("wrk2", n), floats("gosa", (nx * ny) as usize)];
    let tail = [
        KernelArg::Int(nx),
        KernelArg::Int(ny),
        KernelArg::Int(nz),
        KernelArg::Float(0.8),
    ];
    let reference = naive("himeno.cu");
    let mut bufs: Vec<Buffer> = inputs.iter().cloned().chain(outs()).collect();
    let args: Vec<KernelArg> = (0..8).map(KernelArg::Buffer).chain(tail).collect();
    run(&reference, "jacobi", &cfg, &args, &mut bufs, false);
    if twice {
        // Between sweeps the benchmark copies the interior of wrk2 into p.
        let (p, w) = (bufs[0].to_f32_vec(), bufs[6].to_f32_vec());
        let mut next = p.clone();
        for z in 1..nz - 1 {
            for y in 1..ny - 1 {
                for x in 1..nx - 1 {
                    let q = (x + y * nx + z * nx * ny) as usize;
                    next[q] = w[q];
                }
            }
        }
        bufs[0] = Buffer::from_f32("p", &next);
        bufs[6] = floats("wrk2", n);
        run(&reference, "jacobi", &cfg, &args, &mut bufs, false);
    }
    let want = (bufs[6].clone(), bufs[7].clone());
    let mut bufs: Vec<Buffer> = inputs;
    if twice {
        bufs.push(floats("mid", n));
    }
    bufs.extend(outs());
    let nb = bufs.len();
    let args: Vec<KernelArg> = (0..nb).map(KernelArg::Buffer).chain(tail).collect();
    let mut cfg_s = cfg.clone();
    cfg_s.dynamic_shared_bytes = s.shared_bytes(&cfg_s, &args).unwrap();
    run(&m, &s.kernel, &cfg_s, &args, &mut bufs, twice);
    assert_eq!(
        bufs[nb - 2].data,
        want.0.data,
        "{}: wrk2 differs from the naive kernel",
        CASES[case].name
    );
    assert_eq!(
        bufs[nb - 1].data,
        want.1.data,
        "{}: gosa differs from the naive kernel",
        CASES[case].name
    );
}

#[test]
fn diffusion_sha_matches_naive() {
    diffusion_check(0, false);
}

#[test]
fn diffusion_sleeve_matches_naive() {
    let s = diffusion_check(1, false);
    assert!(
        s.sites
            .iter()
            .all(|c| c.kind == "copy" && c.synthesized.starts_with("if (threadIdx.")),
        "{:#?}",
        s.sites
    );
}

#[test]
fn diffusion_temporal_blocking_matches_two_naive_steps() {
    let s = diffusion_check(2, true);
    // `mid` is folded away: every marked read became a shared read with no
    // condition, several found at more than one index (the clamped halo).
    assert_eq!(s.folded, vec!["mid".to_string()]);
    assert!(
        s.sites
            .iter()
            .all(|r| r.found == r.cases && r.synthesized.starts_with("sb[")),
        "{:#?}",
        s.sites
    );
    assert!(s.sites.iter().any(|r| r.multiple > 0));
    let code: String = s
        .source
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    let code = strip_block_comments(&code);
    assert!(!code.contains("mid["), "{}", s.source);
}

/// `text` without `/* ... */` comments.
fn strip_block_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    out.push_str(rest);
    out
}

#[test]
fn himeno_sha_matches_naive() {
    himeno_check(3, false);
}

#[test]
fn himeno_sleeve_matches_naive() {
    himeno_check(4, false);
}

#[test]
fn himeno_temporal_blocking_matches_two_naive_sweeps() {
    himeno_check(5, true);
}
