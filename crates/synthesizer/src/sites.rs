//! The annotated kernel: parsing the blanked source, finding each
//! annotation's node in the IR, and the kernel with the annotations taken
//! out (the program the synthesized kernel must agree with).

use std::path::Path as FsPath;

use hone_frontend::FrontendOptions;
use hone_ir::{Expr, ExprKind, Function, Module, Span, StmtKind, Type, VarId, VarKind};

use crate::annotate::{self, Annotation, AnnotationKind};
use crate::error::SynthError;
use hone_ir::build::peel;
use hone_ir::path::{self as walk, Path, Slot};

/// A global read marked `__opt__`.
#[derive(Clone, Debug)]
pub struct ReadSite {
    /// The span of the `in[e]` expression in the user's file.
    pub span: Span,
    /// The global array (pointer variable) read.
    pub array: VarId,
    /// The statement holding the read, in [`AnnotatedKernel::kernel`].
    pub path: Path,
    /// The read as written, for reports.
    pub text: String,
}

/// A `__opt__(shared, global)`.
#[derive(Clone, Debug)]
pub struct SleeveSite {
    /// The span of the global operand, which stands in the kernel where the
    /// annotation was.
    pub span: Span,
    pub shared: Expr,
    pub global: Expr,
    pub shared_array: VarId,
    pub path: Path,
    pub text: String,
}

/// The kernel with its annotations, located.
#[derive(Clone, Debug)]
pub struct AnnotatedKernel {
    pub module: Module,
    pub name: String,
    /// The kernel with annotations removed: marked reads are plain reads,
    /// `__opt__(s, g)` is `g`, and `__insert()` is gone.
    pub kernel: Function,
    pub reads: Vec<ReadSite>,
    pub sleeves: Vec<SleeveSite>,
    /// Where `__insert()` was: the path a statement inserted there would have.
    pub insert: Option<(Path, Span)>,
}

impl AnnotatedKernel {
    pub fn location(&self, span: Span) -> String {
        self.module.location(span)
    }
}

/// Reads, parses and locates the annotations of `kernel` in `path`.
pub fn load_file(
    path: &FsPath,
    kernel: &str,
    opts: &FrontendOptions,
) -> Result<AnnotatedKernel, SynthError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| SynthError::Input(format!("cannot read {}: {e}", path.display())))?;
    load_source(&path.display().to_string(), &text, kernel, opts)
}

/// As [`load_file`], for text already in memory; `name` is its file name.
pub fn load_source(
    name: &str,
    text: &str,
    kernel: &str,
    opts: &FrontendOptions,
) -> Result<AnnotatedKernel, SynthError> {
    let annotated = annotate::scan(name, text)?;
    let parsed = hone_frontend::parse_source(name, &annotated.text, opts)
        .map_err(|e| SynthError::Input(e.to_string()))?;
    let f = parsed
        .kernel(kernel, name)
        .map_err(|e| SynthError::Input(e.to_string()))?
        .clone();
    let module = parsed.module;
    locate(module, f, &annotated.annotations, name)
}

fn span_of(a: &Annotation) -> Span {
    Span {
        file: 0,
        line: a.start.line,
        col: a.start.col,
        end_line: a.end.line,
        end_col: a.end.col,
    }
}

fn global_pointer(f: &Function, e: &Expr) -> Option<VarId> {
    match &peel(e).kind {
        ExprKind::Var(v) => {
            let var = f.var(*v);
            (matches!(var.ty, Type::Pointer(_))
                && matches!(var.kind, VarKind::Param | VarKind::Local))
            .then_some(*v)
        }
        _ => None,
    }
}

fn shared_array(f: &Function, e: &Expr) -> Option<VarId> {
    match &peel(e).kind {
        ExprKind::Var(v) => {
            matches!(f.var(*v).kind, VarKind::Shared | VarKind::ExternShared).then_some(*v)
        }
        _ => None,
    }
}

/// Spans of expressions that are written rather than read: assignment
/// targets, `++`/`--` operands, `&` operands.
fn written_spans(f: &Function) -> Vec<Span> {
    let mut out = Vec::new();
    walk::each_expr(&f.body, &mut |e, _, _| match &e.kind {
        ExprKind::Assign { lhs, .. } => out.push(peel(lhs).span),
        ExprKind::IncDec { target, .. } => out.push(peel(target).span),
        ExprKind::AddrOf(x) => out.push(peel(x).span),
        _ => {}
    });
    out
}

fn locate(
    module: Module,
    mut f: Function,
    annotations: &[Annotation],
    file: &str,
) -> Result<AnnotatedKernel, SynthError> {
    let loc = |a: &Annotation| format!("{file}:{}:{}", a.at.line, a.at.col);
    let err = |a: &Annotation, message: String| SynthError::Annotation {
        location: loc(a),
        message,
    };
    let inside = |a: &Annotation| {
        a.start.line >= f.span.line && a.start.line <= f.span.end_line.max(f.span.line)
    };
    let mine: Vec<&Annotation> = annotations.iter().filter(|a| inside(a)).collect();
    if mine.is_empty() {
        return Err(SynthError::Input(format!(
            "{file}: kernel `{}` has no `__opt__` annotation: mark the global reads to serve from shared memory with `__opt__in[...]`, or write `__opt__(shared_expr, global_expr)` and `__insert()`",
            f.name
        )));
    }
    let written = written_spans(&f);
    let mut read_spans = Vec::new();
    let mut sleeve_parts = Vec::new();
    let mut insert_span = None;
    for a in &mine {
        let span = span_of(a);
        match &a.kind {
            AnnotationKind::Read { array } => {
                let Some((e, _, slot)) =
                    walk::find_span(&f.body, span, &|e| matches!(e.kind, ExprKind::Index(..)))
                else {
                    return Err(err(a, format!("the read `{array}[...]` marked by `__opt__` was not found in kernel `{}` (annotations inside macros are not supported)", f.name)));
                };
                let ExprKind::Index(base, _) = &e.kind else {
                    unreachable!("matched an Index")
                };
                if shared_array(&f, base).is_some() {
                    return Err(err(a, format!("`__opt__{array}[...]` marks a read of shared memory; mark the global read the shared copy replaces")));
                }
                if global_pointer(&f, base).is_none() {
                    return Err(err(a, format!("`{array}` is not a global-memory array (a pointer parameter or pointer variable)")));
                }
                if written.contains(&span) {
                    return Err(err(a, format!("`__opt__{array}[...]` marks a write; only reads can be served from shared memory")));
                }
                if slot == Slot::LoopHeader {
                    return Err(err(a, "marked reads in a loop's condition or step are not supported; read into a variable in the loop body".into()));
                }
                read_spans.push(span);
            }
            AnnotationKind::Sleeve => {
                let Some((e, _, slot)) =
                    walk::find_span(&f.body, span, &|e| matches!(e.kind, ExprKind::Comma(..)))
                else {
                    return Err(err(
                        a,
                        format!(
                            "the `__opt__(shared, global)` was not found in kernel `{}`",
                            f.name
                        ),
                    ));
                };
                let ExprKind::Comma(s, g) = &e.kind else {
                    unreachable!("matched a Comma")
                };
                let (s, g) = (peel(s), peel(g));
                let ExprKind::Index(sb, _) = &s.kind else {
                    return Err(err(a, "the first operand of `__opt__(shared, global)` must be a read of a `__shared__` array, such as `sb[csb - 1]`".into()));
                };
                let Some(sv) = shared_array(&f, sb) else {
                    return Err(err(a, "the first operand of `__opt__(shared, global)` must read a `__shared__` array".into()));
                };
                let ExprKind::Index(gb, _) = &g.kind else {
                    return Err(err(a, "the second operand of `__opt__(shared, global)` must be a read of a global array, such as `in[w]`".into()));
                };
                if global_pointer(&f, gb).is_none() {
                    return Err(err(a, "the second operand of `__opt__(shared, global)` must read a global-memory array".into()));
                }
                if written.contains(&span) {
                    return Err(err(
                        a,
                        "`__opt__(shared, global)` cannot be written to".into(),
                    ));
                }
                if slot == Slot::LoopHeader {
                    return Err(err(
                        a,
                        "`__opt__` in a loop's condition or step is not supported".into(),
                    ));
                }
                sleeve_parts.push((a, s.clone(), g.clone(), sv, span));
            }
            AnnotationKind::Insert => {
                if insert_span.is_some() {
                    return Err(err(a, "a kernel takes one `__insert()`".into()));
                }
                insert_span = Some((a, span));
            }
        }
    }
    if !sleeve_parts.is_empty() && insert_span.is_none() {
        return Err(err(sleeve_parts[0].0, "`__opt__(shared, global)` needs an `__insert();` statement marking where the synthesized copies go".into()));
    }
    if let (Some((a, _)), true) = (insert_span, sleeve_parts.is_empty()) {
        return Err(err(
            a,
            "`__insert()` without any `__opt__(shared_expr, global_expr)` to synthesize copies for"
                .into(),
        ));
    }

    // Take the annotations out: `(s, g)` becomes `g`, `__insert()` goes.
    let comma_spans: Vec<Span> = sleeve_parts.iter().map(|p| p.4).collect();
    walk::rewrite_exprs(&mut f.body, &mut |e| {
        if matches!(e.kind, ExprKind::Comma(..)) && comma_spans.contains(&e.span) {
            let ExprKind::Comma(_, g) = std::mem::replace(&mut e.kind, ExprKind::IntLit(0)) else {
                unreachable!()
            };
            *e = hone_ir::build::conv(*g, &e.ty);
            return true;
        }
        false
    });
    let mut insert = None;
    if let Some((a, span)) = insert_span {
        let mut at = None;
        walk::each_stmt(&f.body, &mut |s, path| {
            if at.is_none() {
                if let StmtKind::Expr(e) = &s.kind {
                    if matches!(e.kind, ExprKind::IntLit(0))
                        && e.span.line == span.line
                        && e.span.col == span.col
                    {
                        at = Some(path.clone());
                    }
                }
            }
        });
        let Some(path) = at else {
            return Err(err(
                a,
                "`__insert();` must be a statement of the kernel body".into(),
            ));
        };
        if path.iter().any(|(c, _)| *c == walk::Child::Init) {
            return Err(err(a, "`__insert();` cannot be in a loop header".into()));
        }
        walk::parent_block_mut(&mut f.body, &path)
            .expect("path found above")
            .remove(path.last().unwrap().1);
        insert = Some((path, span));
    }

    let print_expr = |e: &Expr| hone_ir::print::print_expr(&module, &f, e);
    let mut reads = Vec::new();
    for span in read_spans {
        let (e, path, _) =
            walk::find_span(&f.body, span, &|e| matches!(e.kind, ExprKind::Index(..)))
                .expect("located above");
        let ExprKind::Index(base, _) = &e.kind else {
            unreachable!()
        };
        reads.push(ReadSite {
            span,
            array: global_pointer(&f, base).expect("checked above"),
            path,
            text: print_expr(e),
        });
    }
    let mut sleeves = Vec::new();
    for (_, s, g, sv, _) in sleeve_parts {
        let (_, path, _) =
            walk::find_span(&f.body, g.span, &|e| matches!(e.kind, ExprKind::Index(..)))
                .expect("kept in place");
        sleeves.push(SleeveSite {
            span: g.span,
            text: format!("__opt__({}, {})", print_expr(&s), print_expr(&g)),
            shared: s,
            global: g,
            shared_array: sv,
            path,
        });
    }
    Ok(AnnotatedKernel {
        name: f.name.clone(),
        module,
        kernel: f,
        reads,
        sleeves,
        insert,
    })
}

/// Variables in scope just before the statement at `path`: the parameters,
/// then the declarations before it in each enclosing list (and the
/// initialisation of enclosing `for` loops), innermost last.
pub fn vars_in_scope(f: &Function, path: &Path) -> Vec<VarId> {
    let mut out: Vec<VarId> = f.params.clone();
    let mut block = &f.body;
    for (level, &(_, idx)) in path.iter().enumerate() {
        for s in block.iter().take(idx) {
            if let StmtKind::Decl { var, .. } = s.kind {
                out.push(var);
            }
        }
        if level + 1 == path.len() {
            break;
        }
        let Some(s) = block.get(idx) else { break };
        let next = path[level + 1].0;
        if let (StmtKind::For { init, .. }, walk::Child::Body) = (&s.kind, next) {
            for i in init {
                if let StmtKind::Decl { var, .. } = i.kind {
                    out.push(var);
                }
            }
        }
        match walk::children(s).into_iter().find(|(c, _)| *c == next) {
            Some((_, b)) => block = b,
            None => break,
        }
    }
    out
}
