//! The corpus's class templates (`tests/corpus/cpp/class_templates*.cu`) run
//! in the emulator: a reduction written as the CUDA samples write it, with the
//! `SharedMemory<T>` class template (a conversion operator to `T *` over
//! `extern __shared__` memory, and an explicit specialization for `double`),
//! compared with sums computed here; a class template whose members return
//! references into the object; static member functions.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options};
mod common;

use hone_frontend::{FrontendOptions, Parsed};

/// The corpus file `cpp/NAME`, its kernels instantiated as its host code
/// launches them.
fn parsed(name: &str) -> Parsed {
    common::parse_corpus(&format!("cpp/{name}"), &FrontendOptions::default())
}

fn run(p: &Parsed, kernel: &str, grid: u32, block: u32, shared: u64, buffers: &mut [Buffer]) {
    let args = [
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Int(buffers[0].len() as i64),
    ];
    let f = p
        .kernel(kernel, "class_templates.cu")
        .expect("kernel exists");
    let n_args = f.params.len();
    let cfg = LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_shared_bytes: shared,
    };
    let report = hone_emulator::run(
        &p.module,
        &f.name,
        &cfg,
        &args[..n_args],
        buffers,
        &Options::default(),
        None,
    )
    .expect("launch is well formed");
    assert!(report.completed, "{kernel}: did not complete");
    assert!(report.faults.is_empty(), "{kernel}: {:?}", report.faults);
    assert!(report.races.is_empty(), "{kernel}: {:?}", report.races);
}

/// Each block's sum of its `2 * block` elements.
fn block_sums(input: &[f64], block: usize) -> Vec<f64> {
    input.chunks(2 * block).map(|c| c.iter().sum()).collect()
}

#[test]
fn shared_memory_reduction_sums_each_block() {
    let p = parsed("class_templates.cu");
    let n: i32 = 1000;
    let (block, grid) = (64usize, 8usize);

    let ints: Vec<i32> = (0..n).map(|i| (i * 37 % 101) - 50).collect();
    let mut buffers = vec![
        Buffer::from_i32("in", &ints),
        Buffer::from_i32("out", &vec![-1; grid]),
    ];
    run(
        &p,
        "reduce<int, 64>",
        grid as u32,
        block as u32,
        64 * 4,
        &mut buffers,
    );
    let want: Vec<i32> = block_sums(&ints.iter().map(|&v| v as f64).collect::<Vec<_>>(), block)
        .into_iter()
        .map(|s| s as i32)
        .collect();
    assert_eq!(buffers[1].to_i32_vec(), want);

    // The `double` specialization declares its own shared array.
    let reals: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    let mut buffers = vec![
        Buffer::from_f64("in", &reals),
        Buffer::from_f64("out", &vec![0.0; grid]),
    ];
    run(
        &p,
        "reduce<double, 64>",
        grid as u32,
        block as u32,
        64 * 8,
        &mut buffers,
    );
    let got = buffers[1].to_f64_vec();
    for (i, (g, w)) in got.iter().zip(block_sums(&reals, block)).enumerate() {
        assert!(
            (g - w).abs() <= 1e-12,
            "block {i}: emulator {g}, reference {w}"
        );
    }
}

#[test]
fn shared_memory_object_converts_to_a_pointer() {
    let p = parsed("class_templates.cu");
    let x: Vec<f32> = (0..32).map(|i| i as f32 * 1.5).collect();
    let mut buffers = vec![
        Buffer::from_f32("in", &x),
        Buffer::from_f32("out", &[0.0; 32]),
    ];
    run(&p, "reverse<float>", 1, 32, 32 * 4, &mut buffers);
    let want: Vec<f32> = x.iter().rev().copied().collect();
    assert_eq!(buffers[1].to_f32_vec(), want);
}

#[test]
fn reference_returning_members_write_the_object() {
    let p = parsed("class_templates.cu");
    let mut buffers = vec![Buffer::from_i32("out", &[0; 8])];
    run(&p, "tile<int>", 1, 8, 0, &mut buffers);
    // t = [0, 1, 2, 3]; t[1] += t[2]; t.first() = t[3].
    assert_eq!(buffers[0].to_i32_vec(), [3, 3, 2, 3, 3, 3, 2, 3]);
}

#[test]
fn static_members_are_called_without_an_object() {
    let p = parsed("class_templates_static.cu");
    let input: Vec<i32> = (0..32).collect();
    let mut buffers = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_i32("out", &[0; 32]),
    ];
    run(&p, "scanKernel<16>", 1, 32, 0, &mut buffers);
    let want: Vec<i32> = input
        .iter()
        .map(|&t| {
            let d = t - 8;
            let mirrored = if d < 0 {
                -d
            } else if d >= 16 {
                30 - d
            } else {
                d
            };
            mirrored + 2 * t + 16 + 16
        })
        .collect();
    assert_eq!(buffers[1].to_i32_vec(), want);
}

#[test]
fn members_defined_outside_their_class_run() {
    let p = parsed("out_of_line.cu");
    let n = 64;
    let input: Vec<f32> = (0..8 * n).map(|k| (k % 13) as f32 * 0.5).collect();
    let mut buffers = [
        Buffer::from_f32("in", &input),
        Buffer::zeros("out", hone_ir::Type::Scalar(hone_ir::Scalar::F32), n),
    ];
    let f = p
        .kernel("out_of_line", "out_of_line.cu")
        .expect("kernel exists");
    let report = hone_emulator::run(
        &p.module,
        &f.name,
        &LaunchConfig {
            grid: [2, 1, 1],
            block: [32, 1, 1],
            dynamic_shared_bytes: 0,
        },
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
        ],
        &mut buffers,
        &Options::default(),
        None,
    )
    .expect("launch is well formed");
    assert!(report.is_clean(), "{report:?}");
    let want: Vec<f32> = (0..n)
        .map(|i| {
            let mean = input[8 * i..8 * i + 8].iter().map(|v| 2.0 * v).sum::<f32>() / 8.0;
            mean + (2.0 * input[i] + 2.0 * input[i + n])
        })
        .collect();
    assert_eq!(buffers[1].to_f32_vec(), want);
}
