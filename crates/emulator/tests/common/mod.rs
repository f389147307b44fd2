//! What the emulator's corpus tests share.
#![allow(dead_code)]

use hone_frontend::{parse_file, FrontendOptions, Parsed, Severity};

/// The corpus file `rel` (a path under `tests/corpus`) lowered with `opts`;
/// the front end must report no error.
pub fn parse_corpus(rel: &str, opts: &FrontendOptions) -> Parsed {
    let path = hone_testkit::corpus(rel);
    let p = parse_file(&path, opts).expect("corpus file parses");
    let errors: Vec<_> = p
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "{rel}: {errors:#?}");
    p
}
