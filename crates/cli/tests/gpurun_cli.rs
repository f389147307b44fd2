//! `hone gpu-run` end to end. Without a usable GPU it must say so and exit 2
//! (checked everywhere by hiding every device from the driver); bad launch
//! files are reported as bad input before any device is needed; and where a
//! GPU is present, its buffers must equal the emulator's.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

fn hone(args: &[&str], hide_devices: bool) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hone"));
    cmd.args(args).current_dir(root());
    if hide_devices {
        // An empty list leaves the driver no device to open.
        cmd.env("CUDA_VISIBLE_DEVICES", "");
    }
    let out = cmd.output().expect("hone runs");
    Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    }
}

#[test]
fn without_a_device_it_says_so_and_exits_2() {
    let o = hone(
        &["gpu-run", "examples/analyze/misaligned.json", "--json"],
        true,
    );
    assert_eq!(o.code, 2, "stdout: {}\nstderr: {}", o.stdout, o.stderr);
    assert!(
        o.stderr.starts_with("no CUDA device: "),
        "stderr: {}",
        o.stderr
    );
    assert!(o.stdout.is_empty(), "nothing on stdout: {}", o.stdout);
}

#[test]
fn bad_launch_files_are_bad_input_even_without_a_device() {
    let dir = std::env::temp_dir().join(format!("hone-gpurun-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = root().join("examples/analyze/misaligned.cu");
    let launch = dir.join("wrong_kernel.json");
    std::fs::write(
        &launch,
        format!(
            r#"{{"source": {:?}, "kernel": "no_such_kernel", "grid": 1, "block": 32, "args": {{}}}}"#,
            source.to_str().unwrap()
        ),
    )
    .unwrap();
    let o = hone(&["gpu-run", launch.to_str().unwrap()], true);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("kernel `no_such_kernel` not found") && o.stderr.contains("shift_copy"),
        "stderr: {}",
        o.stderr
    );
    assert!(!o.stderr.contains("no CUDA device"), "{}", o.stderr);

    let o = hone(&["gpu-run", "examples/analyze/missing.json"], true);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("cannot read launch file"), "{}", o.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn on_a_gpu_the_dumped_buffers_equal_the_emulators() {
    // Integer kernels, so the comparison is exact.
    let launches = [
        "examples/analyze/figure6.json",
        "examples/stencil/launch.json",
    ];
    let o = hone(&["gpu-run", launches[0], launches[1], "--json"], false);
    if o.code == 2 && o.stderr.starts_with("no CUDA device: ") {
        eprintln!("no GPU here: {}", o.stderr.trim());
        return;
    }
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    let gpu: Value = serde_json::from_str(&o.stdout).expect("JSON");
    let runs = gpu.as_array().expect("an array for several launch files");
    assert_eq!(runs.len(), 2);
    for (launch, run) in launches.iter().zip(runs) {
        let sim = hone(&["sim", launch, "--json"], false);
        assert_eq!(sim.code, 0, "{}", sim.stderr);
        let sim: Value = serde_json::from_str(&sim.stdout).unwrap();
        assert!(!sim["buffers"].as_object().unwrap().is_empty());
        assert_eq!(run["buffers"], sim["buffers"], "{launch}");
    }
}
