//! Inline PTX that is one ALU instruction or one global load or store,
//! rewritten as the CUDA it computes before the file is lowered.
//!
//! `asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a),
//! "r"(b), "r"(c))` becomes `(r) = (unsigned int)(__vsadu4(...) + ...)`, so
//! every later stage sees an ordinary expression (and the printed kernel
//! compiles without the assembly). The replacement takes the assembly's
//! place in the text and is padded with spaces (newlines stay where they
//! were), so every position after it stays put; a statement whose
//! replacement would not fit, or an instruction not in the table, is left
//! for the lowering to refuse by name.

use tree_sitter::Node;

use super::toplevel;
use crate::{literal, syntax};

/// One operand of the assembly: its constraint letter and its C text.
struct Operand {
    constraint: char,
    text: String,
}

/// The C type a constraint letter means.
fn constraint_type(c: char) -> Option<&'static str> {
    Some(match c {
        'h' => "unsigned short",
        'r' => "unsigned int",
        'l' => "unsigned long long",
        'f' => "float",
        'd' => "double",
        _ => return None,
    })
}

/// The C type of a PTX type suffix (`u32`, `s64`, `f32`, ...).
fn ptx_type(t: &str) -> Option<&'static str> {
    Some(match t {
        "u8" => "unsigned char",
        "s8" => "signed char",
        "u16" | "b16" => "unsigned short",
        "s16" => "short",
        "u32" | "b32" => "unsigned int",
        "s32" => "int",
        "u64" | "b64" => "unsigned long long",
        "s64" => "long long",
        "f32" => "float",
        "f64" => "double",
        _ => return None,
    })
}

/// Each device function's single-instruction assembly, rewritten; `None`
/// when nothing changed.
pub(crate) fn rewrite(root: Node, src: &str) -> Option<String> {
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    syntax::walk(root, |n| {
        if n.kind() == "function_definition" && toplevel::func_kind(n, src).is_none() {
            return false;
        }
        if n.kind() == "gnu_asm_expression" {
            if let Some(c) = replacement(n, src) {
                edits.push((n.start_byte(), n.end_byte(), c));
            }
            return false;
        }
        true
    });
    if edits.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for (start, end, text) in edits {
        out.push_str(&src[at..start]);
        let old = &src[start..end];
        out.push_str(&text);
        // Padded to the old length, its line breaks kept (at the end).
        let newlines = old.matches('\n').count();
        out.push_str(&" ".repeat(old.len() - text.len() - newlines));
        out.push_str(&"\n".repeat(newlines));
        at = end;
    }
    out.push_str(&src[at..]);
    Some(out)
}

/// The C text for one `asm(...)`, if it is one supported instruction and
/// fits in the assembly's place.
fn replacement(n: Node, src: &str) -> Option<String> {
    let code_node = n.child_by_field_name("assembly_code")?;
    let code = match code_node.kind() {
        "string_literal" => literal::parse_string(syntax::text(code_node, src)).ok()?,
        "concatenated_string" => {
            let mut s = String::new();
            for part in syntax::named_children(code_node) {
                s.push_str(&literal::parse_string(syntax::text(part, src)).ok()?);
            }
            s
        }
        _ => return None,
    };
    let operands = |field: &str| -> Option<Vec<Operand>> {
        let Some(list) = n.child_by_field_name(field) else {
            return Some(Vec::new());
        };
        syntax::named_children(list)
            .into_iter()
            .filter(|o| o.kind() == "gnu_asm_output_operand" || o.kind() == "gnu_asm_input_operand")
            .map(|o| {
                let c = o.child_by_field_name("constraint")?;
                let c = literal::parse_string(syntax::text(c, src)).ok()?;
                let letter = c.chars().find(|ch| ch.is_ascii_alphabetic())?;
                let value = o.child_by_field_name("value")?;
                Some(Operand {
                    constraint: letter,
                    text: syntax::text(value, src).to_string(),
                })
            })
            .collect()
    };
    let outputs = operands("output_operands")?;
    let inputs = operands("input_operands")?;
    let all: Vec<&Operand> = outputs.iter().chain(&inputs).collect();
    let c = translate(&code, &outputs, &all)?;
    let old = syntax::text(n, src);
    (c.len() + old.matches('\n').count() <= old.len()).then_some(c)
}

/// The instruction in C, from the assembly's text and operands.
fn translate(code: &str, outputs: &[Operand], all: &[&Operand]) -> Option<String> {
    let code = code.replace("%%", "%");
    let code = code.trim().trim_end_matches(';').trim();
    if code.contains(';') || code.contains('{') || code.contains('@') {
        return None;
    }
    let (mnemonic, rest) = code.split_once(char::is_whitespace)?;
    let args: Vec<&str> = rest.split(',').map(str::trim).collect();
    // An operand: `%N` as its C text, cast to the instruction's type.
    // An operand: `%N` as its C text, or an immediate; `ty` casts it where
    // an operator (not a typed parameter) would read it with the wrong
    // signedness.
    let operand = |a: &str, ty: Option<&str>| -> Option<String> {
        let text = if let Some(k) = a.strip_prefix('%') {
            let o = all.get(k.parse::<usize>().ok()?)?;
            constraint_type(o.constraint)?;
            format!("({})", o.text)
        } else {
            let v = a.trim();
            (!v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
                .then(|| v.to_string())?
        };
        Some(match ty {
            Some(t) => format!("({t}){text}"),
            None => text,
        })
    };
    let op = |a: &str, ty: &str| operand(a, Some(ty));
    let parts: Vec<&str> = mnemonic.split('.').collect();
    let name = parts[0];
    let last = *parts.last()?;
    // Loads and stores, with any cache qualifiers: `[%1]` or `[%1+8]`.
    if name == "ld" || name == "st" {
        if !parts.contains(&"global") || parts.iter().any(|p| p.starts_with('v') && p.len() == 2) {
            return None;
        }
        let ty = ptx_type(last)?;
        let (addr, value) = if name == "ld" {
            (args.get(1)?, args.first()?)
        } else {
            (args.first()?, args.get(1)?)
        };
        let inner = addr.strip_prefix('[')?.strip_suffix(']')?;
        let (base, offset) = match inner.split_once('+') {
            Some((b, o)) => (b.trim(), o.trim().parse::<i64>().ok()?),
            None => (inner.trim(), 0),
        };
        let k: usize = base.strip_prefix('%')?.parse().ok()?;
        let p = all.get(k)?;
        let place = format!("(*({ty} *)((char *)({})+{offset}))", p.text);
        return if name == "ld" {
            let k: usize = value.strip_prefix('%')?.parse().ok()?;
            let out = outputs.get(k)?;
            Some(format!("({}) = {place}", out.text))
        } else {
            Some(format!("{place} = {}", op(value, ty)?))
        };
    }
    let [d, srcs @ ..] = args.as_slice() else {
        return None;
    };
    let dk: usize = d.strip_prefix('%')?.parse().ok()?;
    let out = outputs.get(dk)?;
    let ot = constraint_type(out.constraint)?;
    let ty = ptx_type(last).unwrap_or("unsigned");
    let ty = if ty == "unsigned int" { "unsigned" } else { ty };
    // Operands of operators are cast; those of functions convert to their
    // parameters' types by themselves.
    let a = |i: usize| srcs.get(i).and_then(|s| op(s, ty));
    let f = |i: usize| srcs.get(i).and_then(|s| operand(s, None));
    let value = match (mnemonic, srcs.len()) {
        ("vabsdiff4.u32.u32.u32.add", 3) => format!("__vsadu4({},{})+{}", f(0)?, f(1)?, f(2)?),
        ("prmt.b32", 3) => format!("hone_ptx_prmt({},{},{})", f(0)?, f(1)?, f(2)?),
        ("shf.l.wrap.b32", 3) => format!("__funnelshift_l({},{},{})", f(0)?, f(1)?, f(2)?),
        ("shf.l.clamp.b32", 3) => format!("__funnelshift_lc({},{},{})", f(0)?, f(1)?, f(2)?),
        ("shf.r.wrap.b32", 3) => format!("__funnelshift_r({},{},{})", f(0)?, f(1)?, f(2)?),
        ("shf.r.clamp.b32", 3) => format!("__funnelshift_rc({},{},{})", f(0)?, f(1)?, f(2)?),
        ("mul.hi.u32", 2) => format!("__umulhi({},{})", f(0)?, f(1)?),
        ("mul.hi.s32", 2) => format!("__mulhi({},{})", f(0)?, f(1)?),
        ("mul.hi.u64", 2) => format!("__umul64hi({},{})", f(0)?, f(1)?),
        ("mul.wide.u32", 2) => format!(
            "(unsigned long long){} * (unsigned long long){}",
            a(0)?,
            a(1)?
        ),
        ("mul.wide.s32", 2) => format!("(long long){}*(long long){}", a(0)?, a(1)?),
        ("mul.lo.u32" | "mul.lo.s32" | "mul.lo.u64" | "mul.lo.s64", 2) => {
            format!("{}*{}", a(0)?, a(1)?)
        }
        ("mad.lo.u32" | "mad.lo.s32" | "mad.lo.u64" | "mad.lo.s64", 3) => {
            format!("{}*{}+{}", a(0)?, a(1)?, a(2)?)
        }
        ("add.u32" | "add.s32" | "add.u64" | "add.s64", 2) => format!("{}+{}", a(0)?, a(1)?),
        ("sub.u32" | "sub.s32" | "sub.u64" | "sub.s64", 2) => format!("{}-{}", a(0)?, a(1)?),
        ("and.b32" | "and.b64", 2) => format!("{}&{}", a(0)?, a(1)?),
        ("or.b32" | "or.b64", 2) => format!("{}|{}", a(0)?, a(1)?),
        ("xor.b32" | "xor.b64", 2) => format!("{}^{}", a(0)?, a(1)?),
        ("not.b32" | "not.b64", 1) => format!("~{}", a(0)?),
        ("min.u32" | "min.s32", 2) => format!("min({},{})", a(0)?, a(1)?),
        ("max.u32" | "max.s32", 2) => format!("max({},{})", a(0)?, a(1)?),
        ("brev.b32", 1) => format!("__brev({})", f(0)?),
        ("brev.b64", 1) => format!("__brevll({})", f(0)?),
        ("popc.b32", 1) => format!("__popc({})", f(0)?),
        ("popc.b64", 1) => format!("__popcll({})", f(0)?),
        ("clz.b32", 1) => format!("__clz({})", f(0)?),
        ("clz.b64", 1) => format!("__clzll({})", f(0)?),
        ("bfind.u32", 1) => format!("31u-(unsigned)__clz({})", f(0)?),
        ("bfe.u32", 3) => format!("hone_ptx_bfe_u32({},{},{})", f(0)?, f(1)?, f(2)?),
        ("bfe.s32", 3) => format!("hone_ptx_bfe_s32({},{},{})", f(0)?, f(1)?, f(2)?),
        ("bfi.b32", 4) => format!("hone_ptx_bfi_b32({},{},{},{})", f(0)?, f(1)?, f(2)?, f(3)?),
        ("lop3.b32", 4) => format!("hone_ptx_lop3({},{},{},{})", f(0)?, f(1)?, f(2)?, f(3)?),
        ("fma.rn.f32", 3) => format!("fmaf({},{},{})", f(0)?, f(1)?, f(2)?),
        ("fma.rn.f64", 3) => format!("fma({},{},{})", f(0)?, f(1)?, f(2)?),
        ("mov.u32" | "mov.b32", 1) => match srcs[0] {
            "%clock" => "(unsigned int)clock()".to_string(),
            "%tid.x" => "threadIdx.x".to_string(),
            "%tid.y" => "threadIdx.y".to_string(),
            "%tid.z" => "threadIdx.z".to_string(),
            "%ntid.x" => "blockDim.x".to_string(),
            "%ntid.y" => "blockDim.y".to_string(),
            "%ntid.z" => "blockDim.z".to_string(),
            "%ctaid.x" => "blockIdx.x".to_string(),
            "%ctaid.y" => "blockIdx.y".to_string(),
            "%ctaid.z" => "blockIdx.z".to_string(),
            "%nctaid.x" => "gridDim.x".to_string(),
            "%nctaid.y" => "gridDim.y".to_string(),
            "%nctaid.z" => "gridDim.z".to_string(),
            // The lane registers are read by the lowering itself.
            _ => return None,
        },
        // The nanosecond timer is, like the cycle counter, a time: the
        // emulator's clock stands for both.
        ("mov.u64" | "mov.b64", 1) if srcs[0] == "%clock64" || srcs[0] == "%globaltimer" => {
            "clock64()".to_string()
        }
        _ => return None,
    };
    let _ = ot;
    Some(format!("({})={value}", out.text))
}
