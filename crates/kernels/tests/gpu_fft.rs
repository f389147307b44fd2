//! The FFT on a real GPU: plans of several structures and parameters on
//! mixed-radix, batched, non-cubic, in-place and inverse problems against the
//! CPU oracle, cuFFT through the same check, a forward-inverse round trip
//! through the library call, the library call's refusals, and planning by
//! measurement. Each test prints why and returns where the machine has no
//! CUDA device.

use hone_gpu::{ModuleCache, TimingOptions};
use hone_kernels::fft::device::{FftRunner, ReadyPlan};
use hone_kernels::fft::plan::FftConfig;
use hone_kernels::fft::reference::{from_interleaved, random, rms_relative, to_interleaved};
use hone_kernels::fft::tune::TuneSpace;
use hone_kernels::fft::{Direction, FftProblem, Twiddle};
use hone_kernels::precision::Precision;

mod support;
use support::gpu;

fn quick() -> TimingOptions {
    TimingOptions {
        warmup: 0,
        reps: 1,
        flush_l2: false,
        copies: Some(1),
        ..Default::default()
    }
}

fn problems() -> Vec<FftProblem> {
    let p = |precision, n: [u32; 3], batch, direction, in_place| FftProblem {
        precision,
        n,
        batch,
        direction,
        in_place,
        real: false,
    };
    use Direction::{Forward as F, Inverse as I};
    use Precision::{Double as D, Single as S};
    vec![
        p(S, [64, 64, 64], 1, F, false),
        p(D, [64, 64, 64], 1, I, true),
        p(S, [240, 243, 250], 1, F, false),
        p(D, [250, 96, 49], 2, F, false),
        p(S, [128, 7, 384], 3, I, true),
        p(S, [1, 1, 343], 1, F, false),
        p(D, [1, 1, 1], 2, F, false),
        p(S, [256, 256, 256], 1, F, false),
        p(D, [512, 512, 64], 1, I, false),
        // Planes split over clusters of 3 and 5 blocks.
        p(S, [243, 81, 3], 1, I, false),
        p(D, [250, 50, 2], 1, F, true),
    ]
}

#[test]
fn plans_and_cufft_match_the_oracle() {
    let Some(g) = gpu() else { return };
    let mut r = FftRunner::new(&g, ModuleCache::open_default()).unwrap();
    let configs = [
        FftConfig::default(),
        FftConfig {
            plane: false,
            twiddle: Twiddle::Computed,
            pad: 0,
            ..FftConfig::uniform(8, 4, 2, 32)
        },
        FftConfig::uniform(4, 8, 1, 8),
        // Plane passes over clusters of 2, 8, 3 and 5 blocks where the plane allows.
        FftConfig {
            cluster: 2,
            ..FftConfig::uniform(16, 16, 4, 16)
        },
        FftConfig {
            cluster: 8,
            plane_threads: 256,
            ..FftConfig::uniform(8, 8, 4, 16)
        },
        // Skewed rows, read across the cluster by the columns.
        FftConfig {
            cluster: 8,
            plane_threads: 256,
            skew: true,
            pad: 0,
            ..FftConfig::uniform(8, 8, 4, 16)
        },
        FftConfig {
            cluster: 3,
            skew: true,
            ..FftConfig::uniform(16, 8, 4, 16)
        },
        FftConfig {
            cluster: 5,
            plane_threads: 1024,
            ..FftConfig::uniform(8, 4, 4, 8)
        },
        // Line passes whose lines are interleaved in shared memory, twiddles
        // as powers of each butterfly's first.
        {
            let mut c = FftConfig {
                plane: false,
                twiddle: Twiddle::Powers,
                ..FftConfig::uniform(16, 8, 2, 8)
            };
            c.axes[1].interleave = 1;
            c.axes[2].interleave = 2;
            c
        },
        // The same powers formed in double precision, in a plane pass,
        // and corrected by the first twiddle's rounding, in line passes.
        FftConfig {
            twiddle: Twiddle::WidePowers,
            ..FftConfig::uniform(16, 8, 4, 16)
        },
        FftConfig {
            twiddle: Twiddle::CorrectedPowers,
            plane: false,
            ..FftConfig::uniform(16, 8, 4, 16)
        },
    ];
    check_plans(&mut r, problems(), &configs);
}

/// Every configuration's plan of every problem, and cuFFT, pass the check
/// against the oracle.
fn check_plans(r: &mut FftRunner, problems: Vec<FftProblem>, configs: &[FftConfig]) {
    for p in problems {
        r.data(&p, &quick()).unwrap();
        for c in configs {
            let plan = r
                .plan(&p, c)
                .unwrap()
                .unwrap_or_else(|i| panic!("{p} {}: {}", c.label(), i.reason));
            let check = r.check(&plan).unwrap();
            assert!(check.passed(), "{p} {}: {}", c.label(), check.describe());
            println!("{p} {}: {}", c.label(), check.describe());
        }
        let vendor = r.check_vendor().unwrap();
        assert!(vendor.passed(), "{p} cuFFT: {}", vendor.describe());
    }
}

/// Forward problems of two shapes and precisions, with their forward and
/// inverse plans.
fn round_trips(
    r: &mut FftRunner,
    in_place: bool,
    real: bool,
) -> Vec<(FftProblem, ReadyPlan, ReadyPlan)> {
    [
        (Precision::Single, [60u32, 36, 20]),
        (Precision::Double, [32, 45, 27]),
    ]
    .into_iter()
    .map(|(precision, n)| {
        let fwd = FftProblem {
            precision,
            n,
            batch: 2,
            direction: Direction::Forward,
            in_place,
            real,
        };
        let inv = FftProblem {
            direction: Direction::Inverse,
            ..fwd
        };
        let pf = r.plan(&fwd, &FftConfig::default()).unwrap().unwrap();
        let pi = r.plan(&inv, &FftConfig::default()).unwrap().unwrap();
        (fwd, pf, pi)
    })
    .collect()
}

#[test]
fn forward_then_inverse_through_the_library_call_returns_the_input_scaled() {
    let Some(g) = gpu() else { return };
    let mut r = FftRunner::new(&g, ModuleCache::open_default()).unwrap();
    for (fwd, pf, pi) in round_trips(&mut r, true, false) {
        let precision = fwd.precision;
        let x = random(fwd.elements() as usize, 5);
        let raw = precision.to_bytes(&to_interleaved(&x));
        let buf = hone_gpu::launch::DeviceBuffer::with_data(&g, &raw).unwrap();
        unsafe {
            r.enqueue(&pf, buf.ptr(), buf.ptr()).unwrap();
            r.enqueue(&pi, buf.ptr(), buf.ptr()).unwrap();
        }
        g.synchronize().unwrap();
        let mut back = vec![0u8; raw.len()];
        buf.download(&g, &mut back).unwrap();
        let held = from_interleaved(&precision.from_bytes(&raw));
        let got: Vec<_> = from_interleaved(&precision.from_bytes(&back))
            .iter()
            .map(|v| v / fwd.points() as f64)
            .collect();
        let err = rms_relative(&got, &held);
        assert!(
            err < 30.0 * precision.unit_roundoff() * 12.0,
            "{fwd}: round trip error {err:.2e}"
        );
        // Out-of-place plans refuse equal pointers, and null pointers are refused.
        let out = FftProblem {
            in_place: false,
            real: false,
            ..fwd
        };
        let po = r.plan(&out, &FftConfig::default()).unwrap().unwrap();
        let e = unsafe { r.enqueue(&po, buf.ptr(), buf.ptr()) }
            .unwrap_err()
            .to_string();
        assert!(e.contains("different"), "{e}");
        let e = unsafe { r.enqueue(&pf, 0, 0) }.unwrap_err().to_string();
        assert!(e.contains("null"), "{e}");
    }
}

#[test]
fn planning_by_measurement_finds_a_checked_plan() {
    let Some(g) = gpu() else { return };
    let mut r = FftRunner::new(&g, ModuleCache::open_default()).unwrap();
    let p = FftProblem::cube(Precision::Single, 48);
    let space = TuneSpace {
        pad: vec![1],
        twiddle: vec![Twiddle::Table],
        ..TuneSpace::default()
    };
    let mut lines = Vec::new();
    let t = r
        .tune(&p, &space, &quick(), &mut |l| lines.push(l.to_string()))
        .unwrap();
    assert!(t.candidates > 4, "{t:?}");
    assert!(t.measured_ms > 0.0 && t.predicted_ms > 0.0, "{t:?}");
    // cuFFT ran on the same inputs, and the comparison was made.
    assert!(t.error_ratio.is_some_and(f64::is_finite), "{t:?}");
    assert!(lines.iter().any(|l| l.contains("of cuFFT's error")));
}

fn real_problems() -> Vec<FftProblem> {
    let p = |precision, n: [u32; 3], batch, direction| FftProblem {
        precision,
        n,
        batch,
        direction,
        in_place: false,
        real: true,
    };
    use Direction::{Forward as F, Inverse as I};
    use Precision::{Double as D, Single as S};
    vec![
        p(S, [64, 64, 64], 1, F),
        p(S, [64, 64, 64], 1, I),
        p(D, [240, 243, 250], 1, F),
        p(D, [240, 243, 250], 1, I),
        p(S, [250, 96, 49], 2, I),
        p(D, [128, 7, 384], 3, F),
        p(S, [2, 1, 343], 1, F),
        p(S, [256, 256, 256], 1, F),
        p(D, [512, 512, 64], 1, I),
    ]
}

#[test]
fn real_transforms_and_cufft_match_the_oracle() {
    let Some(g) = gpu() else { return };
    let mut r = FftRunner::new(&g, ModuleCache::open_default()).unwrap();
    let configs = [
        FftConfig::default(),
        FftConfig {
            twiddle: Twiddle::Computed,
            pad: 0,
            ..FftConfig::uniform(8, 4, 2, 32)
        },
        FftConfig::uniform(4, 8, 1, 8),
    ];
    check_plans(&mut r, real_problems(), &configs);
}

#[test]
fn real_forward_then_inverse_through_the_library_call_returns_the_input_scaled() {
    let Some(g) = gpu() else { return };
    let mut r = FftRunner::new(&g, ModuleCache::open_default()).unwrap();
    for (fwd, pf, pi) in round_trips(&mut r, false, true) {
        let precision = fwd.precision;
        let x = hone_kernels::fft::reference::random_real(fwd.real_values() as usize, 9);
        let raw = precision.to_bytes(&x);
        let real = hone_gpu::launch::DeviceBuffer::with_data(&g, &raw).unwrap();
        let spectrum = hone_gpu::launch::DeviceBuffer::alloc(&g, fwd.bytes() as usize).unwrap();
        let back_buf = hone_gpu::launch::DeviceBuffer::alloc(&g, raw.len()).unwrap();
        unsafe {
            r.enqueue(&pf, real.ptr(), spectrum.ptr()).unwrap();
            r.enqueue(&pi, spectrum.ptr(), back_buf.ptr()).unwrap();
        }
        g.synchronize().unwrap();
        let mut back = vec![0u8; raw.len()];
        back_buf.download(&g, &mut back).unwrap();
        let held = precision.from_bytes(&raw);
        let got: Vec<f64> = precision
            .from_bytes(&back)
            .iter()
            .map(|v| v / fwd.points() as f64)
            .collect();
        let err = hone_kernels::fft::reference::rms_relative(
            &hone_kernels::fft::reference::as_complex(&got),
            &hone_kernels::fft::reference::as_complex(&held),
        );
        assert!(
            err < 30.0 * precision.unit_roundoff() * 12.0,
            "{fwd}: round trip error {err:.2e}"
        );
        // The real transforms run out of place.
        let e = unsafe { r.enqueue(&pf, real.ptr(), real.ptr()) }
            .unwrap_err()
            .to_string();
        assert!(e.contains("different"), "{e}");
    }
}

#[test]
fn planning_a_real_transform_finds_a_checked_plan() {
    let Some(g) = gpu() else { return };
    let mut r = FftRunner::new(&g, ModuleCache::open_default()).unwrap();
    for direction in [Direction::Forward, Direction::Inverse] {
        let p = FftProblem {
            direction,
            real: true,
            ..FftProblem::cube(Precision::Double, 48)
        };
        let space = TuneSpace {
            pad: vec![1],
            twiddle: vec![Twiddle::Table],
            ..TuneSpace::default()
        };
        let t = r.tune(&p, &space, &quick(), &mut |_| {}).unwrap();
        assert!(t.candidates > 4, "{t:?}");
        assert!(t.measured_ms > 0.0, "{t:?}");
    }
}
