//! Faults: each stops the launch and names the array, index, thread and line.

use hone_emulator::*;
use hone_ir::AddressSpace;

use crate::{cuda, launch, launch_with, line_of};

fn single_fault(r: &Report) -> &Fault {
    assert!(!r.completed, "{r:#?}");
    assert_eq!(r.faults.len(), 1, "{:#?}", r.faults);
    &r.faults[0]
}

#[test]
fn out_of_bounds_global_store() {
    let src = r#"
__global__ void k(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[-1; 40])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(2, 32),
        &[KernelArg::Buffer(0), KernelArg::Int(40)],
        &mut bufs,
    );
    let f = single_fault(&r);
    assert_eq!(
        f.kind,
        FaultKind::OutOfBounds {
            array: "out".into(),
            space: AddressSpace::Global,
            index: 40,
            offset: 160,
            length: 40
        }
    );
    assert_eq!(f.block, [1, 0, 0]);
    assert_eq!(f.thread, [8, 0, 0]);
    assert_eq!(f.span.line, line_of(src, "out[i] = i"));
    let out = bufs[0].to_i32_vec();
    // Block 0 and the in-bounds lanes before the faulting one wrote.
    assert_eq!(out, (0..40).collect::<Vec<i32>>());
}

#[test]
fn out_of_bounds_shared_and_negative_index() {
    let src = r#"
__global__ void k(int *out) {
    __shared__ int s[32];
    s[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = s[(int)threadIdx.x - 1];
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 32])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    let f = single_fault(&r);
    match &f.kind {
        FaultKind::OutOfBounds {
            array,
            space,
            index,
            length,
            ..
        } => {
            assert_eq!(
                (array.as_str(), *space, *index, *length),
                ("s", AddressSpace::Shared, -1, 32)
            );
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(f.thread, [0, 0, 0]);
    assert_eq!(f.span.line, line_of(src, "s[(int)threadIdx.x - 1]"));

    // 64 threads writing a 32-element array: the first lane past the end faults.
    let src2 = src.replace("s[(int)threadIdx.x - 1]", "s[threadIdx.x]");
    let m = cuda(&src2);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 64])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 64),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    let f = single_fault(&r);
    assert_eq!(f.thread, [32, 0, 0]);
    assert!(
        matches!(
            &f.kind,
            FaultKind::OutOfBounds {
                index: 32,
                space: AddressSpace::Shared,
                ..
            }
        ),
        "{f:?}"
    );
    assert!(f.message.contains("`s`"), "{}", f.message);
}

#[test]
fn out_of_bounds_local_array() {
    let src = r#"
__global__ void k(int *out) {
    int a[4];
    for (int i = 0; i <= threadIdx.x; i++) a[i] = i;
    out[threadIdx.x] = a[0];
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 8])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 8),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    let f = single_fault(&r);
    match &f.kind {
        FaultKind::OutOfBounds {
            array,
            space,
            index,
            length,
            ..
        } => {
            assert_eq!(
                (array.as_str(), *space, *index, *length),
                ("a", AddressSpace::Local, 4, 4)
            );
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(f.thread, [4, 0, 0]);
}

#[test]
fn null_pointer_and_misaligned_vector_load() {
    let src = r#"
__global__ void null_store(int *out) {
    int *p = 0;
    if (threadIdx.x == 3) *p = 1;
    out[threadIdx.x] = 2;
}
__global__ void misaligned(const float *in, float *out) {
    float4 v = *(const float4 *)(in + 1);
    out[threadIdx.x] = v.x;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 32])];
    let r = launch(
        &m,
        "null_store",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    let f = single_fault(&r);
    assert!(
        matches!(f.kind, FaultKind::NullOrInvalidPointer { .. }),
        "{f:?}"
    );
    assert_eq!(f.thread, [3, 0, 0]);

    let mut bufs = vec![
        Buffer::from_f32("in", &[1.0; 64]),
        Buffer::from_f32("out", &[0.0; 32]),
    ];
    let r = launch(
        &m,
        "misaligned",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    let f = single_fault(&r);
    assert_eq!(
        f.kind,
        FaultKind::MisalignedAccess {
            array: "in".into(),
            offset: 4,
            align: 16
        }
    );
}

#[test]
fn integer_division_by_zero_faults_but_float_does_not() {
    let src = r#"
__global__ void k(int *out, float *f) {
    int t = threadIdx.x;
    f[t] = 1.0f / (float)(t - 3);
    out[t] = 100 / (t - 5);
}
"#;
    let m = cuda(src);
    let mut bufs = vec![
        Buffer::from_i32("out", &[0; 8]),
        Buffer::from_f32("f", &[0.0; 8]),
    ];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 8),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    let f = single_fault(&r);
    assert_eq!(f.kind, FaultKind::DivisionByZero);
    assert_eq!(f.thread, [5, 0, 0]);
    assert_eq!(f.span.line, line_of(src, "100 /"));
    let fl = bufs[1].to_f32_vec();
    assert_eq!(fl[3], f32::INFINITY);
    assert_eq!(fl[4], 1.0);
}

#[test]
fn endless_loop_hits_the_step_limit() {
    let src = r#"
__global__ void k(int *out) {
    int i = 0;
    while (out[0] == 0) { i++; }
    out[1] = i;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 2])];
    let opts = Options {
        max_thread_steps: 10_000,
        ..Options::default()
    };
    let r = launch_with(
        &m,
        "k",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
        &opts,
        None,
    );
    let f = single_fault(&r);
    assert!(
        matches!(f.kind, FaultKind::StepLimit { steps } if steps <= 10_000),
        "{f:?}"
    );
}

#[test]
fn unbounded_recursion_overflows_the_stack() {
    let src = r#"
__device__ int down(int x) { return x <= -1000000 ? 0 : 1 + down(x - 1); }
__device__ int fact(int x) { return x <= 1 ? 1 : x * fact(x - 1); }
__global__ void k(int *out) {
    out[threadIdx.x] = fact(threadIdx.x % 8);
    if (threadIdx.x == 0) out[0] = down(5);
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 32])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    let f = single_fault(&r);
    assert!(
        matches!(f.kind, FaultKind::StackOverflow { depth: 256 }),
        "{f:?}"
    );
    assert_eq!(f.span.line, line_of(src, "1 + down(x - 1)"));
    // The bounded recursion before it ran to completion.
    let out = bufs[0].to_i32_vec();
    let fact = |n: i32| (1..=n.max(1)).product::<i32>();
    for (t, got) in out.iter().enumerate().skip(1) {
        assert_eq!(*got, fact(t as i32 % 8), "thread {t}");
    }
}
