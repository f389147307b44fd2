//! Arithmetic in a named rounding mode (`__fadd_rd`, `__dsqrt_ru`,
//! `__fmaf_rz`, `__frcp_rn`), exactly as IEEE 754 defines it.
//!
//! The host computes in round-to-nearest only. Each operation is done that
//! way, and the sign of what rounding lost is found without error (the
//! error-free transformations: TwoSum for sums, an FMA for products, the
//! remainder of a quotient or square root; for `f32` operands worked out in
//! `f64`, so that subnormal results lose nothing); the result then moves one
//! unit in the last place toward the mode's direction where the exact value
//! lies on that side of it. Overflow rounds to the largest finite value in the
//! modes that round toward zero from it; an exact zero sum is -0 rounding
//! down.

use hone_ir::{RoundedOp, Rounding};

/// The float types the modes are computed for.
trait Float: Copy + PartialOrd {
    const ZERO: Self;
    const ONE: Self;
    const MAX: Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn neg(self) -> Self;
    fn sqrt(self) -> Self;
    fn fma(self, b: Self, c: Self) -> Self;
    fn up(self) -> Self;
    fn down(self) -> Self;
    fn is_finite(self) -> bool;
    fn is_nan(self) -> bool;
}

macro_rules! float {
    ($t:ty) => {
        impl Float for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const MAX: Self = <$t>::MAX;
            fn add(self, o: Self) -> Self {
                self + o
            }
            fn sub(self, o: Self) -> Self {
                self - o
            }
            fn mul(self, o: Self) -> Self {
                self * o
            }
            fn div(self, o: Self) -> Self {
                self / o
            }
            fn neg(self) -> Self {
                -self
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn fma(self, b: Self, c: Self) -> Self {
                self.mul_add(b, c)
            }
            fn up(self) -> Self {
                self.next_up()
            }
            fn down(self) -> Self {
                self.next_down()
            }
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
        }
    };
}
float!(f32);
float!(f64);

/// The sign of `x`: -1, 0 or 1.
fn sign<F: Float>(x: F) -> i32 {
    if x > F::ZERO {
        1
    } else if x < F::ZERO {
        -1
    } else {
        0
    }
}

/// The error of `r = a + b` rounded to nearest, exactly (TwoSum).
fn sum_error<F: Float>(a: F, b: F, r: F) -> F {
    let bb = r.sub(a);
    let aa = r.sub(bb);
    a.sub(aa).add(b.sub(bb))
}

/// The result rounded to nearest and the sign of (exact - result).
fn nearest<F: Float>(op: RoundedOp, a: F, b: F, c: F) -> (F, i32) {
    match op {
        RoundedOp::Add => {
            let r = a.add(b);
            (r, sign(sum_error(a, b, r)))
        }
        RoundedOp::Sub => {
            let r = a.sub(b);
            (r, sign(sum_error(a, b.neg(), r)))
        }
        RoundedOp::Mul => {
            let r = a.mul(b);
            (r, sign(a.fma(b, r.neg())))
        }
        RoundedOp::Div | RoundedOp::Rcp => {
            let (a, b) = if op == RoundedOp::Rcp {
                (F::ONE, a)
            } else {
                (a, b)
            };
            let q = a.div(b);
            // a - q b exactly; a / b - q has its sign times b's.
            let rem = q.neg().fma(b, a);
            (q, sign(rem) * sign(b))
        }
        RoundedOp::Sqrt => {
            let s = a.sqrt();
            (s, sign(s.neg().fma(s, a)))
        }
        RoundedOp::Fma => {
            let r = a.fma(b, c);
            // a b + c - r = (p - r) + c + pe, with p = a b rounded and pe
            // its exact error, summed with TwoSums.
            let p = a.mul(b);
            let pe = a.fma(b, p.neg());
            let s = p.add(c);
            let e1 = sum_error(p, c, s);
            let t = s.sub(r);
            let e2 = sum_error(s, r.neg(), t);
            (r, sign(t.add(e1.add(e2).add(pe))))
        }
    }
}

/// The sign of (exact - `r`) for `f32` operands, worked out in `f64`, where
/// every `f32` (subnormals too) is normal and the products and remainders
/// below are exact, so that no leftover underflows to zero.
fn f32_error_sign(op: RoundedOp, a: f32, b: f32, c: f32, r: f32) -> i32 {
    let (a, b, c, r) = (a as f64, b as f64, c as f64, r as f64);
    // `s + e` is an exact sum; its sign against `r` is `s - r`'s unless that
    // is zero.
    let against = |s: f64, e: f64| {
        let d = s - r;
        if d != 0.0 {
            sign(d)
        } else {
            sign(e)
        }
    };
    match op {
        RoundedOp::Add | RoundedOp::Sub => {
            let b = if op == RoundedOp::Sub { -b } else { b };
            let s = a + b;
            against(s, sum_error(a, b, s))
        }
        RoundedOp::Mul => sign(a * b - r),
        RoundedOp::Div => sign(a - r * b) * sign(b),
        RoundedOp::Rcp => sign(1.0 - r * a) * sign(a),
        RoundedOp::Sqrt => sign(a - r * r),
        RoundedOp::Fma => {
            let p = a * b;
            let s = p + c;
            against(s, sum_error(p, c, s))
        }
    }
}

/// `x` is +0.
fn is_positive_zero<F: Float>(x: F, neg_zero: F) -> bool {
    x == F::ZERO && !same_bits(x, neg_zero)
}

fn same_bits<F: Float>(x: F, y: F) -> bool {
    // -0 and +0 compare equal; their reciprocals tell them apart.
    x == y && F::ONE.div(x) == F::ONE.div(y)
}

fn rounded<F: Float>(op: RoundedOp, mode: Rounding, a: F, b: F, c: F, err32: Option<i32>) -> F {
    let (r, err) = nearest(op, a, b, c);
    let err = err32.unwrap_or(err);
    if r.is_nan() {
        return r;
    }
    if !r.is_finite() {
        // An overflow: the modes that round toward zero from it give the
        // largest finite value instead.
        let finite_inputs = a.is_finite() && b.is_finite() && c.is_finite();
        let toward_zero = match mode {
            Rounding::Nearest => false,
            Rounding::Zero => true,
            Rounding::Down => r > F::ZERO,
            Rounding::Up => r < F::ZERO,
        };
        // Only a division by zero is infinite exactly.
        let by_zero = match op {
            RoundedOp::Div => b == F::ZERO,
            RoundedOp::Rcp => a == F::ZERO,
            _ => false,
        };
        return if finite_inputs && toward_zero && !by_zero {
            if r > F::ZERO {
                F::MAX
            } else {
                F::MAX.neg()
            }
        } else {
            r
        };
    }
    if r == F::ZERO && err == 0 && mode == Rounding::Down {
        // An exact zero sum of operands not both +0 is -0 when rounding
        // down (IEEE 754, 6.3).
        let neg_zero = F::ZERO.neg();
        let both_positive = match op {
            RoundedOp::Add => is_positive_zero(a, neg_zero) && is_positive_zero(b, neg_zero),
            RoundedOp::Sub => is_positive_zero(a, neg_zero) && same_bits(b, neg_zero),
            RoundedOp::Fma => is_positive_zero(a.mul(b), neg_zero) && is_positive_zero(c, neg_zero),
            _ => true,
        };
        if !both_positive && matches!(op, RoundedOp::Add | RoundedOp::Sub | RoundedOp::Fma) {
            return neg_zero;
        }
    }
    match mode {
        Rounding::Nearest => r,
        Rounding::Down if err < 0 => r.down(),
        Rounding::Up if err > 0 => r.up(),
        Rounding::Zero if err < 0 && r > F::ZERO => r.down(),
        Rounding::Zero if err > 0 && r < F::ZERO => r.up(),
        _ => r,
    }
}

/// `op` in single precision, rounded as `mode` says.
pub(crate) fn rounded_f32(op: RoundedOp, mode: Rounding, a: f32, b: f32, c: f32) -> f32 {
    let (r, _) = nearest(op, a, b, c);
    let err = r.is_finite().then(|| f32_error_sign(op, a, b, c, r));
    rounded(op, mode, a, b, c, err)
}

/// `op` in double precision, rounded as `mode` says.
/// The leftovers are computed in `f64` itself: where one falls below the
/// subnormal range (results within a few units of the smallest subnormal)
/// it reads as zero and the result stays rounded to nearest.
pub(crate) fn rounded_f64(op: RoundedOp, mode: Rounding, a: f64, b: f64, c: f64) -> f64 {
    rounded(op, mode, a, b, c, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact value of a sum, product, quotient or square root of two
    /// `f32`s compared with `r` in `f64` arithmetic that is exact for them.
    fn exact_side(op: RoundedOp, a: f32, b: f32, r: f32) -> std::cmp::Ordering {
        let (a, b, r) = (a as f64, b as f64, r as f64);
        match op {
            // Exact in f64 for f32 operands of close magnitude (as drawn).
            RoundedOp::Add => (a + b).partial_cmp(&r).unwrap(),
            RoundedOp::Sub => (a - b).partial_cmp(&r).unwrap(),
            RoundedOp::Mul => (a * b).partial_cmp(&r).unwrap(),
            // a / b vs r  <=>  a vs r b (b > 0 as drawn), r b exact in f64.
            RoundedOp::Div => a.partial_cmp(&(r * b)).unwrap(),
            // sqrt(a) vs r  <=>  a vs r^2, exact in f64.
            RoundedOp::Sqrt => a.partial_cmp(&(r * r)).unwrap(),
            _ => unreachable!("not drawn"),
        }
    }

    #[test]
    fn directed_results_bracket_the_exact_value_within_one_ulp() {
        use std::cmp::Ordering::*;
        let mut state = 0x9e3779b97f4a7c15u64;
        let mut draw = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Positive values within a few binades of one another.
            1.0 + (state >> 40) as f32 / (1u64 << 24) as f32 * 7.0
        };
        for op in [
            RoundedOp::Add,
            RoundedOp::Sub,
            RoundedOp::Mul,
            RoundedOp::Div,
            RoundedOp::Sqrt,
        ] {
            for _ in 0..20_000 {
                let (a, b) = (draw(), draw());
                let down = rounded_f32(op, Rounding::Down, a, b, 0.0);
                let up = rounded_f32(op, Rounding::Up, a, b, 0.0);
                let zero = rounded_f32(op, Rounding::Zero, a, b, 0.0);
                let near = rounded_f32(op, Rounding::Nearest, a, b, 0.0);
                assert_ne!(
                    exact_side(op, a, b, down),
                    Less,
                    "{op:?} {a} {b} down {down}"
                );
                assert_ne!(exact_side(op, a, b, up), Greater, "{op:?} {a} {b} up {up}");
                // Exact results are their own roundings; otherwise down and
                // up are adjacent floats around the exact value.
                if exact_side(op, a, b, down) == Equal {
                    assert_eq!(down, up);
                } else {
                    assert_eq!(down.next_up(), up, "{op:?} {a} {b}");
                }
                assert!(near == down || near == up);
                let want_zero = if exact_side(op, a, b, 0.0) == Less {
                    up
                } else {
                    down
                };
                assert_eq!(zero, want_zero, "{op:?} {a} {b}");
            }
        }
    }

    #[test]
    fn fma_and_reciprocal_round_in_their_direction() {
        // 1/3 is not representable: down and up differ by one unit.
        let d = rounded_f64(RoundedOp::Rcp, Rounding::Down, 3.0, 0.0, 0.0);
        let u = rounded_f64(RoundedOp::Rcp, Rounding::Up, 3.0, 0.0, 0.0);
        assert_eq!(d.next_up(), u);
        // 3 d - 1 and 3 u - 1, exactly.
        assert!(d.mul_add(3.0, -1.0) < 0.0 && u.mul_add(3.0, -1.0) > 0.0);
        // (1 + 3e)^2 - 1 = 6e + 9e^2 (e = 2^-23): 9e^2 is 2.25 units in the
        // last place of 6e, so the result is not a float.
        let x = 1.0f32 + f32::EPSILON * 3.0;
        let near = rounded_f32(RoundedOp::Fma, Rounding::Nearest, x, x, -1.0);
        let up = rounded_f32(RoundedOp::Fma, Rounding::Up, x, x, -1.0);
        let down = rounded_f32(RoundedOp::Fma, Rounding::Down, x, x, -1.0);
        let exact = (x as f64) * (x as f64) - 1.0;
        assert!((down as f64) <= exact && exact <= up as f64);
        assert!(near == down || near == up);
        assert!(down < up);
        // Subnormal results: the product of two tiny floats rounds up to
        // the smallest subnormal, down to zero.
        let tiny = 1e-30f32;
        let up = rounded_f32(RoundedOp::Mul, Rounding::Up, tiny, tiny, 0.0);
        assert_eq!(up, f32::from_bits(1));
        assert_eq!(
            rounded_f32(RoundedOp::Mul, Rounding::Down, tiny, tiny, 0.0),
            0.0
        );
        let s = rounded_f32(RoundedOp::Sqrt, Rounding::Up, f32::from_bits(3), 0.0, 0.0);
        assert!((s as f64) * (s as f64) >= f32::from_bits(3) as f64);
        // An exact zero sum is -0 rounding down, +0 otherwise.
        let z = rounded_f32(RoundedOp::Add, Rounding::Down, 1.0, -1.0, 0.0);
        assert!(z == 0.0 && z.is_sign_negative());
        let z = rounded_f32(RoundedOp::Add, Rounding::Up, 1.0, -1.0, 0.0);
        assert!(z == 0.0 && z.is_sign_positive());
        let z = rounded_f32(RoundedOp::Add, Rounding::Down, 0.0, 0.0, 0.0);
        assert!(z.is_sign_positive());
        // A quotient that overflows is the largest float toward zero; one
        // by zero stays infinite.
        assert_eq!(
            rounded_f32(RoundedOp::Div, Rounding::Zero, f32::MAX, 0.5, 0.0),
            f32::MAX
        );
        assert_eq!(
            rounded_f32(RoundedOp::Div, Rounding::Zero, 1.0, 0.0, 0.0),
            f32::INFINITY
        );
        // Overflow rounds to the largest finite value toward zero.
        let big = f32::MAX;
        assert_eq!(
            rounded_f32(RoundedOp::Add, Rounding::Down, big, big, 0.0),
            f32::MAX
        );
        assert_eq!(
            rounded_f32(RoundedOp::Add, Rounding::Up, big, big, 0.0),
            f32::INFINITY
        );
    }
}
