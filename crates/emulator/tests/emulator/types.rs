//! Vector types, pointers, device calls, and C's arithmetic and conversions
//! exactly as CUDA performs them.

use hone_emulator::*;
use hone_ir::{Scalar, Type};

use crate::{cuda, launch};

#[test]
fn float4_loads_stores_and_components() {
    let src = r#"
__global__ void k(const float4 *in, float4 *out, float *lens) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    float4 r = make_float4(v.w, v.z, v.y, v.x);
    r.y += 1.0f;
    out[i] = r;
    lens[i] = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w);
}
"#;
    let m = cuda(src);
    let n = 64;
    let flat: Vec<f32> = (0..n * 4).map(|x| x as f32 * 0.25 - 7.0).collect();
    let mut input = Buffer::from_f32("in", &flat);
    input.elem = Type::Vector(Scalar::F32, 4);
    let mut bufs = vec![
        input,
        Buffer::zeros("out", Type::Vector(Scalar::F32, 4), n),
        Buffer::zeros("lens", Type::FLOAT, n),
    ];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(2, 32),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(bufs[1].len(), n);
    let out = bufs[1].to_f32_vec();
    let lens = bufs[2].to_f32_vec();
    for i in 0..n {
        let v = &flat[i * 4..i * 4 + 4];
        assert_eq!(
            &out[i * 4..i * 4 + 4],
            &[v[3], v[2] + 1.0, v[1], v[0]],
            "element {i}"
        );
        assert_eq!(
            lens[i],
            (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]).sqrt()
        );
    }
}

#[test]
fn pointer_arithmetic_and_pointers_into_shared_and_local_arrays() {
    let src = r#"
__device__ void fill(int *p, int n, int v) { for (int i = 0; i < n; i++) *(p + i) = v + i; }
__device__ int sum(const int *begin, const int *end) { int s = 0; while (begin != end) s += *begin++; return s; }
__global__ void k(int *out) {
    __shared__ int sh[64];
    int loc[4];
    int t = threadIdx.x;
    fill(&sh[2 * t], 2, t * 10);
    fill(loc, 4, t);
    __syncthreads();
    int *p = sh + 2 * t;
    p += 1;
    int diff = (int)(p - sh);
    out[t] = p[-1] + *p;
    out[32 + t] = sum(loc, loc + 4);
    out[64 + t] = diff;
    int x = 5;
    int *px = &x;
    *px += t;
    out[96 + t] = x;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 128])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let out = bufs[0].to_i32_vec();
    for t in 0..32i32 {
        let u = t as usize;
        assert_eq!(out[u], t * 10 + t * 10 + 1);
        assert_eq!(out[32 + u], 4 * t + 6);
        assert_eq!(out[64 + u], 2 * t + 1);
        assert_eq!(out[96 + u], 5 + t);
    }
}

#[test]
fn device_functions_with_divergent_returns() {
    let src = r#"
__device__ float clampf(float v, float lo, float hi) {
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}
__device__ int collatz(int n) {
    int steps = 0;
    while (n != 1) { n = (n % 2) ? 3 * n + 1 : n / 2; steps++; }
    return steps;
}
__global__ void k(float *f, int *c) {
    int t = threadIdx.x;
    f[t] = clampf(t * 0.5f - 4.0f, -2.0f, 3.0f);
    c[t] = collatz(t + 1);
}
"#;
    let m = cuda(src);
    let mut bufs = vec![
        Buffer::from_f32("f", &[0.0; 64]),
        Buffer::from_i32("c", &[0; 64]),
    ];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 64),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let f = bufs[0].to_f32_vec();
    let c = bufs[1].to_i32_vec();
    for t in 0..64 {
        assert_eq!(f[t], (t as f32 * 0.5 - 4.0).clamp(-2.0, 3.0));
        let (mut n, mut steps) = (t as i64 + 1, 0);
        while n != 1 {
            n = if n % 2 == 1 { 3 * n + 1 } else { n / 2 };
            steps += 1;
        }
        assert_eq!(c[t], steps, "collatz {}", t + 1);
    }
}

#[test]
fn integer_semantics_wrap_shift_divide_and_narrow() {
    let src = r#"
__global__ void k(int *o, unsigned int *u, long long *l) {
    int big = 2147483647;
    o[0] = big + 1;
    o[1] = -7 / 2;
    o[2] = -7 % 2;
    o[3] = -16 >> 2;
    o[4] = (char)300;
    o[5] = (unsigned char)-1;
    o[6] = (short)40000;
    o[7] = 1 << 31;
    unsigned int x = 0u;
    u[0] = x - 1u;
    u[1] = 4000000000u / 3u;
    u[2] = 0x80000000u >> 31;
    u[3] = (unsigned int)-5 % 7u;
    int neg = -1;
    u[4] = neg < 1u;
    long long w = 3000000000LL;
    l[0] = w * 4;
    l[1] = (int)w;
    l[2] = (long long)big * 2;
    l[3] = -9223372036854775807LL - 1;
    l[4] = (unsigned long long)-1 >> 1;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![
        Buffer::from_i32("o", &[0; 8]),
        Buffer::from_u32("u", &[0; 5]),
        Buffer::from_i64("l", &[0; 5]),
    ];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 1),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(
        bufs[0].to_i32_vec(),
        vec![
            i32::MIN,
            -3,
            -1,
            -4,
            300i32 as i8 as i32,
            255,
            40000i32 as i16 as i32,
            i32::MIN
        ]
    );
    // `neg < 1u` compares as unsigned: 0xffffffff < 1 is false.
    assert_eq!(
        bufs[1].to_u32_vec(),
        vec![u32::MAX, 4_000_000_000 / 3, 1, (-5i32 as u32) % 7, 0]
    );
    let l: Vec<i64> = bufs[2]
        .data
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(
        l,
        vec![
            12_000_000_000,
            3_000_000_000i64 as i32 as i64,
            4_294_967_294,
            i64::MIN,
            i64::MAX
        ]
    );
}

#[test]
fn float_conversions_truncate_and_saturate_like_ptx() {
    let src = r#"
__global__ void k(const float *f, int *i, unsigned int *u, float *g, double *d) {
    int t = threadIdx.x;
    i[t] = (int)f[t];
    u[t] = (unsigned int)f[t];
    g[t] = (float)(i[t] + 1) / 3.0f;
    d[t] = (double)f[t] / 3.0;
}
"#;
    let m = cuda(src);
    let fs = [-2.7f32, 2.7, -0.5, 1e10, -1e10, f32::NAN, 16777217.0, 3.5];
    let n = fs.len();
    let mut bufs = vec![
        Buffer::from_f32("f", &fs),
        Buffer::from_i32("i", &vec![0; n]),
        Buffer::from_u32("u", &vec![0; n]),
        Buffer::from_f32("g", &vec![0.0; n]),
        Buffer::from_f64("d", &vec![0.0; n]),
    ];
    let args: Vec<KernelArg> = (0..5).map(KernelArg::Buffer).collect();
    let r = launch(&m, "k", LaunchConfig::linear(1, n as u32), &args, &mut bufs);
    assert!(r.is_clean(), "{r:#?}");
    let i = bufs[1].to_i32_vec();
    let u = bufs[2].to_u32_vec();
    assert_eq!(i, vec![-2, 2, 0, i32::MAX, i32::MIN, 0, 16777216, 3]);
    assert_eq!(u, vec![0, 2, 0, u32::MAX, 0, 0, 16777216, 3]);
    let g = bufs[3].to_f32_vec();
    let d = bufs[4].to_f64_vec();
    for k in 0..n {
        assert_eq!(
            g[k].to_bits(),
            ((i[k].wrapping_add(1)) as f32 / 3.0f32).to_bits(),
            "g[{k}]"
        );
        let want = fs[k] as f64 / 3.0;
        assert!(d[k] == want || (d[k].is_nan() && want.is_nan()), "d[{k}]");
    }
}

#[test]
fn single_precision_math_rounds_in_f32() {
    let src = r#"
__global__ void k(const float *x, float *o, double *p) {
    int t = threadIdx.x;
    float v = x[t];
    o[8 * t + 0] = fmaf(v, 3.0f, 0.1f);
    o[8 * t + 1] = sqrtf(fabsf(v));
    o[8 * t + 2] = expf(v * 0.1f);
    o[8 * t + 3] = fminf(v, 1.0f) + fmaxf(v, -1.0f);
    o[8 * t + 4] = floorf(v) + ceilf(v) * 10.0f;
    o[8 * t + 5] = v * 0.1f + 0.2f;
    o[8 * t + 6] = powf(fabsf(v), 0.5f);
    o[8 * t + 7] = rsqrtf(fabsf(v) + 1.0f);
    p[t] = sin((double)v) + sqrt(fabs((double)v));
}
"#;
    let m = cuda(src);
    let xs: Vec<f32> = (0..16).map(|i| i as f32 * 0.73 - 5.1).collect();
    let mut bufs = vec![
        Buffer::from_f32("x", &xs),
        Buffer::zeros("o", Type::FLOAT, 16 * 8),
        Buffer::zeros("p", Type::DOUBLE, 16),
    ];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 16),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let o = bufs[1].to_f32_vec();
    let p = bufs[2].to_f64_vec();
    for (t, &v) in xs.iter().enumerate() {
        let want = [
            v.mul_add(3.0, 0.1),
            v.abs().sqrt(),
            (v * 0.1).exp(),
            v.min(1.0) + v.max(-1.0),
            v.floor() + v.ceil() * 10.0,
            v * 0.1 + 0.2,
            v.abs().powf(0.5),
            1.0 / (v.abs() + 1.0).sqrt(),
        ];
        for k in 0..8 {
            assert_eq!(o[8 * t + k].to_bits(), want[k].to_bits(), "o[{t}][{k}]");
        }
        assert_eq!(p[t], (v as f64).sin() + (v as f64).abs().sqrt());
    }
}

#[test]
fn dynamic_shared_memory_aliases_across_extern_arrays() {
    let src = r#"
__global__ void k(float *out) {
    extern __shared__ float dyn[];
    extern __shared__ int as_int[];
    dyn[threadIdx.x] = threadIdx.x * 1.5f;
    __syncthreads();
    out[threadIdx.x] = (float)(as_int[blockDim.x - 1 - threadIdx.x] != 0) + dyn[blockDim.x - 1 - threadIdx.x];
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::zeros("out", Type::FLOAT, 32)];
    let r = crate::launch(
        &m,
        "k",
        LaunchConfig::linear(1, 32).with_dynamic_shared(32 * 4),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let out = bufs[0].to_f32_vec();
    for (t, got) in out.iter().enumerate() {
        let j = 31 - t;
        assert_eq!(*got, (j != 0) as u32 as f32 + j as f32 * 1.5);
    }
    // Without the dynamic bytes the same kernel reads past the region.
    let mut bufs = vec![Buffer::zeros("out", Type::FLOAT, 32)];
    let r = crate::launch(
        &m,
        "k",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    assert!(
        matches!(r.faults[0].kind, FaultKind::OutOfBounds { .. }),
        "{r:#?}"
    );
}

#[test]
fn random_arithmetic_matches_host_semantics() {
    use rand::{Rng, SeedableRng};
    let src = r#"
__global__ void k(const int *a, const int *b, const float *x, const float *y, int *o, unsigned int *u, long long *l, float *f) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    int p = a[t], q = b[t];
    int s = q & 31;
    unsigned int up = (unsigned int)p, uq = (unsigned int)q;
    long long lp = (long long)p * 65537LL, lq = (long long)q | 1LL;
    o[8 * t + 0] = p + q;
    o[8 * t + 1] = p - q;
    o[8 * t + 2] = p * q;
    o[8 * t + 3] = p / (q | 1);
    o[8 * t + 4] = p % (q | 1);
    o[8 * t + 5] = p << s;
    o[8 * t + 6] = p >> s;
    o[8 * t + 7] = (p ^ q) | (p & ~q);
    u[4 * t + 0] = up / (uq | 1u);
    u[4 * t + 1] = up % (uq | 1u);
    u[4 * t + 2] = up >> s;
    u[4 * t + 3] = up * uq + (up < uq);
    l[2 * t + 0] = lp * lq;
    l[2 * t + 1] = lp / lq;
    float fx = x[t], fy = y[t];
    f[4 * t + 0] = fx + fy;
    f[4 * t + 1] = fx * fy - fy;
    f[4 * t + 2] = fx / fy;
    f[4 * t + 3] = (float)((double)fx * (double)fy);
}
"#;
    let m = cuda(src);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let n = 256usize;
    let a: Vec<i32> = (0..n).map(|_| rng.gen()).collect();
    let b: Vec<i32> = (0..n)
        .map(|i| if i % 7 == 0 { -1 } else { rng.gen() })
        .collect();
    let x: Vec<f32> = (0..n).map(|_| rng.gen_range(-1e3f32..1e3)).collect();
    let y: Vec<f32> = (0..n).map(|_| rng.gen_range(-10f32..10.0)).collect();
    let mut bufs = vec![
        Buffer::from_i32("a", &a),
        Buffer::from_i32("b", &b),
        Buffer::from_f32("x", &x),
        Buffer::from_f32("y", &y),
        Buffer::from_i32("o", &vec![0; 8 * n]),
        Buffer::from_u32("u", &vec![0; 4 * n]),
        Buffer::from_i64("l", &vec![0; 2 * n]),
        Buffer::from_f32("f", &vec![0.0; 4 * n]),
    ];
    let args: Vec<KernelArg> = (0..8).map(KernelArg::Buffer).collect();
    let r = launch(&m, "k", LaunchConfig::linear(4, 64), &args, &mut bufs);
    assert!(r.is_clean(), "{r:#?}");
    let (o, u, f) = (
        bufs[4].to_i32_vec(),
        bufs[5].to_u32_vec(),
        bufs[7].to_f32_vec(),
    );
    let l: Vec<i64> = bufs[6]
        .data
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for t in 0..n {
        let (p, q) = (a[t], b[t]);
        let s = (q & 31) as u32;
        let want = [
            p.wrapping_add(q),
            p.wrapping_sub(q),
            p.wrapping_mul(q),
            p.wrapping_div(q | 1),
            p.wrapping_rem(q | 1),
            p.wrapping_shl(s),
            p >> s,
            (p ^ q) | (p & !q),
        ];
        assert_eq!(&o[8 * t..8 * t + 8], &want, "int ops, thread {t}: {p} {q}");
        let (up, uq) = (p as u32, q as u32);
        let want = [
            up / (uq | 1),
            up % (uq | 1),
            up >> s,
            up.wrapping_mul(uq).wrapping_add((up < uq) as u32),
        ];
        assert_eq!(&u[4 * t..4 * t + 4], &want, "unsigned ops, thread {t}");
        let (lp, lq) = (p as i64 * 65537, q as i64 | 1);
        assert_eq!(
            &l[2 * t..2 * t + 2],
            &[lp.wrapping_mul(lq), lp / lq],
            "64-bit ops, thread {t}"
        );
        let (fx, fy) = (x[t], y[t]);
        let want = [
            fx + fy,
            fx * fy - fy,
            fx / fy,
            (fx as f64 * fy as f64) as f32,
        ];
        for k in 0..4 {
            assert_eq!(
                f[4 * t + k].to_bits(),
                want[k].to_bits(),
                "float op {k}, thread {t}"
            );
        }
    }
}
