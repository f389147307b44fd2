//! Per-lane control flow: every lane must compute what a scalar thread would.

use hone_emulator::*;

use crate::run_out;

#[test]
fn if_else_nested_matches_scalar_semantics() {
    let src = r#"
__global__ void k(int *out) {
    int t = threadIdx.x;
    int v;
    if (t % 3 == 0) {
        if (t % 2 == 0) v = 100 + t; else v = 200 + t;
    } else if (t % 3 == 1) {
        v = 300 + t;
    } else {
        v = t < 40 ? 400 + t : 500 + t;
    }
    out[t] = v;
}
"#;
    let (out, r) = run_out(src, "k", LaunchConfig::linear(1, 64), 64);
    assert!(r.is_clean(), "{r:#?}");
    for (t, &v) in out.iter().enumerate() {
        let t = t as i32;
        let want = if t % 3 == 0 {
            if t % 2 == 0 {
                100 + t
            } else {
                200 + t
            }
        } else if t % 3 == 1 {
            300 + t
        } else if t < 40 {
            400 + t
        } else {
            500 + t
        };
        assert_eq!(v, want, "thread {t}");
    }
}

#[test]
fn loops_with_per_lane_trip_counts_break_and_continue() {
    let src = r#"
__global__ void k(int *out) {
    int t = threadIdx.x;
    int sum = 0;
    for (int i = 0; i < t; i++) {
        if (i % 4 == 1) continue;
        if (i * i > 3 * t + 7) break;
        sum += i;
    }
    int j = 0;
    while (j < t % 7) { j++; sum += 1000; }
    do { sum += 1; j--; } while (j > 0);
    out[t] = sum;
}
"#;
    let (out, r) = run_out(src, "k", LaunchConfig::linear(1, 96), 96);
    assert!(r.is_clean(), "{r:#?}");
    for (t, &v) in out.iter().enumerate() {
        let t = t as i32;
        let mut sum = 0;
        for i in 0..t {
            if i % 4 == 1 {
                continue;
            }
            if i * i > 3 * t + 7 {
                break;
            }
            sum += i;
        }
        let mut j = 0;
        while j < t % 7 {
            j += 1;
            sum += 1000;
        }
        loop {
            sum += 1;
            j -= 1;
            if j <= 0 {
                break;
            }
        }
        assert_eq!(v, sum, "thread {t}");
    }
}

#[test]
fn return_inside_loop_retires_only_that_lane() {
    let src = r#"
__global__ void k(int *out) {
    int t = threadIdx.x;
    out[t] = 0;
    for (int i = 0; ; i++) {
        if (i == t % 5) {
            out[t] = 10 * i + 1;
            return;
        }
        out[t] = -i;
    }
}
"#;
    let (out, r) = run_out(src, "k", LaunchConfig::linear(1, 40), 40);
    assert!(r.is_clean(), "{r:#?}");
    for (t, &v) in out.iter().enumerate() {
        assert_eq!(v, 10 * (t as i32 % 5) + 1, "thread {t}");
    }
}

#[test]
fn switch_with_fallthrough_default_and_break() {
    let src = r#"
__global__ void k(int *out) {
    int t = threadIdx.x;
    int v = 0;
    switch (t % 6) {
    case 0:
        v += 1;
    case 1:
        v += 10;
        break;
    case 2:
    case 3:
        v += 100;
    default:
        v += 1000;
        break;
    case 5:
        v += 10000;
    }
    out[t] = v;
}
"#;
    let (out, r) = run_out(src, "k", LaunchConfig::linear(1, 48), 48);
    assert!(r.is_clean(), "{r:#?}");
    for (t, &v) in out.iter().enumerate() {
        let want = match t % 6 {
            0 => 11,
            1 => 10,
            2 | 3 => 1100,
            4 => 1000,
            _ => 10000,
        };
        assert_eq!(v, want, "thread {t}");
    }
}

#[test]
fn continue_inside_switch_inside_loop() {
    let src = r#"
__global__ void k(int *out) {
    int t = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < 8; i++) {
        switch ((i + t) % 3) {
        case 0: continue;
        case 1: acc += i; break;
        default: acc += 100;
        }
        acc += 1;
    }
    out[t] = acc;
}
"#;
    let (out, r) = run_out(src, "k", LaunchConfig::linear(1, 32), 32);
    assert!(r.is_clean(), "{r:#?}");
    for (t, &v) in out.iter().enumerate() {
        let mut acc = 0;
        for i in 0..8 {
            match (i + t as i32) % 3 {
                0 => continue,
                1 => acc += i,
                _ => acc += 100,
            }
            acc += 1;
        }
        assert_eq!(v, acc, "thread {t}");
    }
}

#[test]
fn short_circuit_skips_side_effects_per_lane() {
    let src = r#"
__device__ int bump(int *c, int t) { c[t] += 1; return t % 2; }
__global__ void k(int *out) {
    int t = threadIdx.x;
    out[t] = 0;
    int a = (t % 3 == 0) && bump(out, t);
    int b = (t % 5 == 0) || bump(out, t);
    int c = (t % 7 == 0) ? bump(out, t) : 42;
    out[t] = out[t] * 1000 + a * 100 + b * 10 + (c == 42);
}
"#;
    let (out, r) = run_out(src, "k", LaunchConfig::linear(1, 64), 64);
    assert!(r.is_clean(), "{r:#?}");
    for (t, &v) in out.iter().enumerate() {
        let t = t as i32;
        let mut calls = 0;
        let a = if t % 3 == 0 {
            calls += 1;
            (t % 2 != 0) as i32
        } else {
            0
        };
        let b = if t % 5 == 0 {
            1
        } else {
            calls += 1;
            (t % 2 != 0) as i32
        };
        let c = if t % 7 == 0 {
            calls += 1;
            t % 2
        } else {
            42
        };
        assert_eq!(
            v,
            calls * 1000 + a * 100 + b * 10 + (c == 42) as i32,
            "thread {t}"
        );
    }
}

#[test]
fn multi_dimensional_blocks_linearize_x_fastest() {
    let src = r#"
__global__ void k(int *out) {
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    out[b * blockDim.x * blockDim.y * blockDim.z + t] =
        threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z + 1000 * blockIdx.x + 10000 * blockIdx.y + 100000 * blockIdx.z;
}
"#;
    let cfg = LaunchConfig::new([2, 3, 2], [5, 3, 2]);
    let (out, r) = run_out(src, "k", cfg, 12 * 30);
    assert!(r.is_clean(), "{r:#?}");
    let mut i = 0;
    for bz in 0..2 {
        for by in 0..3 {
            for bx in 0..2 {
                for tz in 0..2 {
                    for ty in 0..3 {
                        for tx in 0..5 {
                            let want =
                                tx + 10 * ty + 100 * tz + 1000 * bx + 10000 * by + 100000 * bz;
                            assert_eq!(out[i], want, "element {i}");
                            i += 1;
                        }
                    }
                }
            }
        }
    }
    // 30 threads per block: one partial warp per block.
    assert_eq!(r.stats.threads, 12 * 30);
}
