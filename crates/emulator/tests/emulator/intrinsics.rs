//! Integer intrinsics, `atomicInc`/`atomicDec` and the wider math library,
//! compared with the host's definitions of the same functions.

use hone_emulator::*;

use crate::{cuda, launch, run_out};

#[test]
fn bit_intrinsics_match_their_definitions() {
    let src = r#"
__global__ void bits(const unsigned int *u, const unsigned long long *w, int *out, unsigned long long *wide) {
    int t = threadIdx.x;
    unsigned int x = u[t];
    unsigned long long y = w[t];
    out[t * 8 + 0] = __popc(x);
    out[t * 8 + 1] = __popcll(y);
    out[t * 8 + 2] = __clz(x) - 33;
    out[t * 8 + 3] = __clzll(y);
    out[t * 8 + 4] = __ffs(x);
    out[t * 8 + 5] = __ffsll(y);
    out[t * 8 + 6] = __brev(x);
    out[t * 8 + 7] = __mulhi((int)x, -7) + __umulhi(x, 3000000000u);
    wide[t * 3 + 0] = __brevll(y);
    wide[t * 3 + 1] = __umul64hi(y, 0x9e3779b97f4a7c15ull);
    wide[t * 3 + 2] = __mul64hi((long long)y, -3ll);
}
"#;
    let m = cuda(src);
    let n = 32usize;
    let u: Vec<u32> = (0..n as u32)
        .map(|i| {
            if i == 0 {
                0
            } else {
                i.wrapping_mul(2654435761) >> (i % 7)
            }
        })
        .collect();
    let w: Vec<u64> = (0..n as u64)
        .map(|i| {
            if i == 1 {
                0
            } else {
                i.wrapping_mul(0x2545_f491_4f6c_dd1d) >> (i % 11)
            }
        })
        .collect();
    let mut bufs = vec![
        Buffer::from_u32("u", &u),
        Buffer::from_u64("w", &w),
        Buffer::from_i32("out", &vec![0; n * 8]),
        Buffer::from_u64("wide", &vec![0; n * 3]),
    ];
    let args = [0, 1, 2, 3].map(KernelArg::Buffer);
    let r = launch(
        &m,
        "bits",
        LaunchConfig::linear(1, n as u32),
        &args,
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let out = bufs[2].to_i32_vec();
    let wide = bufs[3].to_u64_vec();
    let ffs = |v: u64| {
        if v == 0 {
            0
        } else {
            v.trailing_zeros() as i32 + 1
        }
    };
    for t in 0..n {
        let (x, y) = (u[t], w[t]);
        let mulhi = ((x as i32 as i64 * -7) >> 32) as i32;
        let umulhi = ((x as u64 * 3_000_000_000) >> 32) as u32;
        let want = [
            x.count_ones() as i32,
            y.count_ones() as i32,
            x.leading_zeros() as i32 - 33,
            y.leading_zeros() as i32,
            ffs(x as u64),
            ffs(y),
            x.reverse_bits() as i32,
            mulhi.wrapping_add(umulhi as i32),
        ];
        assert_eq!(
            &out[t * 8..t * 8 + 8],
            &want,
            "thread {t}: x={x:#x} y={y:#x}"
        );
        let want_wide = [
            y.reverse_bits(),
            ((y as u128 * 0x9e37_79b9_7f4a_7c15u128) >> 64) as u64,
            ((y as i64 as i128 * -3) >> 64) as u64,
        ];
        assert_eq!(&wide[t * 3..t * 3 + 3], &want_wide, "thread {t}");
    }
}

#[test]
fn atomic_inc_and_dec_wrap_at_their_limit() {
    let src = r#"
__global__ void ring(unsigned int *counters, unsigned int *seen) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    seen[t] = atomicInc(&counters[0], 9u);
    atomicDec(&counters[1], 4u);
    atomicAdd_system(&counters[2], 1u);
    atomicAdd_block(&counters[3], 2u);
}
"#;
    let m = cuda(src);
    let n = 64usize;
    let mut bufs = vec![
        Buffer::from_u32("counters", &[0, 2, 0, 0]),
        Buffer::from_u32("seen", &vec![99; n]),
    ];
    let r = launch(
        &m,
        "ring",
        LaunchConfig::linear(2, 32),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    // Each lane applies its atomic in turn: the counter runs 0..=9 and wraps,
    // whatever order the lanes take, so the values seen are a multiset.
    let mut seen = bufs[1].to_u32_vec();
    seen.sort_unstable();
    let mut want: Vec<u32> = (0..n as u32).map(|i| i % 10).collect();
    want.sort_unstable();
    assert_eq!(seen, want);
    let (mut inc, mut dec) = (0u32, 2u32);
    for _ in 0..n {
        inc = if inc >= 9 { 0 } else { inc + 1 };
        dec = if dec == 0 || dec > 4 { 4 } else { dec - 1 };
    }
    assert_eq!(bufs[0].to_u32_vec(), vec![inc, dec, n as u32, 2 * n as u32]);
}

#[test]
fn wider_math_library_in_both_precisions() {
    let src = r#"
__global__ void lib(const float *x, const double *y, float *f, double *d) {
    int t = threadIdx.x;
    float a = x[t];
    double b = y[t];
    f[t * 6 + 0] = sinhf(a) + coshf(a) + asinhf(a) + atanf(a);
    f[t * 6 + 1] = atan2f(a, 0.75f) + hypotf(a, 2.0f) + cbrtf(a);
    f[t * 6 + 2] = expm1f(a) + log1pf(fabsf(a)) + exp10f(a);
    f[t * 6 + 3] = erff(a) + erfcf(a) + copysignf(1.5f, a) + fdimf(a, 0.25f);
    f[t * 6 + 4] = rintf(a * 4.0f) + asinf(a * 0.5f) + acosf(a * 0.5f) + atanhf(a * 0.5f);
    f[t * 6 + 5] = acoshf(fabsf(a) + 1.0f) + __saturatef(a) + __saturatef(a * 0.0f / 0.0f);
    d[t * 6 + 0] = sinh(b) + cosh(b) + asinh(b) + atan(b);
    d[t * 6 + 1] = atan2(b, 0.75) + hypot(b, 2.0) + cbrt(b);
    d[t * 6 + 2] = expm1(b) + log1p(fabs(b)) + exp10(b);
    d[t * 6 + 3] = erf(b) + erfc(b) + copysign(1.5, b) + fdim(b, 0.25);
    d[t * 6 + 4] = rint(b * 4.0) + asin(b * 0.5) + acos(b * 0.5) + atanh(b * 0.5);
    d[t * 6 + 5] = acosh(fabs(b) + 1.0);
}
"#;
    let m = cuda(src);
    let n = 16usize;
    let xs: Vec<f32> = (0..n).map(|i| -1.5 + i as f32 * 0.2).collect();
    let ys: Vec<f64> = (0..n).map(|i| -1.5 + i as f64 * 0.2).collect();
    let mut bufs = vec![
        Buffer::from_f32("x", &xs),
        Buffer::from_f64("y", &ys),
        Buffer::from_f32("f", &vec![0.0; n * 6]),
        Buffer::from_f64("d", &vec![0.0; n * 6]),
    ];
    let args = [0, 1, 2, 3].map(KernelArg::Buffer);
    let r = launch(
        &m,
        "lib",
        LaunchConfig::linear(1, n as u32),
        &args,
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let f = bufs[2].to_f32_vec();
    let d = bufs[3].to_f64_vec();
    for t in 0..n {
        let a = xs[t];
        let want_f = [
            a.sinh() + a.cosh() + a.asinh() + a.atan(),
            a.atan2(0.75) + a.hypot(2.0) + a.cbrt(),
            a.exp_m1() + a.abs().ln_1p() + libm::exp10f(a),
            libm::erff(a) + libm::erfcf(a) + 1.5f32.copysign(a) + (a - 0.25).max(0.0),
            (a * 4.0).round_ties_even() + (a * 0.5).asin() + (a * 0.5).acos() + (a * 0.5).atanh(),
            (a.abs() + 1.0).acosh() + a.clamp(0.0, 1.0) + 0.0,
        ];
        assert_eq!(&f[t * 6..t * 6 + 6], &want_f, "float, thread {t}");
        let b = ys[t];
        let want_d = [
            b.sinh() + b.cosh() + b.asinh() + b.atan(),
            b.atan2(0.75) + b.hypot(2.0) + b.cbrt(),
            b.exp_m1() + b.abs().ln_1p() + libm::exp10(b),
            libm::erf(b) + libm::erfc(b) + 1.5f64.copysign(b) + (b - 0.25).max(0.0),
            (b * 4.0).round_ties_even() + (b * 0.5).asin() + (b * 0.5).acos() + (b * 0.5).atanh(),
            (b.abs() + 1.0).acosh(),
        ];
        assert_eq!(&d[t * 6..t * 6 + 6], &want_d, "double, thread {t}");
    }
}

#[test]
fn clock_counts_the_warps_instructions_and_repeats() {
    let src = r#"
__global__ void timed(int n, long long *t, int *out) {
    clock_t start = clock();
    int s = 0;
    for (int i = 0; i < n * (int)(threadIdx.x / 32 + 1); i++) s += i;
    out[threadIdx.x] = s;
    t[threadIdx.x] = clock64() - start;
}
"#;
    let m = cuda(src);
    let run_once = || {
        let mut bufs = vec![
            Buffer::from_i64("t", &[0; 64]),
            Buffer::from_i32("out", &[0; 64]),
        ];
        let args = [
            KernelArg::Int(10),
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
        ];
        let r = launch(&m, "timed", LaunchConfig::linear(1, 64), &args, &mut bufs);
        assert!(r.is_clean(), "{r:#?}");
        bufs[0].to_i64_vec()
    };
    let t = run_once();
    // The second warp loops twice as long, so its clock advances further.
    assert!(t[0] > 0 && t[32] > t[0], "{t:?}");
    assert_eq!(&t[..32], &[t[0]; 32]);
    assert_eq!(t, run_once(), "the count is deterministic");
}

#[test]
fn reinterpretations_keep_the_bits() {
    let src = r#"
__global__ void bits(const float *x, const double *d, int *o, unsigned *u, float *f, long long *l, double *g) {
    int t = threadIdx.x;
    o[t * 3 + 0] = __float_as_int(x[t]);
    o[t * 3 + 1] = __double2hiint(d[t]);
    o[t * 3 + 2] = __double2loint(d[t]);
    u[t] = __float_as_uint(x[t]);
    f[t * 2 + 0] = __int_as_float(__float_as_int(x[t]) ^ 0x80000000);
    f[t * 2 + 1] = __uint_as_float(u[t] + 1u);
    l[t] = __double_as_longlong(d[t]);
    g[t * 2 + 0] = __longlong_as_double(__double_as_longlong(d[t]) + 1);
    g[t * 2 + 1] = __hiloint2double(__double2hiint(d[t]), __double2loint(d[t]));
}
"#;
    let m = cuda(src);
    let x = [
        1.0f32,
        -2.5,
        0.0,
        -0.0,
        f32::INFINITY,
        f32::MIN_POSITIVE / 4.0,
        f32::NAN,
        3.0e38,
    ];
    let d = [
        1.0f64,
        -2.5,
        3.0e300,
        -0.0,
        f64::NEG_INFINITY,
        5e-324,
        f64::NAN,
        -1.0e-300,
    ];
    let n = x.len();
    let mut bufs = vec![
        Buffer::from_f32("x", &x),
        Buffer::from_f64("d", &d),
        Buffer::from_i32("o", &vec![0; n * 3]),
        Buffer::from_u32("u", &vec![0; n]),
        Buffer::from_f32("f", &vec![0.0; n * 2]),
        Buffer::from_i64("l", &vec![0; n]),
        Buffer::from_f64("g", &vec![0.0; n * 2]),
    ];
    let args = [0, 1, 2, 3, 4, 5, 6].map(KernelArg::Buffer);
    let r = launch(
        &m,
        "bits",
        LaunchConfig::linear(1, n as u32),
        &args,
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let (o, u) = (bufs[2].to_i32_vec(), bufs[3].to_u32_vec());
    let (f, l, g) = (
        bufs[4].to_f32_vec(),
        bufs[5].to_i64_vec(),
        bufs[6].to_f64_vec(),
    );
    for t in 0..n {
        let (xb, db) = (x[t].to_bits(), d[t].to_bits());
        assert_eq!(o[t * 3], xb as i32, "thread {t}");
        assert_eq!(o[t * 3 + 1], (db >> 32) as u32 as i32, "thread {t}");
        assert_eq!(o[t * 3 + 2], db as u32 as i32, "thread {t}");
        assert_eq!(u[t], xb, "thread {t}");
        assert_eq!(f[t * 2].to_bits(), xb ^ 0x8000_0000, "thread {t}");
        assert_eq!(f[t * 2 + 1].to_bits(), xb.wrapping_add(1), "thread {t}");
        assert_eq!(l[t], db as i64, "thread {t}");
        assert_eq!(g[t * 2].to_bits(), db.wrapping_add(1), "thread {t}");
        assert_eq!(g[t * 2 + 1].to_bits(), db, "thread {t}");
    }
}

#[test]
fn frexp_and_modf_match_their_definitions() {
    let src = r#"
__global__ void k(const float *x, const double *d, float *m, int *e, double *md, int *ed, float *fr, float *ip) {
    int t = threadIdx.x;
    m[t] = frexpf(x[t], &e[t]);
    md[t] = frexp(d[t], &ed[t]);
    fr[t] = modff(x[t], &ip[t]);
}
"#;
    let m = cuda(src);
    let x = [
        1.0f32,
        -2.5,
        0.0,
        -0.0,
        3.0e38,
        f32::MIN_POSITIVE / 8.0,
        1e-45,
        7.75,
        -0.3,
        1e10,
    ];
    let d = [
        1.0f64, -2.5, 0.0, -0.0, 3.0e300, 5e-324, 1e-310, 7.75, -0.3, 1e10,
    ];
    let n = x.len();
    let mut bufs = vec![
        Buffer::from_f32("x", &x),
        Buffer::from_f64("d", &d),
        Buffer::from_f32("m", &vec![0.0; n]),
        Buffer::from_i32("e", &vec![0; n]),
        Buffer::from_f64("md", &vec![0.0; n]),
        Buffer::from_i32("ed", &vec![0; n]),
        Buffer::from_f32("fr", &vec![0.0; n]),
        Buffer::from_f32("ip", &vec![0.0; n]),
    ];
    let args = [0, 1, 2, 3, 4, 5, 6, 7].map(KernelArg::Buffer);
    let r = launch(&m, "k", LaunchConfig::linear(1, n as u32), &args, &mut bufs);
    assert!(r.is_clean(), "{r:#?}");
    let (mm, e) = (bufs[2].to_f32_vec(), bufs[3].to_i32_vec());
    let (md, ed) = (bufs[4].to_f64_vec(), bufs[5].to_i32_vec());
    let (fr, ip) = (bufs[6].to_f32_vec(), bufs[7].to_f32_vec());
    for t in 0..n {
        let (wm, we) = libm::frexpf(x[t]);
        assert_eq!(
            (mm[t].to_bits(), e[t]),
            (wm.to_bits(), we),
            "frexpf({})",
            x[t]
        );
        let (wm, we) = libm::frexp(d[t]);
        assert_eq!(
            (md[t].to_bits(), ed[t]),
            (wm.to_bits(), we),
            "frexp({})",
            d[t]
        );
        let (wf, wi) = libm::modff(x[t]);
        assert_eq!(
            (fr[t].to_bits(), ip[t].to_bits()),
            (wf.to_bits(), wi.to_bits()),
            "modff({})",
            x[t]
        );
    }
}

#[test]
fn printf_writes_lanes_in_order_and_blocks_in_order() {
    let src = r#"
__global__ void say(int *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = printf("b%u t%d %.2f %s\n", blockIdx.x, threadIdx.x, t * 0.5f, "x");
}
"#;
    let (out, r) = run_out(src, "say", LaunchConfig::linear(2, 3), 6);
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(
        r.printed,
        "b0 t0 0.00 x\nb0 t1 0.50 x\nb0 t2 1.00 x\nb1 t0 1.50 x\nb1 t1 2.00 x\nb1 t2 2.50 x\n"
    );
    assert_eq!(out, vec![13; 6], "printf returns the characters written");
    assert_eq!(r.stats.printf_dropped, 0);
}

#[test]
fn a_failed_assert_traps_where_it_is() {
    let src = r#"
#include <assert.h>
__global__ void check(int *out) {
    int t = threadIdx.x;
    assert(t < 40);
    out[t] = t;
}
"#;
    let (_, r) = run_out(src, "check", LaunchConfig::linear(1, 64), 64);
    let f = r.faults.first().expect("a fault");
    assert_eq!(f.kind, FaultKind::Trap);
    assert_eq!(f.thread, [40, 0, 0]);
    assert_eq!(f.span.line, crate::line_of(src, "assert("));
    let (out, r) = run_out(src, "check", LaunchConfig::linear(1, 32), 32);
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(out[31], 31);
}

#[test]
fn inline_ptx_lane_registers_read_the_lane() {
    let path = hone_testkit::corpus("frontend/lane_registers.cu");
    let m = cuda(&std::fs::read_to_string(path).expect("corpus file"));
    let mut bufs = vec![Buffer::from_u32("out", &[0; 5 * 48])];
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block: [16, 3, 1],
        dynamic_shared_bytes: 0,
    };
    let r = launch(&m, "lanes", cfg, &[KernelArg::Buffer(0)], &mut bufs);
    assert!(r.is_clean(), "{r:#?}");
    let out = bufs[0].to_u32_vec();
    for t in 0..48usize {
        let lane = (t % 32) as u32;
        let le = ((1u64 << (lane + 1)) - 1) as u32;
        assert_eq!(out[5 * t], lane, "thread {t}");
        assert_eq!(out[5 * t + 1], (1u32 << lane) - 1, "thread {t}");
        assert_eq!(out[5 * t + 2], le, "thread {t}");
        assert_eq!(out[5 * t + 3], !le, "thread {t}");
        assert_eq!(out[5 * t + 4], !((1u32 << lane) - 1), "thread {t}");
    }
}
