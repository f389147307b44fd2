//! The corpus's lambdas (`tests/corpus/cpp/lambdas.cu`) run in the
//! emulator: captures by reference see later changes, captures by value do
//! not, brace returns build the result; `memcpy` moves words between an array
//! and a struct of vectors, and a tile shuffles a vector.

use hone_emulator::{Buffer, KernelArg};
mod common;

use hone_frontend::{FrontendOptions, Parsed};

fn run(p: &Parsed, kernel: &str, block: u32, args: &[KernelArg], buffers: &mut [Buffer]) {
    common::run_clean(p, kernel, "lambdas.cu", (1, block), args, buffers);
}

#[test]
fn lambdas_capture_by_reference_and_by_value() {
    let p = common::parse_corpus("cpp/lambdas.cu", &FrontendOptions::default());
    let n = 64;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 3.0).collect();
    let mut buffers = vec![
        Buffer::from_f32("in", &input),
        Buffer::from_f32("out", &vec![f32::NAN; n]),
    ];
    let args = [
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Int(n as i64),
    ];
    run(&p, "lambdas", n as u32, &args, &mut buffers);
    // acc = 3 x + 3 (scale is 3 by the calls), twice(x) = 2 x (the copy made
    // while scale was 2), pick(0).second = 1, pick(1).first = 0, none().y = 0,
    // halve(1) = 0.5, staged_at(t) = x.
    let want: Vec<f32> = input
        .iter()
        .map(|&x| (0.0 + x * 3.0 + 1.0 * 3.0) + x * 2.0 + 1.0 + 0.0 + 0.0 + 0.5 + x)
        .collect();
    assert_eq!(buffers[1].to_f32_vec(), want);
}

#[test]
fn memcpy_and_a_vector_shuffle_move_the_words() {
    let p = common::parse_corpus("cpp/lambdas.cu", &FrontendOptions::default());
    let input: Vec<i32> = (0..256).map(|i| i * 7 + 1).collect();
    let mut buffers = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_i32("out", &[0; 256]),
    ];
    run(
        &p,
        "words",
        32,
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut buffers,
    );
    // The first four words stay; the last four come from the lane next door.
    let want: Vec<i32> = (0..256)
        .map(|e| {
            let (t, k) = (e / 8, e % 8);
            let from = if k < 4 { t } else { t ^ 1 };
            input[from * 8 + k]
        })
        .collect();
    assert_eq!(buffers[1].to_i32_vec(), want);
}
