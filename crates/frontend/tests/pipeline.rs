//! The whole front end: preprocessing, parsing and lowering together.

mod support;

use std::fs;
use std::path::Path;

use hone_frontend::{dump, parse_file, parse_source, FrontendError, FrontendOptions};
use hone_ir::{ArrayLen, Type};

fn options(defines: &[(&str, Option<&str>)]) -> FrontendOptions {
    FrontendOptions {
        include_dirs: Vec::new(),
        defines: defines
            .iter()
            .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
            .collect(),
        ..Default::default()
    }
}

const KERNEL: &str = "\
#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif
#define IDX(i, j) ((i) * N + (j))
__global__ void k(real *out) {
    __shared__ real s[N][N + 1];
    s[threadIdx.y][threadIdx.x] = out[IDX(threadIdx.y, threadIdx.x)];
}
";

#[test]
fn command_line_defines_reach_the_code() {
    let parsed =
        parse_source("k.cu", KERNEL, &options(&[("N", Some("32"))])).expect("preprocesses");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let (_, k) = parsed.module.function("k").expect("lowered");
    let s = k.vars.iter().find(|v| v.name == "s").expect("s declared");
    let row = Type::Array(Box::new(Type::FLOAT), ArrayLen::Const(33));
    assert_eq!(s.ty, Type::Array(Box::new(row), ArrayLen::Const(32)));

    let parsed = parse_source(
        "k.cu",
        KERNEL,
        &options(&[("N", Some("8")), ("USE_DOUBLE", None)]),
    )
    .expect("preprocesses");
    let (_, k) = parsed.module.function("k").expect("lowered");
    assert_eq!(k.var(k.params[0]).ty, Type::ptr(Type::DOUBLE));
}

#[test]
fn macro_uses_report_the_invocation_line() {
    let src = "#define BAD (nope + 1)\n\n__global__ void k(int *o) {\n    o[0] = BAD;\n}\n";
    let parsed = parse_source("m.cu", src, &FrontendOptions::default()).expect("preprocesses");
    let d = &parsed.diagnostics[0];
    assert_eq!((d.file.as_str(), d.line), ("m.cu", 4));
    assert!(d.message.contains("nope"));
}

#[test]
fn quoted_includes_resolve_from_the_file_and_map_back() {
    let parsed = parse_file(
        Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/lower/macros.cu"
        )),
        &FrontendOptions::default(),
    )
    .expect("preprocesses");
    let (_, sq) = parsed.module.function("sq").expect("sq from the header");
    assert!(parsed.module.files[sq.span.file as usize].ends_with("common.cuh"));
    assert_eq!(sq.span.line, 6);
    let (_, t) = parsed.module.function("transpose").expect("kernel lowered");
    assert!(parsed.module.files[t.span.file as usize].ends_with("macros.cu"));
}

#[test]
fn unreadable_input_is_an_io_error() {
    let err = parse_file(
        Path::new("/nonexistent/dir/k.cu"),
        &FrontendOptions::default(),
    )
    .unwrap_err();
    match err {
        FrontendError::Io { path, .. } => assert_eq!(path, "/nonexistent/dir/k.cu"),
        other => panic!("expected an I/O error, got {other}"),
    }
}

#[test]
fn preprocessor_errors_are_errors() {
    let err = parse_source(
        "e.cu",
        "#error stop here\n__global__ void k() {}\n",
        &FrontendOptions::default(),
    )
    .unwrap_err();
    match &err {
        FrontendError::Preprocess(e) => assert_eq!((e.file.as_str(), e.line), ("e.cu", 1)),
        other => panic!("expected a preprocessor error, got {other}"),
    }
    assert!(err.to_string().starts_with("e.cu:1:"));
}

/// Sources without directives lower the same with or without the
/// preprocessor: the line map is the identity and columns are kept.
#[test]
fn preprocessing_plain_sources_changes_nothing() {
    let mut compared = 0;
    for path in support::golden_inputs() {
        let text = fs::read_to_string(&path).expect("read case");
        if text
            .lines()
            .any(|l| l.trim_start().starts_with('#') && !l.contains("#pragma"))
        {
            continue;
        }
        let name = path.display().to_string();
        let direct = support::lower(&name, &text);
        let full = parse_file(&path, &FrontendOptions::default()).expect("preprocesses");
        assert_eq!(dump(&direct.module), dump(&full.module), "{name}");
        assert_eq!(direct.diagnostics, full.diagnostics, "{name}");
        compared += 1;
    }
    assert!(compared >= 20, "only {compared} plain cases");
}
