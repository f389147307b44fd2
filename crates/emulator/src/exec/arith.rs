//! Scalar semantics as CUDA defines them. Registers hold values in a
//! canonical 64-bit form: signed integers sign-extended, unsigned ones
//! zero-extended, `bool` as 0/1, `float` as its bit pattern in the low half,
//! `double` and pointers as their bits.

use hone_ir::{AtomicOp, MathOp, Scalar};

use crate::compile::ops::{BinK, CmpK, UnK};
use hone_ir::Arith;

#[inline(always)]
/// A reinterpretation's result, as canonical bits of its result type, from
/// canonical bits of its argument type (`MathOp::integer_sig`).
fn reinterpret(f: MathOp, a: u64, b: u64) -> u64 {
    match f {
        MathOp::FloatAsInt => canon(Scalar::I32, a),
        MathOp::IntAsFloat => canon(Scalar::F32, a),
        MathOp::Double2Hiint => canon(Scalar::I32, a >> 32),
        MathOp::Double2Loint => canon(Scalar::I32, a),
        MathOp::Hiloint2double => (a << 32) | (b & 0xffff_ffff),
        // Same width, same canonical form (`__float_as_uint`, ...).
        _ => a,
    }
}

pub(crate) fn canon(s: Scalar, v: u64) -> u64 {
    match s {
        Scalar::Bool => (v != 0) as u64,
        Scalar::I8 => v as i8 as i64 as u64,
        Scalar::U8 => v as u8 as u64,
        Scalar::I16 => v as i16 as i64 as u64,
        Scalar::U16 => v as u16 as u64,
        Scalar::I32 => v as i32 as i64 as u64,
        Scalar::U32 | Scalar::F32 => v as u32 as u64,
        Scalar::I64 | Scalar::U64 | Scalar::F64 => v,
    }
}

#[inline(always)]
fn f32v(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
#[inline(always)]
fn f64v(v: u64) -> f64 {
    f64::from_bits(v)
}
#[inline(always)]
fn bf32(f: f32) -> u64 {
    f.to_bits() as u64
}

/// C conversion of a canonical value. Float-to-integer conversions truncate
/// toward zero and saturate (NaN gives 0), as PTX's `cvt.rzi` does.
pub(crate) fn convert_bits(from: Scalar, to: Scalar, v: u64) -> u64 {
    if from == to {
        return v;
    }
    if from.is_float() {
        let f = if from == Scalar::F32 {
            f32v(v) as f64
        } else {
            f64v(v)
        };
        return match to {
            Scalar::F32 => bf32(f as f32),
            Scalar::F64 => f.to_bits(),
            Scalar::Bool => (f != 0.0) as u64,
            Scalar::I64 => f as i64 as u64,
            Scalar::U64 => f as u64,
            Scalar::U32 => f as u32 as u64,
            Scalar::U8 | Scalar::U16 => canon(to, f as u32 as u64),
            _ => canon(to, f as i32 as i64 as u64),
        };
    }
    let signed = from.is_signed();
    match to {
        Scalar::F32 => {
            if signed {
                bf32(v as i64 as f32)
            } else {
                bf32(v as f32)
            }
        }
        Scalar::F64 => {
            if signed {
                (v as i64 as f64).to_bits()
            } else {
                (v as f64).to_bits()
            }
        }
        _ => canon(to, v),
    }
}

/// Outcome of an integer division by zero.
pub(crate) struct DivByZero;

#[inline(always)]
fn shift_amount(b: u64, width: u64) -> u64 {
    // PTX clamps shift amounts (read as unsigned) to the register width.
    b.min(width)
}

/// Binary arithmetic that cannot fault (everything but integer / and %).
#[inline(always)]
pub(crate) fn bin(k: BinK, ty: Arith, a: u64, b: u64) -> u64 {
    match ty {
        Arith::I32 => {
            let (x, y) = (a as i32, b as i32);
            let r = match k {
                BinK::Add => x.wrapping_add(y),
                BinK::Sub => x.wrapping_sub(y),
                BinK::Mul => x.wrapping_mul(y),
                BinK::Div => {
                    if y == 0 {
                        0
                    } else {
                        x.wrapping_div(y)
                    }
                }
                BinK::Rem => {
                    if y == 0 {
                        0
                    } else {
                        x.wrapping_rem(y)
                    }
                }
                BinK::Shl => {
                    let s = shift_amount(b, 32);
                    if s >= 32 {
                        0
                    } else {
                        ((x as u32) << s) as i32
                    }
                }
                BinK::Shr => x >> shift_amount(b, 31),
                BinK::And => x & y,
                BinK::Or => x | y,
                BinK::Xor => x ^ y,
            };
            r as i64 as u64
        }
        Arith::U32 => {
            let (x, y) = (a as u32, b as u32);
            let r = match k {
                BinK::Add => x.wrapping_add(y),
                BinK::Sub => x.wrapping_sub(y),
                BinK::Mul => x.wrapping_mul(y),
                BinK::Div => x.checked_div(y).unwrap_or(0),
                BinK::Rem => x.checked_rem(y).unwrap_or(0),
                BinK::Shl => {
                    let s = shift_amount(b, 32);
                    if s >= 32 {
                        0
                    } else {
                        x << s
                    }
                }
                BinK::Shr => {
                    let s = shift_amount(b, 32);
                    if s >= 32 {
                        0
                    } else {
                        x >> s
                    }
                }
                BinK::And => x & y,
                BinK::Or => x | y,
                BinK::Xor => x ^ y,
            };
            r as u64
        }
        Arith::I64 => {
            let (x, y) = (a as i64, b as i64);
            let r = match k {
                BinK::Add => x.wrapping_add(y),
                BinK::Sub => x.wrapping_sub(y),
                BinK::Mul => x.wrapping_mul(y),
                BinK::Div => {
                    if y == 0 {
                        0
                    } else {
                        x.wrapping_div(y)
                    }
                }
                BinK::Rem => {
                    if y == 0 {
                        0
                    } else {
                        x.wrapping_rem(y)
                    }
                }
                BinK::Shl => {
                    let s = shift_amount(b, 64);
                    if s >= 64 {
                        0
                    } else {
                        ((x as u64) << s) as i64
                    }
                }
                BinK::Shr => x >> shift_amount(b, 63),
                BinK::And => x & y,
                BinK::Or => x | y,
                BinK::Xor => x ^ y,
            };
            r as u64
        }
        Arith::U64 => match k {
            BinK::Add => a.wrapping_add(b),
            BinK::Sub => a.wrapping_sub(b),
            BinK::Mul => a.wrapping_mul(b),
            BinK::Div => a.checked_div(b).unwrap_or(0),
            BinK::Rem => a.checked_rem(b).unwrap_or(0),
            BinK::Shl => {
                let s = shift_amount(b, 64);
                if s >= 64 {
                    0
                } else {
                    a << s
                }
            }
            BinK::Shr => {
                let s = shift_amount(b, 64);
                if s >= 64 {
                    0
                } else {
                    a >> s
                }
            }
            BinK::And => a & b,
            BinK::Or => a | b,
            BinK::Xor => a ^ b,
        },
        Arith::F32 => {
            let (x, y) = (f32v(a), f32v(b));
            bf32(match k {
                BinK::Add => x + y,
                BinK::Sub => x - y,
                BinK::Mul => x * y,
                BinK::Div => x / y,
                BinK::Rem => x % y,
                _ => 0.0,
            })
        }
        Arith::F64 => {
            let (x, y) = (f64v(a), f64v(b));
            match k {
                BinK::Add => x + y,
                BinK::Sub => x - y,
                BinK::Mul => x * y,
                BinK::Div => x / y,
                BinK::Rem => x % y,
                _ => 0.0,
            }
            .to_bits()
        }
    }
}

/// Integer division and remainder, which fault on a zero divisor.
#[inline(always)]
pub(crate) fn div(k: BinK, ty: Arith, a: u64, b: u64) -> Result<u64, DivByZero> {
    let zero = match ty {
        Arith::I32 | Arith::U32 => b as u32 == 0,
        Arith::I64 | Arith::U64 => b == 0,
        Arith::F32 | Arith::F64 => false,
    };
    if zero {
        Err(DivByZero)
    } else {
        Ok(bin(k, ty, a, b))
    }
}

#[inline(always)]
pub(crate) fn cmp(k: CmpK, ty: Arith, a: u64, b: u64) -> u64 {
    let r = match ty {
        Arith::I32 | Arith::I64 => {
            let (x, y) = (a as i64, b as i64);
            match k {
                CmpK::Eq => x == y,
                CmpK::Ne => x != y,
                CmpK::Lt => x < y,
                CmpK::Le => x <= y,
                CmpK::Gt => x > y,
                CmpK::Ge => x >= y,
            }
        }
        Arith::U32 | Arith::U64 => match k {
            CmpK::Eq => a == b,
            CmpK::Ne => a != b,
            CmpK::Lt => a < b,
            CmpK::Le => a <= b,
            CmpK::Gt => a > b,
            CmpK::Ge => a >= b,
        },
        Arith::F32 => {
            let (x, y) = (f32v(a), f32v(b));
            match k {
                CmpK::Eq => x == y,
                CmpK::Ne => x != y,
                CmpK::Lt => x < y,
                CmpK::Le => x <= y,
                CmpK::Gt => x > y,
                CmpK::Ge => x >= y,
            }
        }
        Arith::F64 => {
            let (x, y) = (f64v(a), f64v(b));
            match k {
                CmpK::Eq => x == y,
                CmpK::Ne => x != y,
                CmpK::Lt => x < y,
                CmpK::Le => x <= y,
                CmpK::Gt => x > y,
                CmpK::Ge => x >= y,
            }
        }
    };
    r as u64
}

#[inline(always)]
pub(crate) fn un(k: UnK, ty: Arith, a: u64) -> u64 {
    match (k, ty) {
        (UnK::Neg, Arith::I32) => (a as i32).wrapping_neg() as i64 as u64,
        (UnK::Neg, Arith::U32) => (a as u32).wrapping_neg() as u64,
        (UnK::Neg, Arith::I64 | Arith::U64) => a.wrapping_neg(),
        (UnK::Neg, Arith::F32) => bf32(-f32v(a)),
        (UnK::Neg, Arith::F64) => (-f64v(a)).to_bits(),
        (UnK::BitNot, Arith::I32) => !(a as i32) as i64 as u64,
        (UnK::BitNot, Arith::U32) => !(a as u32) as u64,
        (UnK::BitNot, _) => !a,
    }
}

/// `fmin` as the GPU computes it, on values `x`, `y` with bits `a`, `b`:
/// a NaN only when both are, and -0 below +0 (Rust's `min` may return
/// either zero).
fn fmin_bits<F: PartialEq + Copy + FloatMinMax>(x: F, y: F, a: u64, b: u64) -> u64 {
    if x == y {
        a | b
    } else {
        x.min_of(y).bits()
    }
}

/// `fmax` as the GPU computes it: +0 above -0.
fn fmax_bits<F: PartialEq + Copy + FloatMinMax>(x: F, y: F, a: u64, b: u64) -> u64 {
    if x == y {
        a & b
    } else {
        x.max_of(y).bits()
    }
}

trait FloatMinMax {
    fn min_of(self, o: Self) -> Self;
    fn max_of(self, o: Self) -> Self;
    fn bits(self) -> u64;
}

impl FloatMinMax for f32 {
    fn min_of(self, o: f32) -> f32 {
        self.min(o)
    }
    fn max_of(self, o: f32) -> f32 {
        self.max(o)
    }
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
}

impl FloatMinMax for f64 {
    fn min_of(self, o: f64) -> f64 {
        self.min(o)
    }
    fn max_of(self, o: f64) -> f64 {
        self.max(o)
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

/// Math library in the precision of `ty`: single-precision functions compute in `f32`.
pub(crate) fn math(f: MathOp, ty: Arith, a: u64, b: u64, c: u64) -> u64 {
    if f.is_reinterpretation() {
        return reinterpret(f, a, b);
    }
    if let Some((op, mode)) = f.rounded() {
        return match ty {
            Arith::F32 => bf32(super::rounding::rounded_f32(
                op,
                mode,
                f32v(a),
                f32v(b),
                f32v(c),
            )),
            _ => super::rounding::rounded_f64(op, mode, f64v(a), f64v(b), f64v(c)).to_bits(),
        };
    }
    match ty {
        Arith::F32 => {
            let (x, y, z) = (f32v(a), f32v(b), f32v(c));
            bf32(match f {
                MathOp::Sqrt => x.sqrt(),
                MathOp::Rsqrt => 1.0 / x.sqrt(),
                MathOp::Fma => x.mul_add(y, z),
                MathOp::Fabs | MathOp::Abs => x.abs(),
                MathOp::Fmin | MathOp::Min => f32::from_bits(fmin_bits(x, y, a, b) as u32),
                MathOp::Fmax | MathOp::Max => f32::from_bits(fmax_bits(x, y, a, b) as u32),
                MathOp::Exp => x.exp(),
                MathOp::Exp2 => x.exp2(),
                MathOp::Log => x.ln(),
                MathOp::Log2 => x.log2(),
                MathOp::Log10 => x.log10(),
                MathOp::Pow => x.powf(y),
                MathOp::Sin => x.sin(),
                MathOp::Cos => x.cos(),
                MathOp::Tan => x.tan(),
                MathOp::Tanh => x.tanh(),
                MathOp::Floor => x.floor(),
                MathOp::Ceil => x.ceil(),
                MathOp::Round => x.round(),
                MathOp::Trunc => x.trunc(),
                MathOp::Fmod => x % y,
                MathOp::Sinh => x.sinh(),
                MathOp::Cosh => x.cosh(),
                MathOp::Asin => x.asin(),
                MathOp::Acos => x.acos(),
                MathOp::Atan => x.atan(),
                MathOp::Atan2 => x.atan2(y),
                MathOp::Asinh => x.asinh(),
                MathOp::Acosh => x.acosh(),
                MathOp::Atanh => x.atanh(),
                MathOp::Cbrt => x.cbrt(),
                MathOp::Hypot => x.hypot(y),
                MathOp::Exp10 => libm::exp10f(x),
                MathOp::Expm1 => x.exp_m1(),
                MathOp::Log1p => x.ln_1p(),
                MathOp::Erf => libm::erff(x),
                MathOp::Erfc => libm::erfcf(x),
                MathOp::Copysign => x.copysign(y),
                MathOp::Fdim => libm::fdimf(x, y),
                MathOp::Rint => x.round_ties_even(),
                MathOp::Saturate => {
                    if x.is_nan() {
                        0.0
                    } else {
                        x.clamp(0.0, 1.0)
                    }
                }
                // Integer intrinsics never compute in a floating type.
                _ => x,
            })
        }
        Arith::F64 => {
            let (x, y, z) = (f64v(a), f64v(b), f64v(c));
            match f {
                MathOp::Sqrt => x.sqrt(),
                MathOp::Rsqrt => 1.0 / x.sqrt(),
                MathOp::Fma => x.mul_add(y, z),
                MathOp::Fabs | MathOp::Abs => x.abs(),
                MathOp::Fmin | MathOp::Min => f64::from_bits(fmin_bits(x, y, a, b)),
                MathOp::Fmax | MathOp::Max => f64::from_bits(fmax_bits(x, y, a, b)),
                MathOp::Exp => x.exp(),
                MathOp::Exp2 => x.exp2(),
                MathOp::Log => x.ln(),
                MathOp::Log2 => x.log2(),
                MathOp::Log10 => x.log10(),
                MathOp::Pow => x.powf(y),
                MathOp::Sin => x.sin(),
                MathOp::Cos => x.cos(),
                MathOp::Tan => x.tan(),
                MathOp::Tanh => x.tanh(),
                MathOp::Floor => x.floor(),
                MathOp::Ceil => x.ceil(),
                MathOp::Round => x.round(),
                MathOp::Trunc => x.trunc(),
                MathOp::Fmod => x % y,
                MathOp::Sinh => x.sinh(),
                MathOp::Cosh => x.cosh(),
                MathOp::Asin => x.asin(),
                MathOp::Acos => x.acos(),
                MathOp::Atan => x.atan(),
                MathOp::Atan2 => x.atan2(y),
                MathOp::Asinh => x.asinh(),
                MathOp::Acosh => x.acosh(),
                MathOp::Atanh => x.atanh(),
                MathOp::Cbrt => x.cbrt(),
                MathOp::Hypot => x.hypot(y),
                MathOp::Exp10 => libm::exp10(x),
                MathOp::Expm1 => x.exp_m1(),
                MathOp::Log1p => x.ln_1p(),
                MathOp::Erf => libm::erf(x),
                MathOp::Erfc => libm::erfc(x),
                MathOp::Copysign => x.copysign(y),
                MathOp::Fdim => libm::fdim(x, y),
                MathOp::Rint => x.round_ties_even(),
                MathOp::Saturate => {
                    if x.is_nan() {
                        0.0
                    } else {
                        x.clamp(0.0, 1.0)
                    }
                }
                // Integer intrinsics never compute in a floating type.
                _ => x,
            }
            .to_bits()
        }
        int => {
            let signed = matches!(int, Arith::I32 | Arith::I64);
            match f {
                MathOp::Popc => (a as u32).count_ones() as u64,
                MathOp::Popcll => a.count_ones() as u64,
                MathOp::Clz => (a as u32).leading_zeros() as u64,
                MathOp::Clzll => a.leading_zeros() as u64,
                MathOp::Ffs => ffs(a as u32 as u64),
                MathOp::Ffsll => ffs(a),
                MathOp::Brev => (a as u32).reverse_bits() as u64,
                MathOp::Brevll => a.reverse_bits(),
                MathOp::Mulhi => {
                    (((a as i32 as i64) * (b as i32 as i64)) >> 32) as i32 as i64 as u64
                }
                MathOp::Umulhi => ((a as u32 as u64) * (b as u32 as u64)) >> 32,
                MathOp::Mul64hi => (((a as i64 as i128) * (b as i64 as i128)) >> 64) as u64,
                MathOp::Umul64hi => (((a as u128) * (b as u128)) >> 64) as u64,
                MathOp::Min => {
                    if (signed && (a as i64) <= (b as i64)) || (!signed && a <= b) {
                        a
                    } else {
                        b
                    }
                }
                MathOp::Max => {
                    if (signed && (a as i64) >= (b as i64)) || (!signed && a >= b) {
                        a
                    } else {
                        b
                    }
                }
                MathOp::Abs if signed => canon(int.scalar(), (a as i64).wrapping_abs() as u64),
                _ => a,
            }
        }
    }
}

/// `__ffs`: the 1-based position of the lowest set bit, 0 for none.
fn ffs(v: u64) -> u64 {
    if v == 0 {
        0
    } else {
        v.trailing_zeros() as u64 + 1
    }
}

/// New value an atomic stores, from the old one and its operands.
pub(crate) fn atomic(op: AtomicOp, ty: Scalar, old: u64, a: u64, b: u64) -> u64 {
    let num = Arith::of(ty);
    let r = match op {
        AtomicOp::Add => bin(BinK::Add, num, old, a),
        AtomicOp::Sub => bin(BinK::Sub, num, old, a),
        AtomicOp::Exch => a,
        AtomicOp::Min => math(MathOp::Min, num, old, a, 0),
        AtomicOp::Max => math(MathOp::Max, num, old, a, 0),
        AtomicOp::Cas => {
            if old == a {
                b
            } else {
                old
            }
        }
        AtomicOp::And => bin(BinK::And, num, old, a),
        AtomicOp::Or => bin(BinK::Or, num, old, a),
        AtomicOp::Xor => bin(BinK::Xor, num, old, a),
        AtomicOp::Inc => {
            if old >= a {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::Dec => {
            if old == 0 || old > a {
                a
            } else {
                old - 1
            }
        }
    };
    canon(ty, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fmin_and_fmax_order_negative_zero_below_positive_zero() {
        let (pz, nz) = (0.0f32.to_bits() as u64, (-0.0f32).to_bits() as u64);
        for (x, y) in [(pz, nz), (nz, pz)] {
            assert_eq!(math(MathOp::Fmin, Arith::F32, x, y, 0), nz);
            assert_eq!(math(MathOp::Fmax, Arith::F32, x, y, 0), pz);
        }
        let (pz, nz) = (0.0f64.to_bits(), (-0.0f64).to_bits());
        for (x, y) in [(pz, nz), (nz, pz)] {
            assert_eq!(math(MathOp::Fmin, Arith::F64, x, y, 0), nz);
            assert_eq!(math(MathOp::Fmax, Arith::F64, x, y, 0), pz);
        }
        let nan = f32::NAN.to_bits() as u64;
        let one = 1.0f32.to_bits() as u64;
        assert_eq!(math(MathOp::Fmin, Arith::F32, nan, one, 0), one);
        assert_eq!(math(MathOp::Fmax, Arith::F32, one, nan, 0), one);
        let two = 2.0f64.to_bits();
        assert_eq!(
            math(MathOp::Fmin, Arith::F64, two, 1.0f64.to_bits(), 0),
            1.0f64.to_bits()
        );
    }
}
