//! Cooperative groups: `thread_block`, `thread_block_tile<N>` and `grid_group`.
//!
//! A group is a compile-time handle, not a value: its variables and
//! parameters vanish from the IR, and what is done with it becomes the
//! builtins and intrinsics it stands for. `cg::sync(block)` and
//! `block.sync()` are `__syncthreads()`; a tile's `sync()` is `__syncwarp()`;
//! `thread_rank()` is the thread's linear index in the block (modulo `N` in
//! a tile), `size()` the block's thread count (`N`); a tile's shuffles and
//! votes are the `__*_sync` intrinsics over all lanes, with width `N`.
//! The grid's `sync()` is the grid barrier (`Intrinsic::GridSync`), its
//! `thread_rank()` the thread's linear index in the grid. `cg::reduce` over
//! a tile is the butterfly of `shfl_xor`s it is on the GPU, folded through a
//! temporary. Generic `thread_group`s and coalesced groups name themselves
//! as unsupported.

use hone_ir::build;
use hone_ir::{
    BinaryOp, Builtin, Dim, Expr, ExprKind, Intrinsic, Scalar, ShflKind, Type, VoteKind,
};
use tree_sitter::Node;

use super::conv::{icast, promoted, type_name};
use super::func::{FnLowerer, LResult};
use crate::syntax;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Group {
    Block,
    /// A tile of `N` threads of a block, `N` a power of two up to 32.
    Tile(u32),
    /// Every thread of the launch (`this_grid()`).
    Grid,
}

impl Group {
    /// How an instance made for this group is named (`f_block`, `f_tile16`).
    pub(crate) fn suffix(self) -> String {
        match self {
            Group::Block => "block".into(),
            Group::Tile(n) => format!("tile{n}"),
            Group::Grid => "grid".into(),
        }
    }

    /// The group's type as a template argument's text.
    pub(crate) fn type_text(self) -> String {
        match self {
            Group::Block => "cooperative_groups::thread_block".into(),
            Group::Tile(n) => format!("cooperative_groups::thread_block_tile<{n}>"),
            Group::Grid => "cooperative_groups::grid_group".into(),
        }
    }

    /// [`Self::type_text`] read back.
    pub(crate) fn from_type_text(text: &str) -> Option<Group> {
        let t: String = text.split_whitespace().collect();
        let bare = unqualified(&t);
        match bare {
            "thread_block" => Some(Group::Block),
            "grid_group" => Some(Group::Grid),
            _ => {
                let n: u32 = bare
                    .strip_prefix("thread_block_tile<")?
                    .strip_suffix('>')?
                    .parse()
                    .ok()?;
                // Tiles of a warp or less, a power of two, as `tile_size` takes.
                (n.is_power_of_two() && n <= 32).then_some(Group::Tile(n))
            }
        }
    }
}

/// Whether a parameter list declares a generic `thread_group` parameter:
/// its function is made for each group a call passes.
pub(crate) fn takes_thread_group(params: Node, src: &str) -> bool {
    syntax::named_children(params).into_iter().any(|p| {
        p.child_by_field_name("type")
            .is_some_and(|t| unqualified(syntax::text(t, src)) == "thread_group")
    })
}

/// `cg::thread_block` without its namespace, or `None` for other text.
fn unqualified(text: &str) -> &str {
    let t = text.trim();
    t.strip_prefix("cooperative_groups::")
        .or_else(|| t.strip_prefix("cg::"))
        .unwrap_or(t)
}

fn is_group_call(text: &str, name: &str) -> bool {
    unqualified(text) == name
}

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// Whether the program itself defines a type of this name (which then
    /// is not cooperative groups' one, even without its namespace).
    fn user_type_named(&self, name: &str) -> bool {
        matches!(self.lookup(name), Some(super::func::Entry::Type(_)))
            || self.ctx.typedefs.contains_key(name)
    }

    /// The group a type names: `thread_block`, `thread_block_tile<N>`.
    fn group_type(&mut self, t: Node) -> Option<LResult<Group>> {
        let text = self.text(t);
        let bare = unqualified(text);
        if let Some(super::func::Entry::Group(g)) = self.lookup(bare) {
            return Some(Ok(*g));
        }
        let qualified = bare.len() != text.trim().len();
        if bare == "thread_block" && (qualified || !self.user_type_named("thread_block")) {
            return Some(Ok(Group::Block));
        }
        if bare.starts_with("thread_block_tile") {
            return Some(self.tile_size(t));
        }
        if bare == "grid_group" && (qualified || !self.user_type_named("grid_group")) {
            return Some(Ok(Group::Grid));
        }
        if bare == "thread_group" && (qualified || !self.user_type_named("thread_group")) {
            // A function taking any group is made once per group passed.
            return Some(match self.group_args.pop_front() {
                Some(g) => Ok(g),
                None => Err(self.error(
                    t,
                    "cooperative groups",
                    "a `thread_group` is supported as a function's parameter (the function is made for each group passed), not as a variable",
                )),
            });
        }
        if qualified && matches!(bare, "coalesced_group" | "multi_grid_group") {
            return Some(Err(self.error(
                t,
                "cooperative groups",
                format!(
                    "`{}` is not supported (thread_block, thread_block_tile and grid_group are)",
                    text.trim()
                ),
            )));
        }
        None
    }

    /// `N` of `thread_block_tile<N>` or `tiled_partition<N>`.
    fn tile_size(&mut self, n: Node) -> LResult<Group> {
        let mut cur = n;
        let args = loop {
            if let Some(a) = cur.child_by_field_name("arguments") {
                break a;
            }
            match syntax::named_children(cur).into_iter().find(|c| {
                matches!(
                    c.kind(),
                    "template_type" | "template_function" | "qualified_identifier"
                )
            }) {
                Some(c) => cur = c,
                None => {
                    return Err(self.error(n, "cooperative groups", "tile without a size"));
                }
            }
        };
        let Some(a) = syntax::named_children(args).into_iter().next() else {
            return Err(self.error(n, "cooperative groups", "tile without a size"));
        };
        let a = syntax::named_children(a)
            .into_iter()
            .next()
            .filter(|_| a.kind() == "type_descriptor")
            .unwrap_or(a);
        let v = self.const_int(a, "tile size")?;
        if !(1..=32).contains(&v) || (v & (v - 1)) != 0 {
            return Err(self.error(
                a,
                "cooperative groups",
                format!("tile size {v} is not a power of two up to 32"),
            ));
        }
        Ok(Group::Tile(v as u32))
    }

    /// The group an expression denotes: a group variable, `this_thread_block()`,
    /// `tiled_partition<N>(g)`.
    pub(crate) fn group_of(&mut self, e: Node) -> Option<LResult<Group>> {
        match e.kind() {
            "identifier" => self.groups.get(self.text(e)).copied().map(Ok),
            "parenthesized_expression" => {
                let inner = syntax::named_children(e).into_iter().next()?;
                self.group_of(inner)
            }
            "call_expression" => {
                let f = e.child_by_field_name("function")?;
                let text = self.text(f);
                if is_group_call(text, "this_thread_block") {
                    return Some(Ok(Group::Block));
                }
                if is_group_call(text, "this_grid") {
                    return Some(Ok(Group::Grid));
                }
                if unqualified(text).starts_with("tiled_partition") {
                    return Some(self.tile_size(f));
                }
                None
            }
            _ => None,
        }
    }

    /// A declaration of group variables; `None` for any other declaration.
    pub(crate) fn group_declaration(&mut self, n: Node) -> Option<LResult<()>> {
        let t = n.child_by_field_name("type")?;
        let declared = if self.text(t).trim() == "auto" {
            None
        } else {
            Some(match self.group_type(t)? {
                Ok(g) => g,
                Err(e) => return Some(Err(e)),
            })
        };
        let mut cursor = n.walk();
        let decls: Vec<Node> = n
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        if declared.is_none()
            && !decls.iter().all(|d| {
                d.kind() == "init_declarator"
                    && d.child_by_field_name("value").is_some_and(|v| {
                        v.kind() == "call_expression"
                            && v.child_by_field_name("function").is_some_and(|f| {
                                let t = unqualified(self.text(f));
                                t == "this_thread_block"
                                    || t == "this_grid"
                                    || t.starts_with("tiled_partition")
                            })
                    })
            })
        {
            return None;
        }
        for d in decls {
            let (name_node, value) = if d.kind() == "init_declarator" {
                (
                    d.child_by_field_name("declarator")?,
                    d.child_by_field_name("value"),
                )
            } else {
                (d, None)
            };
            let name = self
                .text(name_node)
                .trim_start_matches('&')
                .trim()
                .to_string();
            let from_value =
                match value {
                    Some(v) => match self.group_of(v) {
                        Some(Ok(g)) => Some(g),
                        Some(Err(e)) => return Some(Err(e)),
                        None => return Some(Err(self.error(
                            v,
                            "cooperative groups",
                            "a group must be made by this_thread_block(), this_grid() or tiled_partition<N>()",
                        ))),
                    },
                    None => None,
                };
            let g = match (declared, from_value) {
                (Some(a), Some(b)) if a != b => {
                    return Some(Err(self.error(
                        d,
                        "cooperative groups",
                        "the group's type and its initializer differ",
                    )))
                }
                (Some(a), _) => a,
                (None, Some(b)) => b,
                (None, None) => return None,
            };
            self.groups.insert(name, g);
        }
        Some(Ok(()))
    }

    /// `cg::thread_block_tile<32> t = cg::tiled_partition<32>(b);` where the
    /// grammar read the declaration as a comparison (`a < 32 > t = ...`);
    /// `None` for any other statement.
    pub(crate) fn group_statement(&mut self, n: Node) -> Option<LResult<()>> {
        let text = self.text(n).trim();
        let bare = unqualified(text);
        let rest = bare.strip_prefix("thread_block_tile")?.trim_start();
        let rest = rest.strip_prefix('<')?;
        let (size, rest) = rest.split_once('>')?;
        let size = size.trim();
        let v = match size.parse::<i128>() {
            Ok(v) => v,
            Err(_) => match self.lookup(size).cloned() {
                Some(super::func::Entry::Const(v, _)) => v,
                _ => match self.ctx.constants.get(size) {
                    Some(&(v, _)) => v,
                    None => {
                        return Some(Err(self.error(
                            n,
                            "cooperative groups",
                            format!("tile size `{size}` is not a constant"),
                        )))
                    }
                },
            },
        };
        if !(1..=32).contains(&v) || (v & (v - 1)) != 0 {
            return Some(Err(self.error(
                n,
                "cooperative groups",
                format!("tile size {v} is not a power of two up to 32"),
            )));
        }
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            return None;
        }
        self.groups.insert(name, Group::Tile(v as u32));
        Some(Ok(()))
    }

    /// A group parameter, bound and dropped from the parameter list; `None`
    /// for other parameters.
    pub(crate) fn group_param(&mut self, p: Node) -> Option<LResult<()>> {
        let t = p.child_by_field_name("type")?;
        let g = match self.group_type(t)? {
            Ok(g) => g,
            Err(e) => return Some(Err(e)),
        };
        let mut d = p.child_by_field_name("declarator");
        while let Some(n) = d {
            if n.kind() == "identifier" {
                let name = self.text(n).to_string();
                self.groups.insert(name, g);
                return Some(Ok(()));
            }
            d = n
                .child_by_field_name("declarator")
                .or_else(|| syntax::named_children(n).into_iter().last());
        }
        Some(Ok(()))
    }

    /// Call arguments without the groups, which are not values.
    pub(crate) fn without_groups<'t>(&mut self, args: &[Node<'t>]) -> Vec<Node<'t>> {
        args.iter()
            .copied()
            .filter(|a| self.group_of(*a).is_none())
            .collect()
    }

    /// `cg::sync(g)` and the other free functions of the namespace.
    pub(crate) fn group_function(&mut self, n: Node, f: Node, args: &[Node]) -> LResult<Expr> {
        let name = unqualified(self.text(f)).to_string();
        if name == "sync" {
            let [g] = args else {
                return Err(self.error(n, "cooperative groups", "`sync` takes one group"));
            };
            return match self.group_of(*g) {
                Some(Ok(g)) => Ok(self.group_sync(g, n)),
                Some(Err(e)) => Err(e),
                None => Err(self.error(
                    *g,
                    "cooperative groups",
                    "`sync` of something that is not a group",
                )),
            };
        }
        if name == "reduce" {
            return self.group_reduce(n, args);
        }
        if name == "this_thread_block" || name == "this_grid" || name.starts_with("tiled_partition")
        {
            return Err(self.error(
                n,
                "cooperative groups",
                "a group is not a value; declare it (`cg::thread_block b = cg::this_thread_block();`)",
            ));
        }
        Err(self.error(
            f,
            "cooperative groups",
            format!("`{}` is not supported", self.text(f)),
        ))
    }

    /// `cg::reduce(tile, value, op)`: each step combines a lane's value with
    /// the one `k` lanes away (`shfl_xor`, `k` halving from half the tile),
    /// so every lane ends with the whole tile's result, as on the GPU.
    fn group_reduce(&mut self, n: Node, args: &[Node]) -> LResult<Expr> {
        let [g, v, op] = args else {
            return Err(self.error(
                n,
                "cooperative groups",
                "`reduce` takes a group, a value and an operation",
            ));
        };
        let tile = match self.group_of(*g) {
            Some(Ok(Group::Tile(t))) => t,
            Some(Err(e)) => return Err(e),
            Some(Ok(_)) => {
                return Err(self.error(
                    *g,
                    "cooperative groups",
                    "`reduce` over a thread_block or grid_group is not supported (over a thread_block_tile it is)",
                ))
            }
            None => {
                return Err(self.error(
                    *g,
                    "cooperative groups",
                    "the first argument of `reduce` is not a group",
                ))
            }
        };
        let op_text = match op.kind() {
            "call_expression" => op
                .child_by_field_name("function")
                .map(|f| self.text(f))
                .unwrap_or_default(),
            _ => self.text(*op),
        };
        let bare = unqualified(op_text);
        let (name, ty_text) = match bare.split_once('<') {
            Some((name, rest)) => (name.trim(), rest.rsplit_once('>').map(|(t, _)| t.trim())),
            None => (bare.trim(), None),
        };
        let name = name.to_string();
        if !matches!(
            name.as_str(),
            "plus" | "less" | "greater" | "bit_and" | "bit_or" | "bit_xor"
        ) {
            return Err(self.error(
                *op,
                "cooperative groups",
                format!(
                    "`reduce` with `{}` is not supported (cg::plus, less, greater, bit_and, bit_or and bit_xor are)",
                    op_text.trim()
                ),
            ));
        }
        let span = self.span(n);
        let value = self.expr(*v)?;
        // The operation's type where the text names one, else the value's.
        let ty = ty_text
            .and_then(|t| super::template::type_arg(self.ctx, t))
            .unwrap_or_else(|| value.ty.clone());
        use Scalar::*;
        let bitwise = name.starts_with("bit_");
        let ok = match ty.scalar() {
            Some(I32 | U32 | I64 | U64) => true,
            Some(F32 | F64) => !bitwise,
            _ => false,
        };
        if !ok || !matches!(ty, Type::Scalar(_)) {
            let t = type_name(&ty);
            return Err(self.error(
                *v,
                "cooperative groups",
                format!("`reduce` with `{name}` over `{t}` is not supported"),
            ));
        }
        let value = self.convert(value, &ty, *v, "the value of `reduce`")?;
        let t = self.statement_temp("reduced", &ty, span);
        // A selection reads the shuffled value from a variable: a shuffle in
        // one of its arms would run on only some lanes.
        let selects = matches!(name.as_str(), "less" | "greater");
        let o = selects.then(|| self.statement_temp("other", &ty, span));
        let mut e = build::assign(t.clone(), value, span);
        let mut k = tile / 2;
        while k > 0 {
            let mut shfl_args = vec![
                build::mk(ExprKind::IntLit(0xffff_ffff), Type::UINT, span),
                t.clone(),
                build::mk(ExprKind::IntLit(k as u64), Type::INT, span),
            ];
            if tile < 32 {
                shfl_args.push(build::mk(ExprKind::IntLit(tile as u64), Type::INT, span));
            }
            let other = build::mk(
                ExprKind::Intrinsic(Intrinsic::Shfl(ShflKind::Xor), shfl_args),
                ty.clone(),
                span,
            );
            let other = match &o {
                Some(o) => {
                    let fetch = build::assign(o.clone(), other, span);
                    e = self.mk(
                        ExprKind::Comma(Box::new(e), Box::new(fetch)),
                        ty.clone(),
                        span,
                    );
                    o.clone()
                }
                None => other,
            };
            let combined = match name.as_str() {
                "plus" => build::arith(BinaryOp::Add, t.clone(), other),
                "bit_and" => build::arith(BinaryOp::BitAnd, t.clone(), other),
                "bit_or" => build::arith(BinaryOp::BitOr, t.clone(), other),
                "bit_xor" => build::arith(BinaryOp::BitXor, t.clone(), other),
                // cg::less keeps the smaller, cg::greater the larger.
                "less" => build::select(
                    build::compare(BinaryOp::Lt, other.clone(), t.clone()),
                    other,
                    t.clone(),
                ),
                _ => build::select(
                    build::compare(BinaryOp::Lt, t.clone(), other.clone()),
                    other,
                    t.clone(),
                ),
            };
            let step = build::assign(t.clone(), build::conv(combined, &ty), span);
            e = self.mk(
                ExprKind::Comma(Box::new(e), Box::new(step)),
                ty.clone(),
                span,
            );
            k /= 2;
        }
        Ok(self.mk(ExprKind::Comma(Box::new(e), Box::new(t)), ty, span))
    }

    /// A variable of the statement being lowered, which the source cannot name.
    fn statement_temp(&mut self, name: &str, ty: &Type, span: hone_ir::Span) -> Expr {
        let id = self.add_var(hone_ir::Var {
            name: name.to_string(),
            ty: ty.clone(),
            kind: hone_ir::VarKind::Local,
            is_const: false,
            is_volatile: false,
            span,
        });
        self.scopes
            .iter_mut()
            .for_each(|s| s.retain(|_, v| !matches!(v, super::func::Entry::Var(x) if *x == id)));
        self.statement_temps.push(id);
        build::var(id, ty, span)
    }

    fn group_sync(&self, g: Group, n: Node) -> Expr {
        let span = self.span(n);
        match g {
            Group::Block => self.mk(
                ExprKind::Intrinsic(Intrinsic::SyncThreads, vec![]),
                Type::Void,
                span,
            ),
            Group::Tile(_) => self.mk(
                ExprKind::Intrinsic(
                    Intrinsic::SyncWarp,
                    vec![self.mk(ExprKind::IntLit(0xffff_ffff), Type::UINT, span)],
                ),
                Type::Void,
                span,
            ),
            Group::Grid => self.mk(
                ExprKind::Intrinsic(Intrinsic::GridSync, vec![]),
                Type::Void,
                span,
            ),
        }
    }

    /// `g.name(args)` on a group `g`; `None` when the object is not a group.
    pub(crate) fn group_method(
        &mut self,
        n: Node,
        object: Node,
        name: &str,
        args: &[Node],
    ) -> Option<LResult<Expr>> {
        let g = match self.group_of(object)? {
            Ok(g) => g,
            Err(e) => return Some(Err(e)),
        };
        Some(self.group_method_of(n, g, name, args))
    }

    fn group_method_of(&mut self, n: Node, g: Group, name: &str, args: &[Node]) -> LResult<Expr> {
        let span = self.span(n);
        let no_args = |l: &mut Self| -> LResult<()> {
            if args.is_empty() {
                Ok(())
            } else {
                Err(l.error(
                    n,
                    "cooperative groups",
                    format!("`{name}` takes no arguments"),
                ))
            }
        };
        let rank = block_rank(span);
        let size = block_size(span);
        let lit = |v: u64| build::mk(ExprKind::IntLit(v), Type::UINT, span);
        match (name, g) {
            ("sync", _) => {
                no_args(self)?;
                Ok(self.group_sync(g, n))
            }
            ("thread_rank", Group::Grid) => {
                no_args(self)?;
                let blocks_before = build::arith(
                    BinaryOp::Mul,
                    build::cast(block_index(span), &Type::Scalar(Scalar::U64)),
                    size,
                );
                Ok(build::arith(BinaryOp::Add, blocks_before, rank))
            }
            ("size" | "num_threads", Group::Grid) => {
                no_args(self)?;
                Ok(build::arith(
                    BinaryOp::Mul,
                    build::cast(grid_blocks(span), &Type::Scalar(Scalar::U64)),
                    size,
                ))
            }
            ("block_rank", Group::Grid) => {
                no_args(self)?;
                Ok(build::cast(block_index(span), &Type::Scalar(Scalar::U64)))
            }
            ("num_blocks", Group::Grid) => {
                no_args(self)?;
                Ok(build::cast(grid_blocks(span), &Type::Scalar(Scalar::U64)))
            }
            ("is_valid", Group::Grid) => {
                no_args(self)?;
                Ok(self.mk(ExprKind::BoolLit(true), Type::BOOL, span))
            }
            ("thread_rank", Group::Block) => no_args(self).map(|_| rank),
            ("size" | "num_threads", Group::Block) => no_args(self).map(|_| size),
            ("thread_rank", Group::Tile(t)) => {
                no_args(self)?;
                Ok(build::arith(BinaryOp::BitAnd, rank, lit(t as u64 - 1)))
            }
            ("size" | "num_threads", Group::Tile(t)) => no_args(self).map(|_| lit(t as u64)),
            ("meta_group_rank", Group::Tile(t)) => {
                no_args(self)?;
                Ok(build::arith(BinaryOp::Div, rank, lit(t as u64)))
            }
            ("meta_group_size", Group::Tile(t)) => {
                no_args(self)?;
                let up = build::arith(BinaryOp::Add, size, lit(t as u64 - 1));
                Ok(build::arith(BinaryOp::Div, up, lit(t as u64)))
            }
            ("shfl" | "shfl_up" | "shfl_down" | "shfl_xor", Group::Tile(t)) => {
                let kind = match name {
                    "shfl" => ShflKind::Idx,
                    "shfl_up" => ShflKind::Up,
                    "shfl_down" => ShflKind::Down,
                    _ => ShflKind::Xor,
                };
                self.tile_shfl(n, name, kind, t, args)
            }
            ("any" | "all" | "ballot", Group::Tile(32)) => {
                let kind = match name {
                    "any" => VoteKind::Any,
                    "all" => VoteKind::All,
                    _ => VoteKind::Ballot,
                };
                let [p] = args else {
                    return Err(self.error(
                        n,
                        "cooperative groups",
                        format!("`{name}` takes one predicate"),
                    ));
                };
                let pred = self.expr(*p)?;
                let pred =
                    self.convert(pred, &Type::INT, *p, &format!("the predicate of `{name}`"))?;
                let ty = if kind == VoteKind::Ballot {
                    Type::UINT
                } else {
                    Type::INT
                };
                Ok(self.mk(
                    ExprKind::Intrinsic(Intrinsic::Vote(kind), vec![lit(0xffff_ffff), pred]),
                    ty,
                    span,
                ))
            }
            _ => Err(self.error(
                n,
                "cooperative groups",
                format!(
                    "`{name}` of a {} is not supported",
                    match g {
                        Group::Block => "thread_block".to_string(),
                        Group::Tile(t) => format!("thread_block_tile<{t}>"),
                        Group::Grid => "grid_group".to_string(),
                    }
                ),
            )),
        }
    }

    fn tile_shfl(
        &mut self,
        n: Node,
        name: &str,
        kind: ShflKind,
        tile: u32,
        args: &[Node],
    ) -> LResult<Expr> {
        let [v, lane] = args else {
            return Err(self.error(
                n,
                "cooperative groups",
                format!("`{name}` takes a value and a lane"),
            ));
        };
        let span = self.span(n);
        let var = self.expr(*v)?;
        let lane_ty = match kind {
            ShflKind::Up | ShflKind::Down => Type::UINT,
            ShflKind::Idx | ShflKind::Xor => Type::INT,
        };
        let l = self.expr(*lane)?;
        let l = self.convert(l, &lane_ty, *lane, &format!("the lane of `{name}`"))?;
        use Scalar::*;
        let shfl = |value: Expr, t: Scalar, lane: Expr| {
            let mut out = vec![
                build::mk(ExprKind::IntLit(0xffff_ffff), Type::UINT, span),
                value,
                lane,
            ];
            if tile < 32 {
                out.push(build::lit(tile as u64, span));
            }
            build::mk(
                ExprKind::Intrinsic(Intrinsic::Shfl(kind), out),
                Type::Scalar(t),
                span,
            )
        };
        // A tile shuffles any type; a vector (`uint4`) is shuffled component
        // by component, as the library does word by word.
        if let Type::Vector(s @ (I32 | U32 | I64 | U64 | F32 | F64), len) = var.ty {
            if !super::conv::repeatable(&var) || !super::conv::repeatable(&l) {
                return Err(self.error(
                    *v,
                    "warp shuffle",
                    format!("`{name}` of a vector is supported for a variable or member (assign the value to a variable first)"),
                ));
            }
            let parts = (0..len)
                .map(|i| {
                    let c = build::mk(
                        ExprKind::Component(Box::new(var.clone()), i),
                        Type::Scalar(s),
                        span,
                    );
                    shfl(c, s, l.clone())
                })
                .collect();
            return Ok(self.mk(
                ExprKind::Intrinsic(Intrinsic::MakeVector, parts),
                var.ty.clone(),
                span,
            ));
        }
        let t = match var.ty.scalar() {
            Some(s @ (I32 | U32 | I64 | U64 | F32 | F64)) => s,
            Some(s) if s.is_integer() => promoted(s),
            _ => {
                let t = type_name(&var.ty);
                return Err(self.error(
                    *v,
                    "warp shuffle",
                    format!("`{name}` of `{t}` is not supported"),
                ));
            }
        };
        Ok(shfl(icast(var, Type::Scalar(t)), t, l))
    }
}

fn builtin(b: Builtin, span: hone_ir::Span) -> Expr {
    build::builtin(b, span)
}

/// `threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)`.
fn block_rank(span: hone_ir::Span) -> Expr {
    let inner = build::arith(
        BinaryOp::Add,
        builtin(Builtin::ThreadIdx(Dim::Y), span),
        build::arith(
            BinaryOp::Mul,
            builtin(Builtin::BlockDim(Dim::Y), span),
            builtin(Builtin::ThreadIdx(Dim::Z), span),
        ),
    );
    build::arith(
        BinaryOp::Add,
        builtin(Builtin::ThreadIdx(Dim::X), span),
        build::arith(
            BinaryOp::Mul,
            builtin(Builtin::BlockDim(Dim::X), span),
            inner,
        ),
    )
}

/// `blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)`.
fn block_index(span: hone_ir::Span) -> Expr {
    let inner = build::arith(
        BinaryOp::Add,
        builtin(Builtin::BlockIdx(Dim::Y), span),
        build::arith(
            BinaryOp::Mul,
            builtin(Builtin::GridDim(Dim::Y), span),
            builtin(Builtin::BlockIdx(Dim::Z), span),
        ),
    );
    build::arith(
        BinaryOp::Add,
        builtin(Builtin::BlockIdx(Dim::X), span),
        build::arith(
            BinaryOp::Mul,
            builtin(Builtin::GridDim(Dim::X), span),
            inner,
        ),
    )
}

/// `gridDim.x * gridDim.y * gridDim.z`.
fn grid_blocks(span: hone_ir::Span) -> Expr {
    build::arith(
        BinaryOp::Mul,
        build::arith(
            BinaryOp::Mul,
            builtin(Builtin::GridDim(Dim::X), span),
            builtin(Builtin::GridDim(Dim::Y), span),
        ),
        builtin(Builtin::GridDim(Dim::Z), span),
    )
}

/// `blockDim.x * blockDim.y * blockDim.z`.
fn block_size(span: hone_ir::Span) -> Expr {
    build::arith(
        BinaryOp::Mul,
        build::arith(
            BinaryOp::Mul,
            builtin(Builtin::BlockDim(Dim::X), span),
            builtin(Builtin::BlockDim(Dim::Y), span),
        ),
        builtin(Builtin::BlockDim(Dim::Z), span),
    )
}
