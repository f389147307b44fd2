//! `hone sim` end to end: the bundled examples, planted bugs, and bad input.

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{hone_with, root, Outcome};

fn hone(args: &[&str]) -> Outcome {
    hone_with(args, &[])
}

fn sim_json(launch: &str) -> (i32, Value) {
    let o = hone(&["sim", launch, "--json"]);
    (o.code, o.json())
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn stencil_reference(nx: usize, ny: usize) -> Vec<i64> {
    let a: Vec<i64> = (0..(nx * ny) as i64).collect();
    hone_testkit::stencil5_reference(&a, nx, ny)
}

#[test]
fn bundled_stencil_examples_agree_with_the_reference() {
    for launch in [
        "examples/stencil/launch.json",
        "examples/stencil/launch_shared.json",
    ] {
        let (code, v) = sim_json(launch);
        assert_eq!(code, 0, "{launch}: {v}");
        assert_eq!(
            ints(&v["buffers"]["out"]),
            stencil_reference(8, 8),
            "{launch}"
        );
        assert_eq!(v["races"].as_array().unwrap().len(), 0, "{launch}");
        assert_eq!(v["faults"].as_array().unwrap().len(), 0, "{launch}");
        assert!(v["stats"]["threads"].as_u64().unwrap() == 64);
    }
    // Human output names the buffer and the counts.
    let o = hone(&["sim", "examples/stencil/launch.json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("out = [9,"), "{}", o.stdout);
}

#[test]
fn polybench_style_file_runs_each_kernel() {
    let (code, v) = sim_json("examples/polybench/mm2_kernel1.json");
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["buffers"]["tmp"].as_array().unwrap().len(), 48 * 40);

    // With known inputs, compare against a CPU product.
    let dir = tempdir();
    let (ni, nj, nk) = (48usize, 40usize, 24usize);
    let a: Vec<f64> = (0..ni * nk).map(|i| ((i * 7) % 13) as f64 / 4.0).collect();
    let b: Vec<f64> = (0..nk * nj).map(|i| ((i * 5) % 11) as f64 / 8.0).collect();
    let launch = serde_json::json!({
        "source": root().join("examples/polybench/mm2.cu"),
        "kernel": "mm2_kernel1",
        "defines": {"NI": ni.to_string(), "NJ": nj.to_string(), "NK": nk.to_string(), "NL": "32"},
        "grid": [2, 6, 1], "block": [32, 8, 1],
        "args": {
            "A": {"type": "float", "len": ni * nk, "init": {"values": a}},
            "B": {"type": "float", "len": nk * nj, "init": {"values": b}},
            "tmp": {"type": "float", "len": ni * nj}
        },
        "dump": ["tmp"]
    });
    let path = dir.join("mm2.json");
    std::fs::write(&path, launch.to_string()).unwrap();
    let (code, v) = sim_json(path.to_str().unwrap());
    assert_eq!(code, 0, "{v}");
    let got = floats(&v["buffers"]["tmp"]);
    for i in 0..ni {
        for j in 0..nj {
            let want: f64 = (0..nk).map(|k| a[i * nk + k] * b[k * nj + j]).sum();
            // Inputs are multiples of 1/8 below 4: every partial sum is exact in float.
            assert_eq!(got[i * nj + j], want, "tmp[{i}][{j}]");
        }
    }

    let (code, v) = sim_json("examples/polybench/atax_kernel2.json");
    assert_eq!(code, 0, "{v}");
    assert_eq!(floats(&v["buffers"]["y"]).len(), 40);
}

fn tempdir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hone-sim-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn location_lines(items: &Value) -> Vec<String> {
    let mut out = vec![];
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(l)) = m.get("location") {
                    out.push(l.clone());
                }
                m.values().for_each(|c| walk(c, out));
            }
            Value::Array(a) => a.iter().for_each(|c| walk(c, out)),
            _ => {}
        }
    }
    walk(items, &mut out);
    out
}

fn at_line(locations: &[String], line: u32) -> bool {
    locations
        .iter()
        .any(|l| l.contains(&format!("bugs.cu:{line}:")))
}

#[test]
fn planted_out_of_bounds_is_a_fault_at_its_line() {
    let (code, v) = sim_json("examples/bugs/off_by_one.json");
    assert_eq!(code, 1, "{v}");
    let faults = &v["faults"];
    assert!(!faults.as_array().unwrap().is_empty());
    assert!(at_line(&location_lines(faults), 8), "{faults}");
    let text = faults.to_string();
    assert!(
        text.contains("in") && text.contains("100"),
        "the fault names the array and index: {text}"
    );
}

#[test]
fn planted_races_are_reported_with_both_sites() {
    let (code, v) = sim_json("examples/bugs/missing_barrier.json");
    assert_eq!(code, 0, "races alone do not fail the run: {v}");
    let races = v["races"].as_array().unwrap();
    assert!(!races.is_empty(), "{v}");
    let locs = location_lines(&v["races"]);
    assert!(at_line(&locs, 17) && at_line(&locs, 18), "{locs:?}");
    assert!(races.iter().any(|r| r["array"] == "tile"));

    let o = hone(&["sim", "examples/bugs/missing_barrier.json", "--deny-races"]);
    assert_eq!(o.code, 1);

    let (code, v) = sim_json("examples/bugs/with_barrier.json");
    assert_eq!(code, 0);
    assert_eq!(v["races"].as_array().unwrap().len(), 0, "{v}");
    let want: Vec<i64> = (0..128).map(|i| (i / 64) * 64 + 63 - i % 64).collect();
    assert_eq!(ints(&v["buffers"]["out"]), want);

    let (_, v) = sim_json("examples/bugs/last_block_wins.json");
    assert!(at_line(&location_lines(&v["races"]), 33), "{v}");
    assert!(v["races"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["array"] == "flag"));

    let (_, v) = sim_json("examples/bugs/in_place_smooth.json");
    assert!(at_line(&location_lines(&v["races"]), 42), "{v}");

    let (code, v) = sim_json("examples/bugs/atomic_count.json");
    assert_eq!(code, 0);
    assert_eq!(
        v["races"].as_array().unwrap().len(),
        0,
        "atomics do not race: {v}"
    );
    assert_eq!(ints(&v["buffers"]["count"]), vec![256]);
}

#[test]
fn planted_barrier_divergence_and_uninitialised_shared_reads() {
    let (code, v) = sim_json("examples/bugs/half_barrier.json");
    assert_eq!(code, 1, "{v}");
    assert!(at_line(&location_lines(&v["faults"]), 50), "{v}");
    assert!(
        v["faults"].to_string().to_lowercase().contains("barrier"),
        "{v}"
    );

    let (code, v) = sim_json("examples/bugs/uninitialised_shared.json");
    assert_eq!(code, 0, "{v}");
    assert!(at_line(&location_lines(&v["warnings"]), 63), "{v}");
}

fn write_launch(dir: &Path, name: &str, launch: Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, launch.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn bad_input_exits_2_with_a_message_naming_the_problem() {
    let dir = tempdir();
    let src = root().join("examples/stencil/stencil.cu");
    let base = |kernel: &str, args: Value| serde_json::json!({"source": src, "kernel": kernel, "grid": [2, 2], "block": [4, 4], "args": args, "dump": []});
    let good_args = serde_json::json!({"in": {"type": "int", "len": 64}, "out": {"type": "int", "len": 64}, "nx": 8, "ny": 8});

    let cases = [
        (base("no_such_kernel", good_args.clone()), "no_such_kernel"),
        (
            base(
                "stencil_kernel",
                serde_json::json!({"in": {"type": "int", "len": 64}, "out": {"type": "int", "len": 64}, "nx": 8}),
            ),
            "`ny`",
        ),
        (
            base(
                "stencil_kernel",
                serde_json::json!({"in": {"type": "int", "len": 64}, "out": {"type": "int", "len": 64}, "nx": 8, "ny": 8, "nz": 1}),
            ),
            "`nz`",
        ),
        (
            base(
                "stencil_kernel",
                serde_json::json!({"in": 3, "out": {"type": "int", "len": 64}, "nx": 8, "ny": 8}),
            ),
            "`in`",
        ),
        (
            base(
                "stencil_kernel",
                serde_json::json!({"in": {"type": "int", "len": 64}, "out": {"type": "int", "len": 64}, "nx": {"type": "int", "len": 1}, "ny": 8}),
            ),
            "`nx`",
        ),
        (
            base(
                "stencil_kernel",
                serde_json::json!({"in": {"type": "float", "len": 64}, "out": {"type": "int", "len": 64}, "nx": 8, "ny": 8}),
            ),
            "`in`",
        ),
    ];
    for (i, (launch, needle)) in cases.into_iter().enumerate() {
        let path = write_launch(&dir, &format!("bad{i}.json"), launch);
        let o = hone(&["sim", &path]);
        assert_eq!(o.code, 2, "case {i}: {}{}", o.stdout, o.stderr);
        assert!(
            o.stderr.contains(needle),
            "case {i}: expected {needle} in: {}",
            o.stderr
        );
    }

    let o = hone(&["sim", "examples/does-not-exist.json"]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("does-not-exist.json"), "{}", o.stderr);

    let path = write_launch(&dir, "syntax.json", Value::String("{ not json".into()));
    std::fs::write(&path, "{\n  \"source\": 3,\n").unwrap();
    let o = hone(&["sim", &path]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("syntax.json"), "{}", o.stderr);

    let missing_source = base("stencil_kernel", good_args);
    let mut missing_source = missing_source.as_object().unwrap().clone();
    missing_source.insert("source".into(), Value::String("nowhere.cu".into()));
    let path = write_launch(&dir, "nosrc.json", Value::Object(missing_source));
    let o = hone(&["sim", &path]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("nowhere.cu"), "{}", o.stderr);
}

#[test]
fn unsupported_constructs_are_diagnosed_and_other_kernels_still_run() {
    let dir = tempdir();
    let src = dir.join("mixed.cu");
    std::fs::write(
        &src,
        "template <typename T> __global__ void tk(T *a) { a[0] = 1; }\n\
         __global__ void uses_asm(int *a) { asm(\"trap;\"); }\n\
         __global__ void fine(int *a) { a[threadIdx.x] = threadIdx.x * 2; }\n",
    )
    .unwrap();
    let o = hone(&["parse", src.to_str().unwrap()]);
    assert_eq!(o.code, 2, "{}", o.stdout);
    assert!(
        o.stdout.contains("mixed.cu:1:"),
        "template diagnosed at line 1: {}",
        o.stdout
    );
    assert!(
        o.stdout.contains("mixed.cu:2:"),
        "asm diagnosed at line 2: {}",
        o.stdout
    );
    assert!(o.stdout.contains("fine("), "{}", o.stdout);

    let path = write_launch(
        &dir,
        "fine.json",
        serde_json::json!({"source": "mixed.cu", "kernel": "fine", "grid": 1, "block": 8,
                           "args": {"a": {"type": "int", "len": 8}}, "dump": ["a"]}),
    );
    let (code, v) = sim_json(&path);
    assert_eq!(code, 0, "{v}");
    assert_eq!(ints(&v["buffers"]["a"]), vec![0, 2, 4, 6, 8, 10, 12, 14]);
}

#[test]
fn a_launch_file_names_a_template_instance() {
    // `window<int, 2>` is launched by no host code: the launch file's name
    // makes the instance (W = 2, NEGATE defaulted to false).
    let launch = hone_testkit::corpus("frontend/window_int_2.json");
    let (code, v) = sim_json(launch.to_str().unwrap());
    assert_eq!(code, 0, "{v}");
    let want: Vec<i64> = (0..20)
        .map(|i| if i + 2 <= 20 { 2 * (i + i + 1) } else { 0 })
        .collect();
    assert_eq!(ints(&v["buffers"]["out"]), want);
}

#[test]
fn symbols_set_constant_memory_and_dump_shows_device_variables() {
    let dir = tempdir();
    let src = root().join("tests/corpus/cpp/globals.cu");
    let launch = |dump: Value| {
        serde_json::json!({"source": src, "kernel": "count", "grid": 1, "block": 64,
            "args": {"out": {"type": "float", "len": 64}},
            "symbols": {"history": {"init": {"values": [5, 0, 0, 0, 0, 0, 0, 0]}}},
            "dump": dump})
    };
    let path = write_launch(
        &dir,
        "symbols.json",
        launch(serde_json::json!(["out", "counter", "history"])),
    );
    let (code, v) = sim_json(&path);
    assert_eq!(code, 0, "{v}");
    assert_eq!(ints(&v["buffers"]["counter"]), vec![1]);
    // history[0] came from the launch file, history[7] from the kernel.
    assert_eq!(
        floats(&v["buffers"]["history"]),
        vec![5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 42.0]
    );
    assert_eq!(floats(&v["buffers"]["out"])[0], 63.0 + 5.0);

    let bad = write_launch(&dir, "bad.json", launch(serde_json::json!(["tile"])));
    let o = hone(&["sim", &bad]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("`dump` names `tile`, which is neither a buffer argument"),
        "{}",
        o.stderr
    );
}
