//! Hostile launches end with a clear error or fault that names the file, the
//! field or the limit (and the flag that raises it), never with a signal, an
//! abort or a process that does not stop.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("hone-limits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

const KERNELS: &str = r#"
__global__ void spin(int *out, int n) {
    int i = threadIdx.x;
    while (n > 0) { out[i] += 1; }
}
__global__ void copy(int *out, int n) {
    extern __shared__ int s[];
    s[threadIdx.x] = n;
    out[threadIdx.x] = s[threadIdx.x];
}
"#;

/// Writes the kernels and a launch file `name.json` of `kernel` with the
/// given grid, block and extra top-level fields.
fn launch(dir: &Path, name: &str, kernel: &str, shape: &str, extra: &str) -> PathBuf {
    std::fs::write(dir.join("k.cu"), KERNELS).unwrap();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(
        &path,
        format!(
            r#"{{"source": "k.cu", "kernel": "{kernel}", {shape}, {extra}
                "args": {{"out": {{"type": "int", "len": 32, "init": "zeros"}}, "n": 1}}}}"#
        ),
    )
    .unwrap();
    path
}

fn hone(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hone"))
        .args(args)
        .output()
        .unwrap()
}

/// Exited by itself (no signal) with `code`; standard output and error together.
fn exited(out: &Output, code: i32) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(code), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    text
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_buffer_of_a_trillion_elements_is_refused_not_allocated() {
    let dir = std::env::temp_dir().join(format!("hone-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let launch = dir.join("huge.json");
    let source = root().join("examples/stencil/stencil.cu");
    std::fs::write(
        &launch,
        format!(
            r#"{{"source": {:?}, "kernel": "stencil_kernel", "defines": {{"N": "64"}},
                "grid": [2, 2, 1], "block": [4, 4, 1],
                "args": {{"in": {{"type": "int", "len": 1000000000000, "init": "iota"}},
                          "out": {{"type": "int", "len": 64, "init": "zeros"}}, "nx": 8, "ny": 8}}}}"#,
            source.display().to_string()
        ),
    )
    .unwrap();
    for command in ["sim", "analyze", "gpu-run"] {
        for extra in [&[][..], &["--json"][..]] {
            let mut args = vec![command, s(&launch)];
            args.extend_from_slice(extra);
            let text = exited(&hone(&args), 2);
            assert!(
                text.contains("huge.json")
                    && text.contains("buffer `in`")
                    && text.contains("--max-memory"),
                "{command}: {text}"
            );
        }
    }
    // The limit is the user's to lower or raise, and counts every buffer: a
    // small one leaves too little for the rest.
    let stencil = root().join("examples/stencil/launch.json");
    let text = exited(&hone(&["sim", s(&stencil), "--max-memory", "300"]), 2);
    assert!(
        text.contains("launch.json") && text.contains("bytes of the memory limit left"),
        "{text}"
    );
    exited(&hone(&["sim", s(&stencil), "--max-memory", "1K"]), 0);
    let text = exited(&hone(&["sim", s(&stencil), "--max-memory", "12Q"]), 2);
    assert!(
        text.contains("--max-memory") && text.contains("suffix"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_endless_loop_stops_at_the_step_limit_naming_the_flag() {
    let dir = scratch("steps");
    let spin = launch(&dir.0, "spin", "spin", r#""grid": 1, "block": 32"#, "");
    let t = Instant::now();
    for command in ["sim", "analyze"] {
        let text = exited(&hone(&[command, s(&spin), "--max-steps", "20000"]), 1);
        assert!(
            text.contains("k.cu:4:") && text.contains("step limit of 20000"),
            "{command}: {text}"
        );
        assert!(text.contains("--max-steps"), "{command}: {text}");
    }
    let out = hone(&["sim", s(&spin), "--max-steps", "20000", "--json"]);
    let text = exited(&out, 1);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect(&text);
    assert!(
        v["faults"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("--max-steps")),
        "{v}"
    );
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
}

#[test]
fn an_endless_loop_stops_at_the_time_limit_naming_the_flag() {
    let dir = scratch("time");
    let spin = launch(&dir.0, "spin", "spin", r#""grid": 1, "block": 32"#, "");
    let t = Instant::now();
    let out = hone(&[
        "sim",
        s(&spin),
        "--max-steps",
        "1000000000000000",
        "--time-limit",
        "1",
    ]);
    let text = exited(&out, 1);
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    assert!(
        text.contains("time limit of 1 s") && text.contains("--time-limit"),
        "{text}"
    );
    let text = exited(&hone(&["sim", s(&spin), "--time-limit=-3"]), 2);
    assert!(text.contains("--time-limit"), "{text}");
}

#[test]
fn launches_past_cuda_limits_are_refused_naming_the_file_and_field() {
    let dir = scratch("shapes");
    let cases = [
        (r#""grid": 1, "block": [2048, 1, 1]"#, "", "`block`", "1024"),
        (
            r#""grid": 1, "block": [32, 32, 2]"#,
            "",
            "2048 threads",
            "1024",
        ),
        (r#""grid": [1, 70000], "block": 32"#, "", "`grid`", "65535"),
        (
            r#""grid": [4000000000, 1, 1], "block": 32"#,
            "",
            "`grid`",
            "2147483647",
        ),
        (
            r#""grid": 1, "block": 32"#,
            r#""dynamic_shared_bytes": 1000000000000,"#,
            "`dynamic_shared_bytes`",
            "232448",
        ),
        (r#""grid": 0, "block": 32"#, "", "`grid`", "zero"),
    ];
    for (i, (shape, extra, field, limit)) in cases.iter().enumerate() {
        let path = launch(&dir.0, &format!("shape{i}"), "copy", shape, extra);
        for command in ["sim", "analyze"] {
            let text = exited(&hone(&[command, s(&path)]), 2);
            assert!(
                text.contains(&format!("shape{i}.json"))
                    && text.contains(field)
                    && text.contains(limit),
                "{command} {shape}: {text}"
            );
        }
    }
    // Dynamic shared memory within the device's limit runs.
    let ok = launch(
        &dir.0,
        "fits",
        "copy",
        r#""grid": 1, "block": 32"#,
        r#""dynamic_shared_bytes": 232448,"#,
    );
    exited(&hone(&["sim", s(&ok)]), 0);
}

#[test]
fn malformed_launch_files_name_the_file_line_and_field() {
    let dir = scratch("malformed");
    std::fs::write(dir.0.join("k.cu"), KERNELS).unwrap();
    let cases = [
        (
            r#"{"source": "k.cu", "kernel": "copy", "grid": "many", "block": 32, "args": {}}"#,
            "`grid`",
        ),
        (
            r#"{"source": "k.cu", "kernel": "copy", "grid": 1, "block": 32,
                "args": {"out": {"type": "int", "len": -4}, "n": 1}}"#,
            "`args.out`",
        ),
        (
            r#"{"source": "k.cu", "kernel": "copy", "grid": 1, "block": 32, "args": {}, "bogus": 1}"#,
            "bogus",
        ),
        (
            r#"{"source": "k.cu", "kernel": "copy", "grid": 1, "block": 32,
                "args": {"out": {"type": "int", "len": 4, "init": "bogus"}, "n": 1}}"#,
            "buffer `out`: unknown init `bogus`",
        ),
        (
            r#"{"source": "k.cu", "kernel": "copy", "grid": 1, "block": 32,
                "args": {"out": {"type": "quaternion", "len": 4}, "n": 1}}"#,
            "argument `out`: unknown buffer type `quaternion`",
        ),
        (
            r#"{"source": "k.cu", "kernel": "copy", "grid": 1, "block": 32,
                "args": {"out": {"type": "int", "len": 4}, "n": 1.5}}"#,
            "argument `n`",
        ),
        (
            r#"{"source": "k.cu", "kernel": "copy", "grid": 1, "block": 32, "args": {} } }"#,
            "trailing characters",
        ),
        (r#"{"source": "k.cu", "kern"#, "EOF"),
    ];
    for (i, (text, what)) in cases.iter().enumerate() {
        let path = dir.0.join(format!("bad{i}.json"));
        std::fs::write(&path, text).unwrap();
        let out = exited(&hone(&["sim", s(&path)]), 2);
        assert!(
            out.contains(&format!("bad{i}.json")) && out.contains(what),
            "{text}: {out}"
        );
    }
    let path = dir.0.join("binary.json");
    std::fs::write(&path, [0xff, 0xfe, 0x00, 0x7b]).unwrap();
    let out = exited(&hone(&["sim", s(&path)]), 2);
    assert!(out.contains("binary.json"), "{out}");
}
