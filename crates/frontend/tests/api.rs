//! The public API: spans through the line map, diagnostics, performance.

mod support;

use hone_frontend::preprocess::{LineOrigin, Preprocessed};
use hone_frontend::{lower_preprocessed, Diagnostic, Severity};
use hone_ir::{ExprKind, StmtKind};
use support::lower;

/// Text as a preprocessor would hand it over: line 1 comes from `kern.cu:10`,
/// line 2 from `inc.h:3`, line 3 from `kern.cu:12`.
fn mapped() -> Preprocessed {
    Preprocessed {
        text: "__global__ void k(float *out) {\n  out[0] = nope;\n  out[1] = 2.0f; }\n".into(),
        files: vec!["kern.cu".into(), "inc.h".into()],
        lines: vec![
            LineOrigin { file: 0, line: 10 },
            LineOrigin { file: 1, line: 3 },
            LineOrigin { file: 0, line: 12 },
        ],
    }
}

#[test]
fn diagnostics_point_into_original_files() {
    let parsed = lower_preprocessed(&mapped());
    assert_eq!(parsed.diagnostics.len(), 1);
    let d = &parsed.diagnostics[0];
    assert_eq!((d.file.as_str(), d.line, d.col), ("inc.h", 3, 12));
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.construct, "unknown identifier");
    assert_eq!(
        d.to_string(),
        "inc.h:3:12: error: unknown identifier `nope` (unknown identifier)"
    );
    assert!(parsed.module.functions.is_empty());
    assert!(parsed.has_errors());
}

#[test]
fn spans_point_into_original_files() {
    let mut pre = mapped();
    pre.text = pre.text.replace("nope", "1.0f");
    let parsed = lower_preprocessed(&pre);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let m = &parsed.module;
    assert_eq!(m.files, vec!["kern.cu".to_string(), "inc.h".to_string()]);
    let (_, f) = m.function("k").expect("kernel lowered");
    assert_eq!((f.span.file, f.span.line, f.span.col), (0, 10, 1));
    assert_eq!((f.span.end_line, f.span.end_col), (12, 19));
    let out = &f.vars[0];
    assert_eq!((out.span.file, out.span.line, out.span.col), (0, 10, 26));
    let s0 = &f.body[0];
    assert_eq!((s0.span.file, s0.span.line, s0.span.col), (1, 3, 3));
    let StmtKind::Expr(e) = &s0.kind else {
        panic!("expression statement expected")
    };
    let ExprKind::Assign { lhs, rhs, .. } = &e.kind else {
        panic!("assignment expected")
    };
    assert_eq!((lhs.span.line, lhs.span.col, lhs.span.end_col), (3, 3, 9));
    assert_eq!((rhs.span.line, rhs.span.col, rhs.span.end_col), (3, 12, 16));
    assert_eq!(m.location(rhs.span), "inc.h:3:12");
    let s1 = &f.body[1];
    assert_eq!((s1.span.file, s1.span.line, s1.span.col), (0, 12, 3));
}

#[test]
fn columns_count_characters() {
    let parsed = lower(
        "u.cu",
        "__global__ void k(int *o) { /* héé */ o[0] = nope; }",
    );
    assert_eq!(parsed.diagnostics[0].col, 46);
}

#[test]
fn diagnostics_serialize() {
    let d = Diagnostic {
        severity: Severity::Warning,
        file: "a.cu".into(),
        line: 2,
        col: 5,
        construct: "volatile".into(),
        message: "dropped".into(),
    };
    let json = serde_json::to_value(&d).expect("serializes");
    assert_eq!(json["severity"], "warning");
    assert_eq!(json["file"], "a.cu");
    assert_eq!(json["line"], 2);
    assert_eq!(json["construct"], "volatile");
    assert_eq!(d.to_string(), "a.cu:2:5: warning: dropped (volatile)");
}

#[test]
fn warnings_do_not_skip_functions() {
    let src = "static_assert(2.0 > 1.0, \"floats\");\n\
               __global__ void k(volatile int *p) { p[0] = 1; }";
    let parsed = lower("w.cu", src);
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert_eq!(parsed.diagnostics[0].construct, "static_assert");
    assert_eq!(parsed.diagnostics[0].severity, Severity::Warning);
    assert!(!parsed.has_errors());
    let (_, k) = parsed.module.function("k").expect("k lowered");
    let p = &k.vars[k.params[0].0 as usize];
    assert!(matches!(&p.ty, hone_ir::Type::Pointer(t) if t.pointee_volatile));
}

#[test]
fn call_ids_are_renumbered_after_skipped_functions() {
    let src = "__device__ int bad() { return nope; }\n\
               __device__ int twice(int x) { return 2 * x; }\n\
               __global__ void k(int *o) { o[0] = twice(3); }\n";
    let parsed = lower("r.cu", src);
    let (twice_id, _) = parsed.module.function("twice").expect("twice lowered");
    let (_, k) = parsed.module.function("k").expect("k lowered");
    let StmtKind::Expr(e) = &k.body[0].kind else {
        panic!("expression statement expected")
    };
    let ExprKind::Assign { rhs, .. } = &e.kind else {
        panic!("assignment expected")
    };
    assert!(matches!(&rhs.kind, ExprKind::Call(id, _) if *id == twice_id));
    assert_eq!(twice_id.0, 0);
}

/// A file of `n` kernels of about 20 lines each.
fn big_file(kernels: usize) -> String {
    let mut s = String::from("__device__ float f(float x, float y) { return x * y + 1.0f; }\n");
    for k in 0..kernels {
        s.push_str(&format!(
            "__global__ void k{k}(const float *in, float *out, int nx, int ny) {{\n\
             \x20   __shared__ float tile[16][17];\n\
             \x20   int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             \x20   int j = blockIdx.y * blockDim.y + threadIdx.y;\n\
             \x20   int c = i + nx * j;\n\
             \x20   tile[threadIdx.y][threadIdx.x] = in[c];\n\
             \x20   __syncthreads();\n\
             \x20   float acc = 0.0f;\n\
             \x20   for (int k = 0; k < 16; ++k) {{\n\
             \x20       acc += tile[threadIdx.y][k] * tile[k][threadIdx.x];\n\
             \x20       if (acc > 100.0f) acc = sqrtf(acc);\n\
             \x20   }}\n\
             \x20   switch (c % 3) {{\n\
             \x20   case 0: acc *= 2; break;\n\
             \x20   default: acc = f(acc, {k}.0f);\n\
             \x20   }}\n\
             \x20   out[c] = (i == 0 || j == ny - 1) ? in[c] : acc + in[c - 1];\n\
             \x20   atomicAdd(&out[0], acc);\n\
             }}\n"
        ));
    }
    s
}

#[test]
fn lowering_two_thousand_lines() {
    let src = big_file(106);
    assert!(src.lines().count() >= 2000);
    let parsed = lower("big.cu", &src);
    assert!(
        parsed.diagnostics.is_empty(),
        "{:?}",
        parsed.diagnostics.first()
    );
    assert_eq!(parsed.module.functions.len(), 107);
}

#[test]
fn unnamed_parameters_have_empty_names() {
    let parsed = lower("p.cu", "__device__ int f(int, float y) { return (int)y; }");
    let (_, f) = parsed.module.function("f").expect("lowered");
    assert_eq!(f.params.len(), 2);
    assert_eq!(f.var(f.params[0]).name, "");
    assert_eq!(f.var(f.params[0]).ty, hone_ir::Type::INT);
    assert_eq!(f.var(f.params[1]).name, "y");
}

#[test]
fn struct_alignment_from_align_alignas_and_attribute() {
    let src = "struct __align__(8) A { float x; };\n\
               struct alignas(16) B { float x; };\n\
               struct __attribute__((aligned(32))) C { float x; };\n\
               __global__ void k(A *a, B *b, C *c) { a->x = b->x + c->x; }\n";
    let parsed = hone_frontend::parse_source("align.cu", src, &Default::default()).unwrap();
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let sizes: Vec<(u64, u64)> = parsed
        .module
        .structs
        .iter()
        .map(|s| (s.size, s.align))
        .collect();
    assert_eq!(sizes, vec![(8, 8), (16, 16), (32, 32)]);
}
