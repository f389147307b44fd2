//! Warp shuffles and votes.

use hone_emulator::*;

use crate::{cuda, launch, run_out};

#[test]
fn warp_reduction_with_shfl_down() {
    let src = r#"
__global__ void warp_sum(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}
"#;
    let m = cuda(src);
    let input: Vec<f32> = (0..256).map(|i| (i % 13) as f32 * 0.5).collect();
    let mut bufs = vec![
        Buffer::from_f32("in", &input),
        Buffer::zeros("out", hone_ir::Type::FLOAT, 8),
    ];
    let r = launch(
        &m,
        "warp_sum",
        LaunchConfig::linear(2, 128),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let out = bufs[1].to_f32_vec();
    for w in 0..8 {
        // The same tree order as the kernel.
        let mut v: Vec<f32> = input[w * 32..w * 32 + 32].to_vec();
        let mut off = 16;
        while off > 0 {
            let prev = v.clone();
            for l in 0..32 {
                if l + off < 32 {
                    v[l] = prev[l] + prev[l + off];
                } else {
                    v[l] = prev[l] + prev[l];
                }
            }
            off /= 2;
        }
        assert_eq!(out[w], v[0], "warp {w}");
    }
}

#[test]
fn xor_butterfly_up_scan_and_width() {
    let src = r#"
__global__ void k(int *out) {
    int t = threadIdx.x;
    int all = t;
    for (int m = 1; m < 32; m <<= 1) all += __shfl_xor_sync(0xffffffff, all, m);
    int scan = t;
    for (int d = 1; d < 32; d <<= 1) {
        int n = __shfl_up_sync(0xffffffff, scan, d);
        if (t % 32 >= d) scan += n;
    }
    int seg = __shfl_sync(0xffffffff, t * 10, 2, 8);
    int down = __shfl_down_sync(0xffffffff, t, 3, 16);
    out[t] = all;
    out[32 + t] = scan;
    out[64 + t] = seg;
    out[96 + t] = down;
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
        assert_eq!(out[t as usize], (0..32).sum::<i32>(), "butterfly {t}");
        assert_eq!(out[32 + t as usize], (0..=t).sum::<i32>(), "scan {t}");
        assert_eq!(
            out[64 + t as usize],
            ((t / 8) * 8 + 2) * 10,
            "idx width 8, lane {t}"
        );
        let want_down = if t % 16 + 3 < 16 { t + 3 } else { t };
        assert_eq!(out[96 + t as usize], want_down, "down width 16, lane {t}");
    }
}

#[test]
fn ballot_any_all_see_active_lanes_only() {
    let src = r#"
__global__ void k(unsigned int *out) {
    int t = threadIdx.x;
    unsigned int b = __ballot_sync(0xffffffff, t % 3 == 0);
    int any = __any_sync(0xffffffff, t == 17);
    int all = __all_sync(0xffffffff, t < 40);
    unsigned int inner = 0;
    if (t < 10) inner = __ballot_sync(0x3ff, t % 2);
    out[t] = b;
    out[64 + t] = any * 2 + all;
    out[128 + t] = inner;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_u32("out", &[7; 192])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 64),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let out = bufs[0].to_u32_vec();
    for t in 0..64usize {
        let base = t / 32 * 32;
        let ballot = (0..32)
            .filter(|l| (base + l) % 3 == 0)
            .fold(0u32, |m, l| m | 1 << l);
        assert_eq!(out[t], ballot, "ballot {t}");
        let any = (base..base + 32).any(|x| x == 17) as u32;
        let all = (base..base + 32).all(|x| x < 40) as u32;
        assert_eq!(out[64 + t], any * 2 + all, "vote {t}");
        let inner = if t < 10 { 0b10_1010_1010 } else { 0 };
        assert_eq!(out[128 + t], inner, "ballot in branch {t}");
    }
}

/// The last step of the CUDA samples' `reduce7`: a warp reduction over the
/// lanes the ballot names, whose first shuffles read lanes outside it.
#[test]
fn shuffle_from_a_lane_outside_the_mask_is_warned_as_undefined() {
    let src = r#"
__global__ void k(const float *in, float *out) {
    unsigned int tid = threadIdx.x;
    float v = in[tid];
    unsigned int mask = __ballot_sync(0xffffffff, tid < 8);
    if (tid < 8) {
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(mask, v, offset);
    }
    if (tid == 0) out[0] = v;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![
        Buffer::from_f32("in", &[1.0; 32]),
        Buffer::zeros("out", hone_ir::Type::FLOAT, 1),
    ];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    assert!(r.completed, "{r:#?}");
    assert_eq!(r.warnings.len(), 1, "{:#?}", r.warnings);
    assert_eq!(r.warnings[0].kind, WarningKind::UndefinedShuffle);
    let w = &r.warnings[0].message;
    assert!(
        w.contains("undefined shuffle: lane 0 reads lane 16") && w.contains("test.cu:8:"),
        "{w}"
    );
}

#[test]
fn shuffles_within_the_taking_part_lanes_do_not_warn() {
    let src = r#"
__global__ void k(int *out) {
    int v = threadIdx.x;
    if (threadIdx.x < 16) {
        for (int offset = 8; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffff, v, offset, 16);
    }
    v = __shfl_sync(0xffffffff, v, 0);
    out[threadIdx.x] = v;
}
"#;
    let (out, r) = run_out(src, "k", LaunchConfig::linear(1, 32), 32);
    assert!(r.is_clean() && r.warnings.is_empty(), "{r:#?}");
    assert_eq!(out, vec![120; 32]);
}
