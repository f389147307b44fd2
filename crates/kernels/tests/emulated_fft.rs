//! The FFT's generated kernels run on the CPU in hone's SIMT emulator: every
//! kind of pass, both precisions and directions, twiddles computed and from
//! the table, against the `rustfft` oracle, with the race detector on.
//! `sincospi` is mapped to `sin`/`cos` of pi x, which the emulator has.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options};
use hone_frontend::{parse_source, FrontendOptions};
use hone_kernels::fft::codegen::{PassShape, ENTRY};
use hone_kernels::fft::plan::{pass_sides, passes, BlockLimits, FftConfig, Side};
use hone_kernels::fft::reference::{
    bound, exact_rms_relative, from_interleaved, random, rms_relative, to_interleaved, transform,
    Signal,
};
use hone_kernels::fft::{Direction, FftProblem, Twiddle};
use hone_kernels::precision::Precision;

const PRELUDE: &str = "#define __ldg(p) (*(p))\n\
    #define sincospif(x, s, c) do { *(s) = sinf(3.14159265358979323846f * (x)); *(c) = cosf(3.14159265358979323846f * (x)); } while (0)\n\
    #define sincospi(x, s, c) do { *(s) = sin(3.141592653589793238462643383279502884 * (x)); *(c) = cos(3.141592653589793238462643383279502884 * (x)); } while (0)\n";

fn buffer(p: Precision, name: &str, v: &[f64]) -> Buffer {
    match p {
        Precision::Double => Buffer::from_f64(name, v),
        Precision::Single => {
            Buffer::from_f32(name, &v.iter().map(|&x| x as f32).collect::<Vec<_>>())
        }
    }
}

fn values(p: Precision, b: &Buffer) -> Vec<f64> {
    match p {
        Precision::Double => b.to_f64_vec(),
        Precision::Single => b.to_f32_vec().into_iter().map(f64::from).collect(),
    }
}

/// Runs the plan of `p` under `c` pass by pass and returns the RMS error,
/// the number of passes and whether one is a plane pass.
fn emulate(p: &FftProblem, c: &FftConfig) -> (f64, usize, bool) {
    let ks = passes(p, c, &BlockLimits::h100()).expect("a plan");
    let plane = ks.iter().any(|k| matches!(k.shape, PassShape::Plane(_)));
    let x = random(p.elements() as usize, 11);
    let held: Vec<f64> = to_interleaved(&x)
        .iter()
        .map(|&v| {
            if p.precision == Precision::Single {
                v as f32 as f64
            } else {
                v
            }
        })
        .collect();
    let got = from_interleaved(&run_passes(p, c, &held));
    let want = transform(p, &from_interleaved(&held));
    (rms_relative(&got, &want), ks.len(), plane)
}

/// The output of `p`'s plan under `c` for the input `held` (interleaved,
/// as the device holds it), run pass by pass; an out-of-place plan must
/// keep its input.
fn run_passes(p: &FftProblem, c: &FftConfig, held: &[f64]) -> Vec<f64> {
    let ks = passes(p, c, &BlockLimits::h100()).expect("a plan");
    let mut input = buffer(p.precision, "in", held);
    let start = if p.in_place {
        held.to_vec()
    } else {
        vec![f64::NAN; held.len()]
    };
    let mut output = buffer(p.precision, "out", &start);
    for (i, k) in ks.iter().enumerate() {
        match pass_sides(p, i, ks.len()) {
            (Side::Input, Side::Output) if !p.in_place => {
                emulate_pass(k, &mut input, Some(&mut output));
                assert_eq!(values(p.precision, &input), held, "the input is kept");
            }
            _ => emulate_pass(k, &mut output, None),
        }
    }
    values(p.precision, &output)
}

#[test]
fn passes_compute_the_transform_in_the_emulator() {
    let base = FftConfig::default();
    let problem = |precision, n, batch, direction, in_place| FftProblem {
        precision,
        n,
        batch,
        direction,
        in_place,
        real: false,
    };
    let cases: Vec<(FftProblem, FftConfig)> = vec![
        // Mixed radices on every axis, out of place, table twiddles, plane pass.
        (
            problem(Precision::Single, [12, 10, 7], 2, Direction::Forward, false),
            FftConfig {
                plane_threads: 64,
                ..base
            },
        ),
        // Skewed rows (one element skipped after every 16) in the plane
        // pass, where the columns read the rows too, and in X's line pass.
        (
            problem(Precision::Single, [48, 8, 3], 1, Direction::Forward, false),
            FftConfig {
                skew: true,
                plane_threads: 96,
                ..FftConfig::uniform(4, 4, 2, 4)
            },
        ),
        (
            problem(Precision::Double, [64, 6, 5], 1, Direction::Inverse, true),
            FftConfig {
                skew: true,
                plane: false,
                ..FftConfig::uniform(8, 4, 3, 4)
            },
        ),
        // Line passes only, computed twiddles, radix at most 4, inverse, in place.
        (
            problem(Precision::Double, [16, 9, 8], 1, Direction::Inverse, true),
            FftConfig {
                plane: false,
                twiddle: Twiddle::Computed,
                pad: 0,
                ..FftConfig::uniform(4, 4, 3, 4)
            },
        ),
        // Lines per block that do not divide the lines (guards), one stage per pass.
        (
            problem(Precision::Single, [5, 6, 3], 3, Direction::Forward, false),
            FftConfig {
                plane: false,
                ..FftConfig::uniform(16, 2, 4, 4)
            },
        ),
        // Strided passes with their lines interleaved in shared memory:
        // plain on Y (odd length, guarded lines), positions swapped in
        // pairs on Z (even length, radix-4 stages).
        (
            problem(
                Precision::Single,
                [10, 27, 16],
                1,
                Direction::Forward,
                false,
            ),
            interleaved(FftConfig::uniform(4, 4, 2, 4), 1, 2),
        ),
        (
            problem(Precision::Double, [6, 32, 25], 2, Direction::Inverse, true),
            interleaved(FftConfig::uniform(8, 2, 2, 4), 2, 1),
        ),
        // Twiddles as powers of each butterfly's first, in a plane pass
        // (radix 4: the second sweep's table after the first's) and radix-16
        // lines.
        (
            problem(Precision::Double, [16, 48, 3], 1, Direction::Inverse, false),
            FftConfig {
                twiddle: Twiddle::Powers,
                plane_threads: 96,
                ..FftConfig::uniform(4, 4, 2, 4)
            },
        ),
        (
            problem(Precision::Single, [256, 6, 5], 1, Direction::Forward, false),
            FftConfig {
                twiddle: Twiddle::Powers,
                plane: false,
                ..FftConfig::uniform(16, 16, 1, 2)
            },
        ),
        // Threads per line that leave some stages short of work.
        (
            problem(Precision::Double, [32, 14, 1], 1, Direction::Forward, false),
            FftConfig {
                plane: false,
                pad: 2,
                ..FftConfig::uniform(8, 2, 2, 2)
            },
        ),
    ];
    for (p, c) in cases {
        let (err, n_passes, plane) = emulate(&p, &c);
        assert!(
            err <= bound(&p),
            "{p} {}: error {err:.2e} above {:.2e}",
            c.label(),
            bound(&p)
        );
        assert!(n_passes >= 1);
        if c.plane {
            assert!(plane, "{p}: a plane pass was expected");
        }
    }
}

/// Forming a butterfly's twiddles as powers of its first twiddle multiplies
/// the first twiddle's rounding by the power. In single precision the wide
/// powers (first twiddle and powers in double) are as accurate as the table;
/// in both precisions the corrected powers (each corrected by the first
/// twiddle's stored rounding) nearly so; in a plane pass (whose second
/// sweep, radix 4 on Y, reads its twiddles after the first's) and in line
/// passes, both directions.
#[test]
fn wide_and_corrected_powers_are_near_the_tables_accuracy() {
    for (precision, direction) in [
        (Precision::Single, Direction::Forward),
        (Precision::Single, Direction::Inverse),
        (Precision::Double, Direction::Forward),
        (Precision::Double, Direction::Inverse),
    ] {
        let p = FftProblem {
            precision,
            n: [256, 16, 16],
            batch: 1,
            direction,
            in_place: false,
            real: false,
        };
        for plane in [true, false] {
            let err = |twiddle| {
                let mut c = FftConfig {
                    twiddle,
                    plane,
                    plane_threads: 256,
                    ..FftConfig::uniform(16, 16, 1, 4)
                };
                c.axes[1].rmax = 4;
                c.axes[1].ept = 4;
                let (e, _, has_plane) = emulate(&p, &c);
                assert_eq!(has_plane, plane);
                e
            };
            let (table, powers, wide, corrected) = (
                err(Twiddle::Table),
                err(Twiddle::Powers),
                err(Twiddle::WidePowers),
                err(Twiddle::CorrectedPowers),
            );
            eprintln!(
                "{precision:?} {direction:?} plane {plane}: table {table:.3e} powers {powers:.3e} wide {wide:.3e} corrected {corrected:.3e}"
            );
            if precision == Precision::Single {
                assert!(
                    wide <= 1.05 * table,
                    "wide {wide:.3e} against the table's {table:.3e}"
                );
                assert!(
                    powers > 1.2 * wide,
                    "powers {powers:.3e} against wide {wide:.3e}"
                );
            }
            assert!(
                corrected <= 1.15 * table,
                "{precision:?}: corrected {corrected:.3e} against the table's {table:.3e}"
            );
            assert!(
                powers > 1.2 * corrected,
                "{precision:?}: powers {powers:.3e} against corrected {corrected:.3e}"
            );
        }
    }
}

/// `c` as line passes only, Y's and Z's lines laid out in shared memory
/// as `y` and `z` say.
fn interleaved(c: FftConfig, y: u32, z: u32) -> FftConfig {
    let mut c = FftConfig { plane: false, ..c };
    c.axes[1].interleave = y;
    c.axes[2].interleave = z;
    c
}

/// One pass of a plan in the emulator on `(src, dst)` (the same buffer for
/// a pass in place), with the race detector on.
fn emulate_pass(
    k: &hone_kernels::fft::codegen::PassKernel,
    src: &mut Buffer,
    dst: Option<&mut Buffer>,
) {
    let source = format!("{PRELUDE}{}", k.source());
    let parsed =
        parse_source("fft.cu", &source, &FrontendOptions::default()).expect("preprocesses");
    assert!(
        !parsed.has_errors(),
        "front end: {:?}",
        parsed.diagnostics.first()
    );
    let table: Vec<f64> = k.table().iter().flat_map(|&(c, s)| [c, s]).collect();
    let table = if table.is_empty() {
        vec![0.0, 0.0]
    } else {
        table
    };
    let in_place = dst.is_none();
    let mut buffers = vec![
        src.clone(),
        dst.as_deref().cloned().unwrap_or_else(|| src.clone()),
        buffer(k.table_precision(), "tw", &table),
    ];
    let cfg =
        LaunchConfig::linear(k.grid() as u32, k.block()).with_dynamic_shared(k.shared_bytes());
    let args = [
        KernelArg::Buffer(if in_place { 1 } else { 0 }),
        KernelArg::Buffer(1),
        KernelArg::Buffer(2),
    ];
    let opts = Options {
        detect_races: true,
        ..Options::default()
    };
    let report = hone_emulator::run(
        &parsed.module,
        ENTRY,
        &cfg,
        &args,
        &mut buffers,
        &opts,
        None,
    )
    .expect("launches");
    assert!(
        report.completed && report.faults.is_empty(),
        "{:?}",
        report.faults
    );
    assert!(report.races.is_empty(), "{:?}", report.races.first());
    match dst {
        Some(d) => {
            *src = buffers[0].clone();
            *d = buffers[1].clone();
        }
        None => *src = buffers[1].clone(),
    }
}

/// Runs a real transform's plan as the library does: forward, the real
/// pass from the input into the output and the rest in place there;
/// inverse, the complex passes in place on the input and the real pass
/// last. Returns the RMS error against the oracle.
fn emulate_real(p: &FftProblem, c: &FftConfig) -> f64 {
    use hone_kernels::fft::reference::{as_complex, random_real, real_forward, real_inverse};
    let ks = passes(p, c, &BlockLimits::h100()).expect("a plan");
    let round = |v: Vec<f64>| -> Vec<f64> {
        v.into_iter()
            .map(|x| {
                if p.precision == Precision::Single {
                    x as f32 as f64
                } else {
                    x
                }
            })
            .collect()
    };
    let x = round(random_real(p.real_values() as usize, 17));
    let forward = p.direction == Direction::Forward;
    let (held, out_len) = if forward {
        (x.clone(), 2 * p.elements() as usize)
    } else {
        let s = real_forward(
            &FftProblem {
                direction: Direction::Forward,
                ..*p
            },
            &x,
        );
        (round(to_interleaved(&s)), p.real_values() as usize)
    };
    let mut input = buffer(p.precision, "in", &held);
    let mut output = buffer(p.precision, "out", &vec![f64::NAN; out_len]);
    let last = ks.len() - 1;
    for (i, k) in ks.iter().enumerate() {
        let real_pass = matches!(k.shape, PassShape::Real(_));
        assert_eq!(
            real_pass,
            if forward { i == 0 } else { i == last },
            "pass {i} of {p}"
        );
        // The buffers the library gives each pass.
        match pass_sides(p, i, ks.len()) {
            (Side::Input, Side::Output) => emulate_pass(k, &mut input, Some(&mut output)),
            (Side::Input, Side::Input) => emulate_pass(k, &mut input, None),
            (Side::Output, Side::Output) => emulate_pass(k, &mut output, None),
            (Side::Output, Side::Input) => unreachable!("no pass writes its input"),
        }
    }
    if forward {
        assert_eq!(values(p.precision, &input), held, "the real input is kept");
        let got = from_interleaved(&values(p.precision, &output));
        rms_relative(&got, &real_forward(p, &held))
    } else {
        let got = as_complex(&values(p.precision, &output));
        let want = as_complex(&real_inverse(p, &from_interleaved(&held)));
        rms_relative(&got, &want)
    }
}

#[test]
fn real_passes_compute_the_real_transforms_in_the_emulator() {
    let problem = |precision, n, batch, direction| FftProblem {
        precision,
        n,
        batch,
        direction,
        in_place: false,
        real: true,
    };
    let cases = [
        // One stage of 6 along x, lines per block that leave a block part
        // empty, table twiddles.
        (
            problem(Precision::Single, [12, 5, 3], 2, Direction::Forward),
            FftConfig::uniform(16, 2, 4, 4),
        ),
        (
            problem(Precision::Single, [12, 5, 3], 2, Direction::Inverse),
            FftConfig::uniform(16, 2, 4, 4),
        ),
        // Two stages along x (4 x 4), computed twiddles, a flat box.
        (
            problem(Precision::Double, [32, 6, 1], 1, Direction::Inverse),
            FftConfig {
                twiddle: Twiddle::Computed,
                pad: 0,
                ..FftConfig::uniform(4, 4, 3, 4)
            },
        ),
        (
            problem(Precision::Double, [40, 3, 2], 1, Direction::Forward),
            FftConfig::uniform(4, 2, 2, 2),
        ),
        // Skewed rows (m = 32 and 40: the split reads across the skips).
        (
            problem(Precision::Single, [64, 3, 2], 1, Direction::Forward),
            FftConfig {
                skew: true,
                ..FftConfig::uniform(4, 4, 3, 4)
            },
        ),
        (
            problem(Precision::Double, [80, 3, 1], 2, Direction::Inverse),
            FftConfig {
                skew: true,
                pad: 0,
                ..FftConfig::uniform(8, 2, 2, 2)
            },
        ),
        // Odd halves (9 = 3 x 3, and 7), several elements a thread.
        (
            problem(Precision::Double, [18, 3, 2], 1, Direction::Forward),
            FftConfig::uniform(3, 1, 2, 2),
        ),
        (
            problem(Precision::Single, [14, 2, 3], 2, Direction::Inverse),
            FftConfig::uniform(16, 7, 3, 2),
        ),
        // A line of two reals: one complex element, no stage.
        (
            problem(Precision::Single, [2, 3, 4], 1, Direction::Forward),
            FftConfig::default(),
        ),
        (
            problem(Precision::Double, [2, 3, 4], 2, Direction::Inverse),
            FftConfig::default(),
        ),
    ];
    for (p, c) in cases {
        let err = emulate_real(&p, &c);
        assert!(
            err <= bound(&p),
            "{p} {}: error {err:.2e} above {:.2e}",
            c.label(),
            bound(&p)
        );
    }
}

/// Double-precision plans with their constants and table twiddles rounded
/// from double-double values err about 2 units of roundoff (u = 2^-53),
/// measured in double-double at sampled points: 1.9-2.9 u here, less than
/// the double-precision oracle itself (rustfft, 2.9-5.8 u, its twiddles
/// from `f64::cos` of rounded angles). With twiddles and butterfly
/// constants from `f64::sin_cos`, hone's plans erred 3.5-5.7 u at these
/// shapes with the table, and their errors matched the oracle's closely
/// enough to hide it: at 243 x 9 x 3, 5.7 u against the exact transform but
/// 3.1 u against the oracle.
#[test]
fn double_precision_plans_err_about_two_units_of_roundoff() {
    let u = f64::EPSILON / 2.0;
    for (n, ept) in [([250u32, 10, 4], 8), ([243, 9, 3], 8), ([240, 6, 4], 4)] {
        let p = FftProblem {
            precision: Precision::Double,
            n,
            batch: 1,
            direction: Direction::Forward,
            in_place: false,
            real: false,
        };
        let x = random(p.elements() as usize, 11);
        let oracle = transform(&p, &x);
        let theirs = exact_rms_relative(&p, Signal::Complex(&x), &oracle, 3) / u;
        for twiddle in [Twiddle::Table, Twiddle::CorrectedPowers] {
            let c = FftConfig {
                twiddle,
                plane: false,
                ..FftConfig::uniform(16, ept, 1, 4)
            };
            let got = from_interleaved(&run_passes(&p, &c, &to_interleaved(&x)));
            let ours = exact_rms_relative(&p, Signal::Complex(&x), &got, 3) / u;
            eprintln!("{p} {twiddle:?}: {ours:.2} u, the oracle {theirs:.2} u");
            assert!(ours < 3.2, "{p} {twiddle:?}: {ours:.2} u");
        }
    }
}
