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
    assert!(html.matches("<figure>").count() >= 2);
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
