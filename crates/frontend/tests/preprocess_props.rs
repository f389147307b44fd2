//! Property tests of the preprocessor.

use hone_frontend::preprocess::{preprocess_str, LineOrigin, PreprocessOptions, Preprocessed};
use proptest::prelude::*;

fn run(src: &str) -> Result<Preprocessed, String> {
    preprocess_str("p.cu", src, None, &PreprocessOptions::default()).map_err(|e| e.to_string())
}

/// Output lines, their origins and the files agree with each other.
fn check_shape(pre: &Preprocessed) {
    assert_eq!(pre.text.matches('\n').count(), pre.lines.len());
    assert!(pre.text.is_empty() || pre.text.ends_with('\n'));
    for o in &pre.lines {
        assert!((o.file as usize) < pre.files.len());
        assert!(o.line >= 1);
    }
}

/// Code without directives, comments, literals, splices or upper-case
/// names (so no macro can be named).
fn plain_line() -> impl Strategy<Value = String> {
    proptest::string::string_regex(r"[a-z0-9 \t+*%<>=!&|^~?:;,.()\[\]{}-]{0,40}").unwrap()
}

/// Pieces of directives, macros, literals and comments, glued at random.
const SOUP: &[&str] = &[
    "#define ",
    "#undef ",
    "#if ",
    "#ifdef ",
    "#ifndef ",
    "#elif ",
    "#else",
    "#endif",
    "#include ",
    "#pragma ",
    "#line ",
    "#error ",
    "#",
    "##",
    "(",
    ")",
    ",",
    "...",
    "__VA_ARGS__",
    "__VA_OPT__",
    "A",
    "B",
    "F",
    "x",
    "1",
    "0x1f",
    "'a'",
    "\"s\"",
    "\n",
    " ",
    "\\\n",
    "/*",
    "*/",
    "//",
    "defined",
    "+",
    "-",
    "/",
    "<",
    ">",
    "?",
    ":",
    "'",
    "\"",
    "__LINE__",
    "__FILE__",
    "<stdio.h>",
    "\"x.h\"",
    "unroll",
    "once",
    "\r\n",
    "\t",
];

proptest! {
    #[test]
    fn plain_text_comes_out_unchanged_with_identity_map(
        lines in proptest::collection::vec(plain_line(), 0..20),
        final_newline in any::<bool>(),
    ) {
        let mut src = lines.join("\n");
        if final_newline && !src.is_empty() {
            src.push('\n');
        }
        let pre = run(&src).unwrap();
        check_shape(&pre);
        // Every physical line is one output line; only trailing blanks go.
        let expected: String = src.lines().map(|l| format!("{}\n", l.trim_end())).collect();
        let n = src.lines().count();
        prop_assert_eq!(&pre.text, &expected);
        let identity: Vec<LineOrigin> = (1..=n as u32).map(|line| LineOrigin { file: 0, line }).collect();
        prop_assert_eq!(pre.lines, identity);
    }

    #[test]
    fn object_like_macros_replace_their_names(
        values in proptest::collection::vec(0u32..100_000, 1..6),
        picks in proptest::collection::vec((0usize..10, 0usize..8), 1..30),
    ) {
        let words = ["a", "b1", "+", "*", "(", ")", "7", "x_y"];
        let mut src = String::new();
        for (k, v) in values.iter().enumerate() {
            src.push_str(&format!("#define M{k} {v}\n"));
        }
        let mut used = Vec::new();
        let mut want = Vec::new();
        for &(m, w) in &picks {
            if m < values.len() {
                used.push(format!("M{m}"));
                want.push(values[m].to_string());
            } else {
                used.push(words[w].to_string());
                want.push(words[w].to_string());
            }
        }
        src.push_str(&used.join(" "));
        src.push('\n');
        let pre = run(&src).unwrap();
        check_shape(&pre);
        // An expansion shorter than its name is padded, so that the tokens
        // after it keep their columns: compare the tokens.
        let last: Vec<&str> = pre.text.lines().last().unwrap_or_default().split_whitespace().collect();
        prop_assert_eq!(last.join(" "), want.join(" "));
        prop_assert_eq!(pre.lines.len(), values.len() + 1);
    }

    #[test]
    fn never_panics_on_directive_soup(
        parts in proptest::collection::vec(proptest::sample::select(SOUP), 0..60),
    ) {
        let src: String = parts.concat();
        if let Ok(pre) = run(&src) {
            check_shape(&pre);
        }
    }

    #[test]
    fn never_panics_on_arbitrary_text(src in any::<String>()) {
        if let Ok(pre) = run(&src) {
            check_shape(&pre);
        }
    }
}

#[test]
fn deep_macro_nesting_is_an_error_not_a_crash() {
    let nest = |n: usize| {
        format!(
            "#define F(x) x\nint a = {}1{};\n",
            "F(".repeat(n),
            ")".repeat(n)
        )
    };
    let pre = run(&nest(100)).unwrap();
    // The `;` keeps its column, 310.
    assert_eq!(pre.text, format!("\nint a = 1{};\n", " ".repeat(300)));
    let err = run(&nest(600)).unwrap_err();
    assert!(err.contains("nested more than"), "{err}");
}

#[test]
fn deep_parentheses_in_if_are_an_error_not_a_crash() {
    let src = format!(
        "#if {}1{}\n#endif\n",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let err = run(&src).unwrap_err();
    assert!(err.contains("nested more than"), "{err}");
    let src = format!("#if {}1\n#endif\n", "- ".repeat(10_000));
    let err = run(&src).unwrap_err();
    assert!(err.contains("nested more than"), "{err}");
}

#[test]
fn exponential_expansion_is_cut_off() {
    // Each level repeats the one below 16 times: 16^8 tokens would never end.
    let mut src = String::from("#define L0 x\n");
    for k in 1..=8 {
        src.push_str(&format!(
            "#define L{k}{}\n",
            format!(" L{}", k - 1).repeat(16)
        ));
    }
    src.push_str("L8\n");
    let err = run(&src).unwrap_err();
    assert!(err.contains("macro expansion produces more than"), "{err}");
}
