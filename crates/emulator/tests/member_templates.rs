//! The corpus's member templates (`tests/corpus/cpp/member_templates.cu`)
//! run in the emulator: a lifting step written as Rodinia's dwt2d writes it
//! (member function templates called with explicit and deduced arguments, a
//! member class template, function objects, a base class, a static member
//! template), compared with the same arithmetic done here.

use hone_emulator::{Buffer, KernelArg};
mod common;

use hone_frontend::FrontendOptions;

/// `d` mirrored into `0..size` as the kernel's `Io::mirror` does.
fn mirror(d: i64, size: i64) -> i64 {
    if d >= size {
        2 * size - 2 - d
    } else if d < 0 {
        -d
    } else {
        d
    }
}

/// What each block of `2 * w` elements writes: its chunk with one halo
/// element each side (mirrored in the first and last block), the predict
/// step on the even positions, then the update step on the odd ones.
fn lifted(input: &[i32], w: usize) -> Vec<i32> {
    let n = input.len();
    let blocks = n / (2 * w);
    let mut out = vec![0; n];
    for b in 0..blocks {
        let edge = b == 0 || b == blocks - 1;
        let base = (b * 2 * w) as i64;
        let mut data: Vec<i32> = (0..2 * w + 2)
            .map(|j| {
                let i = base + j as i64 - 1;
                let i = if edge { mirror(i, n as i64) } else { i };
                input[i as usize]
            })
            .collect();
        for i in (2..=2 * w).step_by(2) {
            data[i] -= (data[i - 1] + data[i + 1]) / 2;
        }
        for i in (1..2 * w).step_by(2) {
            data[i] += (data[i - 1] + data[i + 1] + 2) / 4;
        }
        out[base as usize..base as usize + 2 * w].copy_from_slice(&data[1..=2 * w]);
    }
    out
}

#[test]
fn member_templates_lift_each_block() {
    let p = common::parse_corpus("cpp/member_templates.cu", &FrontendOptions::default());
    let n = 64 * 6;
    // Signed values, so that the divisions round toward zero as C's do.
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 7919 % 211) - 105).collect();
    let mut buffers = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_i32("out", &vec![i32::MIN; n]),
    ];
    common::run_clean(
        &p,
        "liftKernel<32>",
        "member_templates.cu",
        ((n / 64) as u32, 32),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
        ],
        &mut buffers,
    );
    assert_eq!(buffers[1].to_i32_vec(), lifted(&input, 32));
}
