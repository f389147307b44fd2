//! Repairs a C++ ambiguity the grammar resolves without knowing which names
//! are types.
//!
//! `(x) + *p` and `(abs(a * b)) & 3` are read as casts to a "type" `x` or
//! `abs(a *)` of `+*p` and `&3`. When the name is not a type, the parentheses
//! only group a postfix expression (a name, a call, a subscript), so dropping
//! them keeps the meaning; the repaired text, with the two parentheses
//! replaced by spaces so every position stays put, is parsed again.

use std::collections::HashSet;

use tree_sitter::{Node, Tree};

use super::{names, toplevel, ModuleCtx};
use crate::syntax;

/// Rounds of repair; each round fixes every misread cast it sees, so more
/// than one is needed only when a repair uncovers another.
const MAX_ROUNDS: usize = 4;

pub(crate) fn repair(ctx: &ModuleCtx, tree: Tree) -> Tree {
    let mut tree = tree;
    let mut text: Option<Vec<u8>> = None;
    for _ in 0..MAX_ROUNDS {
        let parens = misread_casts(ctx, tree.root_node());
        if parens.is_empty() {
            break;
        }
        let mut bytes = text.take().unwrap_or_else(|| ctx.src.as_bytes().to_vec());
        for at in parens {
            if let Some(b @ (b'(' | b')')) = bytes.get_mut(at) {
                *b = b' ';
            }
        }
        // Only ASCII parentheses were replaced, so the text is still UTF-8.
        let Ok(s) = std::str::from_utf8(&bytes) else {
            break;
        };
        match syntax::parse(s) {
            Some(t) => tree = t,
            None => break,
        }
        text = Some(bytes);
    }
    tree
}

/// Whether the tree has a cast to a named type at all: only then can one be
/// misread, and the repair needs pass 1's knowledge of type names.
pub(crate) fn may_need(tree: &Tree) -> bool {
    let mut found = false;
    syntax::walk(tree.root_node(), |n| {
        if found {
            return false;
        }
        if n.kind() == "cast_expression" {
            found = n
                .child_by_field_name("type")
                .and_then(|d| d.child_by_field_name("type"))
                .is_some_and(|t| t.kind() == "type_identifier");
        }
        true
    });
    found
}

/// Byte offsets of the parentheses of misread casts in device functions.
fn misread_casts(ctx: &ModuleCtx, root: Node) -> Vec<usize> {
    let mut out = Vec::new();
    syntax::walk(root, |n| match n.kind() {
        "function_definition" => {
            if toplevel::func_kind(n, ctx.src).is_some() {
                in_function(ctx, n, &mut out);
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

fn in_function(ctx: &ModuleCtx, f: Node, out: &mut Vec<usize>) {
    let mut local_types = HashSet::new();
    syntax::walk(f, |n| {
        match n.kind() {
            "type_definition" => {
                let mut cursor = n.walk();
                for d in n.children_by_field_name("declarator", &mut cursor) {
                    local_types.insert(syntax::text(d, ctx.src).trim_start_matches('*').trim());
                }
            }
            "alias_declaration" => {
                if let Some(name) = n.child_by_field_name("name") {
                    local_types.insert(syntax::text(name, ctx.src));
                }
            }
            _ => {}
        }
        true
    });
    syntax::walk(f, |n| {
        if n.kind() == "cast_expression" {
            if let Some((open, close)) = misread(ctx, n, &local_types) {
                out.push(open);
                out.push(close);
            }
        }
        true
    });
}

fn misread(ctx: &ModuleCtx, n: Node, local_types: &HashSet<&str>) -> Option<(usize, usize)> {
    let desc = n.child_by_field_name("type")?;
    let ty = desc.child_by_field_name("type")?;
    if ty.kind() != "type_identifier" {
        return None;
    }
    let name = syntax::text(ty, ctx.src);
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
    // function: the parentheses group a binary expression, and dropping them
    // would let the operators around it take its operands (`(T)(a & (b))`
    // would cast `a` alone). Such a cast is left for the lowering to reject.
    if desc.child_by_field_name("declarator").is_some_and(|d| {
        matches!(
            d.kind(),
            "abstract_pointer_declarator" | "abstract_reference_declarator"
        )
    }) {
        return None;
    }
    let open = n.child(0).filter(|c| c.kind() == "(")?;
    let close = desc.next_sibling().filter(|c| c.kind() == ")")?;
    Some((open.start_byte(), close.start_byte()))
}
