//! hone's `cuda_fp16.h` against the `half` crate: every conversion and
//! operation of `tests/corpus/cpp/half.cu` gives the correctly rounded
//! result, bit for bit, on edge cases and on random values.

mod common;

use std::path::PathBuf;

use half::f16;
use hone_launch::Launch;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/cpp")
}

/// Runs `kernel` of half.cu with the given buffer arguments (name, type,
/// values or output length) and returns every buffer's bytes.
fn run(tag: &str, kernel: &str, args: &[(&str, &str, Vec<f64>, usize)], n: usize) -> Vec<Vec<u8>> {
    let file = if kernel.starts_with("bf16") {
        "bfloat16.cu"
    } else {
        "half.cu"
    };
    let dir = std::env::temp_dir().join(format!("hone-half-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut fields: Vec<String> = args
        .iter()
        .map(|(name, ty, values, len)| {
            if values.is_empty() {
                format!(r#""{name}": {{"type": "{ty}", "len": {len}}}"#)
            } else {
                let v: Vec<String> = values.iter().map(|x| format!("{x:e}")).collect();
                format!(
                    r#""{name}": {{"type": "{ty}", "len": {}, "init": {{"values": [{}]}}}}"#,
                    values.len(),
                    v.join(", ")
                )
            }
        })
        .collect();
    fields.push(format!(r#""n": {n}"#));
    let launch = format!(
        r#"{{"source": {:?}, "kernel": "{kernel}", "grid": {}, "block": 64, "args": {{{}}}}}"#,
        corpus().join(file).to_str().unwrap(),
        n.div_ceil(64),
        fields.join(", ")
    );
    let path = dir.join("launch.json");
    std::fs::write(&path, launch).unwrap();
    let launch = Launch::read(&path).unwrap();
    let parsed = launch.parse().unwrap();
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let kernel = launch.kernel(&parsed).unwrap();
    let mut data = launch.data(kernel).unwrap();
    let r = common::run(&parsed, kernel.name.as_str(), &mut data);
    assert!(r.is_clean(), "{r:?}");
    let _ = std::fs::remove_dir_all(dir);
    data.buffers.into_iter().map(|b| b.data).collect()
}

fn halves(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

/// A small deterministic generator, so failures reproduce.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 32) as u32
    }
}

/// The half nearest `x` (ties to even), from the exact f64 scaled to
/// half's integer significand: the reference for results that f64 holds
/// exactly (`half::f16::from_f64` rounds through f32, twice).
fn nearest_half(x: f64) -> f16 {
    if x.is_nan() {
        return f16::NAN;
    }
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = x.abs();
    if a >= 65520.0 {
        return f16::from_bits(sign | 0x7c00);
    }
    if a < 2f64.powi(-14) {
        // Subnormal: units of 2^-24 (1024 of them make the smallest normal).
        let r = (a * 2f64.powi(24)).round_ties_even() as u16;
        return f16::from_bits(sign | r);
    }
    let mut e = a.log2().floor() as i32;
    // log2 may be off by one next to powers of two.
    if a < 2f64.powi(e) {
        e -= 1;
    } else if a >= 2f64.powi(e + 1) {
        e += 1;
    }
    let mut r = (a * 2f64.powi(10 - e)).round_ties_even() as u32;
    if r == 2048 {
        r = 1024;
        e += 1;
    }
    if e + 15 >= 31 {
        return f16::from_bits(sign | 0x7c00);
    }
    f16::from_bits(sign | (((e + 15) as u16) << 10) | (r - 1024) as u16)
}

fn toward_zero(x: f32) -> u16 {
    let r = f16::from_f32(x);
    if r.is_infinite() && x.is_finite() {
        return (r.to_bits() & 0x8000) | 0x7bff;
    }
    if r.to_f32().abs() > x.abs() {
        r.to_bits() - 1
    } else {
        r.to_bits()
    }
}

#[test]
fn conversions_round_as_cuda_does() {
    let mut x: Vec<f32> = vec![
        0.0,
        -0.0,
        1.0,
        -1.5,
        65504.0,
        65519.996,
        65520.0,
        -65520.0,
        1.0e6,
        2f32.powi(-24),
        2f32.powi(-25),
        1.5 * 2f32.powi(-25),
        2f32.powi(-26),
        2f32.powi(-14),
        2f32.powi(-14) - 2f32.powi(-25),
        1.0 + 2f32.powi(-11),
        1.0 + 3.0 * 2f32.powi(-11),
        -(1.0 + 2f32.powi(-11) + 2f32.powi(-23)),
        f32::MIN_POSITIVE,
    ];
    let mut g = Lcg(7);
    while x.len() < 1024 {
        // Exponents around half's range, every mantissa pattern.
        let bits = (g.next() & 0x807f_ffff) | ((98 + g.next() % 50) << 23);
        x.push(f32::from_bits(bits));
    }
    let n = x.len();
    let values: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let out = run(
        "convert",
        "half_convert",
        &[
            ("x", "float", values, n),
            ("rn", "half", vec![], n),
            ("rz", "half", vec![], n),
            ("back", "float", vec![], n),
        ],
        n,
    );
    let (rn, rz) = (halves(&out[1]), halves(&out[2]));
    for (k, &v) in x.iter().enumerate() {
        let want = f16::from_f32(v);
        assert_eq!(
            want.to_bits(),
            nearest_half(v as f64).to_bits(),
            "the references, {v:e}"
        );
        assert_eq!(rn[k], want.to_bits(), "rn({v:e})");
        assert_eq!(rz[k], toward_zero(v), "rz({v:e})");
        let back = f32::from_le_bytes(out[3][4 * k..4 * k + 4].try_into().unwrap());
        assert_eq!(back.to_bits(), want.to_f32().to_bits(), "back({v:e})");
    }
}

#[test]
fn arithmetic_is_correctly_rounded() {
    let mut g = Lcg(11);
    let mut finite = || loop {
        let h = f16::from_bits(g.next() as u16);
        if h.is_finite() {
            return h;
        }
    };
    let n = 2048;
    let mut a: Vec<f16> = (0..n).map(|_| finite()).collect();
    let b: Vec<f16> = (0..n).map(|_| finite()).collect();
    let mut c: Vec<f16> = (0..n).map(|_| finite()).collect();
    // The case where rounding the fma through float to nearest would tie
    // wrongly: a * b = 0.75 * 683/512 = 1 + 2^-11 is the midpoint between 1
    // and 1 + 2^-10, c the smallest subnormal.
    a[0] = f16::from_f32(0.75);
    let mut b = b;
    b[0] = f16::from_f32(683.0 / 512.0);
    c[0] = f16::from_bits(1);
    let f = |v: &[f16]| v.iter().map(|h| h.to_f64()).collect::<Vec<f64>>();
    let out = run(
        "ops",
        "half_ops",
        &[
            ("a", "half", f(&a), n),
            ("b", "half", f(&b), n),
            ("c", "half", f(&c), n),
            ("sum", "half", vec![], n),
            ("prod", "half", vec![], n),
            ("quot", "half", vec![], n),
            ("fma", "half", vec![], n),
        ],
        n,
    );
    let check = |name: &str, got: &[u8], want: &dyn Fn(f64, f64, f64) -> f64| {
        for (k, g) in halves(got).into_iter().enumerate() {
            let (x, y, z) = (a[k].to_f64(), b[k].to_f64(), c[k].to_f64());
            let w = nearest_half(want(x, y, z));
            let g = f16::from_bits(g);
            assert!(
                g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                "{name}({x:e}, {y:e}, {z:e}): {g} ({:#06x}), want {w} ({:#06x})",
                g.to_bits(),
                w.to_bits()
            );
        }
    };
    // In f64 these are exact (or, for the quotient, rounded once with
    // enough bits that rounding again to half is innocuous).
    check("sum", &out[3], &|x, y, _| x + y);
    check("prod", &out[4], &|x, y, _| x * y);
    check("quot", &out[5], &|x, y, _| x / y);
    check("fma", &out[6], &|x, y, z| x * y + z);
    assert_eq!(
        halves(&out[6])[0],
        f16::from_f32(1.0 + 2f32.powi(-10)).to_bits()
    );
}

/// The bfloat16 nearest (ties to even) to `m * 2^e`, computed on integers.
fn nearest_bf16(m: i128, e: i32) -> half::bf16 {
    if m == 0 {
        return half::bf16::from_bits(0);
    }
    let sign = if m < 0 { 0x8000u16 } else { 0 };
    let a = m.unsigned_abs();
    let top = 127 - a.leading_zeros() as i32; // a in [2^top, 2^(top+1))
                                              // The value's binary exponent, and where its 8-bit significand ends
                                              // (normal numbers), or 2^-133 for subnormals.
    let exp = top + e;
    let lsb = (exp - 7).max(-133);
    let shift = lsb - e; // bits of `a` below the kept ones
    let (mut q, rest_cmp) = if shift <= 0 {
        (a << (-shift) as u32, std::cmp::Ordering::Less)
    } else {
        let q = a >> shift as u32;
        let rest = a & ((1u128 << shift as u32) - 1);
        (q, rest.cmp(&(1u128 << (shift - 1) as u32)))
    };
    if rest_cmp == std::cmp::Ordering::Greater
        || (rest_cmp == std::cmp::Ordering::Equal && q & 1 == 1)
    {
        q += 1;
    }
    // q * 2^lsb, q below 2^9 (a carry may reach 2^8 exactly).
    let v = q as f64 * 2f64.powi(lsb);
    if v >= 2f64.powi(128) {
        return half::bf16::from_bits(sign | 0x7f80);
    }
    half::bf16::from_bits(sign | half::bf16::from_f64(v).to_bits())
}

/// A bfloat16 as `m * 2^e` with an integer `m`.
fn parts(h: half::bf16) -> (i128, i32) {
    let b = h.to_bits();
    let (exp, frac) = (((b >> 7) & 0xff) as i32, (b & 0x7f) as i128);
    let m = if exp == 0 { frac } else { frac | 0x80 };
    let e = if exp == 0 { -133 } else { exp - 134 };
    (if b & 0x8000 != 0 { -m } else { m }, e)
}

#[test]
fn bfloat16_is_correctly_rounded_however_far_apart_the_exponents() {
    let mut g = Lcg(5);
    // Exponents within +-40 keep every exact result within an i128.
    let mut value = || {
        let exp = 87 + g.next() % 80;
        let bits = ((g.next() & 0x807f) | (exp << 7)) as u16;
        half::bf16::from_bits(bits)
    };
    let n = 1024;
    let mut a: Vec<half::bf16> = (0..n).map(|_| value()).collect();
    let mut b: Vec<half::bf16> = (0..n).map(|_| value()).collect();
    let mut c: Vec<half::bf16> = (0..n).map(|_| value()).collect();
    // a * b = 261 * 2^18 is the midpoint between 260 * 2^18 (even, where a
    // tie goes) and 262 * 2^18, and c lies 2^66 times lower: only a fused,
    // exactly rounded sum sees that it breaks the tie.
    a[0] = half::bf16::from_f32(9.0 * 2f32.powi(10));
    b[0] = half::bf16::from_f32(29.0 * 2f32.powi(8));
    c[0] = half::bf16::from_f32(2f32.powi(-40));
    let x: Vec<f32> = (0..n)
        .map(|_| f32::from_bits(g.next()))
        .filter(|v| v.is_finite())
        .collect();
    let n = x.len();
    let f = |v: &[half::bf16]| v[..n].iter().map(|h| h.to_f64()).collect::<Vec<f64>>();
    let out = run(
        "bf16",
        "bf16_ops",
        &[
            ("a", "nv_bfloat16", f(&a), n),
            ("b", "nv_bfloat16", f(&b), n),
            ("c", "nv_bfloat16", f(&c), n),
            ("x", "float", x.iter().map(|&v| v as f64).collect(), n),
            ("rn", "nv_bfloat16", vec![], n),
            ("sum", "nv_bfloat16", vec![], n),
            ("prod", "nv_bfloat16", vec![], n),
            ("fma", "nv_bfloat16", vec![], n),
        ],
        n,
    );
    a.truncate(n);
    b.truncate(n);
    c.truncate(n);
    let rn = halves(&out[4]);
    for (k, &v) in x.iter().enumerate() {
        assert_eq!(rn[k], half::bf16::from_f32(v).to_bits(), "rn({v:e})");
    }
    for k in 0..n {
        let ((ma, ea), (mb, eb), (mc, ec)) = (parts(a[k]), parts(b[k]), parts(c[k]));
        let low = (ea + eb).min(ec);
        let want_sum = {
            let lo = ea.min(eb);
            nearest_bf16((ma << (ea - lo)) + (mb << (eb - lo)), lo)
        };
        let want_prod = nearest_bf16(ma * mb, ea + eb);
        let want_fma = nearest_bf16(((ma * mb) << (ea + eb - low)) + (mc << (ec - low)), low);
        for (name, got, want) in [
            ("sum", halves(&out[5])[k], want_sum),
            ("prod", halves(&out[6])[k], want_prod),
            ("fma", halves(&out[7])[k], want_fma),
        ] {
            assert_eq!(got, want.to_bits(), "{name}({}, {}, {})", a[k], b[k], c[k]);
        }
    }
    // 261 * 2^18 + 2^-40 rounds up.
    assert_eq!(
        halves(&out[7])[0],
        half::bf16::from_f32(262.0 * 2f32.powi(18)).to_bits()
    );
}
