//! The CPU oracle: random inputs, the 3-D transform in double precision
//! with `rustfft`, and the error measure with its bound.

use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

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
    let twin = FftProblem {
        direction: Direction::Inverse,
        ..complex_twin(p)
    };
    transform(&twin, &full).iter().map(|c| c.re).collect()
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
