//! Launch-time checks: errors name the kernel parameter at fault.

use hone_emulator::*;

use crate::cuda;

const SRC: &str = r#"
__device__ int helper(int x) { return x; }
__global__ void k(float *data, int n, float scale) {
    int i = threadIdx.x;
    if (i < n) data[i] *= scale;
}
__global__ void big_shared(float *out) {
    __shared__ float s[60000];
    s[threadIdx.x] = 0.0f;
    out[threadIdx.x] = s[threadIdx.x];
}
"#;

fn try_run(
    kernel: &str,
    cfg: LaunchConfig,
    args: &[KernelArg],
    bufs: &mut [Buffer],
) -> Result<Report, SetupError> {
    let m = cuda(SRC);
    run(&m, kernel, &cfg, args, bufs, &Options::default(), None)
}

fn floats() -> Vec<Buffer> {
    vec![
        Buffer::from_f32("data", &[1.0, 2.0, 3.0]),
        Buffer::from_i32("ints", &[1, 2, 3]),
    ]
}

#[test]
fn valid_launch_scales_in_place() {
    let mut bufs = floats();
    let r = try_run(
        "k",
        LaunchConfig::linear(1, 4),
        &[
            KernelArg::Buffer(0),
            KernelArg::Int(3),
            KernelArg::Float(2.0),
        ],
        &mut bufs,
    )
    .unwrap();
    assert!(r.is_clean());
    assert_eq!(bufs[0].to_f32_vec(), vec![2.0, 4.0, 6.0]);
}

#[test]
fn argument_errors_name_the_parameter() {
    let mut bufs = floats();
    let cfg = LaunchConfig::linear(1, 4);
    let e = try_run("k", cfg.clone(), &[KernelArg::Buffer(0)], &mut bufs).unwrap_err();
    assert_eq!(
        e,
        SetupError::ArgCount {
            kernel: "k".into(),
            expected: 3,
            got: 1
        }
    );
    let e = try_run(
        "k",
        cfg.clone(),
        &[KernelArg::Int(1), KernelArg::Int(3), KernelArg::Float(2.0)],
        &mut bufs,
    )
    .unwrap_err();
    assert!(
        matches!(&e, SetupError::ArgType { param, .. } if param == "data"),
        "{e}"
    );
    assert!(
        e.to_string().contains("`data`") || e.to_string().contains("data"),
        "{e}"
    );
    let e = try_run(
        "k",
        cfg.clone(),
        &[
            KernelArg::Buffer(0),
            KernelArg::Float(3.5),
            KernelArg::Float(2.0),
        ],
        &mut bufs,
    )
    .unwrap_err();
    assert!(
        matches!(&e, SetupError::ArgType { param, .. } if param == "n"),
        "{e}"
    );
    let e = try_run(
        "k",
        cfg.clone(),
        &[
            KernelArg::Buffer(1),
            KernelArg::Int(3),
            KernelArg::Float(2.0),
        ],
        &mut bufs,
    )
    .unwrap_err();
    assert!(
        matches!(&e, SetupError::ArgType { param, got, .. } if param == "data" && got.contains("ints")),
        "{e}"
    );
    let e = try_run(
        "k",
        cfg.clone(),
        &[
            KernelArg::Buffer(7),
            KernelArg::Int(3),
            KernelArg::Float(2.0),
        ],
        &mut bufs,
    )
    .unwrap_err();
    assert!(
        matches!(&e, SetupError::ArgType { param, .. } if param == "data"),
        "{e}"
    );
    let e = try_run(
        "k",
        cfg,
        &[
            KernelArg::Buffer(0),
            KernelArg::Int(1 << 40),
            KernelArg::Float(2.0),
        ],
        &mut bufs,
    )
    .unwrap_err();
    assert!(
        matches!(&e, SetupError::ArgType { param, .. } if param == "n"),
        "{e}"
    );
}

#[test]
fn zero_passes_a_null_pointer() {
    let src = r#"
__global__ void k(int *out, const int *opt) {
    out[threadIdx.x] = opt ? opt[threadIdx.x] : -1;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![
        Buffer::from_i32("out", &[0; 4]),
        Buffer::from_i32("opt", &[5, 6, 7, 8]),
    ];
    let cfg = LaunchConfig::linear(1, 4);
    let opts = Options::default();
    let r = run(
        &m,
        "k",
        &cfg,
        &[KernelArg::Buffer(0), KernelArg::Int(0)],
        &mut bufs,
        &opts,
        None,
    )
    .unwrap();
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(bufs[0].to_i32_vec(), vec![-1; 4]);
    let r = run(
        &m,
        "k",
        &cfg,
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
        &opts,
        None,
    )
    .unwrap();
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(bufs[0].to_i32_vec(), vec![5, 6, 7, 8]);
}

#[test]
fn kernel_and_launch_shape_errors() {
    let mut bufs = floats();
    let args = [
        KernelArg::Buffer(0),
        KernelArg::Int(3),
        KernelArg::Float(2.0),
    ];
    assert_eq!(
        try_run("nope", LaunchConfig::linear(1, 4), &args, &mut bufs).unwrap_err(),
        SetupError::UnknownKernel("nope".into())
    );
    assert!(matches!(
        try_run(
            "helper",
            LaunchConfig::linear(1, 4),
            &[KernelArg::Int(1)],
            &mut bufs
        )
        .unwrap_err(),
        SetupError::NotAKernel { .. }
    ));
    assert_eq!(
        try_run(
            "k",
            LaunchConfig::new([1, 1, 1], [32, 33, 1]),
            &args,
            &mut bufs
        )
        .unwrap_err(),
        SetupError::BlockTooLarge { threads: 1056 }
    );
    assert!(matches!(
        try_run(
            "k",
            LaunchConfig::new([0, 1, 1], [32, 1, 1]),
            &args,
            &mut bufs
        )
        .unwrap_err(),
        SetupError::BadDimensions { .. }
    ));
    assert_eq!(
        try_run(
            "big_shared",
            LaunchConfig::linear(1, 32),
            &[KernelArg::Buffer(0)],
            &mut bufs
        )
        .unwrap_err(),
        SetupError::SharedTooLarge {
            bytes: 240000,
            limit: SHARED_LIMIT
        }
    );
    assert!(matches!(
        try_run(
            "k",
            LaunchConfig::linear(1, 32).with_dynamic_shared(SHARED_LIMIT + 1),
            &args,
            &mut bufs
        )
        .unwrap_err(),
        SetupError::SharedTooLarge { .. }
    ));
}
