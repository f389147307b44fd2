//! Golden tests of the preprocessor. Each directory under
//! `tests/data/preprocess/` is a case: `input.cu` (plus the headers it
//! includes), an optional `args` file with one `-DNAME[=VALUE]` or `-IDIR`
//! per line (directories relative to the case), and either `expected.out`
//! (the preprocessed text, then the line map) or `expected.err` (the error).
//! `HONE_BLESS=1 cargo test --test preprocess_golden` rewrites them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hone_frontend::preprocess::{preprocess_file, PreprocessOptions, Preprocessed};

const DATA: &str = "tests/data/preprocess";

fn options(case: &Path) -> PreprocessOptions {
    let mut opts = PreprocessOptions::default();
    let Ok(args) = std::fs::read_to_string(case.join("args")) else {
        return opts;
    };
    for line in args.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(def) = line.strip_prefix("-D") {
            let def = def.trim();
            match def.split_once('=') {
                Some((name, value)) => opts
                    .defines
                    .push((name.to_string(), Some(value.to_string()))),
                None => opts.defines.push((def.to_string(), None)),
            }
        } else if let Some(dir) = line.strip_prefix("-I") {
            opts.include_dirs.push(case.join(dir.trim()));
        } else {
            panic!("{}: unknown option {line:?} in args", case.display());
        }
    }
    opts
}

/// The text, then runs of consecutive output lines mapped to consecutive
/// lines of one file, then the files.
fn render(pre: &Preprocessed) -> String {
    let mut s = pre.text.clone();
    s.push_str("==== line map ====\n");
    let mut k = 0;
    while k < pre.lines.len() {
        let start = pre.lines[k];
        let mut n = 1;
        while k + n < pre.lines.len()
            && pre.lines[k + n].file == start.file
            && pre.lines[k + n].line == start.line + n as u32
        {
            n += 1;
        }
        let file = &pre.files[start.file as usize];
        if n == 1 {
            writeln!(s, "{} -> {}:{}", k + 1, file, start.line).unwrap();
        } else {
            writeln!(
                s,
                "{}-{} -> {}:{}-{}",
                k + 1,
                k + n,
                file,
                start.line,
                start.line + n as u32 - 1
            )
            .unwrap();
        }
        k += n;
    }
    s.push_str("==== files ====\n");
    for (i, f) in pre.files.iter().enumerate() {
        writeln!(s, "{i} {f}").unwrap();
    }
    s
}

#[test]
fn golden() {
    let data = Path::new(DATA);
    assert!(data.is_dir(), "run from the crate root (cargo test does)");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 40,
        "golden cases missing: found {}",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        let prefix = format!("{}/", case.display());
        let (kind, actual) = match preprocess_file(&case.join("input.cu"), &options(case)) {
            Ok(pre) => ("out", render(&pre)),
            Err(e) => ("err", format!("{e}\n")),
        };
        // Names relative to the case keep expectations independent of paths.
        let actual = actual.replace(&prefix, "");
        let expected_path = case.join(format!("expected.{kind}"));
        let other = case.join(if kind == "out" {
            "expected.err"
        } else {
            "expected.out"
        });
        // Exactly one of the two expectations exists.
        for (path, text) in [(&expected_path, actual.as_str()), (&other, "")] {
            if let Err(e) = hone_testkit::check(path, text) {
                failures.push(format!("{e}\n--- actual\n{actual}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
