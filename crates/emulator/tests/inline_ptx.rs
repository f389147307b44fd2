//! Inline PTX of one instruction (`tests/corpus/cpp/inline_ptx.cu`) runs as
//! the instruction computes, each result checked against the PTX ISA's
//! definition written out here.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options};
mod common;

use hone_frontend::FrontendOptions;
use hone_ir::{Scalar, Type};

fn mix(x: u32) -> u32 {
    let mut x = x ^ (x >> 16);
    x = x.wrapping_mul(0x7feb352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846ca68b);
    x ^ (x >> 16)
}

fn bfe_u32(a: u32, pos: u32, len: u32) -> u32 {
    let (pos, len) = (pos & 255, len & 255);
    if len == 0 || pos >= 32 {
        return 0;
    }
    let v = a >> pos;
    if len >= 32 {
        v
    } else {
        v & ((1 << len) - 1)
    }
}

fn bfe_s32(a: u32, pos: u32, len: u32) -> u32 {
    let (pos, len) = (pos & 255, len & 255);
    if len == 0 {
        return 0;
    }
    let sign = (a >> (pos + len - 1).min(31)) & 1;
    (0..32).fold(0, |r, i| {
        let bit = if i < len && pos + i < 32 {
            (a >> (pos + i)) & 1
        } else {
            sign
        };
        r | (bit << i)
    })
}

fn bfi(f: u32, b: u32, pos: u32, len: u32) -> u32 {
    let (pos, len) = (pos & 255, len & 255);
    (0..len).take_while(|i| pos + i < 32).fold(b, |r, i| {
        (r & !(1 << (pos + i))) | (((f >> i) & 1) << (pos + i))
    })
}

fn lop3(a: u32, b: u32, c: u32, lut: u32) -> u32 {
    (0..32).fold(0, |r, bit| {
        let k = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1);
        r | (((lut >> k) & 1) << bit)
    })
}

fn prmt(x: u32, y: u32, s: u32) -> u32 {
    let v = ((y as u64) << 32) | x as u64;
    (0..4).fold(0, |r, k| {
        let sel = (s >> (4 * k)) & 15;
        let mut byte = ((v >> (8 * (sel & 7))) & 255) as u32;
        if sel & 8 != 0 {
            byte = if byte & 128 != 0 { 255 } else { 0 };
        }
        r | (byte << (8 * k))
    })
}

#[test]
fn single_instructions_compute_what_ptx_defines() {
    let p = common::parse_corpus("cpp/inline_ptx.cu", &FrontendOptions::default());
    let n = 64usize;
    let f: Vec<f32> = (0..=n).map(|k| k as f32).collect();
    let mut buffers = [
        Buffer::zeros("o", Type::Scalar(Scalar::U32), 12 * n),
        Buffer::from_f32("f", &f),
    ];
    let k = p.kernel("ptx_ops", "inline_ptx.cu").expect("kernel");
    let report = hone_emulator::run(
        &p.module,
        &k.name,
        &LaunchConfig {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
            dynamic_shared_bytes: 0,
        },
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut buffers,
        &Options::default(),
        None,
    )
    .expect("launch");
    assert!(report.is_clean(), "{report:?}");
    let o: Vec<u32> = buffers[0]
        .to_i64_vec()
        .into_iter()
        .map(|v| v as u32)
        .collect();
    for i in 0..n as u32 {
        let (a, b, c) = (mix(i), mix(i + 1000), mix(i + 2000));
        let sad: u32 = (0..4)
            .map(|k| ((a >> (8 * k)) & 255).abs_diff((b >> (8 * k)) & 255))
            .sum::<u32>()
            + 7;
        let shf_l = ((((b as u64) << 32 | a as u64) << (c & 31)) >> 32) as u32;
        let shf_r = ((((b as u64) << 32) | a as u64) >> i.min(32)) as u32;
        let want = [
            sad,
            bfe_u32(a, i, b % 40),
            bfe_s32(a, i % 36, c % 34),
            bfi(a, b, i % 33, c % 37),
            lop3(a, b, c, 0x96),
            lop3(a, b, c, 0xe8),
            prmt(a, b, c),
            shf_l,
            shf_r,
            ((a as u64 * b as u64) >> 32) as u32,
            i + 1,
            a.reverse_bits() ^ a.count_ones(),
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(o[i as usize + k * n], *w, "thread {i}, result {k}");
        }
    }
}
