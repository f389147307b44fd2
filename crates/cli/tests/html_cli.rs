//! `--html` of `hone analyze` and `hone bench`: one self-contained page each,
//! from the bundled example and from a recorded benchmark, without a GPU.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hone-html-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn analyze_writes_a_page_with_the_source_sites_and_inline_diagrams() {
    let dir = scratch("analyze");
    let page = dir.join("figure6.html");
    let out = Command::new(env!("CARGO_BIN_EXE_hone"))
        .args(["analyze", "examples/analyze/figure6_plain.json", "--html"])
        .arg(&page)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h1 id=\"top\">Memory accesses of kernel_plain</h1>"));
    assert!(html.contains("id=\"L22\"><td>22</td><td>96</td>"));
    assert_eq!(html.matches("<figure>").count(), 3);
    // The diagrams are inline; the scratch folder they were drawn in is gone.
    assert!(!html.contains(".svg\""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_renders_a_recorded_run_without_a_gpu() {
    let dir = scratch("bench");
    let page = dir.join("symv.html");
    let out = Command::new(env!("CARGO_BIN_EXE_hone"))
        .args([
            "bench",
            "symv",
            "--from",
            "bench/results/library/h100/bench/symv.json",
            "--out",
        ])
        .arg(&dir)
        .arg("--html")
        .arg(&page)
        .env("CUDA_VISIBLE_DEVICES", "")
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for f in [
        "symv.md",
        "symv.csv",
        "symv.json",
        "dsymv_lower.svg",
        "symv.html",
    ] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let md = std::fs::read_to_string(dir.join("symv.md")).unwrap();
    assert!(md.contains("| 16384 | 0.3704 (0.3707) | 2900 |"), "{md}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h2 id=\"v-ssymv_upper\">ssymv_upper</h2>"));
    // A recording of another routine is refused.
    let out = Command::new(env!("CARGO_BIN_EXE_hone"))
        .args([
            "bench",
            "gemm",
            "--from",
            "bench/results/library/h100/bench/symv.json",
            "--out",
        ])
        .arg(&dir)
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("records `symv`, not `gemm`"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 500-line kernel with 50 wasteful loads: the analysis page stays under
/// 2 MB and loads in headless Chromium with its scripts; the load time is
/// printed (and recorded in bench/results/report/), not asserted.
#[test]
fn a_page_of_fifty_sites_in_five_hundred_lines_is_light_and_loads_in_a_browser() {
    let dir = scratch("fifty");
    let mut lines = vec![
        "// 50 strided loads in one kernel, each on its own line.".to_string(),
        "__global__ void big(const float* in, float* out, int n) {".to_string(),
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;".to_string(),
        "    float acc = 0.0f;".to_string(),
    ];
    for k in 0..50 {
        lines.push(format!("    acc += in[i * 2 + {k}];"));
        for j in 0..9 {
            lines.push(format!(
                "    // line {j} after load {k}: the page shows every source line"
            ));
        }
    }
    lines.push("    out[i] = acc;".to_string());
    lines.push("}".to_string());
    assert!(lines.len() >= 500);
    std::fs::write(dir.join("big.cu"), lines.join("\n") + "\n").unwrap();
    std::fs::write(
        dir.join("big.json"),
        r#"{"source": "big.cu", "kernel": "big", "grid": [4, 1, 1], "block": [64, 1, 1],
            "args": {"in": {"type": "float", "len": 640, "init": {"random": 1}},
                     "out": {"type": "float", "len": 256, "init": "zeros"}, "n": 256}}"#,
    )
    .unwrap();
    let page = dir.join("big.html");
    let out = Command::new(env!("CARGO_BIN_EXE_hone"))
        .arg("analyze")
        .arg(dir.join("big.json"))
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::metadata(&page).unwrap().len();
    assert!(bytes < 2 << 20, "{bytes} bytes");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.matches("id=\"site-").count() >= 50);
    let Some(browser) = hone_testkit::browser::browser_or_skip() else {
        return;
    };
    let out_dir = hone_testkit::browser::out_dir();
    let kept = out_dir.join("fifty-sites.html");
    std::fs::copy(&page, &kept).unwrap();
    let profile = out_dir.join("profile-fifty");
    // The first start warms the browser's own caches up; the second is the
    // one reported.
    hone_testkit::browser::dom(&browser, &profile, &kept);
    let (dom, took) = hone_testkit::browser::dom(&browser, &profile, &kept);
    println!(
        "{bytes} bytes; loaded in headless Chromium in {:.2} s",
        took.as_secs_f64()
    );
    // The load time is printed, not asserted: it depends on the machine's
    // load (bench/results/report/ has the measured figure).
    assert!(dom.contains("id=\"L455\""));
    let _ = std::fs::remove_dir_all(&dir);
}
