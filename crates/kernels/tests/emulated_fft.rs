//! The FFT's generated kernels run on the CPU in hone's SIMT emulator: every
//! kind of pass, both precisions and directions, twiddles computed and from
//! the table, against the `rustfft` oracle, with the race detector on.
//! `sincospi` is mapped to `sin`/`cos` of pi x, which the emulator has.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options};
use hone_frontend::{parse_source, FrontendOptions};
use hone_kernels::fft::codegen::{PassShape, ENTRY};
use hone_kernels::fft::plan::{passes, BlockLimits, FftConfig};
use hone_kernels::fft::reference::{
    bound, from_interleaved, random, rms_relative, to_interleaved, transform,
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

/// Runs the plan of `p` under `c` pass by pass and returns the RMS error.
fn emulate(p: &FftProblem, c: &FftConfig) -> (f64, usize, bool) {
    let ks = passes(p, c, &BlockLimits::h100()).expect("a plan");
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
    let mut input = buffer(p.precision, "in", &held);
    let start = if p.in_place {
        held.clone()
    } else {
        vec![f64::NAN; held.len()]
    };
    let mut output = buffer(p.precision, "out", &start);
    let mut plane = false;
    for (i, k) in ks.iter().enumerate() {
        plane |= matches!(k.shape, PassShape::Plane(_));
        let src = format!("{PRELUDE}{}", k.source());
        let parsed =
            parse_source("fft.cu", &src, &FrontendOptions::default()).expect("preprocesses");
        assert!(
            !parsed.has_errors(),
            "front end: {}",
            parsed
                .diagnostics
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
        let table: Vec<f64> = k.table().iter().flat_map(|&(c, s)| [c, s]).collect();
        let table = if table.is_empty() {
            vec![0.0, 0.0]
        } else {
            table
        };
        let mut buffers = vec![
            if i == 0 && !p.in_place {
                input.clone()
            } else {
                output.clone()
            },
            output.clone(),
            buffer(p.precision, "tw", &table),
        ];
        let cfg =
            LaunchConfig::linear(k.grid() as u32, k.block()).with_dynamic_shared(k.shared_bytes());
        let args = [
            KernelArg::Buffer(0),
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
            "pass {i}: {:?}",
            report.faults
        );
        assert!(
            report.races.is_empty(),
            "pass {i}: {:?}",
            report.races.first()
        );
        if i == 0 && !p.in_place {
            assert_eq!(values(p.precision, &buffers[0]), held, "the input is kept");
            input = buffers[0].clone();
        }
        output = buffers[1].clone();
    }
    let got = from_interleaved(&values(p.precision, &output));
    let want = transform(p, &from_interleaved(&held));
    (rms_relative(&got, &want), ks.len(), plane)
}

#[test]
fn passes_compute_the_transform_in_the_emulator() {
    let base = FftConfig::default();
    let cases: Vec<(FftProblem, FftConfig)> = vec![
        // Mixed radices on every axis, out of place, table twiddles, plane pass.
        (
            FftProblem {
                precision: Precision::Single,
                n: [12, 10, 7],
                batch: 2,
                direction: Direction::Forward,
                in_place: false,
            },
            FftConfig {
                plane_threads: 64,
                ..base
            },
        ),
        // Line passes only, computed twiddles, radix at most 4, inverse, in place.
        (
            FftProblem {
                precision: Precision::Double,
                n: [16, 9, 8],
                batch: 1,
                direction: Direction::Inverse,
                in_place: true,
            },
            FftConfig {
                plane: false,
                twiddle: Twiddle::Computed,
                pad: 0,
                ..FftConfig::uniform(4, 4, 3, 4)
            },
        ),
        // Lines per block that do not divide the lines (guards), one stage per pass.
        (
            FftProblem {
                precision: Precision::Single,
                n: [5, 6, 3],
                batch: 3,
                direction: Direction::Forward,
                in_place: false,
            },
            FftConfig {
                plane: false,
                ..FftConfig::uniform(16, 2, 4, 4)
            },
        ),
        // Threads per line that leave some stages short of work.
        (
            FftProblem {
                precision: Precision::Double,
                n: [32, 14, 1],
                batch: 1,
                direction: Direction::Forward,
                in_place: false,
            },
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
