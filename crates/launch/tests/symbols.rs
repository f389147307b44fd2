//! Launch files with struct buffers and `symbols` for file-scope variables.

use std::path::PathBuf;

mod common;

use common::run;
use hone_launch::Launch;

const SOURCE: &str = r#"
struct Pair { int key; float value; };
__constant__ float weights[3] = {1.0f, 2.0f, 3.0f};
__constant__ int shift;
__shared__ float tile[32];

__global__ void weigh(const Pair *in, float *out) {
    int i = threadIdx.x;
    tile[i] = in[i].value * weights[in[i].key % 3];
    __syncthreads();
    out[i] = tile[i] + shift;
}
"#;

/// A folder holding the kernel and a launch file with `symbols`.
fn launch_dir(name: &str, symbols: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hone-launch-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.cu"), SOURCE).unwrap();
    let launch = format!(
        r#"{{"source": "k.cu", "kernel": "weigh", "grid": 1, "block": 4,
            "args": {{"in": {{"type": "Pair", "len": 4,
                              "init": {{"values": [0, 1.5, 1, 2.5, 2, 3.5, 4, 4.5]}}}},
                     "out": {{"type": "float", "len": 4}}}},
            "symbols": {symbols},
            "dump": ["out"]}}"#
    );
    std::fs::write(dir.join("launch.json"), launch).unwrap();
    dir
}

#[test]
fn struct_buffers_and_symbols_reach_the_kernel() {
    let dir = launch_dir(
        "ok",
        r#"{"weights": {"init": {"values": [10, 20, 30]}}, "shift": {"init": {"values": [100]}}}"#,
    );
    let launch = Launch::read(&dir.join("launch.json")).unwrap();
    let parsed = launch.parse().unwrap();
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let kernel = launch.kernel(&parsed).unwrap();
    let mut data = launch.data(kernel).unwrap();
    // Pair is {int key; float value;}: 8 bytes, member by member.
    assert_eq!(data.buffers[0].data.len(), 32);
    assert_eq!(&data.buffers[0].data[8..12], &1i32.to_le_bytes());
    assert_eq!(&data.buffers[0].data[12..16], &2.5f32.to_le_bytes());
    let r = run(&parsed, "weigh", &mut data);
    assert!(r.is_clean(), "{r:?}");
    assert_eq!(
        data.buffers[1].to_f32_vec(),
        vec![115.0, 150.0, 205.0, 190.0]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn symbols_name_only_constant_and_device_variables() {
    for (name, symbols, want) in [
        ("unknown", r#"{"bias": {"init": "zeros"}}"#, "`bias`, which is not a `__constant__` or `__device__` variable of the module (it has: weights, shift)"),
        ("shared", r#"{"tile": {"init": "zeros"}}"#, "`tile`, a `__shared__` variable the host cannot set"),
        ("count", r#"{"weights": {"init": {"values": [1, 2]}}}"#, "`weights`: 2 values given for 1 elements of 3 scalars"),
    ] {
        let dir = launch_dir(name, symbols);
        let launch = Launch::read(&dir.join("launch.json")).unwrap();
        let parsed = launch.parse().unwrap();
        let kernel = launch.kernel(&parsed).unwrap();
        let data = launch.data(kernel).unwrap();
        let err = data.symbols(&parsed.module).unwrap_err().to_string();
        assert!(err.contains(want), "{name}: {err}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_struct_parameter_by_value_is_one_element() {
    let dir = std::env::temp_dir().join(format!("hone-launch-byval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("k.cu"),
        "struct P { int n; float s; };\n\
         __global__ void k(P p, float *out) { if (threadIdx.x < p.n) out[threadIdx.x] = p.s; }\n",
    )
    .unwrap();
    for (len, ok) in [(1, true), (2, false)] {
        std::fs::write(
            dir.join("launch.json"),
            format!(
                r#"{{"source": "k.cu", "kernel": "k", "grid": 1, "block": 4,
                    "args": {{"p": {{"type": "P", "len": {len}, "init": {{"values": [3, 2.5{}]}}}},
                             "out": {{"type": "float", "len": 4}}}}}}"#,
                if len == 2 { ", 0, 0" } else { "" }
            ),
        )
        .unwrap();
        let launch = Launch::read(&dir.join("launch.json")).unwrap();
        let parsed = launch.parse().unwrap();
        let kernel = launch.kernel(&parsed).unwrap();
        let data = launch.data(kernel);
        if !ok {
            let e = data.err().unwrap().to_string();
            assert!(e.contains("one `P` passed by value"), "{e}");
            continue;
        }
        let mut data = data.unwrap();
        let r = run(&parsed, "k", &mut data);
        assert!(r.is_clean(), "{r:?}");
        assert_eq!(data.buffers[1].to_f32_vec(), vec![2.5, 2.5, 2.5, 0.0]);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_offset_passes_a_pointer_into_the_buffer() {
    let dir = std::env::temp_dir().join(format!("hone-launch-offset-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // As host code that keeps `s_raw` and passes `s = s_raw + 1`, so that
    // `s[-1]` is in bounds.
    std::fs::write(
        dir.join("k.cu"),
        "__global__ void k(const int *s, int *out) { out[threadIdx.x] = s[(int)threadIdx.x - 1]; }\n",
    )
    .unwrap();
    for (offset, expect) in [
        (1, Ok(vec![0, 1, 2, 3])),
        (0, Err("out-of-bounds")),
        (9, Err("past the buffer")),
    ] {
        std::fs::write(
            dir.join("launch.json"),
            format!(
                r#"{{"source": "k.cu", "kernel": "k", "grid": 1, "block": 4,
                    "args": {{"s": {{"type": "int", "len": 5, "init": "iota", "offset": {offset}}},
                             "out": {{"type": "int", "len": 4}}}}}}"#
            ),
        )
        .unwrap();
        let launch = Launch::read(&dir.join("launch.json")).unwrap();
        let parsed = launch.parse().unwrap();
        let kernel = launch.kernel(&parsed).unwrap();
        let data = launch.data(kernel);
        let mut data = match (data, &expect) {
            (Err(e), Err(what)) => {
                assert!(e.to_string().contains(what), "{e}");
                continue;
            }
            (d, _) => d.unwrap(),
        };
        let r = run(&parsed, "k", &mut data);
        match expect {
            Ok(v) => {
                assert!(r.is_clean(), "{r:?}");
                assert_eq!(data.buffers[1].to_i32_vec(), v);
            }
            Err(what) => {
                let faults = format!("{:?}", r.faults);
                assert!(faults.to_lowercase().contains(what), "{faults}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
