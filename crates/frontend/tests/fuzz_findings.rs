//! Inputs the fuzzer (`fuzz/`) found, reduced to the smallest text that
//! failed, and the errors the front end now gives for them.

mod support;

use std::fs;

use hone_ir::print::print_module;
use support::lower;

/// Lowers `src` and holds the printer to its contract on it.
fn roundtrip(name: &str, src: &str) -> Result<(), String> {
    let first = lower(name, src);
    hone_frontend::round_trip("printed.cu", &first, &Default::default())
        .map(|_| ())
        .map_err(|e| format!("{name}: {e}"))
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

/// A kernel may have the name a member function is lowered to
/// (`Vec3::scale` is the device function `Vec3__scale`): asking for the
/// kernel finds the kernel.
#[test]
fn a_kernel_named_like_a_lowered_member_is_found() {
    let src = "struct Vec3 { float x; __device__ void scale(float s) { x *= s; } };\n\
               __global__ void Vec3__scale(float *out) { Vec3 v; v.x = 1.0f; v.scale(2.0f); out[0] = v.x; }\n";
    let parsed = lower("k.cu", src);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let k = parsed.kernel("Vec3__scale", "k.cu").expect("the kernel");
    assert_eq!(k.kind, hone_ir::FuncKind::Global);
    assert_eq!(k.params.len(), 1);
}

/// A local whose name has a `$` (which the front end reads, as nvcc does)
/// is printed under another name; uses still mean the same variable.
#[test]
fn names_the_printer_cannot_write_are_renamed() {
    let src = "__global__ void k(int *o, int n) { int a$b = n; int a_b = 2; o[0] = a$b + a_b; }\n";
    roundtrip("k.cu", src).unwrap();
    let printed = print_module(&lower("k.cu", src).module);
    assert!(printed.contains("o[0] = a_b + a_b_1;"), "{printed}");
}

/// A typedef may not give a type's name to another type: `float3` as a
/// struct would make functions declared before and after it one overload.
#[test]
fn a_typedef_of_another_types_name_is_an_error() {
    let src = "struct V { float x, y, z; };\n\
               __device__ float dot(float3 a) { return a.x; }\n\
               typedef V float3;\n\
               typedef float real;\n\
               typedef float real;\n\
               __global__ void k(real *o) { o[0] = dot(make_float3(1.0f, 2.0f, 3.0f)); }\n";
    let parsed = lower("k.cu", src);
    let errors: Vec<String> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity == hone_frontend::Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("k.cu:3:") && errors[0].contains("`float3` is already a type"),
        "{errors:?}"
    );
    assert!(parsed.kernel("k", "k.cu").is_ok());
}
