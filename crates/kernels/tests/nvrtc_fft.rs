//! Every pass the FFT's plans generate for the benchmark's sizes compiles
//! with NVRTC for sm_90 (no GPU needed). Without NVRTC the test says so and
//! passes, unless `HONE_REQUIRE_NVRTC` is set.

use hone_gpu::nvrtc::{choose_target, compile, supported_archs};
use hone_gpu::CompileOptions;
use hone_kernels::fft::plan::{passes, BlockLimits, FftConfig};
use hone_kernels::fft::{Direction, FftProblem, Twiddle};
use hone_kernels::precision::Precision;

mod support;

#[test]
fn generated_passes_compile_with_nvrtc() {
    if !support::nvrtc_or_skip() {
        return;
    }
    let target = choose_target(
        (9, 0),
        &supported_archs().expect("NVRTC lists its architectures"),
    )
    .expect("NVRTC supports sm_90");
    let limits = BlockLimits::h100();
    let mut kernels = Vec::new();
    for precision in [Precision::Single, Precision::Double] {
        for n in [64u32, 243, 256, 250] {
            for (rmax, twiddle, plane) in [
                (16, Twiddle::Table, true),
                (8, Twiddle::Computed, false),
                (16, Twiddle::Powers, false),
                (16, Twiddle::WidePowers, true),
                (16, Twiddle::CorrectedPowers, false),
            ] {
                let p = FftProblem {
                    direction: if rmax == 8 {
                        Direction::Inverse
                    } else {
                        Direction::Forward
                    },
                    ..FftProblem::cube(precision, n)
                };
                let mut c = FftConfig {
                    twiddle,
                    plane,
                    skew: plane,
                    ..FftConfig::uniform(rmax, 16, 4, 16)
                };
                // Both interleaved layouts of the strided passes.
                c.axes[1].interleave = 1;
                c.axes[2].interleave = 2;
                kernels.extend(passes(&p, &c, &limits).expect("a plan"));
                // The real transforms of the even lengths, both directions.
                if n % 2 == 0 {
                    for direction in [Direction::Forward, Direction::Inverse] {
                        let r = FftProblem {
                            real: true,
                            direction,
                            ..p
                        };
                        kernels.extend(passes(&r, &c, &limits).expect("a real plan"));
                    }
                }
            }
        }
    }
    // Planes over clusters that are not powers of two.
    for (precision, n, cluster) in [(Precision::Single, 243, 3), (Precision::Double, 250, 5)] {
        let c = FftConfig {
            cluster,
            ..FftConfig::default()
        };
        let ks = passes(&FftProblem::cube(precision, n), &c, &limits).expect("a plan");
        assert_eq!(ks[0].cluster(), cluster);
        kernels.extend(ks);
    }
    kernels.dedup();
    assert!(kernels.len() > 20);
    for k in &kernels {
        if let Err(e) = compile(&k.source(), "fft.cu", &CompileOptions::default(), &target) {
            panic!("{k:?}:\n{e}");
        }
    }
}
