//! Repairs a C++ ambiguity the grammar resolves without knowing which names
//! are types.
//!
//! `(x) + *p` and `(abs(a * b)) & 3` are read as casts to a "type" `x` or
//! `abs(a *)` of `+*p` and `&3`. When the name is not a type, the parentheses
//! only group a postfix expression (a name, a call, a subscript), so dropping
//! them keeps the meaning: the two parentheses are replaced by spaces, which
//! keeps every position. `(a & (b * c)) * d` is read as a cast of `*d` to a
//! reference to a function; there the parentheses group a binary expression
//! and must stay, so they are doubled (`((a & (b * c))) * d`), which the
//! grammar cannot read as a cast. That moves later columns of the line by
//! two; lines stay put, so positions still map to the user's lines. The
//! repaired text is parsed again.

use std::collections::HashSet;

use tree_sitter::{Node, Tree};

use super::{names, toplevel, ModuleCtx};
use crate::syntax;

/// Rounds of repair; each round fixes every misread cast it sees, so more
/// than one is needed only when a repair uncovers another.
const MAX_ROUNDS: usize = 4;

/// The repaired tree, and when its text is not the input's, that text with
/// the offsets of the bytes the repair added to it (sorted).
pub(crate) fn repair(ctx: &ModuleCtx, tree: Tree) -> (Tree, Option<(String, Vec<usize>)>) {
    let mut tree = tree;
    let mut text: Option<(String, Vec<usize>)> = None;
    for _ in 0..MAX_ROUNDS {
        let current = text.as_ref().map_or(ctx.src, |t| t.0.as_str());
        let fixes = misread_casts(ctx, current, tree.root_node());
        if fixes.is_empty() {
            break;
        }
        let (fixed, added) = apply(current, fixes);
        match syntax::parse(&fixed) {
            Some(t) => tree = t,
            None => break,
        }
        // Bytes added in earlier rounds move right by those added before them.
        let mut all: Vec<usize> = text
            .map(|(_, old)| {
                old.into_iter()
                    .map(|o| o + added.iter().filter(|&&(moved, _)| moved <= o).count())
                    .collect()
            })
            .unwrap_or_default();
        all.extend(added.iter().map(|&(_, new)| new));
        all.sort_unstable();
        text = Some((fixed, all));
    }
    (tree, text)
}

/// What to do at an offset of the text.
#[derive(Clone, Copy)]
enum Fix {
    /// The parentheses of a misread cast group a postfix expression: replace
    /// them with spaces.
    Drop,
    /// They group a binary expression: double them.
    Double,
    /// Insert this byte before the offset (the parentheses around a variable
    /// misread as the name of a template).
    Insert(u8),
    /// Replace the parenthesis with a brace: `T x(a[i], b);` read as a
    /// declaration of a function `x` becomes `T x{a[i], b};`, the object
    /// built from those arguments.
    Brace,
}

/// `text` with the given fixes made, and for each byte added, the first
/// offset in `text` that moves because of it and its own offset in the result.
fn apply(text: &str, mut fixes: Vec<(usize, Fix)>) -> (String, Vec<(usize, usize)>) {
    fixes.sort_by_key(|f| f.0);
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() + fixes.len());
    let mut added = Vec::new();
    let mut at = 0;
    for (pos, fix) in fixes {
        if pos < at || pos > bytes.len() {
            continue;
        }
        if let Fix::Insert(b) = fix {
            out.extend_from_slice(&bytes[at..pos]);
            out.push(b);
            added.push((pos, out.len() - 1));
            at = pos;
            continue;
        }
        let Some(&paren @ (b'(' | b')')) = bytes.get(pos) else {
            continue;
        };
        out.extend_from_slice(&bytes[at..pos]);
        match fix {
            Fix::Drop => out.push(b' '),
            Fix::Brace => out.push(if paren == b'(' { b'{' } else { b'}' }),
            Fix::Double => {
                out.extend_from_slice(&[paren, paren]);
                added.push((pos + 1, out.len() - 1));
            }
            Fix::Insert(_) => unreachable!("handled above"),
        }
        at = pos + 1;
    }
    out.extend_from_slice(&bytes[at..]);
    // Only ASCII parentheses were replaced or added, so it is still UTF-8.
    match String::from_utf8(out) {
        Ok(s) => (s, added),
        Err(_) => (text.to_string(), Vec::new()),
    }
}

/// Whether the tree has a cast to a named type or a template's name applied
/// to arguments at all: only then can one be misread, and the repair needs
/// pass 1's knowledge of type names.
pub(crate) fn may_need(tree: &Tree) -> bool {
    let mut found = false;
    syntax::walk(tree.root_node(), |n| {
        if found {
            return false;
        }
        found = match n.kind() {
            "cast_expression" => n
                .child_by_field_name("type")
                .and_then(|d| d.child_by_field_name("type"))
                .is_some_and(|t| t.kind() == "type_identifier"),
            "template_function" => true,
            "function_declarator" => n.parent().is_some_and(|p| p.kind() == "declaration"),
            _ => false,
        };
        true
    });
    found
}

/// Byte offsets of the parentheses of misread casts in device functions of
/// `src`, the text `root` was parsed from.
fn misread_casts(ctx: &ModuleCtx, src: &str, root: Node) -> Vec<(usize, Fix)> {
    let mut out = Vec::new();
    misread_objects(ctx, src, root, &mut out);
    syntax::walk(root, |n| match n.kind() {
        "function_definition" => {
            if toplevel::func_kind(n, src).is_some() {
                in_function(ctx, src, n, &mut out);
            }
            false
        }
        "template_declaration" | "class_specifier" | "struct_specifier" | "union_specifier" => {
            false
        }
        _ => true,
    });
    out
}

fn in_function(ctx: &ModuleCtx, src: &str, f: Node, out: &mut Vec<(usize, Fix)>) {
    let mut local_types = HashSet::new();
    let mut variables = HashSet::new();
    syntax::walk(f, |n| {
        match n.kind() {
            "init_declarator"
            | "parameter_declaration"
            | "declaration"
            | "pointer_declarator"
            | "array_declarator"
            | "reference_declarator" => {
                if let Some(d) = n
                    .child_by_field_name("declarator")
                    .filter(|d| d.kind() == "identifier")
                {
                    variables.insert(syntax::text(d, src));
                }
            }
            "type_definition" => {
                let mut cursor = n.walk();
                for d in n.children_by_field_name("declarator", &mut cursor) {
                    local_types.insert(syntax::text(d, src).trim_start_matches('*').trim());
                }
            }
            "alias_declaration" => {
                if let Some(name) = n.child_by_field_name("name") {
                    local_types.insert(syntax::text(name, src));
                }
            }
            _ => {}
        }
        true
    });
    syntax::walk(f, |n| {
        match n.kind() {
            "cast_expression" => {
                if let Some((open, close, fix)) = misread(ctx, src, n, &local_types) {
                    out.push((open, fix));
                    out.push((close, fix));
                }
            }
            // `row < (a + b) && col > (c)` read as `row<...>(c)`: a variable
            // is never a template, and in parentheses it cannot be read as one.
            "template_function" => {
                if let Some(name) = n
                    .child_by_field_name("name")
                    .filter(|m| m.kind() == "identifier")
                {
                    let text = syntax::text(name, src);
                    let variable = variables.contains(text)
                        || ctx.global_ids.contains_key(text)
                        || ctx.constants.contains_key(text)
                        || ctx.float_constants.contains_key(text);
                    if variable && !local_types.contains(text) {
                        out.push((name.start_byte(), Fix::Insert(b'(')));
                        out.push((name.end_byte(), Fix::Insert(b')')));
                    }
                }
            }
            _ => {}
        }
        true
    });
}

/// Declarations in device function bodies (templates' too) read as local
/// function declarations whose "parameters" are expressions: `Pair<float>
/// p(in[i], n);`, where `in` is no type. Device code declares no local
/// functions, and when a parameter's type is not a type name the
/// parentheses hold a constructor's arguments.
fn misread_objects(ctx: &ModuleCtx, src: &str, root: Node, out: &mut Vec<(usize, Fix)>) {
    syntax::walk(root, |n| {
        if n.kind() == "function_definition" && toplevel::func_kind(n, src).is_none() {
            return false;
        }
        if n.kind() != "declaration" || n.parent().is_none_or(|p| p.kind() != "compound_statement")
        {
            return true;
        }
        let Some(f) = n
            .child_by_field_name("declarator")
            .filter(|d| d.kind() == "function_declarator")
        else {
            return true;
        };
        let Some(params) = f.child_by_field_name("parameters") else {
            return true;
        };
        let is_type = |t: Node| {
            let name = syntax::text(t, src);
            t.kind() != "type_identifier"
                || ctx.typedefs.contains_key(name)
                || names::named_type(name).is_some()
                || names::unsupported_type(name).is_some()
        };
        let expressions = syntax::named_children(params).into_iter().any(|p| {
            p.kind() != "parameter_declaration"
                || p.child_by_field_name("type").is_some_and(|t| !is_type(t))
        });
        let named = f
            .child_by_field_name("declarator")
            .is_some_and(|d| d.kind() == "identifier");
        if expressions && named {
            let open = params.child(0).filter(|c| c.kind() == "(");
            let close = params
                .child(params.child_count().saturating_sub(1))
                .filter(|c| c.kind() == ")");
            if let (Some(o), Some(c)) = (open, close) {
                out.push((o.start_byte(), Fix::Brace));
                out.push((c.start_byte(), Fix::Brace));
            }
        }
        true
    });
}

fn misread(
    ctx: &ModuleCtx,
    src: &str,
    n: Node,
    local_types: &HashSet<&str>,
) -> Option<(usize, usize, Fix)> {
    let desc = n.child_by_field_name("type")?;
    let ty = desc.child_by_field_name("type")?;
    if ty.kind() != "type_identifier" {
        return None;
    }
    let name = syntax::text(ty, src);
    let is_type = ctx.typedefs.contains_key(name)
        || names::named_type(name).is_some()
        || names::unsupported_type(name).is_some()
        || local_types.contains(name);
    // `(const x)` and the like can only be types.
    let qualified = syntax::named_children(desc).len()
        > 1 + desc.child_by_field_name("declarator").is_some() as usize;
    if is_type || qualified {
        return None;
    }
    // `(a & (b * c)) & d`, read as a cast of `&d` to a reference to a
    // function: dropping the parentheses would let the operators around
    // them take their operands.
    let binary = desc.child_by_field_name("declarator").is_some_and(|d| {
        matches!(
            d.kind(),
            "abstract_pointer_declarator" | "abstract_reference_declarator"
        )
    });
    let open = n.child(0).filter(|c| c.kind() == "(")?;
    let close = desc.next_sibling().filter(|c| c.kind() == ")")?;
    let fix = if binary { Fix::Double } else { Fix::Drop };
    Some((open.start_byte(), close.start_byte(), fix))
}
