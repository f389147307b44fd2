//! Texture fetches.

use hone_ir::Expr;
use tree_sitter::Node;

use super::func::{FnLowerer, LResult};

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// `tex1Dfetch<T>(obj, i)`, `tex2D(texref, x, y)`, ...; `None` for other names.
    pub(crate) fn texture_fetch(
        &mut self,
        _n: Node,
        _name: &str,
        _targs: Option<&[Node]>,
        _args: &[Node],
    ) -> Option<LResult<Expr>> {
        None
    }
}
