//! `hone gpu-run` end to end. Without a usable GPU it must say so and exit 2
//! (checked everywhere by hiding every device from the driver); bad launch
//! files are reported as bad input before any device is needed; and where a
//! GPU is present, its buffers must equal the emulator's.

mod support;

use std::path::PathBuf;

use serde_json::Value;
use support::{hone_with, root, Outcome};

fn hone(args: &[&str], hide_devices: bool) -> Outcome {
    // An empty list leaves the driver no device to open.
    let env: &[(&str, &str)] = if hide_devices {
        &[("CUDA_VISIBLE_DEVICES", "")]
    } else {
        &[]
    };
    hone_with(args, env)
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
    // Integer kernels, one float addition of `__constant__` contents the
    // launch file sets (`symbols`), and float operations each rounded once
    // in a named mode, so the comparison is exact.
    let launches = [
        "examples/analyze/figure6.json",
        "examples/stencil/launch.json",
        "tests/corpus/cpp/launch/gather.json",
        // A struct passed by value, whose bytes the GPU receives.
        "tests/corpus/cpp/launch/by_value.json",
        // Half precision, emulated in integer arithmetic on both sides.
        "tests/corpus/cpp/launch/half2_dot.json",
        // Pointers in a buffer and in `__constant__` structs, relocated to
        // the device's addresses and back.
        "tests/corpus/cpp/launch/pointers.json",
        // Arithmetic in the four rounding modes (`__fadd_rd`, `__fmaf_ru`...).
        "tests/corpus/cpp/launch/rounding.json",
    ];
    let o = hone(&[&["gpu-run"], &launches[..], &["--json"]].concat(), false);
    if o.code == 2 && o.stderr.starts_with("no CUDA device: ") {
        eprintln!("no GPU here: {}", o.stderr.trim());
        return;
    }
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    let gpu: Value = serde_json::from_str(&o.stdout).expect("JSON");
    let runs = gpu.as_array().expect("an array for several launch files");
    assert_eq!(runs.len(), launches.len());
    for (launch, run) in launches.iter().zip(runs) {
        let sim = hone(&["sim", launch, "--json"], false);
        assert_eq!(sim.code, 0, "{}", sim.stderr);
        let sim: Value = serde_json::from_str(&sim.stdout).unwrap();
        assert!(!sim["buffers"].as_object().unwrap().is_empty());
        assert_eq!(run["buffers"], sim["buffers"], "{launch}");
    }
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hone-gpurun-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

#[test]
fn input_save_and_compare_are_checked_before_any_device() {
    // misaligned.json: `in` holds 257 floats, `out` (dumped) 256.
    let s = Scratch::new("args");
    std::fs::write(s.path("short.bin"), [0u8; 12]).unwrap();
    std::fs::write(s.path("in.bin"), vec![0u8; 257 * 4]).unwrap();
    std::fs::create_dir_all(s.path("ref")).unwrap();
    std::fs::write(s.path("ref/out.bin"), vec![0u8; 255 * 4]).unwrap();
    let launch = "examples/analyze/misaligned.json";
    let cases: [(Vec<String>, &str); 6] = [
        (
            vec!["--input".into(), "in".into()],
            "--input `in`: expected NAME=FILE",
        ),
        (
            vec!["--input".into(), format!("nope={}", s.path("in.bin"))],
            "has no buffer `nope`",
        ),
        (
            vec!["--input".into(), format!("in={}", s.path("short.bin"))],
            "holds 12 bytes, buffer `in` takes 1028",
        ),
        (
            vec!["--compare".into(), s.path("missing")],
            "cannot read reference",
        ),
        (
            vec!["--compare".into(), s.path("ref")],
            "holds 1020 bytes, buffer `out` has 1024",
        ),
        (
            vec![
                "examples/analyze/figure6.json".into(),
                "--save".into(),
                s.path("saved"),
            ],
            "take a single launch file",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["gpu-run", launch];
        args.extend(extra.iter().map(String::as_str));
        let o = hone(&args, true);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(message), "{args:?}: {}", o.stderr);
        assert!(!o.stderr.contains("no CUDA device"), "{}", o.stderr);
    }
    assert!(!std::path::Path::new(&s.path("saved")).exists());

    let o = hone(&["gpu-run", launch, "--time", "0"], true);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("--time"), "{}", o.stderr);

    // Well-formed: only the missing device stops it.
    let input = format!("in={}", s.path("in.bin"));
    std::fs::write(s.path("ref/out.bin"), vec![0u8; 256 * 4]).unwrap();
    let o = hone(
        &[
            "gpu-run",
            launch,
            "--input",
            &input,
            "--compare",
            &s.path("ref"),
            "--time",
            "5",
            "--no-dump",
        ],
        true,
    );
    assert_eq!(o.code, 2);
    assert!(o.stderr.starts_with("no CUDA device: "), "{}", o.stderr);
}

#[test]
fn on_a_gpu_a_saved_run_compares_equal_to_itself_and_is_timed() {
    let s = Scratch::new("save");
    let launch = "examples/analyze/figure6.json";
    let saved = s.path("saved");
    let o = hone(&["gpu-run", launch, "--save", &saved, "--no-dump"], false);
    if o.code == 2 && o.stderr.starts_with("no CUDA device: ") {
        eprintln!("no GPU here: {}", o.stderr.trim());
        return;
    }
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    assert!(
        o.stdout.is_empty(),
        "no values with --no-dump: {}",
        o.stdout
    );
    let sim = hone(&["sim", launch, "--json"], false);
    let sim: Value = serde_json::from_str(&sim.stdout).unwrap();
    let d_b: Vec<u8> = sim["buffers"]["d_B"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|v| (v.as_i64().unwrap() as i32).to_le_bytes())
        .collect();
    assert_eq!(std::fs::read(s.0.join("saved/d_B.bin")).unwrap(), d_b);

    let o = hone(
        &[
            "gpu-run",
            launch,
            "--compare",
            &saved,
            "--time",
            "4",
            "--json",
            "--no-dump",
        ],
        false,
    );
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    let run: Value = serde_json::from_str(&o.stdout).unwrap();
    assert!(run.get("buffers").is_none());
    assert_eq!(run["time_ms"]["runs"], 4);
    assert!(run["time_ms"]["median"].as_f64().unwrap() > 0.0);
    let cmp = run["compare"].as_object().unwrap();
    assert_eq!(cmp.len(), 4);
    for (name, c) in cmp {
        assert_eq!(c["differing"], 0, "{name}");
        assert_eq!(c["elements"], 256, "{name}");
    }
}

#[test]
fn on_a_gpu_without_fma_contraction_floats_equal_the_emulators_and_printf_leaves_the_json_alone() {
    // `x * y + z` rounds twice in the emulator; contracted into an FMA the
    // GPU would round once. The kernel also prints, which must not reach the JSON.
    let dir = Scratch::new("nofmad");
    std::fs::write(
        dir.path("k.cu"),
        "__global__ void mad(const float *x, const float *y, float *out, int n) {\n\
         \x20   int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
         \x20   if (i == 0) printf(\"mad of %d\\n\", n);\n\
         \x20   if (i < n) out[i] = x[i] * y[i] + out[i];\n\
         }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path("k.json"),
        r#"{"source": "k.cu", "kernel": "mad", "grid": [4], "block": [256],
            "args": {"x": {"type": "float", "len": 1024, "init": {"random": 1}},
                     "y": {"type": "float", "len": 1024, "init": {"random": 2}},
                     "out": {"type": "float", "len": 1024, "init": {"random": 3}},
                     "n": 1024},
            "dump": ["out"]}"#,
    )
    .unwrap();
    let launch = dir.path("k.json");
    let o = hone(&["gpu-run", &launch, "--json", "--no-fmad"], false);
    if o.code == 2 && o.stderr.starts_with("no CUDA device: ") {
        eprintln!("no GPU here: {}", o.stderr.trim());
        return;
    }
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    assert!(o.stderr.contains("mad of 1024"), "{}", o.stderr);
    let gpu: Value = serde_json::from_str(&o.stdout).expect("stdout is the JSON alone");
    let sim = hone(&["sim", &launch, "--json"], false);
    assert_eq!(sim.code, 0, "{}", sim.stderr);
    let sim: Value = serde_json::from_str(&sim.stdout).unwrap();
    assert_eq!(sim["printed"], "mad of 1024\n");
    assert_eq!(gpu["buffers"], sim["buffers"]);
}
