//! Golden tests: every `tests/data/lower/<case>.cu` goes through the whole front
//! end (preprocessor, parser, lowering) and its IR dump and diagnostics are
//! compared with `<case>.ir` and `<case>.diag` (absent when no diagnostic is
//! expected). `HONE_BLESS=1` rewrites the expected files.

use std::path::Path;

mod support;

use hone_frontend::{dump, parse_file, FrontendOptions};

#[test]
fn lower_golden() {
    let cases = support::golden_inputs();
    assert!(cases.len() >= 20, "golden cases missing: {}", cases.len());
    let mut failures = Vec::new();
    for cu in &cases {
        // Relative to the package root, where cargo runs tests, so that file
        // names in diagnostics do not depend on the checkout's location.
        let name = cu
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 file name");
        let own = Path::new("tests/data/lower");
        let rel = match cu.parent() {
            Some(d) if d.ends_with("listings") => {
                Path::new("../../tests/corpus/listings").join(name)
            }
            Some(d) if d.ends_with("corpus/frontend") => {
                Path::new("../../tests/corpus/frontend").join(name)
            }
            Some(d) if d.ends_with("cpp") => Path::new("../../tests/corpus/cpp").join(name),
            _ => own.join(name),
        };
        let parsed = parse_file(&rel, &FrontendOptions::default()).expect("case preprocesses");
        let ir = dump(&parsed.module);
        let diag: String = parsed
            .diagnostics
            .iter()
            .map(|d| format!("{d}\n"))
            .collect();
        let expected = own.join(name);
        for (path, actual) in [
            (expected.with_extension("ir"), ir),
            (expected.with_extension("diag"), diag),
        ] {
            if let Err(e) = hone_testkit::check(&path, &actual) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
