//! The CPU half of differential testing on a bounded number of generated
//! kernels: every one must lower, print and parse back to the same IR, run
//! cleanly in the emulator and (where NVRTC is installed, as `.ci/run` does)
//! compile for sm_90 both as generated and as hone prints it.

use std::time::Duration;

use hone_difftest::ast::{Expr, Kernel, ShflKind, Stmt};
use hone_difftest::check;
use hone_difftest::gen::{self, GenOptions};
use hone_difftest::reduce;
use hone_difftest::runner;

const SEED: u64 = 20_261_126;

#[test]
fn generated_kernels_pass_the_front_end_round_trip_emulator_and_nvrtc() {
    let opts = GenOptions::default();
    // NVRTC is the slow part: it compiles the first cases (each twice).
    let compiled = if hone_gpu::libs::nvrtc_or_skip() {
        40
    } else {
        0
    };
    // Without NVRTC no case asks for it (the target alone would need it).
    let mut results = if compiled > 0 {
        runner::cpu(SEED, 0, compiled, &opts, true, 20).unwrap()
    } else {
        Vec::new()
    };
    results.extend(runner::cpu(SEED, compiled, 200 - compiled, &opts, false, 32).unwrap());
    assert_eq!(results.len(), 200);
    let failed: Vec<String> = results
        .iter()
        .filter(|r| r.status != "pass")
        .map(|r| {
            format!(
                "case {}: {}: {}",
                r.index,
                r.status,
                r.message.as_deref().unwrap_or("")
            )
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

fn count(body: &[Stmt], f: &impl Fn(&Stmt) -> bool) -> usize {
    body.iter()
        .map(|s| {
            usize::from(f(s))
                + match s {
                    Stmt::If(_, a, b) => count(a, f) + count(b, f),
                    Stmt::Loop(_, _, b) => count(b, f),
                    _ => 0,
                }
        })
        .sum()
}

type StmtTest = dyn Fn(&Stmt) -> bool;

#[test]
fn the_generator_is_deterministic_and_uses_every_construct() {
    let opts = GenOptions::default();
    assert_eq!(gen::case(7, 3, &opts), gen::case(7, 3, &opts));
    assert_ne!(gen::case(7, 3, &opts).kernel, gen::case(7, 4, &opts).kernel);
    assert_ne!(gen::case(7, 3, &opts).kernel, gen::case(8, 3, &opts).kernel);
    let kernels: Vec<Kernel> = (0..200).map(|i| gen::case(SEED, i, &opts).kernel).collect();
    let total = |f: &dyn Fn(&Stmt) -> bool| -> usize {
        kernels.iter().map(|k| count(&k.body, &|s| f(s))).sum()
    };
    let constructs: [(&str, &StmtTest); 9] = [
        ("if", &|s| matches!(s, Stmt::If(..))),
        ("loop", &|s| matches!(s, Stmt::Loop(..))),
        ("break", &|s| matches!(s, Stmt::Break(_))),
        ("continue", &|s| matches!(s, Stmt::Continue(_))),
        ("shuffle", &|s| matches!(s, Stmt::Shuffle { .. })),
        ("vote", &|s| matches!(s, Stmt::Vote { .. })),
        ("shared exchange", &|s| matches!(s, Stmt::Exchange { .. })),
        ("shared atomic", &|s| matches!(s, Stmt::SharedAtomic { .. })),
        ("global atomic", &|s| matches!(s, Stmt::GlobalAtomic { .. })),
    ];
    for (name, f) in constructs {
        assert!(total(f) > 5, "only {} `{name}` in 200 kernels", total(f));
    }
    // Each global accumulator slot sees one operation only.
    let ops = std::cell::RefCell::new(std::collections::BTreeMap::new());
    for k in &kernels {
        count(&k.body, &|s| {
            if let Stmt::GlobalAtomic { ty, op, slot, .. } = s {
                let first = *ops.borrow_mut().entry((*ty, *slot)).or_insert(*op);
                assert_eq!(first, *op);
            }
            false
        });
    }
    assert!(ops.borrow().len() > 6);
    let grids: std::collections::BTreeSet<u32> = kernels.iter().map(|k| k.grid).collect();
    assert!(grids.len() > 2, "{grids:?}");
}

fn has_xor_shuffle(body: &[Stmt]) -> bool {
    count(body, &|s| {
        matches!(
            s,
            Stmt::Shuffle {
                kind: ShflKind::Xor,
                ..
            }
        )
    }) > 0
}

#[test]
fn reduction_keeps_the_property_and_yields_a_small_valid_kernel() {
    let opts = GenOptions::default();
    let case = (0..500)
        .map(|i| gen::case(SEED, i, &opts))
        .find(|c| has_xor_shuffle(&c.kernel.body) && reduce::size(&c.kernel) > 60)
        .expect("some generated kernel shuffles with xor");
    let before = reduce::size(&case.kernel);
    let (reduced, steps) = reduce::reduce(case.kernel.clone(), Duration::from_secs(60), 16, |w| {
        w.iter().position(|k| has_xor_shuffle(&k.body))
    });
    assert!(has_xor_shuffle(&reduced.body));
    assert!(steps > 0);
    let after = reduce::size(&reduced);
    assert!(after < before / 4, "{before} -> {after}");
    // The top level is the shuffle alone, its operands leaves.
    assert_eq!(reduced.body.len(), 1, "{}", reduced.render(false));
    assert_eq!((reduced.grid, reduced.block), (1, 32));
    if let Stmt::Shuffle { value, lane, .. } = &reduced.body[0] {
        assert!(
            matches!(value, Expr::Var(..) | Expr::Const(..)),
            "{value:?}"
        );
        assert!(matches!(lane, Expr::Var(..) | Expr::Const(..)), "{lane:?}");
    }
    // Still a well-defined kernel hone accepts and runs cleanly.
    let small = gen::Case {
        kernel: reduced,
        ..case
    };
    let module = check::front_end(&small).unwrap();
    check::emulate(&small, &module).unwrap();
}

#[test]
fn outputs_compare_bit_for_bit_with_nans_equal() {
    let opts = GenOptions::default();
    let case = gen::case(SEED, 1, &opts);
    let module = check::front_end(&case).unwrap();
    let emulated = check::emulate(&case, &module).unwrap();
    assert_eq!(check::compare(&emulated, &emulated), None);
    let out_f = emulated
        .iter()
        .position(|b| b.name == "out_f")
        .expect("a float output");
    let mut other = emulated.clone();
    let mut this = emulated.clone();
    // Two different NaNs are equal.
    this[out_f].data[..4].copy_from_slice(&f32::NAN.to_bits().to_le_bytes());
    other[out_f].data[..4].copy_from_slice(&(f32::NAN.to_bits() | 1).to_le_bytes());
    assert_eq!(check::compare(&this, &other), None);
    // Signed zeros are not.
    this[out_f].data[4..8].copy_from_slice(&0.0f32.to_bits().to_le_bytes());
    other[out_f].data[4..8].copy_from_slice(&(-0.0f32).to_bits().to_le_bytes());
    let d = check::compare(&this, &other).expect("a difference");
    assert_eq!((d.buffer.as_str(), d.index, d.count), ("out_f", 1, 1));
    assert_eq!(d.thread, Some(0));
}

#[test]
fn the_gpu_run_says_no_cuda_device_where_there_is_none() {
    if hone_gpu::Gpu::open(0).is_ok() {
        eprintln!("skipping: this machine has a GPU");
        return;
    }
    let out = std::env::temp_dir().join(format!("hone-difftest-{}", std::process::id()));
    let run = runner::GpuRun {
        seed: 1,
        count: 10,
        batch: 64,
        printed_every: 4,
        out: out.clone(),
        transcendental: false,
        reduce_budget: std::time::Duration::from_secs(1),
        case_timeout: std::time::Duration::from_secs(10),
        time_limit: None,
        program: vec![],
    };
    let err = runner::gpu(&run).expect_err("no device");
    assert!(format!("{err:#}").contains("no CUDA device"), "{err:#}");
    assert!(!out.join("summary.json").exists());
}
