//! Printing lowered IR back to CUDA C and lowering that again gives the same
//! module (spans and variable names aside): for every golden case, and for
//! random kernels.

mod support;

use std::fs;

use hone_ir::print::print_module;
use proptest::prelude::*;
use support::lower;

/// Lowers `src` and holds the printer to its contract on it
/// (`hone_frontend::round_trip`).
fn roundtrip(name: &str, src: &str) -> Result<(), String> {
    hone_frontend::round_trip("printed.cu", &lower(name, src), &Default::default())
        .map(|_| ())
        .map_err(|e| format!("{name}: {e}"))
}

#[test]
fn golden_cases_roundtrip() {
    let cases = support::golden_inputs();
    let mut failures = Vec::new();
    let mut lowered_functions = 0;
    for case in &cases {
        let src = fs::read_to_string(case).expect("read case");
        let name = case
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("case.cu");
        lowered_functions += lower(name, &src).module.functions.len();
        if let Err(e) = roundtrip(name, &src) {
            failures.push(e);
        }
    }
    assert!(
        lowered_functions > 40,
        "too few functions to be a test: {lowered_functions}"
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// Statements the differential tests found printed in a form tree-sitter
/// reads otherwise: comparisons that look like template arguments, and a
/// parenthesised `a & (b * c)` before `&` that looks like a cast.
#[test]
fn printed_forms_that_read_as_templates_or_casts_roundtrip() {
    let src = r#"
__global__ void k(unsigned long long *p, double *o, unsigned long long a,
                  unsigned long long b, unsigned long long c, double x, double y) {
    p[0] = (unsigned int)((a & (b * c))) & 63u;
    p[1] = (unsigned long long)((a * (b & c))) * a;
    if ((x < (a != b ? y : x * x)) || ((x * y - y) > (-(double)a))) {
        o[0] = x;
    }
    if ((a < b) || (c >= (a ^ b))) {
        o[1] = y;
    }
    if ((a < b) || ((c >> b) != 0ull)) {
        o[2] = y;
    }
}
"#;
    roundtrip("forms.cu", src).unwrap();
    let printed = print_module(&lower("forms.cu", src).module);
    assert!(printed.contains("((a & (b * c)))"), "{printed}");
}

/// `(a & (b & c)) & 63u` is read as a cast of `&63u` to a reference to a
/// function; the repair doubles its parentheses, so it means what C++ says
/// and later columns of the line still point where they did.
#[test]
fn a_parenthesised_binary_expression_read_as_a_cast_is_regrouped() {
    let src = "__global__ void k(unsigned *p, unsigned a, unsigned b, unsigned c) {\n    p[0] = (unsigned)(a & (b & c)) & 63u;\n    p[1] = (a & (b * c)) * c + zz;\n}\n";
    let parsed = lower("cast.cu", src);
    let errors: Vec<_> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity == hone_frontend::Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!((errors[0].line, errors[0].col), (3, 32), "{}", errors[0]);
    assert!(errors[0].message.contains("`zz`"), "{}", errors[0]);

    let src = src.replace(" + zz", "");
    roundtrip("cast.cu", &src).unwrap();
    let printed = print_module(&lower("cast.cu", &src).module);
    assert!(
        printed.contains("p[0] = (unsigned int)((a & (b & c))) & 63u;"),
        "{printed}"
    );
    assert!(printed.contains("p[1] = ((a & (b * c))) * c;"), "{printed}");
}

/// Random well-typed kernels as C text, over a few int, float and pointer
/// variables. Each generator returns source of the named C type.
mod gen {
    use proptest::prelude::*;

    const INTS: &[&str] = &["a", "b", "u", "c", "l"];
    const FLOATS: &[&str] = &["x", "y", "d"];

    fn int_leaf() -> BoxedStrategy<String> {
        prop_oneof![
            proptest::sample::select(INTS).prop_map(str::to_string),
            (0u32..300).prop_map(|v| v.to_string()),
            (0u32..300).prop_map(|v| format!("{v}u")),
            (0u32..0xffff).prop_map(|v| format!("0x{v:x}")),
            Just("threadIdx.x".to_string()),
            Just("blockDim.y".to_string()),
            Just("warpSize".to_string()),
            Just("'z'".to_string()),
            Just("true".to_string()),
            Just("sizeof(float)".to_string()),
        ]
        .boxed()
    }

    fn float_leaf() -> BoxedStrategy<String> {
        prop_oneof![
            proptest::sample::select(FLOATS).prop_map(str::to_string),
            (0u32..1000).prop_map(|v| format!("{}.{}f", v / 10, v % 10)),
            (0u32..1000).prop_map(|v| format!("{}.5", v)),
            Just("1e-3f".to_string()),
        ]
        .boxed()
    }

    pub fn int_expr() -> BoxedStrategy<String> {
        int_leaf()
            .prop_recursive(4, 24, 3, |inner| {
                let f = float_expr_with(inner.clone());
                prop_oneof![
                    (
                        inner.clone(),
                        proptest::sample::select(
                            &[
                                "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "<", "<=", ">",
                                ">=", "==", "!=", "&&", "||"
                            ][..]
                        ),
                        inner.clone()
                    )
                        .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
                    (
                        proptest::sample::select(&["-", "~", "!"][..]),
                        inner.clone()
                    )
                        .prop_map(|(op, a)| format!("{op}({a})")),
                    (inner.clone(), inner.clone(), inner.clone())
                        .prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
                    f.clone().prop_map(|e| format!("(int)({e})")),
                    (f.clone(), f.clone()).prop_map(|(a, b)| format!("({a} < {b})")),
                    inner.clone().prop_map(|i| format!("p[({i}) & 7]")),
                    // tree-sitter-cuda reads `min(y < a, b >> c)` as a template
                    // `y<a, b>`: the printer must keep such arguments parenthesised.
                    (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
                    inner.clone().prop_map(|a| format!("abs({a})")),
                    inner.clone().prop_map(|a| format!("(unsigned char)({a})")),
                    inner
                        .clone()
                        .prop_map(|a| format!("(int)((q + (({a}) & 3)) - q)")),
                    (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}, {b})")),
                    inner.clone().prop_map(|a| format!("(short)sizeof({a})")),
                ]
            })
            .boxed()
    }

    fn float_expr_with(ints: BoxedStrategy<String>) -> BoxedStrategy<String> {
        float_leaf()
            .prop_recursive(3, 16, 3, move |inner| {
                prop_oneof![
                    (
                        inner.clone(),
                        proptest::sample::select(&["+", "-", "*", "/"][..]),
                        inner.clone()
                    )
                        .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
                    inner.clone().prop_map(|a| format!("-({a})")),
                    ints.clone().prop_map(|i| format!("(float)({i})")),
                    ints.clone().prop_map(|i| format!("q[({i}) & 7]")),
                    inner.clone().prop_map(|a| format!("sqrtf({a})")),
                    (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("fmaxf({a}, {b})")),
                    (inner.clone(), ints.clone()).prop_map(|(a, i)| format!("pow({a}, {i})")),
                    (ints.clone(), inner.clone())
                        .prop_map(|(c, a)| format!("*(({c}) ? q : q + 1) * {a}")),
                    (inner.clone(), inner.clone())
                        .prop_map(|(a, b)| format!("make_float2({a}, {b}).y")),
                    (ints.clone(), inner.clone(), inner.clone())
                        .prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
                ]
            })
            .boxed()
    }

    pub fn float_expr() -> BoxedStrategy<String> {
        float_expr_with(int_leaf())
    }

    pub fn stmt() -> BoxedStrategy<String> {
        let simple = prop_oneof![
            (proptest::sample::select(&["a", "b", "c", "l", "u"][..]), proptest::sample::select(&["=", "+=", "-=", "*=", "|=", "<<="][..]), int_expr())
                .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
            (proptest::sample::select(FLOATS), proptest::sample::select(&["=", "+=", "*=", "/="][..]), float_expr())
                .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
            (int_expr(), float_expr()).prop_map(|(i, f)| format!("q[({i}) & 7] = {f};")),
            (int_expr(), int_expr()).prop_map(|(i, e)| format!("p[({i}) & 7] = {e};")),
            Just("__syncthreads();".to_string()),
            int_expr().prop_map(|e| format!("atomicAdd(&p[0], {e});")),
            Just("a++;".to_string()),
            Just("--x;".to_string()),
            (float_expr(), int_expr()).prop_map(|(f, i)| format!("{{ float arr[4] = {{{f}, y, 1, 2}}; x += arr[({i}) & 3]; }}")),
            float_expr().prop_map(|f| format!("{{ __shared__ float sh[32]; sh[threadIdx.x & 31] = {f}; __syncthreads(); y = sh[0]; }}")),
            (float_expr(), float_expr()).prop_map(|(a, b)| format!("{{ float4 v = make_float4({a}, {b}, x, 1); x += v.y * v.w; }}")),
            int_expr().prop_map(|i| format!("x += __shfl_down_sync(0xffffffff, x, {i});")),
            int_expr().prop_map(|i| format!("c = {i};")),
        ];
        simple
            .prop_recursive(3, 12, 3, |inner| {
                prop_oneof![
                    (int_expr(), inner.clone(), inner.clone())
                        .prop_map(|(c, t, e)| format!("if ({c}) {{ {t} }} else {{ {e} }}")),
                    (0u32..8, inner.clone()).prop_map(|(n, b)| format!(
                        "for (int i = 0; i < {n}; i++) {{ {b} if (i == 3) break; }}"
                    )),
                    (int_expr(), inner.clone())
                        .prop_map(|(c, b)| format!("while ({c}) {{ {b} break; }}")),
                    (inner.clone(), int_expr())
                        .prop_map(|(b, c)| format!("do {{ {b} }} while (({c}) && false);")),
                    (int_expr(), inner.clone(), inner.clone()).prop_map(|(v, s1, s2)| format!(
                        "switch ({v}) {{ case 1: {s1} case 2: {s2} break; default: break; }}"
                    )),
                    (inner.clone(), inner.clone()).prop_map(|(s1, s2)| format!("{{ {s1} {s2} }}")),
                    (int_expr(), inner.clone())
                        .prop_map(|(e, s)| format!("{{ int t = {e}; a += t; {s} }}")),
                    (float_expr(), inner.clone())
                        .prop_map(|(e, s)| format!("{{ float f = {e}; x = f; {s} }}")),
                ]
            })
            .boxed()
    }

    pub fn kernel() -> BoxedStrategy<String> {
        proptest::collection::vec(stmt(), 1..6)
            .prop_map(|body| {
                format!(
                    "__device__ float helper(float v, int k) {{ return v * k; }}\n\
                     __global__ void k(int *p, float *q, int a, unsigned u, float x, double d) {{\n\
                     int b = threadIdx.x; char c = 1; long long l = 2; float y = helper(x, b);\n\
                     {}\n}}\n",
                    body.join("\n")
                )
            })
            .boxed()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_kernels_roundtrip(src in gen::kernel()) {
        let parsed = lower("random.cu", &src);
        prop_assert!(
            parsed.diagnostics.is_empty(),
            "generated kernel does not lower: {}\n{}",
            parsed.diagnostics[0],
            src
        );
        prop_assert_eq!(parsed.module.functions.len(), 2);
        if let Err(e) = roundtrip("random.cu", &src) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// Bit reinterpretations keep their names through a round trip, with the
/// argument converted to the type each takes.
#[test]
fn reinterpretations_round_trip() {
    let src = "__global__ void k(int *o, float x, double d, short s) {\n    o[0] = __float_as_int(x) + __double2hiint(d) + __double2loint(d);\n    o[1] = (int)__int_as_float(s) + (int)__longlong_as_double(__double_as_longlong(d)) + (int)__hiloint2double(1, s);\n    o[2] = __float_as_uint(__uint_as_float(7u));\n}\n";
    roundtrip("bits.cu", src).unwrap();
    let printed = print_module(&lower("bits.cu", src).module);
    assert!(printed.contains("__int_as_float(s)"), "{printed}");
    assert!(printed.contains("__hiloint2double(1, s)"), "{printed}");
}

/// `frexp`, `modf` and `sincos` are bound to definitions hone appends in
/// CUDA; the print carries them, and reads back as the same module.
#[test]
fn functions_with_pointer_results_round_trip() {
    let src = "__global__ void k(const float *x, const double *d, float *m, int *e, double *s) {\n    int i = threadIdx.x;\n    float ip;\n    m[i] = frexp(x[i], &e[i]) + modff(x[i], &ip) + ip;\n    sincos(d[i], &s[2 * i], &s[2 * i + 1]);\n}\n";
    roundtrip("pointer_results.cu", src).unwrap();
    let parsed = lower("pointer_results.cu", src);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let printed = print_module(&parsed.module);
    assert!(
        printed.contains("m[i] = hone_frexpf(x[i], &e[i]) + hone_modff(x[i], &ip) + ip;"),
        "{printed}"
    );
    assert!(
        printed.contains("hone_sincos(d[i], &s[2 * i], &s[2 * i + 1]);"),
        "{printed}"
    );
}
