//! The printer: hone IR back to CUDA C.
//!
//! The output is meant to be compiled by NVRTC and read again by hone's front
//! end, giving back an equal [`Module`] (`parse(print(m)) == m`). It is therefore
//! exact and deterministic rather than a pretty-printer with choices:
//!
//! - every `__device__` function gets a prototype before all definitions, so the
//!   order of calls never matters;
//! - implicit conversions (`Cast { implicit: true }`) are left out, since the
//!   front end inserts them again; explicit ones print as `(T)e`;
//! - parentheses are those C's precedence and associativity need, plus some
//!   that never change meaning: around operands whose grouping compilers warn
//!   about (`(a + b) << c`, `(a & b) | c`, `(a < b) == c`, `(a && b) || c`), and
//!   where tree-sitter's C++ grammar, which the front end parses with and which
//!   cannot tell types from values, would otherwise read the text differently
//!   from C: `-(a--)`, `p[(a, b)]`, `((a = b), c)` inside parentheses,
//!   `(0)[p]`, `i < n && (j > (k))` (not a template call), and statements such
//!   as `(a * b);` or `(a && f());` (not declarations);
//! - literals carry the suffix their type needs and floats print with the
//!   shortest text that reads back to the same value;
//! - variable names are printed as they are unless C would resolve them
//!   differently; the `names` module gives the renaming rule.
//!
//! Two rare statement shapes still read differently in tree-sitter: an
//! expression statement starting with `~` (`~f();` reads as a destructor
//! declaration, parenthesised or not), and `a < b, c > d;` (a declaration).
//!
//! A few IR shapes have no C spelling of their own and print as equivalent C
//! that reads back as a different tree: integer literals of types without
//! literals (`short`, `unsigned char`, `bool`), and values a literal of their
//! type cannot hold, print as a cast of an `int` or `long long` literal;
//! negative literal values print as a negation; infinities and NaN print as a
//! division (`(1.0f / 0.0f)`, `(0.0f / 0.0f)`); a `for` whose initialisation C
//! cannot write in one clause (declarations of different base types, a
//! declaration next to an expression) is wrapped in a block that holds those
//! statements; several initialising expressions print as one comma
//! expression; a case label outside the range of the switch's type prints
//! converted to it (C++ rejects it otherwise); an empty last switch arm gets
//! the empty statement `;`, and an arm with an empty body followed by another
//! prints like one arm with the labels of both.

mod expr;
mod names;
mod stmt;
mod types;

use crate::{Expr, Function, GlobalSpace, GlobalVar, Module, RecordKind, StructType, Type};

/// How [`print_module_with`] prints beyond what the front end reads back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// A `#line` directive before every statement, naming the user's file
    /// and the statement's line: a compiler's line information (`-lineinfo`)
    /// then points at the user's source, not at the printed text.
    pub line_directives: bool,
    /// `#pragma unroll 1` before every loop: compiled code whose memory
    /// instructions are one per access the compiler kept, in loops of the
    /// source's nesting.
    pub unroll_once: bool,
}

/// CUDA C for a whole module: prototypes of the `__device__` functions, then
/// every function in module order, separated by blank lines.
pub fn print_module(m: &Module) -> String {
    print_module_with(m, PrintOptions::default())
}

/// [`print_module`] with directives for a compiler; the text is meant for
/// NVRTC, not for reading back.
pub fn print_module_with(m: &Module, opts: PrintOptions) -> String {
    let mut out = print_prelude(m);
    let mut any_device = false;
    for f in m.functions.iter() {
        if f.kind == crate::FuncKind::Device {
            let names = names::resolve(m, f);
            out.push_str(&stmt::FnPrinter::new(m, f, &names).prototype());
            out.push('\n');
            any_device = true;
        }
    }
    for (i, f) in m.functions.iter().enumerate() {
        if i > 0 || any_device {
            out.push('\n');
        }
        let names = names::resolve(m, f);
        out.push_str(
            &stmt::FnPrinter::new(m, f, &names)
                .with_options(opts)
                .definition(),
        );
    }
    out
}

/// What a module's functions stand on: the include the grid barrier needs,
/// the struct definitions and the file-scope variables, each followed by a
/// newline.
pub fn print_prelude(m: &Module) -> String {
    let mut out = String::new();
    if uses_grid_sync(m) {
        // The grid barrier is spelled as cooperative groups spell it.
        out.push_str("#include <cooperative_groups.h>\n\n");
    }
    for st in &m.structs {
        out.push_str(&print_struct(st));
        out.push('\n');
    }
    for g in &m.globals {
        out.push_str(&print_global(m, g));
        out.push('\n');
    }
    out
}

/// Whether a function of the module holds a grid barrier.
pub fn uses_grid_sync(m: &Module) -> bool {
    let mut found = false;
    for f in &m.functions {
        crate::visit::visit_block(&f.body, &mut |e| {
            if matches!(
                e.kind,
                crate::ExprKind::Intrinsic(crate::Intrinsic::GridSync, _)
            ) {
                found = true;
            }
        });
    }
    found
}

/// A struct definition: its data members in order, and `alignas(n)` when
/// the struct is aligned beyond what its members need.
pub fn print_struct(st: &StructType) -> String {
    let ep = expr::ExprPrinter::new(None, &[]);
    let natural = st.fields.iter().map(|f| f.ty.align()).max().unwrap_or(1);
    let keyword = match st.kind {
        RecordKind::Struct => "struct",
        RecordKind::Class => "class",
        RecordKind::Union => "union",
    };
    let align = if st.align > natural {
        format!("alignas({}) ", st.align)
    } else {
        String::new()
    };
    let mut out = format!("{keyword} {align}{} {{\n", st.name);
    if st.kind == RecordKind::Class {
        out.push_str("public:\n");
    }
    for f in &st.fields {
        out.push_str(&format!(
            "    {};\n",
            types::declaration(&f.ty, false, &f.name, &ep)
        ));
    }
    out.push_str("};\n");
    out
}

/// A file-scope variable with its initializer.
pub fn print_global(m: &Module, g: &GlobalVar) -> String {
    let ep = expr::ExprPrinter::new(Some(m), &[]);
    let space = match (g.space, g.is_extern) {
        (GlobalSpace::Constant, _) => "__constant__ ",
        (GlobalSpace::Device, _) => "__device__ ",
        (GlobalSpace::Shared, false) => "__shared__ ",
        (GlobalSpace::Shared, true) => "extern __shared__ ",
    };
    let mut text = format!(
        "{space}{}",
        types::declaration_q(&g.ty, g.is_const, g.is_volatile, &g.name, &ep)
    );
    if let Some(init) = &g.init {
        text.push_str(" = ");
        text.push_str(&stmt::init_text(&ep, init));
    }
    text.push_str(";\n");
    text
}

/// CUDA C for one function definition (no prototype). `m` names the callees.
pub fn print_function(m: &Module, f: &Function) -> String {
    let names = names::resolve(m, f);
    stmt::FnPrinter::new(m, f, &names).definition()
}

/// One expression of `f`, with the variable names `print_function` would use.
pub fn print_expr(m: &Module, f: &Function, e: &Expr) -> String {
    let names = names::resolve(m, f);
    expr::ExprPrinter::new(Some(m), &names).expr(e)
}

/// A type as C writes it in a cast or `sizeof`: `const float *`, `float[4]`,
/// `float (*)[17]`. Array lengths given by expressions are printed without a
/// function to name their variables, so a variable there prints as `v<id>`.
pub fn print_type(ty: &Type) -> String {
    types::type_name(ty, &expr::ExprPrinter::new(None, &[]))
}

/// A declaration of `name` with type `ty`: `const float *__restrict__ p`,
/// `float s[16][17]`, `float *const q` (`is_const` is the variable's own
/// `const`). Variables in array lengths print as in [`print_type`].
pub fn print_type_decl(ty: &Type, is_const: bool, name: &str) -> String {
    types::declaration(ty, is_const, name, &expr::ExprPrinter::new(None, &[]))
}
