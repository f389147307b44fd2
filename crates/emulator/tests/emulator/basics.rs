//! Plain data-parallel kernels and the smaller C constructs.

use hone_emulator::*;
use hone_ir::Type;

use crate::{cuda, launch};

#[test]
fn saxpy_matches_host() {
    let src = r#"
__global__ void saxpy(const float *a, const float *b, float *out, float s, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) out[i] = a[i] * s + b[i];
}
"#;
    let m = cuda(src);
    let n = 1000;
    let av: Vec<f32> = (0..n).map(|x| x as f32 * 0.5).collect();
    let bv: Vec<f32> = (0..n).map(|x| 3.0 - x as f32).collect();
    let mut bufs = vec![
        Buffer::from_f32("a", &av),
        Buffer::from_f32("b", &bv),
        Buffer::zeros("out", Type::FLOAT, n),
    ];
    let r = launch(
        &m,
        "saxpy",
        LaunchConfig::linear(8, 128),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
            KernelArg::Float(2.5),
            KernelArg::Int(n as i64),
        ],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let got = bufs[2].to_f32_vec();
    for x in 0..n {
        assert_eq!(got[x], av[x] * 2.5 + bv[x], "element {x}");
    }
    assert_eq!((r.stats.blocks, r.stats.threads), (8, 1024));
    assert!(r.stats.thread_operations > r.stats.warp_instructions);
    assert!(r.stats.operations_per_second > 0.0);
}

#[test]
fn initializers_sizeof_comma_and_increments() {
    let src = r#"
__global__ void k(int *out) {
    int t = threadIdx.x;
    int table[5] = {10, 20, 30};
    int2 pair = make_int2(t, -t);
    char c = 120;
    c += 10;
    int *p = table;
    p++;
    ++p;
    int at = *p--;
    int x = (t, t * 2);
    unsigned int bytes = sizeof(double) + sizeof(table);
    out[8 * t + 0] = table[t % 5];
    out[8 * t + 1] = at + *p;
    out[8 * t + 2] = c;
    out[8 * t + 3] = x;
    out[8 * t + 4] = bytes;
    out[8 * t + 5] = pair.x + 2 * pair.y;
    int u = t;
    int post = u++;
    int pre = --u;
    out[8 * t + 6] = post * 10 + u;
    out[8 * t + 7] = pre + 100;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 64])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 8),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    let out = bufs[0].to_i32_vec();
    for t in 0..8i32 {
        let o = &out[8 * t as usize..8 * t as usize + 8];
        let table = [10, 20, 30, 0, 0];
        assert_eq!(
            o[0],
            table[t as usize % 5],
            "zero-filled initializer, thread {t}"
        );
        assert_eq!(o[1], 30 + 20);
        assert_eq!(o[2], 130i32 as i8 as i32);
        assert_eq!(o[3], 2 * t);
        assert_eq!(o[4], 8 + 20);
        assert_eq!(o[5], -t);
        assert_eq!(o[6], t * 10 + t);
        assert_eq!(o[7], t + 100);
    }
}
