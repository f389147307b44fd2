//! No input makes the front end panic, and what it lowers is well formed.

mod support;

use std::fs;

use proptest::prelude::*;
use support::{check_module, lower};

fn golden_sources() -> Vec<String> {
    let mut out: Vec<(String, String)> = support::golden_inputs()
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                fs::read_to_string(&p).expect("read case"),
            )
        })
        .collect();
    out.sort();
    out.into_iter().map(|(_, s)| s).collect()
}

#[test]
fn golden_cases_are_well_formed() {
    for src in golden_sources() {
        let parsed = lower("case.cu", &src);
        if let Err(e) = check_module(&parsed.module) {
            panic!("{e}\nin:\n{src}");
        }
    }
}

#[test]
fn deep_nesting_is_reported_not_overflowed() {
    let depth = 20_000;
    let parens = format!(
        "__global__ void k(int *o) {{ o[0] = {}1{}; }}\n__global__ void ok(int *o) {{ o[0] = 1; }}",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let blocks = format!(
        "__global__ void k(int *o) {{ {} o[0] = 1; {} }}",
        "{".repeat(depth),
        "}".repeat(depth)
    );
    let unary = format!(
        "__global__ void k(int *o) {{ o[0] = {}1; }}",
        "-".repeat(depth)
    );
    let ifs = format!(
        "__global__ void k(int *o) {{ {} o[0] = 1; }}",
        "if (o) ".repeat(depth)
    );
    for src in [parens, blocks, unary, ifs] {
        let parsed = lower("deep.cu", &src);
        assert!(
            parsed.diagnostics.iter().any(|d| d.construct == "nesting"),
            "no nesting diagnostic: {:?}",
            parsed.diagnostics.first()
        );
        assert!(parsed.module.function("k").is_none());
        check_module(&parsed.module).expect("well formed");
    }
    // The well-nested neighbour of a too-deep function is still lowered.
    let parsed = lower(
        "deep.cu",
        &format!(
            "__global__ void k(int *o) {{ o[0] = {}1{}; }}\n__global__ void ok(int *o) {{ o[0] = 1; }}",
            "(".repeat(depth),
            ")".repeat(depth)
        ),
    );
    assert!(parsed.module.function("ok").is_some());
}

/// Pieces that tend to reach unusual parser and lowering paths.
const FRAGMENTS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "*",
    "&",
    "-",
    "+",
    "?",
    ":",
    "=",
    "+=",
    "<<",
    ">>",
    "<<<",
    ">>>",
    "->",
    ".",
    ".x",
    "++",
    "!",
    "~",
    "0",
    "1",
    "-1",
    "0x",
    "1.5f",
    "'a'",
    "\"s\"",
    "int",
    "float",
    "float4",
    "unsigned",
    "long",
    "const",
    "__shared__",
    "extern",
    "__global__",
    "__device__",
    "void",
    "return",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "default:",
    "break;",
    "continue;",
    "goto",
    "sizeof",
    "threadIdx",
    "blockDim.x",
    "__syncthreads()",
    "atomicAdd(",
    "make_float2(",
    "sqrtf(",
    "#pragma unroll\n",
    "template<typename T>",
    "struct S",
    "typedef",
    "static_cast<int>(",
    "(float)",
    "x",
    "y",
    "n",
    "\n",
    "[]",
    "[n]",
    "[16]",
    "= {1, 2}",
    "dim3",
    "__launch_bounds__(",
    "asm(",
    "printf(",
    "new",
    "auto",
    "::",
];

fn mutate(src: &str, ops: &[(u8, usize, usize)]) -> String {
    let mut s: Vec<char> = src.chars().collect();
    for &(op, a, b) in ops {
        if s.is_empty() {
            s.extend(FRAGMENTS[b % FRAGMENTS.len()].chars());
            continue;
        }
        let i = a % s.len();
        let j = (i + b % 40).min(s.len());
        match op % 4 {
            0 => {
                s.drain(i..j);
            }
            1 => {
                let piece: Vec<char> = s[i..j].to_vec();
                let at = b % s.len();
                s.splice(at..at, piece);
            }
            2 => {
                let f: Vec<char> = FRAGMENTS[b % FRAGMENTS.len()].chars().collect();
                s.splice(i..i, f);
            }
            _ => {
                let f: Vec<char> = FRAGMENTS[b % FRAGMENTS.len()].chars().collect();
                s.splice(i..j, f);
            }
        }
    }
    s.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_do_not_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let text = String::from_utf8_lossy(&bytes);
        let parsed = lower("random.cu", &text);
        prop_assert!(check_module(&parsed.module).is_ok());
    }

    #[test]
    fn random_fragments_do_not_panic(picks in proptest::collection::vec(0usize..1000, 0..200)) {
        let text: String = picks.iter().map(|p| FRAGMENTS[p % FRAGMENTS.len()]).collect::<Vec<_>>().join(" ");
        let text = format!("__global__ void k(int *o, float *p, int n) {{ {text} }}");
        let parsed = lower("fragments.cu", &text);
        prop_assert!(check_module(&parsed.module).is_ok());
    }

    #[test]
    fn mangled_kernels_do_not_panic(
        case in 0usize..1000,
        ops in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..12),
    ) {
        let sources = golden_sources();
        let src = &sources[case % sources.len()];
        let text = mutate(src, &ops);
        let parsed = lower("mangled.cu", &text);
        if let Err(e) = check_module(&parsed.module) {
            prop_assert!(false, "{}\nin:\n{}", e, text);
        }
    }
}

#[test]
fn long_misparsed_chains_are_bounded() {
    // `(x) + *p` is reassociated; a very long chain of it must neither recurse
    // without bound nor take quadratic time.
    let terms = 50_000;
    let chain = "(x) + *p + ".repeat(terms);
    let src = format!("__global__ void k(int *p, int x) {{ p[0] = {chain}1; }}");
    let parsed = lower("chain.cu", &src);
    assert!(parsed.module.function("k").is_none());
    assert!(parsed.diagnostics.iter().any(|d| d.construct == "nesting"));
    let unary = format!(
        "__global__ void k(int *p, int x) {{ p[0] = {}(x) + *p; }}",
        "-".repeat(terms)
    );
    let parsed = lower("unary.cu", &unary);
    assert!(parsed.module.function("k").is_none());
}

#[test]
fn a_template_instantiating_itself_without_end_stops_at_the_instance_limit() {
    let src = "template <int N> __device__ int f() { return N + f<N - 1>(); }\n\
               __global__ void k(int *o) { o[0] = f<5>(); }\n";
    let t = std::time::Instant::now();
    let parsed = lower("endless.cu", src);
    assert!(t.elapsed() < std::time::Duration::from_secs(60));
    let d = parsed
        .diagnostics
        .iter()
        .find(|d| d.message.contains("template instances"))
        .unwrap_or_else(|| panic!("{:#?}", parsed.diagnostics));
    assert!(d.message.contains("more than 1000"), "{d}");
    assert_eq!(d.file, "endless.cu");
}

#[test]
fn array_sizes_past_64_bits_are_errors_not_overflows() {
    let src = "struct Big { long long x[1152921504606846976]; long long y[1152921504606846976]; };\n\
               __global__ void k(Big *b, int n) { b[0].x[0] = n; }\n\
               __global__ void l(int *o, int n) { long long a[2305843009213693952]; a[n] = 1; o[0] = a[0]; }\n";
    let parsed = lower("huge.cu", src);
    assert!(parsed.has_errors(), "{:#?}", parsed.diagnostics);
    if let Err(e) = check_module(&parsed.module) {
        panic!("{e}");
    }
}
