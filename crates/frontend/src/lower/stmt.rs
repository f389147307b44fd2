//! Statements.

use hone_ir::{Block, Expr, ExprKind, Intrinsic, Stmt, StmtKind, SwitchArm, Type, UnaryOp};
use tree_sitter::Node;

use super::conv::{icast, promoted, type_name};
use super::func::{FnLowerer, LResult};
use crate::consteval;
use crate::syntax;

impl<'c, 'a> FnLowerer<'c, 'a> {
    /// Lowers one statement, appending what it becomes (declarations with
    /// several declarators become several statements, empty ones none).
    pub fn stmt_into(&mut self, n: Node, out: &mut Block) -> LResult<()> {
        self.nested(n, |s| s.stmt_inner(n, out))
    }

    fn stmt_inner(&mut self, n: Node, out: &mut Block) -> LResult<()> {
        let span = self.span(n);
        let kind = match n.kind() {
            "compound_statement" => StmtKind::Block(self.block_in_scope(n, true)?),
            "declaration" => return self.declaration(n, out),
            "expression_statement" if self.group_statement(n).is_some() => {
                return self.group_statement(n).unwrap_or(Ok(()))
            }
            "expression_statement" => match syntax::named_children(n).first() {
                None => return Ok(()),
                Some(e) => match self.assertion(*e) {
                    Some(cond) => {
                        let cond = cond?;
                        let not = self.mk(
                            ExprKind::Unary(UnaryOp::Not, Box::new(cond)),
                            Type::BOOL,
                            span,
                        );
                        let trap = self.mk(
                            ExprKind::Intrinsic(Intrinsic::Trap, vec![]),
                            Type::Void,
                            span,
                        );
                        StmtKind::If {
                            cond: not,
                            then: vec![Stmt {
                                kind: StmtKind::Expr(trap),
                                span,
                            }],
                            els: None,
                        }
                    }
                    None => StmtKind::Expr(self.expr(*e)?),
                },
            },
            "if_statement" => self.if_stmt(n)?,
            "for_statement" => self.for_stmt(n)?,
            "while_statement" => {
                let cond = self.condition(n)?;
                let body = self.loop_body(n)?;
                StmtKind::While { cond, body }
            }
            "do_statement" => {
                let body = self.loop_body(n)?;
                let c = self.field(n, "condition")?;
                let cond = self.cond_expr(c)?;
                StmtKind::DoWhile { body, cond }
            }
            "switch_statement" => self.switch_stmt(n)?,
            "break_statement" => {
                if self.breakables == 0 {
                    return Err(self.error(n, "break", "`break` outside a loop or switch"));
                }
                StmtKind::Break
            }
            "continue_statement" => {
                if self.loops == 0 {
                    return Err(self.error(n, "continue", "`continue` outside a loop"));
                }
                StmtKind::Continue
            }
            "return_statement" => self.return_stmt(n)?,
            "preproc_call" => {
                let directive = n
                    .child_by_field_name("directive")
                    .map(|d| self.text(d))
                    .unwrap_or("");
                if directive.trim() == "#pragma" {
                    // `#pragma unroll` and friends are hints only.
                    return Ok(());
                }
                return Err(self.error(
                    n,
                    "preprocessor",
                    format!("unexpected directive `{}`", directive.trim()),
                ));
            }
            k if k.starts_with("preproc_") => {
                return Err(self.error(
                    n,
                    "preprocessor",
                    "preprocessor directive in a function body",
                ));
            }
            "type_definition" => return self.local_typedef(n),
            "alias_declaration" => return self.local_alias(n),
            "goto_statement" => return Err(self.error(n, "goto", "`goto` is not supported")),
            "labeled_statement" => {
                return Err(self.error(n, "goto", "labels and `goto` are not supported"))
            }
            "case_statement" => {
                return Err(self.error(
                    n,
                    "switch",
                    "`case` label not directly inside a switch body",
                ))
            }
            "for_range_loop" => {
                return Err(self.error(n, "range for", "range-based for loops are not supported"))
            }
            "try_statement" | "throw_statement" => {
                return Err(self.error(n, "exceptions", "exceptions are not supported"))
            }
            "static_assert_declaration" => return self.static_assert(n),
            "attributed_statement" => {
                return Err(self.error(n, "attribute", "statement attributes are not supported"))
            }
            "function_definition" => {
                return Err(self.error(n, "nested function", "nested functions are not supported"))
            }
            "struct_specifier" | "class_specifier" | "union_specifier" => {
                return Err(self.error(
                    n,
                    "struct",
                    "structs, unions and classes are not supported",
                ))
            }
            "template_declaration" => {
                return Err(self.error(n, "template", "templates are not supported"))
            }
            "ERROR" => return Err(self.error(n, "syntax error", "syntax error")),
            k => {
                let k = k.to_string();
                return Err(self.error(n, &k, format!("unsupported statement `{k}`")));
            }
        };
        out.push(Stmt { kind, span });
        Ok(())
    }

    /// A statement as a block: a compound statement's contents, or the
    /// single statement in a scope of its own.
    fn sub_block(&mut self, n: Node) -> LResult<Block> {
        if n.kind() == "compound_statement" {
            return self.block_in_scope(n, true);
        }
        self.push_scope();
        let mut out = Vec::new();
        let r = self.stmt_into(n, &mut out);
        self.pop_scope();
        r.map(|_| out)
    }

    /// An `if`/`while`/`switch` condition, kept in its own type.
    fn condition(&mut self, n: Node) -> LResult<Expr> {
        let c = self.field(n, "condition")?;
        if c.kind() != "condition_clause" {
            return self.cond_expr(c);
        }
        if c.child_by_field_name("initializer").is_some() {
            return Err(self.error(
                c,
                "init-statement",
                "init-statements in conditions are not supported",
            ));
        }
        let v = self.field(c, "value")?;
        if v.kind() == "declaration" {
            return Err(self.error(
                v,
                "condition declaration",
                "declarations in conditions are not supported",
            ));
        }
        self.cond_expr(v)
    }

    /// The condition of `assert(c)` (C's macro; the program defines no
    /// function of that name): a failed assertion traps, as on the GPU.
    fn assertion(&mut self, e: Node) -> Option<LResult<Expr>> {
        if e.kind() != "call_expression" {
            return None;
        }
        let f = e.child_by_field_name("function")?;
        if self.text(f) != "assert" || self.ctx.functions.contains_key("assert") {
            return None;
        }
        let args = syntax::named_children(e.child_by_field_name("arguments")?);
        match args.as_slice() {
            [c] => Some(self.cond_expr(*c).map(|c| self.decay(c))),
            _ => Some(Err(self.error(e, "assert", "`assert` takes one condition"))),
        }
    }

    fn cond_expr(&mut self, n: Node) -> LResult<Expr> {
        let e = self.expr(n)?;
        let e = self.decay(e);
        match &e.ty {
            Type::Scalar(_) | Type::Pointer(_) => Ok(e),
            t => {
                let t = type_name(t);
                Err(self.error(n, "condition", format!("condition of type `{t}`")))
            }
        }
    }

    fn if_stmt(&mut self, n: Node) -> LResult<StmtKind> {
        if syntax::children(n).iter().any(|c| c.kind() == "constexpr") {
            return Err(self.error(n, "if constexpr", "`if constexpr` is not supported"));
        }
        let cond = self.condition(n)?;
        let then = self.field(n, "consequence")?;
        let then = self.sub_block(then)?;
        let els = match n.child_by_field_name("alternative") {
            None => None,
            Some(alt) => {
                // `else_clause` wraps the statement in newer grammars.
                let s = if alt.kind() == "else_clause" {
                    match syntax::named_children(alt).first() {
                        Some(s) => *s,
                        None => return Err(self.error(alt, "if", "`else` without a statement")),
                    }
                } else {
                    alt
                };
                Some(self.sub_block(s)?)
            }
        };
        Ok(StmtKind::If { cond, then, els })
    }

    fn loop_body(&mut self, n: Node) -> LResult<Block> {
        let body = self.field(n, "body")?;
        self.loops += 1;
        self.breakables += 1;
        let r = self.sub_block(body);
        self.loops -= 1;
        self.breakables -= 1;
        r
    }

    fn for_stmt(&mut self, n: Node) -> LResult<StmtKind> {
        self.push_scope();
        let r = self.for_parts(n);
        self.pop_scope();
        r
    }

    fn for_parts(&mut self, n: Node) -> LResult<StmtKind> {
        let mut init = Vec::new();
        if let Some(i) = n.child_by_field_name("initializer") {
            if i.kind() == "declaration" {
                self.declaration(i, &mut init)?;
            } else {
                let e = self.expr(i)?;
                let span = e.span;
                init.push(hone_ir::Stmt {
                    kind: StmtKind::Expr(e),
                    span,
                });
            }
        }
        let cond = match n.child_by_field_name("condition") {
            Some(c) if c.kind() == "declaration" || c.kind() == "condition_clause" => {
                return Err(self.error(
                    c,
                    "condition declaration",
                    "declarations in conditions are not supported",
                ))
            }
            Some(c) => Some(self.cond_expr(c)?),
            None => None,
        };
        let step = match n.child_by_field_name("update") {
            Some(u) => Some(self.expr(u)?),
            None => None,
        };
        let body = self.loop_body(n)?;
        Ok(StmtKind::For {
            init,
            cond,
            step,
            body,
        })
    }

    fn return_stmt(&mut self, n: Node) -> LResult<StmtKind> {
        let value = syntax::named_children(n).first().copied();
        if self.deduce_ret {
            // A lambda's first `return` gives its type.
            self.deduce_ret = false;
            if let Some(v) = value.filter(|v| v.kind() != "initializer_list") {
                let e = self.expr(v)?;
                self.ret = self.decay(e.clone()).ty;
            }
        }
        let ret = self.ret.clone();
        if let Some(v) = value {
            let text: String = self.text(v).split_whitespace().collect();
            if self.returns_self && text == "*this" {
                return Ok(StmtKind::Return(None));
            }
        }
        match (value, &ret) {
            (None, Type::Void) => Ok(StmtKind::Return(None)),
            (None, _) => Err(self.error(
                n,
                "return",
                "`return` without a value in a function returning a value",
            )),
            (Some(v), Type::Void) => {
                Err(self.error(v, "return", "`return` with a value in a void function"))
            }
            (Some(v), ret) => {
                if v.kind() == "initializer_list" {
                    // `return {};` value-initialises; `return {a, b};` builds
                    // the struct or vector.
                    let items = syntax::named_children(v);
                    let e = if items.is_empty() {
                        self.zero_value(ret, v)?
                    } else {
                        self.construct(v, ret, &items)?
                    };
                    return Ok(StmtKind::Return(Some(e)));
                }
                let e = self.expr(v)?;
                let e = if self.returns_ref {
                    self.address_of(e, v)?
                } else {
                    e
                };
                Ok(StmtKind::Return(Some(self.convert(e, ret, v, "return")?)))
            }
        }
    }

    fn switch_stmt(&mut self, n: Node) -> LResult<StmtKind> {
        let value = self.condition(n)?;
        let Some(s) = value.ty.scalar().filter(|s| s.is_integer()) else {
            let t = type_name(&value.ty);
            return Err(self.error(
                n,
                "switch",
                format!("switch on `{t}`; only integers are supported"),
            ));
        };
        let value = self.promote(value);
        let label_ty = promoted(s);
        let body = self.field(n, "body")?;
        let mut arms: Vec<SwitchArm> = Vec::new();
        let mut pending_labels: Vec<Option<i64>> = Vec::new();
        let mut seen: Vec<Option<i64>> = Vec::new();
        // The whole switch body is one scope in C.
        self.push_scope();
        self.breakables += 1;
        let mut result = Ok(());
        for item in syntax::named_children(body) {
            if item.kind() != "case_statement" {
                result = Err(self.error(item, "switch", "statement before the first `case` label"));
                continue;
            }
            let label = match item.child_by_field_name("value") {
                None => None,
                Some(v) => match self.case_label(v, label_ty) {
                    Ok(l) => Some(l),
                    Err(e) => {
                        result = Err(e);
                        continue;
                    }
                },
            };
            if seen.contains(&label) {
                result = Err(self.error(item, "switch", "duplicate `case` label"));
                continue;
            }
            seen.push(label);
            pending_labels.push(label);
            let mut stmts = Vec::new();
            let value_node = item.child_by_field_name("value");
            for s in syntax::named_children(item) {
                if Some(s) == value_node {
                    continue;
                }
                if let Err(e) = self.stmt_into(s, &mut stmts) {
                    result = Err(e);
                }
            }
            let has_body = syntax::named_children(item)
                .iter()
                .any(|s| Some(*s) != value_node);
            if has_body {
                arms.push(SwitchArm {
                    labels: std::mem::take(&mut pending_labels),
                    body: stmts,
                });
            }
        }
        if !pending_labels.is_empty() {
            arms.push(SwitchArm {
                labels: pending_labels,
                body: Vec::new(),
            });
        }
        self.breakables -= 1;
        self.pop_scope();
        result?;
        Ok(StmtKind::Switch { value, arms })
    }

    fn case_label(&mut self, v: Node, ty: hone_ir::Scalar) -> LResult<i64> {
        let e = self.expr(v)?;
        if !e.ty.scalar().is_some_and(|s| s.is_integer()) {
            return Err(self.error(v, "switch", "`case` label must be an integer"));
        }
        let e = icast(e, Type::Scalar(ty));
        match self.fold(&e) {
            Some(x) => Ok(consteval::wrap(x, ty) as i64),
            None => Err(self.error(
                v,
                "switch",
                "`case` label must be an integer constant expression",
            )),
        }
    }
}
