//! The preprocessor's public entry points.

use std::path::{Path, PathBuf};

use hone_frontend::preprocess::{preprocess_file, preprocess_str, LineOrigin, PreprocessOptions};

/// A scratch directory of this test binary, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hone-pp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn preprocess_str_resolves_quoted_includes_from_base_dir() {
    let dir = scratch("base");
    std::fs::write(dir.join("k.h"), "#define K 7\nint from_header;\n").unwrap();
    let pre = preprocess_str(
        "main.cu",
        "#include \"k.h\"\nint k = K;\n",
        Some(&dir),
        &PreprocessOptions::default(),
    )
    .unwrap();
    assert_eq!(pre.text, "\nint from_header;\nint k = 7;\n");
    let header = dir.join("k.h").to_string_lossy().into_owned();
    assert_eq!(pre.files, vec!["main.cu".to_string(), header.clone()]);
    assert_eq!(pre.origin_of(2), Some((header.as_str(), 2)));
    assert_eq!(pre.origin_of(3), Some(("main.cu", 2)));
    assert_eq!(pre.origin_of(0), None);
    assert_eq!(pre.origin_of(4), None);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn without_base_dir_quoted_includes_search_include_dirs_only() {
    let dir = scratch("nobase");
    std::fs::write(dir.join("only_here.h"), "int found;\n").unwrap();
    let src = "#include \"only_here.h\"\n";
    let err = preprocess_str("main.cu", src, None, &PreprocessOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "main.cu:1:10: cannot find include file \"only_here.h\""
    );
    let opts = PreprocessOptions {
        include_dirs: vec![dir.clone()],
        defines: Vec::new(),
    };
    let pre = preprocess_str("main.cu", src, None, &opts).unwrap();
    assert_eq!(pre.text, "int found;\n");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn defines_apply_in_order_and_may_replace_predefined_macros() {
    let opts = PreprocessOptions {
        include_dirs: Vec::new(),
        defines: vec![
            ("A".into(), Some("1".into())),
            ("A".into(), Some("2".into())),
            ("B".into(), None),
            ("__CUDA_ARCH__".into(), Some("800".into())),
        ],
    };
    let pre = preprocess_str("m.cu", "A B __CUDA_ARCH__\n", None, &opts).unwrap();
    assert_eq!(pre.text, "2 1 800\n");
}

#[test]
fn malformed_define_option_is_an_error() {
    let opts = PreprocessOptions {
        include_dirs: Vec::new(),
        defines: vec![("3x".into(), None)],
    };
    let err = preprocess_str("m.cu", "", None, &opts).unwrap_err();
    assert_eq!(err.file, "<command line>");
    assert!(err.message.contains("-D3x"), "{}", err.message);
}

#[test]
fn unreadable_file_is_an_error_naming_it() {
    let err = preprocess_file(
        Path::new("/nonexistent/dir/k.cu"),
        &PreprocessOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.file, "/nonexistent/dir/k.cu");
    assert_eq!((err.line, err.col), (0, 0));
}

#[test]
fn crlf_and_bom_are_accepted() {
    let pre = preprocess_str(
        "m.cu",
        "\u{feff}#define X 1\r\nint x = X;\r\n",
        None,
        &PreprocessOptions::default(),
    )
    .unwrap();
    assert_eq!(pre.text, "\nint x = 1;\n");
    assert_eq!(
        pre.lines,
        vec![
            LineOrigin { file: 0, line: 1 },
            LineOrigin { file: 0, line: 2 }
        ]
    );
}

#[test]
fn error_columns_count_characters() {
    // A comment is whitespace, so the `#` still begins a directive.
    let err =
        preprocess_str("m.cu", "/* é */ #if\n", None, &PreprocessOptions::default()).unwrap_err();
    assert_eq!(err.to_string(), "m.cu:1:10: #if with no expression");
    let src = "int é; int x = F(;\n#define G(a, a)\n";
    let err = preprocess_str("m.cu", src, None, &PreprocessOptions::default()).unwrap_err();
    assert_eq!((err.line, err.col), (2, 14));
}
