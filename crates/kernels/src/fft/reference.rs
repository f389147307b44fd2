//! The CPU oracle: random inputs, the 3-D transform in double precision
//! with `rustfft`, and the error measure with its bound.

use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

use super::exact::{twiddle, Dd};
use super::{Direction, FftProblem};

/// `elements` complex numbers with parts uniform in [-1, 1).
pub fn random(elements: usize, seed: u64) -> Vec<Complex<f64>> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..elements)
        .map(|_| Complex::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))
        .collect()
}

/// The transform of `p` of `input` (the whole batch), in double precision.
pub fn transform(p: &FftProblem, input: &[Complex<f64>]) -> Vec<Complex<f64>> {
    assert_eq!(
        input.len() as u64,
        p.elements(),
        "input of the problem's size"
    );
    let mut data = input.to_vec();
    let mut planner = FftPlanner::<f64>::new();
    let mut stride = 1usize;
    for &len in &p.n {
        let n = len as usize;
        if n > 1 {
            let fft = match p.direction {
                Direction::Forward => planner.plan_fft_forward(n),
                Direction::Inverse => planner.plan_fft_inverse(n),
            };
            if stride == 1 {
                data.par_chunks_mut(n * 64).for_each(|c| fft.process(c));
            } else {
                // Gather the strided lines, transform them, scatter back.
                let mut lines = vec![Complex::new(0.0, 0.0); data.len()];
                lines.par_chunks_mut(n).enumerate().for_each(|(line, out)| {
                    let (o, i) = (line / stride, line % stride);
                    for (k, v) in out.iter_mut().enumerate() {
                        *v = data[o * n * stride + k * stride + i];
                    }
                });
                lines.par_chunks_mut(n * 64).for_each(|c| fft.process(c));
                data.par_chunks_mut(stride)
                    .enumerate()
                    .for_each(|(row, out)| {
                        let (o, k) = (row / n, row % n);
                        for (i, v) in out.iter_mut().enumerate() {
                            *v = lines[(o * stride + i) * n + k];
                        }
                    });
            }
        }
        stride *= n;
    }
    data
}

/// `values` reals uniform in [-1, 1).
pub fn random_real(values: usize, seed: u64) -> Vec<f64> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..values).map(|_| rng.gen_range(-1.0..1.0)).collect()
}

/// The complex problem of the same lengths and direction as a real one.
fn complex_twin(p: &FftProblem) -> FftProblem {
    FftProblem {
        real: false,
        in_place: false,
        ..*p
    }
}

/// The real-to-complex transform of `p` of the reals `x` (the whole batch):
/// each line's first `nx / 2 + 1` elements of the complex transform.
pub fn real_forward(p: &FftProblem, x: &[f64]) -> Vec<Complex<f64>> {
    let full: Vec<Complex<f64>> = x.iter().map(|&v| Complex::new(v, 0.0)).collect();
    let twin = FftProblem {
        direction: Direction::Forward,
        ..complex_twin(p)
    };
    let y = transform(&twin, &full);
    let nx = p.n[0] as usize;
    y.chunks_exact(nx)
        .flat_map(|line| line[..nx / 2 + 1].to_vec())
        .collect()
}

/// The complex-to-real transform of `p` of the spectrum `s`: the real part
/// of the inverse complex transform of the whole spectrum, the missing
/// half of each line taken from the conjugate of its mirror,
/// `X[nx - x, -y, -z] = conj X[x, y, z]`.
pub fn real_inverse(p: &FftProblem, s: &[Complex<f64>]) -> Vec<f64> {
    let twin = FftProblem {
        direction: Direction::Inverse,
        ..complex_twin(p)
    };
    transform(&twin, &hermitian_whole(p, s))
        .iter()
        .map(|c| c.re)
        .collect()
}

/// The whole spectrum of a complex-to-real problem from its stored half:
/// the missing half of each line is the conjugate of its mirror.
pub fn hermitian_whole(p: &FftProblem, s: &[Complex<f64>]) -> Vec<Complex<f64>> {
    let [nx, ny, nz] = p.n.map(|v| v as usize);
    let h = nx / 2 + 1;
    let mut full = vec![Complex::new(0.0, 0.0); nx * ny * nz * p.batch as usize];
    full.par_chunks_mut(nx * ny * nz)
        .enumerate()
        .for_each(|(b, out)| {
            let at = |x: usize, y: usize, z: usize| s[((b * nz + z) * ny + y) * h + x];
            for z in 0..nz {
                for y in 0..ny {
                    for x in 0..nx {
                        out[(z * ny + y) * nx + x] = if x < h {
                            at(x, y, z)
                        } else {
                            at(nx - x, (ny - y) % ny, (nz - z) % nz).conj()
                        };
                    }
                }
            }
        });
    full
}

/// Reals as complex numbers with no imaginary part (for the error measure).
pub fn as_complex(x: &[f64]) -> Vec<Complex<f64>> {
    x.iter().map(|&v| Complex::new(v, 0.0)).collect()
}

/// sqrt(sum |got - want|^2 / sum |want|^2).
pub fn rms_relative(got: &[Complex<f64>], want: &[Complex<f64>]) -> f64 {
    let (num, den) = got
        .par_iter()
        .zip(want.par_iter())
        .map(|(g, w)| ((g - w).norm_sqr(), w.norm_sqr()))
        .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    if den == 0.0 {
        num.sqrt()
    } else {
        (num / den).sqrt()
    }
}

/// A transform's input for [`exact_rms_relative`].
pub enum Signal<'a> {
    /// Complex values, `nx` a line (for a complex-to-real problem, the
    /// whole spectrum, [`hermitian_whole`]).
    Complex(&'a [Complex<f64>]),
    /// Reals, `nx` a line (a real-to-complex problem).
    Real(&'a [f64]),
}

/// Output points sampled along x, y and z; the first sum (along x) costs
/// one pass over the input per x sample.
const SAMPLES: [usize; 3] = [16, 32, 32];

type Cdd = (Dd, Dd);

fn cmul(a: Cdd, b: Cdd) -> Cdd {
    (a.0 * b.0 + -(a.1 * b.1), a.0 * b.1 + a.1 * b.0)
}

fn cadd(a: Cdd, b: Cdd) -> Cdd {
    (a.0 + b.0, a.1 + b.1)
}

/// Host bytes [`ExactSamples::new`] holds for `p`: its sums along x.
pub fn exact_host_bytes(p: &FftProblem) -> u64 {
    let lines = p.n[1] as u64 * p.n[2] as u64;
    lines * SAMPLES[0].min(p.n[0] as usize) as u64 * std::mem::size_of::<Cdd>() as u64
}

/// The RMS relative error of `got` at output points sampled at random
/// (from `seed`), against the transform computed there in double-double
/// arithmetic ([`ExactSamples`]).
pub fn exact_rms_relative(
    p: &FftProblem,
    input: Signal<'_>,
    got: &[Complex<f64>],
    seed: u64,
) -> f64 {
    ExactSamples::new(p, input, seed).rms_relative(got)
}

/// A transform at output points sampled at random, computed in
/// double-double arithmetic with twiddles to about 106 bits.
///
/// A double-precision transform errs by a few units in the last place;
/// so does the double-precision oracle, whose twiddles come from
/// `f64::cos` of rounded angles like those of most FFTs, so its errors
/// partly match (or mask) theirs. Measured against it, two accurate
/// transforms differ mostly in how much their errors look like the
/// oracle's. These values have no error of their own at that scale. The
/// points form a grid (the sums along x cost a pass over the input for
/// each x sample), and the error's size varies with the frequency, so the
/// measure varies by 2-4% from one draw of points to another.
pub struct ExactSamples {
    /// Index into the output, exact value.
    points: Vec<(usize, Cdd)>,
    /// A complex-to-real output: real parts only.
    real_out: bool,
}

impl ExactSamples {
    pub fn new(p: &FftProblem, input: Signal<'_>, seed: u64) -> ExactSamples {
        use rand::seq::index::sample;
        let [nx, ny, nz] = p.n.map(|v| v as usize);
        let points = nx * ny * nz;
        let real_in = matches!(input, Signal::Real(_));
        let real_out = p.real && p.direction == Direction::Inverse;
        let out_nx = if real_in { nx / 2 + 1 } else { nx };
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0xdd5a_3b1e);
        let mut pick = |n: usize, k: usize| -> Vec<usize> {
            let mut v = sample(&mut rng, n, k.min(n)).into_vec();
            v.sort_unstable();
            v
        };
        let (kx, ky, kz) = (
            pick(out_nx, SAMPLES[0]),
            pick(ny, SAMPLES[1]),
            pick(nz, SAMPLES[2]),
        );
        let batches: Vec<usize> = if p.batch > 1 {
            vec![0, p.batch as usize - 1]
        } else {
            vec![0]
        };
        let table = |n: usize| -> Vec<Cdd> {
            (0..n as u64)
                .map(|j| {
                    let (c, s) = twiddle(j, n as u64);
                    match p.direction {
                        Direction::Forward => (c, s),
                        Direction::Inverse => (c, -s),
                    }
                })
                .collect()
        };
        let (tx, ty, tz) = (table(nx), table(ny), table(nz));
        let zero = (Dd::from_f64(0.0), Dd::from_f64(0.0));
        let mut out = Vec::new();
        for &b in &batches {
            let value = |i: usize| -> (f64, f64) {
                match input {
                    Signal::Complex(x) => (x[b * points + i].re, x[b * points + i].im),
                    Signal::Real(x) => (x[b * points + i], 0.0),
                }
            };
            // Along x: a[line * kx.len() + i] for each sampled kx[i].
            let mut a = vec![zero; ny * nz * kx.len()];
            a.par_chunks_mut(kx.len())
                .enumerate()
                .for_each(|(line, out)| {
                    for (o, &k) in out.iter_mut().zip(&kx) {
                        let mut acc = zero;
                        for j in 0..nx {
                            let (re, im) = value(line * nx + j);
                            let x = (Dd::from_f64(re), Dd::from_f64(im));
                            acc = cadd(acc, cmul(x, tx[(j * k) % nx]));
                        }
                        *o = acc;
                    }
                });
            // Along y, then z, at every sampled (kx, ky), then each kz.
            let pairs: Vec<(usize, usize)> = (0..kx.len())
                .flat_map(|i| (0..ky.len()).map(move |j| (i, j)))
                .collect();
            let found: Vec<Vec<(usize, Cdd)>> = pairs
                .par_iter()
                .map(|&(i, j)| {
                    let by_z: Vec<Cdd> = (0..nz)
                        .map(|z| {
                            let mut acc = zero;
                            for y in 0..ny {
                                acc = cadd(
                                    acc,
                                    cmul(a[(z * ny + y) * kx.len() + i], ty[(y * ky[j]) % ny]),
                                );
                            }
                            acc
                        })
                        .collect();
                    kz.iter()
                        .map(|&k| {
                            let mut want = zero;
                            for (z, v) in by_z.iter().enumerate() {
                                want = cadd(want, cmul(*v, tz[(z * k) % nz]));
                            }
                            let at = b * out_nx * ny * nz + (k * ny + ky[j]) * out_nx + kx[i];
                            (at, want)
                        })
                        .collect()
                })
                .collect();
            out.extend(found.into_iter().flatten());
        }
        ExactSamples {
            points: out,
            real_out,
        }
    }

    /// sqrt(sum |got - exact|^2 / sum |exact|^2) over the points.
    pub fn rms_relative(&self, got: &[Complex<f64>]) -> f64 {
        let (mut num, mut den) = (0.0, 0.0);
        for &(at, want) in &self.points {
            let g = got[at];
            let dr = (g.re - want.0.hi) - want.0.lo;
            num += dr * dr;
            den += want.0.hi * want.0.hi;
            if !self.real_out {
                let di = (g.im - want.1.hi) - want.1.lo;
                num += di * di;
                den += want.1.hi * want.1.hi;
            }
        }
        if den == 0.0 {
            num.sqrt()
        } else {
            (num / den).sqrt()
        }
    }
}

/// The RMS relative error a correct transform stays under: 2 u log2(N)
/// plus the rounding of the input and output, u the unit roundoff. The
/// error of a Cooley-Tukey FFT with accurate twiddles grows like
/// u sqrt(log N) on average and u log N at worst.
pub fn bound(p: &FftProblem) -> f64 {
    let u = p.precision.unit_roundoff();
    let logn = (p.points() as f64).log2().max(1.0);
    2.0 * u * logn + 2.0 * u
}

/// Interleaved values (as the device holds them) to complex numbers.
pub fn from_interleaved(v: &[f64]) -> Vec<Complex<f64>> {
    v.chunks_exact(2)
        .map(|c| Complex::new(c[0], c[1]))
        .collect()
}

/// Complex numbers to interleaved values.
pub fn to_interleaved(v: &[Complex<f64>]) -> Vec<f64> {
    v.iter().flat_map(|c| [c.re, c.im]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precision::Precision;

    /// The 3-D transform against its definition on a small mixed-radix box.
    #[test]
    fn the_oracle_is_the_definition() {
        for direction in [Direction::Forward, Direction::Inverse] {
            let p = FftProblem {
                precision: Precision::Double,
                n: [6, 5, 3],
                batch: 2,
                direction,
                in_place: false,
                real: false,
            };
            let x = random(p.elements() as usize, 7);
            let got = transform(&p, &x);
            let [nx, ny, nz] = p.n.map(|v| v as usize);
            let sign = direction.sign() as f64;
            let mut worst: f64 = 0.0;
            for b in 0..2 {
                for (kz, ky, kx) in [(0, 0, 0), (1, 2, 3), (2, 4, 5), (1, 0, 1)] {
                    let mut want = Complex::new(0.0, 0.0);
                    for z in 0..nz {
                        for y in 0..ny {
                            for xx in 0..nx {
                                let a = sign
                                    * 2.0
                                    * std::f64::consts::PI
                                    * ((kx * xx) as f64 / nx as f64
                                        + (ky * y) as f64 / ny as f64
                                        + (kz * z) as f64 / nz as f64);
                                want += x[((b * nz + z) * ny + y) * nx + xx]
                                    * Complex::new(a.cos(), a.sin());
                            }
                        }
                    }
                    let g = got[((b * nz + kz) * ny + ky) * nx + kx];
                    worst = worst.max((g - want).norm());
                }
            }
            assert!(worst < 1e-10, "{direction}: {worst}");
        }
    }

    #[test]
    fn forward_then_inverse_scales_by_the_size() {
        let p = FftProblem {
            precision: Precision::Double,
            n: [8, 7, 10],
            batch: 1,
            direction: Direction::Forward,
            in_place: true,
            real: false,
        };
        let x = random(p.elements() as usize, 3);
        let y = transform(&p, &x);
        let back = transform(
            &FftProblem {
                direction: Direction::Inverse,
                ..p
            },
            &y,
        );
        let scaled: Vec<_> = back.iter().map(|v| v / p.points() as f64).collect();
        assert!(rms_relative(&scaled, &x) < 1e-14);
        assert!(rms_relative(&y, &x) > 0.5, "the transform changed the data");
        assert!(bound(&p) > 0.0 && bound(&p) < 1e-13);
    }

    /// The sampled double-double measure finds the oracle's own error
    /// small (so indices, signs and the mirrored half agree) and a known
    /// relative error where there is one, for complex transforms both
    /// ways, a batch and the real transforms.
    #[test]
    fn the_exact_measure_sees_a_known_error() {
        for (real, direction) in [
            (false, Direction::Forward),
            (false, Direction::Inverse),
            (true, Direction::Forward),
            (true, Direction::Inverse),
        ] {
            let p = FftProblem {
                precision: Precision::Double,
                n: [10, 21, 6],
                batch: 3,
                direction,
                in_place: false,
                real,
            };
            let x = random(p.elements() as usize, 5);
            let r = random_real(p.real_values() as usize, 6);
            let spectrum = real_forward(&p, &r);
            let whole = hermitian_whole(&p, &spectrum);
            let want: Vec<Complex<f64>> = match (real, direction) {
                (false, _) => transform(&p, &x),
                (true, Direction::Forward) => real_forward(&p, &r),
                (true, Direction::Inverse) => as_complex(&real_inverse(&p, &spectrum)),
            };
            let signal = || match (real, direction) {
                (false, _) => Signal::Complex(&x),
                (true, Direction::Forward) => Signal::Real(&r),
                (true, Direction::Inverse) => Signal::Complex(&whole),
            };
            let own = exact_rms_relative(&p, signal(), &want, 9);
            assert!(own < 1e-15, "{real} {direction}: {own:e}");
            let off: Vec<Complex<f64>> = want.iter().map(|v| v * (1.0 + 1e-9)).collect();
            let e = exact_rms_relative(&p, signal(), &off, 9);
            assert!((e / 1e-9 - 1.0).abs() < 1e-4, "{real} {direction}: {e:e}");
        }
    }

    /// The measure's own error is well below a double's rounding: the
    /// transform summed in double-double over every point and rounded to
    /// doubles measures about 0.4 u (u the unit roundoff), where sums in
    /// double precision would add errors of several u.
    #[test]
    fn the_exact_measure_resolves_a_doubles_rounding() {
        let p = FftProblem {
            precision: Precision::Double,
            n: [12, 10, 6],
            batch: 1,
            direction: Direction::Forward,
            in_place: false,
            real: false,
        };
        let x = random(p.elements() as usize, 4);
        let [nx, ny, nz] = p.n.map(|v| v as u64);
        let zero = (Dd::from_f64(0.0), Dd::from_f64(0.0));
        let mut rounded = Vec::new();
        for kz in 0..nz {
            for ky in 0..ny {
                for kx in 0..nx {
                    let mut acc = zero;
                    for (i, v) in x.iter().enumerate() {
                        let i = i as u64;
                        let (jx, jy, jz) = (i % nx, i / nx % ny, i / (nx * ny));
                        // exp(-2 pi i (jx kx / nx + jy ky / ny + jz kz / nz))
                        let m = nx * ny * nz;
                        let j = jx * kx * (m / nx) + jy * ky * (m / ny) + jz * kz * (m / nz);
                        let w = twiddle(j % m, m);
                        let xv = (Dd::from_f64(v.re), Dd::from_f64(v.im));
                        acc = cadd(acc, cmul(xv, w));
                    }
                    rounded.push(Complex::new(acc.0.hi, acc.1.hi));
                }
            }
        }
        let u = f64::EPSILON / 2.0;
        let e = exact_rms_relative(&p, Signal::Complex(&x), &rounded, 1);
        assert!(e > 0.1 * u && e < 0.6 * u, "{:.3} u", e / u);
        let oracle = exact_rms_relative(&p, Signal::Complex(&x), &transform(&p, &x), 1);
        assert!(
            oracle > e,
            "the oracle {:.3} u, rounded {:.3} u",
            oracle / u,
            e / u
        );
    }

    /// The real transforms against the complex one, and back.
    #[test]
    fn real_transforms_are_halves_of_the_complex_one() {
        let p = FftProblem {
            precision: Precision::Double,
            n: [10, 3, 4],
            batch: 2,
            direction: Direction::Forward,
            in_place: false,
            real: true,
        };
        let x = random_real(p.real_values() as usize, 5);
        let s = real_forward(&p, &x);
        assert_eq!(s.len() as u64, p.elements());
        let full = transform(&FftProblem { real: false, ..p }, &as_complex(&x));
        // Element (x=4, y=2, z=3) of batch 1, and its mirror's conjugate.
        let idx = |w: usize, x: usize, y: usize, z: usize| ((4 + z) * 3 + y) * w + x;
        assert!((s[idx(6, 4, 2, 3)] - full[idx(10, 4, 2, 3)]).norm() < 1e-12);
        assert!((full[idx(10, 6, 1, 1)] - full[idx(10, 4, 2, 3)].conj()).norm() < 1e-12);
        let back = real_inverse(
            &FftProblem {
                direction: Direction::Inverse,
                ..p
            },
            &s,
        );
        let scaled: Vec<f64> = back.iter().map(|v| v / p.points() as f64).collect();
        assert!(rms_relative(&as_complex(&scaled), &as_complex(&x)) < 1e-14);
    }
}
