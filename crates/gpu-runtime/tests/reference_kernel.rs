//! A template checked against a reference kernel of its own source, on the
//! GPU: a right variant passes, a wrong one is a wrong answer naming the
//! reference, elements neither writes agree, and an output the variant adds
//! into starts at zero for both. Skips with a message where there is no GPU.

use hone_gpu::template::{KernelTemplate, TemplateSpec};
use hone_gpu::{
    EvalOptions, EvalRequest, GpuError, GpuSession, ModuleCache, ModuleSource, Outcome,
};
use hone_tuner::InvalidKind;

const SOURCE: &str = r#"
// out[i] = a * in[i] for even i (odd elements are never written); sums[i / 64]
// gets the sum of its 64 inputs' squares, added up in any order (BUG = 1 gets
// element 6 wrong).
extern "C" __global__ void scaled(const float *in, float *out, float *sums, int n, float a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (i % 2 == 0) out[i] = a * in[i] + ((BUG == 1 && i == 6) ? 1.0f : 0.0f);
    atomicAdd(&sums[i / 64], in[i] * in[i]);
}
extern "C" __global__ void scaled_reference(const float *in, float *out, float *sums, int n, float a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (i % 2 == 0) out[i] = a * in[i];
    if (i % 64 == 0) {
        float s = 0.0f;
        for (int j = i; j < i + 64 && j < n; ++j) s += in[j] * in[j];
        sums[i / 64] = s;
    }
}
"#;

fn template() -> KernelTemplate {
    let spec: TemplateSpec = serde_json::from_value(serde_json::json!({
        "name": "scaled",
        "source": "scaled.cu",
        "kernel": "scaled",
        "params": {"BS": [128], "BUG": [0, 1]},
        "grid": ["cdiv(N, BS)"],
        "block": ["BS"],
        "buffers": [
            {"name": "in", "type": "f32", "len": "N", "init": "random"},
            {"name": "out", "type": "f32", "len": "N", "init": "output"},
            {"name": "sums", "type": "f32", "len": "cdiv(N, 64)", "init": "zero"}
        ],
        "args": ["in", "out", "sums", {"expr": "N", "type": "i32"}, {"value": 2.5, "type": "f32"}],
        "bytes": "8 * N",
        "reference": {
            "builtin": "kernel", "kernel": "scaled_reference",
            "grid": ["cdiv(N, 256)"], "block": ["256"],
            "inputs": [], "outputs": ["out", "sums"]
        },
        "tolerance": 1e-4
    }))
    .unwrap();
    KernelTemplate::new(spec, SOURCE.to_string()).unwrap()
}

fn evaluate(session: &mut GpuSession, bug: i64) -> Outcome {
    let req = EvalRequest {
        template: template(),
        config: [("BS".to_string(), 128), ("BUG".to_string(), bug)].into(),
        n: 100_000,
        module: ModuleSource::Compile,
        options: EvalOptions::default(),
    };
    session.evaluate(&req, &mut |_| {}).unwrap().0
}

#[test]
fn a_reference_kernel_checks_the_variant_on_the_gpu() {
    let dir = tempfile_dir();
    let mut session = match GpuSession::open(0, ModuleCache::new(dir)) {
        Ok(s) => s,
        Err(GpuError::NoDevice(e)) => {
            eprintln!("skipped: no CUDA device ({e})");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    match evaluate(&mut session, 0) {
        Outcome::Valid(m) => assert!(m.max_rel_err.is_some_and(|e| e <= 1e-4), "{m:?}"),
        other => panic!("the right variant failed: {other:?}"),
    }
    match evaluate(&mut session, 1) {
        Outcome::Invalid { kind, reason } => {
            assert_eq!(kind, InvalidKind::WrongAnswer, "{reason}");
            assert!(
                reason.contains("`out`") && reason.contains("scaled_reference"),
                "{reason}"
            );
        }
        other => panic!("the wrong variant passed: {other:?}"),
    }
}

fn tempfile_dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("hone-reference-kernel-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}
