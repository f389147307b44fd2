//! Golden tests: every `tests/data/lower/<case>.cu` goes through the whole front
//! end (preprocessor, parser, lowering) and its IR dump and diagnostics are
//! compared with `<case>.ir` and `<case>.diag` (absent when no diagnostic is
//! expected). `UPDATE_GOLDEN=1` rewrites the expected files.

use std::fs;
use std::path::{Path, PathBuf};

use hone_frontend::{dump, parse_file, FrontendOptions};

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lower");
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/data/lower exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    cases.sort();
    cases
}

fn check(path: &Path, actual: &str, update: bool, failures: &mut Vec<String>) {
    let expected = fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return;
    }
    if update {
        if actual.is_empty() {
            let _ = fs::remove_file(path);
        } else {
            fs::write(path, actual).expect("write golden file");
        }
        return;
    }
    let first = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(expected.lines().count().min(actual.lines().count()));
    failures.push(format!(
        "{}: differs at line {}\n  expected: {}\n  actual:   {}",
        path.display(),
        first + 1,
        expected.lines().nth(first).unwrap_or("<end>"),
        actual.lines().nth(first).unwrap_or("<end>"),
    ));
}

#[test]
fn lower_golden() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let cases = cases();
    assert!(cases.len() >= 20, "golden cases missing: {}", cases.len());
    let mut failures = Vec::new();
    for cu in &cases {
        // Relative to the package root, where cargo runs tests, so that file
        // names in diagnostics do not depend on the checkout's location.
        let name = cu
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 file name");
        let rel = Path::new("tests/data/lower").join(name);
        let parsed = parse_file(&rel, &FrontendOptions::default()).expect("case preprocesses");
        let ir = dump(&parsed.module);
        let diag: String = parsed
            .diagnostics
            .iter()
            .map(|d| format!("{d}\n"))
            .collect();
        check(&cu.with_extension("ir"), &ir, update, &mut failures);
        check(&cu.with_extension("diag"), &diag, update, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} golden mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
