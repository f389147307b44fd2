//! The macro-replacement examples of the C standard (C11 6.10.3.3, 6.10.3.5)
//! and of C++20 for `__VA_OPT__` ([cpp.subst]), whose results the standards
//! state. Whitespace outside literals is not
//! compared: the standard leaves it open.

use hone_frontend::preprocess::{preprocess_str, PreprocessOptions};

/// `s` without whitespace outside string and character literals.
fn squeeze(s: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if c == '\\' {
                    out.extend(chars.next());
                } else if c == q {
                    quote = None;
                }
            }
            None if c.is_whitespace() => {}
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
}

fn expand(src: &str) -> String {
    preprocess_str("example.c", src, None, &PreprocessOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .text
}

fn assert_expands(src: &str, expected: &str) {
    let got = expand(src);
    assert_eq!(squeeze(&got), squeeze(expected), "output was:\n{got}");
}

#[test]
fn example_3_rescanning_and_recursion() {
    let src = r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    let expected = r#"
f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };
"#;
    assert_expands(src, expected);
}

#[test]
fn example_4_stringizing_and_pasting() {
    let src = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let expected = r#"
printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0" ": @\n", s);
"vers2.h"
"hello";
"hello" ", world"
"#;
    assert_expands(src, expected);
}

#[test]
fn example_5_placemarkers() {
    let src = "#define t(x,y,z) x ## y ## z\n\
               int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n\
               t(10,,), t(,11,), t(,,12), t(,,) };\n";
    assert_expands(src, "int j[] = { 123, 45, 67, 89, 10, 11, 12, };");
}

#[test]
fn example_hash_hash_from_pasting() {
    let src = "#define hash_hash # ## #\n\
               #define mkstr(a) # a\n\
               #define in_between(a) mkstr(a)\n\
               #define join(c, d) in_between(c hash_hash d)\n\
               char p[] = join(x, y);\n";
    assert_expands(src, r#"char p[] = "x ## y";"#);
}

#[test]
fn example_7_variadic() {
    let src = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    let expected = r#"
fprintf(stderr, "Flag");
fprintf(stderr, "X = %d\n", x);
puts("The first, second, and third items.");
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));
"#;
    assert_expands(src, expected);
}

#[test]
fn example_object_like_redefinition_and_self_reference() {
    // 6.10.3.4: a name found during the rescan of its own replacement is
    // not replaced, even when reached through another macro.
    let src = "#define foo a foo b\n#define bar foo\nbar;\n#define a1 b1\n#define b1 a1\na1 b1;\n";
    assert_expands(src, "a foo b; a1 b1;");
}

#[test]
fn cpp20_va_opt() {
    let src = r#"#define F(...) f(0 __VA_OPT__(,) __VA_ARGS__)
#define G(X, ...) f(0, X __VA_OPT__(,) __VA_ARGS__)
#define SDEF(sname, ...) S sname __VA_OPT__(= { __VA_ARGS__ })
#define EMP
F(a,b,c)
F()
F(EMP)
G(a,b,c)
G(a,)
G(a)
SDEF(foo);
SDEF(bar, 1, 2);
"#;
    let expected = "f(0, a, b, c) f(0) f(0) f(0, a, b, c) f(0, a) f(0, a) S foo; S bar = { 1, 2 };";
    assert_expands(src, expected);
}

#[test]
fn cpp20_va_opt_with_pasting() {
    let src = "#define H2(X, Y, ...) __VA_OPT__(X ## Y,) __VA_ARGS__\n\
               H2(a, b, c, d)\n\
               #define H3(X, ...) #__VA_OPT__(X##X X##X)\n\
               H3(, 0)\n\
               #define H4(X, ...) __VA_OPT__(a X ## X) ## b\n\
               H4(, 1)\n\
               #define H5A(...) __VA_OPT__()/**/__VA_OPT__()\n\
               #define H5B(X) a ## X ## b\n\
               #define H5C(X) H5B(X)\n\
               H5C(H5A())\n";
    assert_expands(src, r#"ab, c, d "" a b ab"#);
}
