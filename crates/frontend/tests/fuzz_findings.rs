//! Inputs the fuzzer (`fuzz/`) found, reduced to the smallest text that
//! failed, and the errors the front end now gives for them.

mod support;

use std::fs;

use hone_ir::print::print_module;
use support::lower;

/// Lowers `src`, prints the module, lowers the print: no errors, and the
/// same module (spans aside).
fn roundtrip(name: &str, src: &str) -> Result<(), String> {
    let first = lower(name, src);
    let printed = print_module(&first.module);
    let second = lower("printed.cu", &printed);
    if let Some(d) = second
        .diagnostics
        .iter()
        .find(|d| d.severity == hone_frontend::Severity::Error)
    {
        return Err(format!(
            "{name}: the printed module does not lower: {d}\n{printed}"
        ));
    }
    if first.module != second.module {
        return Err(format!(
            "{name}: the round trip changed the module\nbefore:\n{}\nafter:\n{}\nprinted:\n{printed}",
            hone_frontend::dump(&first.module),
            hone_frontend::dump(&second.module)
        ));
    }
    Ok(())
}

/// Inputs the fuzzer found (`fuzz/`, target `roundtrip`), each reduced to
/// the smallest text that failed: they round-trip now.
#[test]
fn fuzz_findings_roundtrip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .expect("fuzz findings")
        .map(|e| e.expect("readable entry").path())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no findings in {}", dir.display());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let src = String::from_utf8_lossy(&fs::read(case).expect("read case")).into_owned();
            roundtrip(&case.display().to_string(), &src).err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A declaration that error recovery makes of keywords declares nothing: it
/// is a syntax error, not a variable named `long`.
#[test]
fn keywords_are_not_declared_as_variables() {
    let parsed = lower("k.cu", "__device__ long,long");
    assert!(
        parsed.module.globals.is_empty(),
        "{:?}",
        parsed.module.globals
    );
    let d = parsed
        .diagnostics
        .iter()
        .find(|d| d.construct == "syntax error")
        .expect("a syntax error");
    assert_eq!((d.line, d.construct.as_str()), (1, "syntax error"), "{d}");
}

/// A kernel that reads a texture reference declared after it is an error,
/// as in C++: were it given the texture's parameters, a later kernel of the
/// same name and parameters would not be seen as its duplicate.
#[test]
fn texture_references_are_read_after_their_declaration() {
    let src = "__global__ void k(float *o) { o[0] = tex1Dfetch(tex, 0); }\n\
               texture<float, 1, cudaReadModeElementType> tex;\n\
               __global__ void k(float *o) { o[0] = tex1Dfetch(tex, 0); }\n";
    let parsed = lower("k.cu", src);
    let errors: Vec<String> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity == hone_frontend::Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert!(
        errors
            .iter()
            .any(|e| e.contains("k.cu:1:") && e.contains("`tex` is read before its declaration")),
        "{errors:?}"
    );
    assert_eq!(parsed.module.kernels().count(), 1);
    roundtrip("k.cu", src).unwrap();
}

/// A member declaration that error recovery makes of `float = ...;` names
/// no member: the struct is not lowered, rather than given a nameless one.
#[test]
fn nameless_members_are_errors() {
    let src = "struct S { float = \u{fffd}; };\n__device__ float f(S s) { return 1.0f; }\n";
    let parsed = lower("k.cu", src);
    let d = parsed
        .diagnostics
        .iter()
        .find(|d| d.construct == "syntax error")
        .expect("a syntax error");
    assert_eq!(d.line, 1, "{d}");
    assert!(parsed.module.functions.is_empty());
    roundtrip("k.cu", src).unwrap();
}

/// Two parameters of one name are an error, as in C++.
#[test]
fn parameters_declared_twice_are_errors() {
    let src = "__global__ void k(int u, float *o, unsigned u) { o[0] = u; }\n";
    let parsed = lower("k.cu", src);
    let d = parsed
        .diagnostics
        .iter()
        .find(|d| d.construct == "parameter")
        .expect("an error for the parameter");
    assert!(d.message.contains("`u` is declared twice"), "{d}");
    assert!(parsed.module.functions.is_empty());
}

/// A second definition of a struct is an error naming it: kept, the first
/// definition's members would be printed beside the second's layout.
#[test]
fn a_struct_defined_twice_is_an_error() {
    let src = fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/fuzz/struct_defined_twice.cu"),
    )
    .expect("read case");
    let parsed = lower("twice.cu", &src);
    let d = parsed
        .diagnostics
        .iter()
        .find(|d| d.severity == hone_frontend::Severity::Error)
        .expect("an error");
    assert_eq!(d.line, 6, "{d}");
    assert!(d.to_string().contains("redefinition of `Acc`"), "{d}");
    assert_eq!(
        parsed.module.structs.len(),
        1,
        "{:?}",
        parsed.module.structs
    );
}
