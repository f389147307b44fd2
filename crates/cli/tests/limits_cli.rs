//! A launch that asks for more memory than hone allows for its buffers is
//! refused as bad input (exit 2, the buffer named), never an abort.

use std::process::Command;

#[test]
fn a_buffer_of_a_trillion_elements_is_refused_not_allocated() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::temp_dir().join(format!("hone-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let launch = dir.join("huge.json");
    let source = root.join("examples/stencil/stencil.cu");
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
    for extra in [&[][..], &["--json"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_hone"))
            .arg("sim")
            .arg(&launch)
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("buffer `in`") && stderr.contains("HONE_MAX_BUFFER_BYTES"),
            "{stderr}"
        );
    }
    // The budget is the user's to raise, and counts every buffer: a small one
    // leaves too little for the rest.
    let out = Command::new(env!("CARGO_BIN_EXE_hone"))
        .arg("sim")
        .arg(root.join("examples/stencil/launch.json"))
        .env("HONE_MAX_BUFFER_BYTES", "300")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bytes left for this launch's buffers"));
    let ok = Command::new(env!("CARGO_BIN_EXE_hone"))
        .arg("sim")
        .arg(root.join("examples/stencil/launch.json"))
        .output()
        .unwrap();
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
