//! Radices: how a transform length is split into the stages of a kernel,
//! and the straight-line CUDA code of one small DFT (a butterfly).

use std::fmt::Write as _;

/// The prime factors hone's kernels take.
pub const PRIMES: [u32; 4] = [2, 3, 5, 7];

/// The largest radix a stage may have: a butterfly of 16 points keeps 32
/// values in registers per thread and per butterfly.
pub const MAX_RADIX: u32 = 16;

/// Whether `n` is a product of 2, 3, 5 and 7 (and at least 1).
pub fn smooth(n: u64) -> bool {
    if n == 0 {
        return false;
    }
    let mut m = n;
    for p in PRIMES {
        while m.is_multiple_of(p as u64) {
            m /= p as u64;
        }
    }
    m == 1
}

/// The stages of a length-`n` transform whose radices are at most `rmax`:
/// the largest such divisor first, so that as few stages as possible read
/// and write shared memory. `None` when `n` is not 7-smooth.
pub fn radices(n: u32, rmax: u32) -> Option<Vec<u32>> {
    if !smooth(n as u64) {
        return None;
    }
    let rmax = rmax.clamp(2, MAX_RADIX);
    let mut left = n;
    let mut out = Vec::new();
    while left > 1 {
        let r = (2..=rmax.min(left))
            .rev()
            .find(|r| left.is_multiple_of(*r) && smooth(*r as u64))
            // 7 is prime and at most MAX_RADIX, so a smooth remainder always
            // has a prime factor at most rmax unless rmax < 7.
            .or_else(|| PRIMES.into_iter().find(|p| left.is_multiple_of(*p)))?;
        out.push(r);
        left /= r;
    }
    Some(out)
}

/// Straight-line code computing DFTs of complex variables.
pub struct Emitter {
    pub code: String,
    next: usize,
    /// -1 for the forward transform (exp(-2 pi i jk/n)), +1 for the inverse.
    sign: i32,
    indent: String,
}

impl Emitter {
    pub fn new(sign: i32, indent: &str) -> Emitter {
        Emitter {
            code: String::new(),
            next: 0,
            sign,
            indent: indent.to_string(),
        }
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("u{}", self.next)
    }

    fn def(&mut self, expr: String) -> String {
        let name = self.fresh();
        let _ = writeln!(self.code, "{}const cplx {name} = {expr};", self.indent);
        name
    }

    /// `x` times exp(sign 2 pi i e / r), a constant.
    fn rotate(&mut self, x: &str, e: u32, r: u32) -> String {
        let e = e % r;
        if e == 0 {
            return x.to_string();
        }
        if (4 * e).is_multiple_of(r) {
            // A quarter turn: exp(sign i pi/2 q).
            let q = (4 * e / r) as i32;
            let q = ((q * self.sign) % 4 + 4) % 4;
            return self.def(match q {
                1 => format!("cmul_i({x})"),
                2 => format!("cneg({x})"),
                3 => format!("cmul_mi({x})"),
                _ => unreachable!("e is not a multiple of r"),
            });
        }
        let (c, s) = cos_sin(e as usize, r as usize);
        let s = s * self.sign as f64;
        self.def(format!("cmul_k({x}, {}, {})", lit(c), lit(s)))
    }

    /// The DFT of the variables `x` (their count is the radix); returns the
    /// outputs in natural order.
    pub fn dft(&mut self, x: &[String]) -> Vec<String> {
        let r = x.len() as u32;
        match r {
            1 => x.to_vec(),
            2 => {
                let a = self.def(format!("cadd({}, {})", x[0], x[1]));
                let b = self.def(format!("csub({}, {})", x[0], x[1]));
                vec![a, b]
            }
            _ if is_prime(r) => self.odd_prime(x),
            _ => {
                let r1 = split(r);
                self.composite(x, r1, r / r1)
            }
        }
    }

    /// X[k1 + r1 k2] = sum_n2 W_r^(n2 k1) W_r2^(n2 k2) sum_n1 x[r2 n1 + n2] W_r1^(n1 k1).
    fn composite(&mut self, x: &[String], r1: u32, r2: u32) -> Vec<String> {
        let r = r1 * r2;
        let mut y = vec![vec![String::new(); r1 as usize]; r2 as usize];
        for n2 in 0..r2 {
            let inner: Vec<String> = (0..r1)
                .map(|n1| x[(r2 * n1 + n2) as usize].clone())
                .collect();
            let out = self.dft(&inner);
            for (k1, v) in out.into_iter().enumerate() {
                y[n2 as usize][k1] = self.rotate(&v, n2 * k1 as u32, r);
            }
        }
        let mut out = vec![String::new(); r as usize];
        for k1 in 0..r1 {
            let col: Vec<String> = (0..r2)
                .map(|n2| y[n2 as usize][k1 as usize].clone())
                .collect();
            for (k2, v) in self.dft(&col).into_iter().enumerate() {
                out[(k1 + r1 * k2 as u32) as usize] = v;
            }
        }
        out
    }

    /// An odd prime radix by the symmetric pairs x[m] +- x[r-m].
    fn odd_prime(&mut self, x: &[String]) -> Vec<String> {
        let r = x.len();
        let h = (r - 1) / 2;
        let mut a = Vec::new();
        let mut b = Vec::new();
        for m in 1..=h {
            a.push(self.def(format!("cadd({}, {})", x[m], x[r - m])));
            b.push(self.def(format!("csub({}, {})", x[m], x[r - m])));
        }
        let mut out = vec![String::new(); r];
        let mut sum = x[0].clone();
        for am in &a {
            sum = self.def(format!("cadd({sum}, {am})"));
        }
        out[0] = sum;
        for k in 1..=h {
            let mut re = x[0].clone();
            let mut im: Option<String> = None;
            for m in 1..=h {
                let (c, s) = cos_sin(m * k, r);
                re = self.def(format!("cfma_r({}, {}, {re})", a[m - 1], lit(c)));
                im = Some(match im {
                    None => self.def(format!("cscale({}, {})", b[m - 1], lit(s))),
                    Some(acc) => self.def(format!("cfma_r({}, {}, {acc})", b[m - 1], lit(s))),
                });
            }
            let im = im.expect("h >= 1");
            // out[k] = A + i sign B, out[r-k] = A - i sign B.
            let (plus, minus) = if self.sign < 0 {
                ("cmul_mi", "cmul_i")
            } else {
                ("cmul_i", "cmul_mi")
            };
            out[k] = self.def(format!("cadd({re}, {plus}({im}))"));
            out[r - k] = self.def(format!("cadd({re}, {minus}({im}))"));
        }
        out
    }
}

fn is_prime(n: u32) -> bool {
    n >= 2
        && (2..n)
            .take_while(|d| d * d <= n)
            .all(|d| !n.is_multiple_of(d))
}

/// The factor r1 of r1 * r2 = r closest to sqrt(r), r1 >= r2.
fn split(r: u32) -> u32 {
    (2..r)
        .filter(|d| r.is_multiple_of(*d) && d * d >= r)
        .min()
        .expect("composite")
}

/// (cos, sin) of 2 pi e / r, each the double nearest the true value:
/// `f64::sin_cos` of the rounded angle errs by up to 5 units in the last
/// place, as much as a double-precision transform's own rounding.
fn cos_sin(e: usize, r: usize) -> (f64, f64) {
    let (c, s) = super::exact::twiddle(e as u64, r as u64);
    (c.hi, -s.hi)
}

/// A real constant as a C literal of the kernel's real type.
fn lit(v: f64) -> String {
    format!("(real){v:.20e}")
}

/// The helpers the butterflies use, for `cplx` (float2 or double2).
pub const COMPLEX_HELPERS: &str = r#"
__device__ __forceinline__ cplx mk(real x, real y) { cplx c; c.x = x; c.y = y; return c; }
__device__ __forceinline__ cplx cadd(cplx a, cplx b) { return mk(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ cplx csub(cplx a, cplx b) { return mk(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ cplx cneg(cplx a) { return mk(-a.x, -a.y); }
__device__ __forceinline__ cplx cmul_i(cplx a) { return mk(-a.y, a.x); }
__device__ __forceinline__ cplx cmul_mi(cplx a) { return mk(a.y, -a.x); }
__device__ __forceinline__ cplx cscale(cplx a, real s) { return mk(a.x * s, a.y * s); }
__device__ __forceinline__ cplx cfma_r(cplx a, real s, cplx c) { return mk(fma(a.x, s, c.x), fma(a.y, s, c.y)); }
__device__ __forceinline__ cplx cmul_k(cplx a, real c, real s) {
  return mk(fma(a.x, c, -a.y * s), fma(a.x, s, a.y * c));
}
__device__ __forceinline__ cplx cmul(cplx a, cplx w) {
  return mk(fma(a.x, w.x, -a.y * w.y), fma(a.x, w.y, a.y * w.x));
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radices_multiply_to_the_length_and_respect_the_maximum() {
        for n in 1..=1024u32 {
            match radices(n, 16) {
                Some(rs) => {
                    assert!(smooth(n as u64));
                    assert_eq!(rs.iter().product::<u32>(), n);
                    assert!(rs.iter().all(|&r| (2..=16).contains(&r)), "{n}: {rs:?}");
                }
                None => assert!(!smooth(n as u64), "{n}"),
            }
        }
        assert_eq!(radices(256, 16).unwrap(), vec![16, 16]);
        assert_eq!(radices(512, 8).unwrap(), vec![8, 8, 8]);
        assert_eq!(radices(243, 16).unwrap(), vec![9, 9, 3]);
        assert_eq!(radices(49, 4).unwrap(), vec![7, 7]);
        assert_eq!(radices(22, 16), None);
    }

    /// Evaluates the emitted code with a tiny interpreter of its helpers and
    /// compares with the definition of the DFT.
    fn run(code: &str, inputs: &[(f64, f64)], outputs: &[String]) -> Vec<(f64, f64)> {
        use std::collections::HashMap;
        let mut env: HashMap<String, (f64, f64)> = inputs
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("x{i}"), *v))
            .collect();
        fn eval(e: &str, env: &HashMap<String, (f64, f64)>) -> (f64, f64) {
            let e = e.trim();
            if let Some(v) = env.get(e) {
                return *v;
            }
            let open = e.find('(').expect("a call");
            let name = &e[..open];
            let args: Vec<String> = {
                let inner = &e[open + 1..e.len() - 1];
                let mut depth = 0;
                let mut parts = vec![String::new()];
                for ch in inner.chars() {
                    match ch {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        ',' if depth == 0 => {
                            parts.push(String::new());
                            continue;
                        }
                        _ => {}
                    }
                    parts.last_mut().unwrap().push(ch);
                }
                parts
            };
            let real = |s: &str| {
                s.trim()
                    .trim_start_matches("(real)")
                    .parse::<f64>()
                    .unwrap()
            };
            let c = |i: usize| eval(&args[i], env);
            match name {
                "cadd" => (c(0).0 + c(1).0, c(0).1 + c(1).1),
                "csub" => (c(0).0 - c(1).0, c(0).1 - c(1).1),
                "cneg" => (-c(0).0, -c(0).1),
                "cmul_i" => (-c(0).1, c(0).0),
                "cmul_mi" => (c(0).1, -c(0).0),
                "cscale" => (c(0).0 * real(&args[1]), c(0).1 * real(&args[1])),
                "cfma_r" => {
                    let s = real(&args[1]);
                    (c(0).0 * s + c(2).0, c(0).1 * s + c(2).1)
                }
                "cmul_k" => {
                    let (a, co, s) = (c(0), real(&args[1]), real(&args[2]));
                    (a.0 * co - a.1 * s, a.0 * s + a.1 * co)
                }
                other => panic!("unknown helper {other}"),
            }
        }
        for line in code.lines() {
            let line = line.trim().trim_start_matches("const cplx ");
            let (name, expr) = line.split_once(" = ").unwrap();
            let v = eval(expr.trim_end_matches(';'), &env);
            env.insert(name.to_string(), v);
        }
        outputs.iter().map(|o| env[o]).collect()
    }

    #[test]
    fn every_radix_computes_the_dft_both_ways() {
        for r in 2..=16usize {
            if !smooth(r as u64) {
                continue;
            }
            for sign in [-1i32, 1] {
                let mut e = Emitter::new(sign, "");
                let names: Vec<String> = (0..r).map(|i| format!("x{i}")).collect();
                let outs = e.dft(&names);
                let x: Vec<(f64, f64)> = (0..r)
                    .map(|i| ((i as f64 * 0.37).sin(), (i as f64 * 1.3 + 0.2).cos()))
                    .collect();
                let got = run(&e.code, &x, &outs);
                for (k, g) in got.iter().enumerate() {
                    let mut want = (0.0, 0.0);
                    for (n, v) in x.iter().enumerate() {
                        let a =
                            sign as f64 * 2.0 * std::f64::consts::PI * (n * k) as f64 / r as f64;
                        want.0 += v.0 * a.cos() - v.1 * a.sin();
                        want.1 += v.0 * a.sin() + v.1 * a.cos();
                    }
                    assert!(
                        (g.0 - want.0).abs() < 1e-12 && (g.1 - want.1).abs() < 1e-12,
                        "radix {r} sign {sign} k {k}: {g:?} vs {want:?}"
                    );
                }
            }
        }
    }
}
