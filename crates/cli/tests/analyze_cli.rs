//! `hone analyze` end to end: the bundled examples against their expected
//! reports (examples/analyze/expected/), the JSON shape, diagrams, and bad input.
//! Set HONE_BLESS=1 to rewrite the expected reports after a deliberate change.

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{hone_with, root, scratch, Outcome};

/// `hone analyze` counting the source's accesses, so that the expected
/// figures do not depend on which NVRTC and nvdisasm the machine has (the
/// compiled counts are checked in `analyze_compiled.rs`).
fn hone(args: &[&str]) -> Outcome {
    hone_with(&[&["analyze", "--source-model"], args].concat(), &[])
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let o = hone(&all);
    assert_eq!(o.code, 0, "{}", o.stderr);
    serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", o.stdout))
}

fn site<'a>(v: &'a Value, line: u64, expression: &str) -> &'a Value {
    v["sites"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["line"] == line && s["expression"] == expression)
        .unwrap_or_else(|| panic!("no site {expression} on line {line}"))
}

/// Every launch file under examples/analyze has an expected human report
/// (the sm90 model, and for the paper's figures the cc11 model too).
#[test]
fn bundled_examples_give_their_expected_reports() {
    let dir = root().join("examples/analyze");
    let mut launches: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    launches.sort();
    assert!(launches.len() >= 10, "{launches:?}");
    let mut checked = 0;
    for launch in &launches {
        let stem = launch.file_stem().unwrap().to_string_lossy().to_string();
        let models: &[&str] = if stem.starts_with("figure") {
            &["sm90", "cc11"]
        } else {
            &["sm90"]
        };
        for model in models {
            let rel = Path::new("examples/analyze").join(launch.file_name().unwrap());
            let o = hone(&[rel.to_str().unwrap(), "--model", model]);
            assert_eq!(o.code, 0, "{stem}: {}", o.stderr);
            let expected_path = dir.join("expected").join(format!("{stem}.{model}.txt"));
            if let Err(e) = hone_testkit::check(&expected_path, &o.stdout) {
                panic!("report of {stem} ({model}) changed: {e}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 15);
}

#[test]
fn human_report_leads_with_the_worst_site_and_its_verified_fix() {
    let o = hone(&["examples/analyze/figure3.json", "--model", "cc11"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let first_site = o.stdout.lines().find(|l| l.starts_with("#1 ")).unwrap();
    assert!(
        first_site.contains("figure3.cu:7:16  d_b[id + 1]"),
        "{first_site}"
    );
    assert!(o
        .stdout
        .contains("not coalesced (16 of 16 half-warps fail: condition 3 in 16)"));
    assert!(
        o.stdout.contains("+     d_a[id] *= d_b[id + 16];"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("verified: same outputs on 3 inputs"));
}

/// Fixes are looked for at the 6 most wasteful source accesses, or
/// `--fix-sites`; the sites one access makes (a record's members) are
/// searched and shown once.
#[test]
fn fix_sites_bounds_the_sites_searched_for_fixes() {
    let searched = |launch: &str, extra: &[&str]| {
        let o = hone(&[&[launch], extra].concat());
        assert_eq!(o.code, 0, "{}", o.stderr);
        o.stdout
            .matches("no fix in the catalogue matches this access")
            .count()
    };
    // 6 wasteful sites, none with a fix
    let window = "examples/analyze/window.json";
    assert_eq!(searched(window, &[]), 6);
    assert_eq!(searched(window, &["--fix-sites", "2"]), 2);
    assert_eq!(searched(window, &["--fix-sites", "5"]), 5);
    // 8 member loads of one record copy: one access, one search
    let records = "examples/analyze/records.json";
    assert_eq!(searched(records, &["--fix-sites", "100"]), 1);
    let o = hone(&[records]);
    assert!(
        o.stdout
            .contains("8 of 9 access site(s) waste bandwidth, made by 1 source access(es)"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains(
            "this source access makes 7 more site(s) (#2, #3 and 5 more: one per member of what \
             it reads or writes whole), 32 B per lane in all; together 128 requests, 4096 \
             sectors (ideal 512)"
        ),
        "{}",
        o.stdout
    );
    let v = json(&[records]);
    let groups: Vec<u64> = v["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["group"].as_u64().unwrap())
        .collect();
    assert_eq!(&groups[..8], &[1; 8]);
    assert_eq!(groups[8], 9);
}

/// Writes `STEM.cu` holding `source` and `STEM.json` launching its kernel
/// `k` with `launch` (the launch file's other fields); the launch file's path.
fn kernel_and_launch(dir: &Path, stem: &str, source: &str, launch: &str) -> String {
    std::fs::write(dir.join(format!("{stem}.cu")), source).unwrap();
    let path = dir.join(format!("{stem}.json"));
    std::fs::write(
        &path,
        format!(r#"{{"source": "{stem}.cu", "kernel": "k", {launch}}}"#),
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

/// Sites that only look alike stay apart: two instances of one template
/// access (same place and expression, different strides); and a group is
/// shown at a site the model flags even where an unflagged member ranks
/// first (under CC 1.1 a site with no excess may still fail a condition).
#[test]
fn only_the_sites_of_one_access_are_grouped() {
    let dir = scratch("groups");
    let tpl = kernel_and_launch(
        &dir,
        "tpl",
        "template <int S> __device__ float at(const float *a, int i) { return a[i * S]; }\n\
         __global__ void k(const float *a, float *o) {\n\
           int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
           o[i] = at<1>(a, i) + at<3>(a, i);\n\
         }\n",
        r#""grid": [4], "block": [128],
            "args": {"a": {"type": "float", "len": 2048, "init": {"random": 9}},
                     "o": {"type": "float", "len": 512}}"#,
    );
    let v = json(&[&tpl]);
    let loads: Vec<&Value> = v["sites"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["line"] == 1 && s["kind"] == "load")
        .collect();
    assert_eq!(loads.len(), 2, "{v}");
    assert_ne!(loads[0]["group"], loads[1]["group"], "{v}");

    let launch = kernel_and_launch(
        &dir,
        "lane0",
        "struct P { float a, b, c, d; };\n\
         __global__ void k(const P *arr, float *o) {\n\
           if (threadIdx.x == 0) {\n\
             P p = arr[blockIdx.x * 4];\n\
             o[blockIdx.x * 16] = p.a + p.b + p.c + p.d;\n\
           }\n\
         }\n",
        r#""grid": [2], "block": [32],
            "args": {"arr": {"type": "P", "len": 16, "init": {"random": 3}},
                     "o": {"type": "float", "len": 32}}"#,
    );
    let launch = launch.as_str();
    let o = hone(&[launch, "--model", "cc11"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout
            .contains("3 of 5 access site(s) waste bandwidth, made by 1 source access(es)"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("this source access makes 3 more site(s)"),
        "{}",
        o.stdout
    );
    let v = json(&[launch, "--model", "cc11"]);
    let leader = v["sites"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["line"] == 4 && s["group"] == s["rank"])
        .unwrap_or_else(|| panic!("no leader: {v}"));
    assert_eq!(leader["cc11"]["coalesced"], false, "{leader}");
}

#[test]
fn json_has_the_documented_shape() {
    let v = json(&["examples/analyze/figure6_plain.json"]);
    assert_eq!(v["kernel"], "kernel_plain");
    assert_eq!(v["model"], "sm90");
    let s = site(&v, 22, "d_A[id + 1]");
    for key in [
        "line",
        "column",
        "array",
        "space",
        "kind",
        "executions",
        "requests",
        "sectors",
        "ideal_sectors",
        "efficiency",
        "wavefronts",
        "ideal_wavefronts",
        "cc11",
        "suggestions",
    ] {
        assert!(s.get(key).is_some(), "missing `{key}`");
    }
    assert_eq!(s["column"], 29);
    assert_eq!(s["array"], "d_A");
    assert_eq!(
        (s["space"].as_str(), s["kind"].as_str()),
        (Some("global"), Some("load"))
    );
    assert_eq!(
        (s["executions"].as_u64(), s["requests"].as_u64()),
        (Some(128), Some(8))
    );
    assert_eq!(
        (s["sectors"].as_u64(), s["ideal_sectors"].as_u64()),
        (Some(32), Some(16))
    );
    assert_eq!(s["efficiency"].as_f64(), Some(0.5));
    assert!(s["wavefronts"].is_null() && s["ideal_wavefronts"].is_null());
    assert_eq!(s["cc11"]["coalesced"], false);
    assert_eq!(s["cc11"]["failed"], serde_json::json!([2, 3]));
    // odd threads do not execute the access: their addresses are unknown (null)
    let addresses = s["worst_requests"][0]["addresses"].as_array().unwrap();
    assert_eq!(addresses.len(), 32);
    assert!(addresses.iter().skip(1).step_by(2).all(Value::is_null));
    assert!(addresses.iter().step_by(2).all(Value::is_u64));
    let fix = &s["suggestions"][0];
    assert_eq!(fix["pattern"], "thread-remap");
    assert_eq!(fix["verification"]["verified"], true);
    assert_eq!(fix["changes_layout"], true);
    assert_eq!(fix["after"]["site"]["sectors"], 16);
    assert!(fix["source"].as_str().unwrap().contains("id % 64 < 32"));

    // shared sites: sectors null, wavefronts filled
    let v = json(&["examples/analyze/column_sum.json"]);
    let s = site(&v, 35, "tile[t][c]");
    assert_eq!(s["space"], "shared");
    assert!(s["sectors"].is_null() && s["ideal_sectors"].is_null() && s["cc11"].is_null());
    assert_eq!(
        (s["wavefronts"].as_u64(), s["ideal_wavefronts"].as_u64()),
        (Some(1024), Some(32))
    );
    assert_eq!(s["max_conflict_ways"], 32);
    assert_eq!(v["sites"][0]["rank"], 1);
    assert_eq!(v["totals"]["shared_load"]["wavefronts"], 1024);
}

#[test]
fn a_source_file_overrides_the_launch_files_source() {
    let dir = scratch("override");
    let text = std::fs::read_to_string(root().join("examples/analyze/figure3.cu")).unwrap();
    let cu = dir.join("shifted.cu");
    std::fs::write(&cu, text.replace("d_b[id + 1]", "d_b[id + 2]")).unwrap();
    let v = json(&[
        cu.to_str().unwrap(),
        "--launch",
        "examples/analyze/figure3.json",
        "--no-fix",
    ]);
    let s = site(&v, 7, "d_b[id + 2]");
    assert_eq!(s["file"], cu.to_str().unwrap());
    assert_eq!(s["suggestions"], serde_json::json!([]));
}

#[test]
fn svg_option_writes_diagrams_of_the_flagged_sites() {
    let dir = scratch("svg");
    let d = dir.to_str().unwrap();
    let v = json(&[
        "examples/analyze/figure3.json",
        "--svg",
        d,
        "--worst",
        "1",
        "--no-fix",
    ]);
    let files: Vec<String> = v["sites"][0]["diagrams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    let svg = std::fs::read_to_string(files.iter().find(|f| f.ends_with(".svg")).unwrap()).unwrap();
    assert!(svg.contains("d_b[id + 1]"));
    assert_eq!(svg.matches(r#"class="access""#).count(), 32);
    let png = std::fs::read(files.iter().find(|f| f.ends_with(".png")).unwrap()).unwrap();
    assert_eq!(&png[..4], b"\x89PNG");
    // unflagged sites get no diagram
    assert!(v["sites"][1]["diagrams"].as_array().unwrap().is_empty());
    let written = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(written, 2);

    let o = hone(&[
        "examples/analyze/figure3.json",
        "--svg",
        d,
        "--no-png",
        "--no-fix",
    ]);
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.contains("diagram file(s) written to"),
        "{}",
        o.stdout
    );
}

#[test]
fn bad_input_exits_with_code_2() {
    let dir = scratch("bad");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["examples/analyze/missing.json".into()],
            "cannot read launch file",
        ),
        (vec!["examples/analyze/figure3.cu".into()], "--launch"),
        (
            vec![
                "examples/analyze/figure3.json".into(),
                "--model".into(),
                "sm20".into(),
            ],
            "sm20",
        ),
        (
            vec![
                dir.join("missing.cu").to_str().unwrap().into(),
                "--launch".into(),
                "examples/analyze/figure3.json".into(),
            ],
            "missing.cu",
        ),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = hone(&args);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(needle), "{args:?}: {}", o.stderr);
    }
    let launch = dir.join("wrong_kernel.json");
    let text = std::fs::read_to_string(root().join("examples/analyze/figure3.json")).unwrap();
    std::fs::write(
        &launch,
        text.replace("\"kernel1\"", "\"kernel9\"").replace(
            "figure3.cu",
            root().join("examples/analyze/figure3.cu").to_str().unwrap(),
        ),
    )
    .unwrap();
    let o = hone(&[launch.to_str().unwrap()]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("kernel `kernel9` not found"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_faulting_kernel_exits_with_code_1_and_says_where() {
    let dir = scratch("fault");
    let text = std::fs::read_to_string(root().join("examples/analyze/misaligned.json")).unwrap();
    let launch = dir.join("short.json");
    std::fs::write(
        &launch,
        text.replace("\"len\": 257", "\"len\": 256").replace(
            "misaligned.cu",
            root()
                .join("examples/analyze/misaligned.cu")
                .to_str()
                .unwrap(),
        ),
    )
    .unwrap();
    let o = hone(&[launch.to_str().unwrap()]);
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("fault:"), "{}", o.stdout);
    assert!(o.stdout.contains("misaligned.cu:7"), "{}", o.stdout);
}
