//! Small helpers over tree-sitter's CST.

use tree_sitter::{Node, Parser, Tree};

/// Parses CUDA C++. `None` only if tree-sitter itself gives up, which it does
/// not do for text input without a timeout.
pub(crate) fn parse(text: &str) -> Option<Tree> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .ok()?;
    parser.parse(text, None)
}

pub(crate) fn text<'s>(node: Node, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

/// Named children without comments, which tree-sitter attaches anywhere.
pub(crate) fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// The name inside `template f` (a `dependent_name`, as in
/// `obj.template f<A>()` or `S::template f<A>()`), or `node` itself.
pub(crate) fn without_template_keyword(node: Node<'_>) -> Node<'_> {
    if node.kind() == "dependent_name" {
        named_children(node).into_iter().next().unwrap_or(node)
    } else {
        node
    }
}

/// All children, named or not, without comments.
pub(crate) fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// Error and missing nodes under `node`, in source order, at most `limit`.
/// Iterative, so deeply nested input cannot overflow the stack.
pub(crate) fn syntax_errors<'t>(node: Node<'t>, limit: usize) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    if !node.has_error() {
        return out;
    }
    let mut cursor = node.walk();
    loop {
        let n = cursor.node();
        let descend = if n.is_error() || n.is_missing() {
            out.push(n);
            if out.len() >= limit {
                return out;
            }
            false
        } else {
            n.has_error()
        };
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == node {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// Visits `node` and its descendants in source order; `visit` says whether to
/// descend into the node it was given. Iterative, for deeply nested input.
pub(crate) fn walk<'t>(node: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    let mut cursor = node.walk();
    loop {
        let n = cursor.node();
        if visit(n) && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == node {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}
