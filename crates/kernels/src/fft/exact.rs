//! Twiddle factors to about 106 bits, as unevaluated sums of two doubles.
//!
//! A double-precision kernel that corrects its twiddle powers by each
//! twiddle's rounding needs that rounding, which `f64::cos` cannot give: the
//! host has no wider float. The angle is reduced exactly (integers), and
//! sine and cosine of the rest come from their Taylor series in double-double
//! arithmetic.

/// hi + lo, |lo| at most half an ulp of hi.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dd {
    pub hi: f64,
    pub lo: f64,
}

/// pi / 2 as a double-double.
const HALF_PI: Dd = Dd {
    hi: std::f64::consts::FRAC_PI_2,
    lo: 6.123_233_995_736_766e-17,
};

fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd {
        hi: s,
        lo: (a - (s - bb)) + (b - bb),
    }
}

fn quick_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd {
        hi: s,
        lo: b - (s - a),
    }
}

impl Dd {
    pub fn from_f64(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }

    fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    fn add(self, y: Dd) -> Dd {
        let s = two_sum(self.hi, y.hi);
        let t = two_sum(self.lo, y.lo);
        let v = quick_two_sum(s.hi, s.lo + t.hi);
        quick_two_sum(v.hi, t.lo + v.lo)
    }

    fn mul(self, y: Dd) -> Dd {
        let p = self.hi * y.hi;
        let e = self.hi.mul_add(y.hi, -p) + (self.hi * y.lo + self.lo * y.hi);
        quick_two_sum(p, e)
    }

    fn div_f64(self, d: f64) -> Dd {
        let q1 = self.hi / d;
        let r = (-q1).mul_add(d, self.hi) + self.lo;
        quick_two_sum(q1, r / d)
    }
}

impl std::ops::Neg for Dd {
    type Output = Dd;
    fn neg(self) -> Dd {
        Dd::neg(self)
    }
}

impl std::ops::Add for Dd {
    type Output = Dd;
    fn add(self, y: Dd) -> Dd {
        Dd::add(self, y)
    }
}

impl std::ops::Mul for Dd {
    type Output = Dd;
    fn mul(self, y: Dd) -> Dd {
        Dd::mul(self, y)
    }
}

/// The ratio `n / d` (0 <= n < d) as a double-double.
fn ratio(n: u64, d: u64) -> Dd {
    let q = n as f64 / d as f64;
    // n - q d exactly: integers below 2^53 and one fused product.
    let r = -(q.mul_add(d as f64, -(n as f64)));
    Dd {
        hi: q,
        lo: r / d as f64,
    }
}

/// (cos x, sin x) for 0 <= x <= pi / 2.
fn cos_sin(x: Dd) -> (Dd, Dd) {
    let x2 = x.mul(x);
    let (mut c, mut s) = (Dd::from_f64(1.0), x);
    let (mut tc, mut ts) = (Dd::from_f64(1.0), x);
    let mut n = 0.0;
    // The terms fall below 2^-110 of the sum by n = 40 for x <= pi / 2.
    while n < 40.0 {
        tc = tc.mul(x2).div_f64((n + 1.0) * (n + 2.0)).neg();
        ts = ts.mul(x2).div_f64((n + 2.0) * (n + 3.0)).neg();
        c = c.add(tc);
        s = s.add(ts);
        n += 2.0;
    }
    (c, s)
}

/// exp(-2 pi i j / m) as double-doubles (re, im).
pub fn twiddle(j: u64, m: u64) -> (Dd, Dd) {
    let j = j % m;
    // 4 j = quadrant m + rest: the angle is quadrant pi/2 + (pi/2) rest/m.
    let (quadrant, rest) = ((4 * j) / m, (4 * j) % m);
    let (c, s) = cos_sin(HALF_PI.mul(ratio(rest, m)));
    let (cos, sin) = match quadrant {
        0 => (c, s),
        1 => (s.neg(), c),
        2 => (c.neg(), s.neg()),
        _ => (s, c.neg()),
    };
    (cos, sin.neg())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_angles_are_exact_and_the_rest_agree_with_libm() {
        // cos(pi/3) = 1/2, sin(pi/6) = 1/2, exp(-i pi/2) = -i.
        let (c, _) = twiddle(1, 6);
        assert_eq!(c.hi, 0.5);
        assert!(c.lo.abs() < 1e-31, "{c:?}");
        let (_, s) = twiddle(11, 12);
        assert_eq!(s.hi, 0.5);
        assert!(s.lo.abs() < 1e-31, "{s:?}");
        let (c, s) = twiddle(3, 12);
        assert!(c.hi.abs() < 1e-31 && s.hi == -1.0, "{c:?} {s:?}");
        for m in [5u64, 7, 16, 243, 250, 4096] {
            for j in 0..m {
                let (c, s) = twiddle(j, m);
                // libm's argument, -2 pi j / m rounded, is off by up to an
                // ulp of 2 pi, which its cosine and sine carry.
                let a = -2.0 * std::f64::consts::PI * j as f64 / m as f64;
                assert!((c.hi - a.cos()).abs() < 2e-15, "{j}/{m}: {c:?} {}", a.cos());
                assert!((s.hi - a.sin()).abs() < 2e-15, "{j}/{m}");
                // cos^2 + sin^2 = 1 to double-double accuracy.
                let one = c.mul(c).add(s.mul(s));
                assert!((one.hi - 1.0 + one.lo).abs() < 1e-30, "{j}/{m}: {one:?}");
            }
        }
    }

    #[test]
    fn low_parts_carry_the_rounding_of_the_high_parts() {
        // cos(pi/8)^2 = (2 + sqrt 2) / 4, with sqrt 2 as a double-double
        // (its low part from the residual 2 - hi^2).
        let (c, _) = twiddle(1, 16);
        assert!(c.lo != 0.0 && c.lo.abs() <= f64::EPSILON * 0.5 * c.hi.abs());
        let r = std::f64::consts::SQRT_2;
        let sqrt2 = Dd {
            hi: r,
            lo: (-r).mul_add(r, 2.0) / (2.0 * r),
        };
        let want = sqrt2.add(Dd::from_f64(2.0)).div_f64(4.0);
        let got = c.mul(c);
        let diff = (got.hi - want.hi) + (got.lo - want.lo);
        assert!(diff.abs() < 1e-31, "{got:?} against {want:?}");
    }
}
