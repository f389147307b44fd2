//! Pointers in launch files: buffers of pointers, buffers reached only
//! through pointers (`buffers`), and symbols whose struct members point to
//! buffers; each value names a buffer (`"a"`, `"b+2"`).

mod common;

use std::path::PathBuf;

use hone_launch::Launch;

fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/corpus/cpp")
        .join(rel)
}

#[test]
fn pointers_in_buffers_and_symbols_reach_their_buffers() {
    let launch = Launch::read(&corpus("launch/pointers.json")).unwrap();
    let parsed = launch.parse().unwrap();
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let kernel = launch.kernel(&parsed).unwrap();
    let mut data = launch.data(kernel).unwrap();
    let r = common::run(&parsed, &kernel.name, &mut data);
    assert!(r.is_clean(), "{r:?}");
    let named = |n: &str| {
        data.buffers
            .iter()
            .find(|b| b.name == n)
            .unwrap()
            .to_f32_vec()
    };
    // Row 0 is `a` (0, 1, 2, ...), row 1 starts two into `b`.
    let out = named("out");
    assert_eq!(&out[..4], &[0.0, 2.0, 4.0, 6.0]);
    assert_eq!(&out[32..35], &[4.0, 6.0, 8.0]);
    assert!(out[4..32].iter().chain(&out[35..]).all(|&v| v == 0.0));
    // jobs[0] adds one to a[0..3] into c[0..3]; jobs[1] b[4..6] into c[4..6].
    assert_eq!(named("c"), vec![1.0, 2.0, 3.0, 0.0, 5.0, 6.0, 0.0, 0.0]);
}

#[test]
fn bad_pointer_values_name_the_problem() {
    let dir = std::env::temp_dir().join(format!("hone-pointers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(corpus("pointers.cu"), dir.join("pointers.cu")).unwrap();
    for (rows, want) in [
        (
            r#"["a", "nowhere"]"#,
            "`nowhere` names no buffer of the launch",
        ),
        (r#"["a", 7]"#, "that place holds a pointer"),
        (r#"["a", "b+x"]"#, "expected NAME or NAME+ELEMENTS"),
    ] {
        std::fs::write(
            dir.join("launch.json"),
            format!(
                r#"{{"source": "pointers.cu", "kernel": "gather", "grid": 2, "block": 32,
                    "args": {{"rows": {{"type": "float *", "len": 2, "init": {{"values": {rows}}}}},
                             "lens": {{"type": "int", "len": 2}}, "out": {{"type": "float", "len": 64}}}},
                    "buffers": {{"a": {{"type": "float", "len": 8}}, "b": {{"type": "float", "len": 8}}}}}}"#
            ),
        )
        .unwrap();
        let launch = Launch::read(&dir.join("launch.json")).unwrap();
        let parsed = launch.parse().unwrap();
        let kernel = launch.kernel(&parsed).unwrap();
        let Err(e) = launch.data(kernel) else {
            panic!("{rows} was accepted");
        };
        let e = e.to_string();
        assert!(e.contains(want) && e.contains("`rows`"), "{e}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
