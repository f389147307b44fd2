//! The double-double GEMM template compiles with NVRTC for sm_90 in every
//! storage, layout and multiply-add, and the compiled main loop spends the
//! FP64 instructions per multiply-add that its arithmetic calls for (no GPU
//! needed; nvdisasm reads the SASS). Without NVRTC or nvdisasm the test says
//! so and passes, unless `HONE_REQUIRE_NVRTC` / `HONE_REQUIRE_NVDISASM` is
//! set.

use hone_kernels::gemm::fp64::count;
use hone_kernels::gemm::template::{template, GemmKernel};
use hone_kernels::gemm::{Config, Flavor, Layout};

fn kernel(flavor: Flavor, layout: Layout, madd: i64) -> GemmKernel {
    let config: Config = [
        ("BM", 64),
        ("BN", 64),
        ("BK", 8),
        ("TM", 4),
        ("TN", 4),
        ("MADD", madd),
        ("PAD", 1),
        ("GROUP", 8),
        ("MINB", 1),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    template(flavor)
        .validate(&config)
        .expect("a valid configuration");
    GemmKernel {
        flavor,
        layout,
        config,
    }
}

mod support;

#[test]
fn double_double_kernels_compile_and_their_loops_cost_what_their_arithmetic_does() {
    if !support::nvrtc_or_skip() || !support::nvdisasm_or_skip() {
        return;
    }
    let mut per_madd = Vec::new();
    for madd in [0, 1, 2] {
        let mut seen = Vec::new();
        for flavor in [Flavor::Ddgemm, Flavor::DdgemmSplit] {
            for layout in Layout::ALL {
                let k = kernel(flavor, layout, madd);
                let c = count(&k, 90).unwrap_or_else(|e| panic!("{} {layout}: {e}", k.label()));
                assert_eq!(c.madds, 8 * 16);
                seen.push(c.per_madd());
            }
        }
        // The arithmetic does not depend on the storage or the layout.
        let (lo, hi) = seen
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, h), &v| (l.min(v), h.max(v)));
        assert!(hi - lo < 0.5, "MADD={madd}: {seen:?}");
        println!("MADD={madd}: {lo:.2} FP64 instructions per multiply-add");
        per_madd.push(lo);
    }
    // Lazy (1 DMUL, 3 DFMA, 6 DADD of TwoSum, 2 DADD, plus one TwoSum per
    // panel), sloppy (7 for the product, 11 for the sum) and accurate (7 +
    // 20).
    assert!((12.0..13.5).contains(&per_madd[2]), "{per_madd:?}");
    assert!((17.5..19.5).contains(&per_madd[1]), "{per_madd:?}");
    assert!((26.5..28.5).contains(&per_madd[0]), "{per_madd:?}");
}

#[test]
fn the_int8_emulation_kernels_compile() {
    if !support::nvrtc_or_skip() {
        return;
    }
    let target = hone_gpu::Target {
        arch: 90,
        kind: hone_gpu::ImageKind::Cubin,
        arch_specific: false,
    };
    let options = hone_gpu::CompileOptions::default();
    // 24 FP64 moduli take the five-piece slicing.
    for (moduli, dd) in [
        (8, false),
        (14, false),
        (16, false),
        (24, false),
        (20, true),
        (34, false),
        (34, true),
    ] {
        let crt = hone_kernels::gemm::ozaki::Crt::new(moduli).unwrap();
        let src = hone_kernels::gemm::ozaki::source(&crt, dd);
        if let Err(e) = hone_gpu::nvrtc::compile(&src, "ozaki.cu", &options, &target) {
            panic!("{moduli} moduli:\n{e}");
        }
    }
    for dd in [false, true] {
        let src = hone_kernels::gemm::ozaki_fit::fit_source(dd);
        if let Err(e) = hone_gpu::nvrtc::compile(&src, "ozaki_fit.cu", &options, &target) {
            panic!("the fit's kernels (double-double {dd}):\n{e}");
        }
    }
}
