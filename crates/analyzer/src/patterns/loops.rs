//! What the loop-level fixes (`local-accumulator`, `hoisted-load`,
//! `register-copy`) share: the array element an access names, the loop
//! around it, whether the loop keeps the element where it is, and a fresh
//! local variable.

use hone_ir::path::{stmt_at, Child, Path};
use hone_ir::{
    Block, Expr, ExprKind, FuncId, Function, Intrinsic, Module, Span, Stmt, StmtKind, Type, Var,
    VarId, VarKind,
};

use std::collections::{HashMap, HashSet};

use hone_ir::path::each_expr;

use crate::walk::{index_root, is_pure, strip};

pub(crate) fn is_loop(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }
    )
}

/// `array[index]`, [`element_nd`] of a one-dimensional array.
pub(crate) fn element<'e>(f: &Function, e: &'e Expr) -> Option<(VarId, &'e Expr)> {
    match element_nd(f, e)? {
        (array, indices) if indices.len() == 1 => Some((array, indices[0])),
        _ => None,
    }
}

/// The path of the loop whose own body holds the statement at `path`, so
/// that the statement runs on every trip (one under an `if` may be guarded
/// against an index out of bounds where it does not).
pub(crate) fn loop_around(body: &Block, path: &Path) -> Option<Path> {
    let loop_path = path[..path.len().checked_sub(1)?].to_vec();
    if path.last()?.0 != Child::Body || loop_path.is_empty() {
        return None;
    }
    is_loop(stmt_at(body, &loop_path)?).then_some(loop_path)
}

/// The path of the innermost loop around the statement at `path`, which may
/// sit under an `if` in it.
pub(crate) fn innermost_loop(body: &Block, path: &Path) -> Option<Path> {
    (1..path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| stmt_at(body, p).is_some_and(is_loop))
}

/// `array[i][j]...`, an element (not a row) of a non-volatile array
/// variable of one or more dimensions, with pure indexes (outermost first).
pub(crate) fn element_nd<'e>(f: &Function, e: &'e Expr) -> Option<(VarId, Vec<&'e Expr>)> {
    if matches!(e.ty, Type::Array(..)) {
        return None;
    }
    let mut indices = Vec::new();
    let mut at = e;
    while let ExprKind::Index(base, index) = &at.kind {
        if !is_pure(index) {
            return None;
        }
        indices.push(index.as_ref());
        at = strip(base);
    }
    let ExprKind::Var(array) = at.kind else {
        return None;
    };
    indices.reverse();
    (!indices.is_empty() && !f.var(array).is_volatile).then_some((array, indices))
}

/// Whether `e` names an element or a row of `array` (`array[...]`, any
/// number of dimensions).
pub(crate) fn indexes(e: &Expr, array: VarId) -> bool {
    matches!(&strip(e).kind, ExprKind::Index(..)) && index_root(e) == Some(array)
}

/// Whether `the_loop` leaves `array` and the variables of `indices` as they
/// are, so that `array[i][j]...` names one element on every trip: none is
/// assigned, incremented or (an index variable) declared in it, no element
/// is incremented or has its address taken, and it makes no atomic access
/// and calls only functions that write nothing but the caller's own
/// variables ([`writes_through`]).
pub(crate) fn keeps(
    module: &Module,
    func: &Function,
    the_loop: &Stmt,
    array: VarId,
    indices: &[&Expr],
) -> bool {
    let mut index_vars = Vec::new();
    for index in indices {
        hone_ir::path::vars_read(index, &mut index_vars);
    }
    let moved = |e: &Expr| matches!(strip(e).kind, ExprKind::Var(v) if index_vars.contains(&v) || v == array);
    let mut kept = true;
    let alone = vec![the_loop.clone()];
    hone_ir::path::each_expr(&alone, &mut |e, _, _| match &e.kind {
        // Through a pointer a call returned or one read from memory: it may
        // be the array's.
        ExprKind::Assign { lhs: t, .. } | ExprKind::IncDec { target: t, .. }
            if place_root(t).is_none() =>
        {
            kept = false
        }
        ExprKind::Assign { lhs, .. } if moved(lhs) => kept = false,
        ExprKind::IncDec { target, .. } if moved(target) || indexes(target, array) => kept = false,
        ExprKind::AddrOf(inner) if indexes(inner, array) => kept = false,
        // A call may write only through pointers to the caller's own
        // variables, none of them the array or an index variable.
        ExprKind::Call(f, args) => match writes_through(module, *f, CALL_DEPTH) {
            None => kept = false,
            Some(written) => {
                for i in written {
                    kept &= match args.get(i).map(|a| &strip(a).kind) {
                        Some(ExprKind::AddrOf(inner)) => matches!(
                            place_root(inner),
                            Some((v, false)) if v != array
                                && !index_vars.contains(&v)
                                && func.var(v).kind == VarKind::Local
                                && !matches!(func.var(v).ty, Type::Pointer(..))
                        ),
                        _ => false,
                    };
                }
            }
        },
        ExprKind::Intrinsic(Intrinsic::Atomic(_), _) => kept = false,
        _ => {}
    });
    hone_ir::path::each_stmt(&alone, &mut |s, _| {
        if let StmtKind::Decl { var, .. } = s.kind {
            kept &= !index_vars.contains(&var);
        }
    });
    kept
}

/// How deep [`writes_through`] follows calls before it assumes a write.
pub(crate) const CALL_DEPTH: usize = 8;

/// The variable an assigned place belongs to, and whether the place is
/// memory it points to (`*p`, `p[i]`, `(*p).x`) rather than the variable
/// itself (`v`, a member or vector component `v.x`, or an element of a
/// local array).
pub(crate) fn place_root(e: &Expr) -> Option<(VarId, bool)> {
    let mut at = strip(e);
    let mut through = false;
    loop {
        match &at.kind {
            ExprKind::Field(inner, _) | ExprKind::Component(inner, _) => at = strip(inner),
            // A pointer read from memory (`(*pp)[j]`, `s->ptr[j]`) may point
            // anywhere: no root.
            ExprKind::Deref(inner) if !through => {
                through = true;
                at = strip(inner);
            }
            ExprKind::Index(base, _) if matches!(base.ty, Type::Array(..)) => at = strip(base),
            ExprKind::Index(base, _) if !through => {
                through = true;
                at = strip(base);
            }
            ExprKind::Var(v) => return Some((*v, through)),
            _ => return None,
        }
    }
}

/// What calling `f` may write besides its own variables: `None` when it may
/// write memory other than through its pointer parameters, make an atomic
/// access, or wait at a barrier or fence (where other threads may write);
/// else the positions of the parameters it writes through. Calls are
/// followed `depth` deep. Conversions such as box filters'
/// `rgbaIntToFloat(id[0])` write nothing, and `t += v` on a `float4`
/// (`operator+=(float4 &a, float4 b)`) writes only through its first
/// parameter, the caller's `t`.
pub(crate) fn writes_through(module: &Module, f: FuncId, depth: usize) -> Option<Vec<usize>> {
    let depth = depth.checked_sub(1)?;
    let func = module.func(f);
    let param = |v: VarId| func.params.iter().position(|p| *p == v);
    // A pointer parameter repointed inside (`a = b; a[j] = v`) would write
    // where the caller cannot see: only scalars and records are the
    // function's own to change.
    let own = |v: VarId| {
        matches!(func.var(v).kind, VarKind::Local | VarKind::Param)
            && !matches!(func.var(v).ty, Type::Pointer(..))
    };
    let mut through = Vec::new();
    let mut ok = true;
    let place = |e: &Expr, through: &mut Vec<usize>| match place_root(e) {
        Some((v, false)) if own(v) => true,
        Some((v, true)) => match param(v) {
            Some(i) => {
                through.push(i);
                true
            }
            None => false,
        },
        _ => false,
    };
    hone_ir::path::each_expr(&func.body, &mut |e, _, _| match &e.kind {
        ExprKind::Assign { lhs: t, .. } | ExprKind::IncDec { target: t, .. } => {
            ok &= place(t, &mut through);
        }
        // Only the address of a variable of its own, passed on below.
        ExprKind::AddrOf(inner) => {
            ok &= matches!(place_root(inner), Some((v, false)) if own(v));
        }
        ExprKind::Call(g, args) => match writes_through(module, *g, depth) {
            None => ok = false,
            Some(written) => {
                for i in written {
                    ok &= match args.get(i).map(|a| &strip(a).kind) {
                        Some(ExprKind::AddrOf(inner)) => {
                            matches!(place_root(inner), Some((v, false)) if own(v))
                        }
                        Some(ExprKind::Var(v)) => match param(*v) {
                            Some(p) => {
                                through.push(p);
                                true
                            }
                            None => false,
                        },
                        _ => false,
                    };
                }
            }
        },
        ExprKind::Intrinsic(
            Intrinsic::Atomic(_)
            | Intrinsic::SyncThreads
            | Intrinsic::GridSync
            | Intrinsic::SyncWarp
            | Intrinsic::ThreadFence,
            _,
        ) => ok = false,
        _ => {}
    });
    through.sort_unstable();
    through.dedup();
    ok.then_some(through)
}

/// The variables assigned, incremented or with their address taken anywhere
/// in `block`.
pub(crate) fn assigned_in(block: &Block) -> HashSet<VarId> {
    let mut out = HashSet::new();
    each_expr(block, &mut |e, _, _| match &e.kind {
        ExprKind::Assign { lhs: t, .. }
        | ExprKind::IncDec { target: t, .. }
        | ExprKind::AddrOf(t) => {
            if let Some((v, false)) = place_root(t) {
                out.insert(v);
            }
        }
        _ => {}
    });
    out
}

/// What a function's variables keep: the locals that keep their initial
/// values, with those values, and every variable assigned somewhere.
pub(crate) struct Kept {
    pub inits: HashMap<VarId, Expr>,
    pub assigned: HashSet<VarId>,
}

impl Kept {
    pub fn of(f: &Function) -> Kept {
        let assigned = assigned_in(&f.body);
        let mut inits = HashMap::new();
        hone_ir::path::each_stmt(&f.body, &mut |s, _| {
            if let StmtKind::Decl {
                var,
                init: Some(hone_ir::Init::Expr(e)),
            } = &s.kind
            {
                if !assigned.contains(var) && is_pure(e) && f.var(*var).kind == VarKind::Local {
                    inits.insert(*var, e.clone());
                }
            }
        });
        Kept { inits, assigned }
    }

    /// Whether `e`, its kept locals replaced by their values, is made only of
    /// literals, the builtins `builtin_ok` accepts, parameters no code
    /// assigns (pointers only where `pointers`) and the variables `also`
    /// accepts: no memory read, nothing with an effect. Such a value is the
    /// same in every thread that agrees on those builtins.
    pub fn made_of_params(
        &self,
        e: &Expr,
        f: &Function,
        pointers: bool,
        builtin_ok: &dyn Fn(hone_ir::Builtin) -> bool,
        also: &dyn Fn(VarId) -> bool,
    ) -> bool {
        let Some(e) = crate::walk::inline_locals(e, &self.inits) else {
            return false;
        };
        let mut ok = is_pure(&e);
        crate::walk::visit_expr(&e, &mut |x| match &x.kind {
            ExprKind::Var(v) => {
                let var = f.var(*v);
                ok &= also(*v)
                    || (var.kind == VarKind::Param
                        && !self.assigned.contains(v)
                        && (pointers || !var.ty.is_pointer()))
            }
            ExprKind::Builtin(b) => ok &= builtin_ok(*b),
            ExprKind::Index(..) | ExprKind::Deref(..) | ExprKind::Global(_) => ok = false,
            _ => {}
        });
        ok
    }
}

/// No `return` but a last one, anywhere in `body` (a function's), so that
/// every thread that starts the function reaches each of its statements
/// that is not under an `if` or a loop.
pub(crate) fn leaves_only_at_end(body: &Block) -> bool {
    let last = body.last().map(|s| s as *const Stmt);
    let mut ok = true;
    hone_ir::path::each_stmt(body, &mut |s, _| {
        ok &= !matches!(s.kind, StmtKind::Return(_)) || Some(s as *const Stmt) == last;
    });
    ok
}

/// Makes `kernel` stop with a trap, before its first statement, where
/// `when` (given the span to build at) holds: a launch that a rewrite's
/// shared tiles were not sized for.
pub(crate) fn trap_first(
    m: &mut Module,
    kernel: &str,
    when: impl FnOnce(Span) -> Expr,
) -> Option<()> {
    let i = m.functions.iter().position(|f| f.name == kernel)?;
    let f = &mut m.functions[i];
    let span = f.body.first().map(|s| s.span).unwrap_or_default();
    let check = hone_ir::build::if_stmt(when(span), vec![hone_ir::build::trap(span)], span);
    f.body.insert(0, check);
    Some(())
}

/// `base`, or `base2`, `base3`, ... where `f` has a variable of that name.
pub(crate) fn free_name(f: &Function, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 2;
    while f.vars.iter().any(|v| v.name == name) {
        name = format!("{base}{k}");
        k += 1;
    }
    name
}

/// Adds a local variable named `base` (or `base2`, `base3`, ... where taken).
pub(crate) fn fresh_local(
    f: &mut Function,
    base: &str,
    ty: &Type,
    span: Span,
    is_const: bool,
) -> VarId {
    let name = free_name(f, base);
    f.add_var(Var {
        is_const,
        ..Var::new(name, ty.clone(), VarKind::Local, span)
    })
}

/// Rewrites the loop at `loop_path` of `f` to use a local variable named
/// after `base` for the element `target`: declared and read before the loop,
/// used in its place inside it, and written back after it where `write_back`.
pub(crate) fn localize(
    f: &mut Function,
    loop_path: &Path,
    target: &Expr,
    base: &str,
    write_back: bool,
) -> Option<()> {
    let span = stmt_at(&f.body, loop_path)?.span;
    let var = fresh_local(f, base, &target.ty, span, !write_back);
    let local = hone_ir::build::var(var, &target.ty, target.span);
    let at = loop_path.last()?.1;
    let block = hone_ir::path::parent_block_mut(&mut f.body, loop_path)?;
    let mut looped = vec![block.get(at)?.clone()];
    crate::walk::rewrite_block(&mut looped, &mut |e| {
        if e == target {
            *e = local.clone();
        }
    });
    let load = Stmt {
        kind: StmtKind::Decl {
            var,
            init: Some(hone_ir::Init::Expr(target.clone())),
        },
        span,
    };
    let mut stmts = vec![load, looped.pop()?];
    if write_back {
        stmts.push(hone_ir::build::assign_stmt(target.clone(), local, span));
    }
    block.splice(at..=at, stmts);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the kernel `k`'s first loop keeps `id[0]`.
    fn keeps_first_element(src: &str) -> bool {
        let p = hone_frontend::parse_source("t.cu", src, &Default::default()).unwrap();
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let (_, f) = p.module.function("k").unwrap();
        let array = VarId(f.vars.iter().position(|v| v.name == "id").unwrap() as u32);
        let at = f.body.iter().position(is_loop).unwrap();
        let zero = Expr {
            kind: ExprKind::IntLit(0),
            ty: Type::INT,
            span: Span::default(),
        };
        keeps(&p.module, f, &f.body[at], array, &[&zero])
    }

    const HELPERS: &str = "
        struct px { float r, g; };
        __device__ px unpack(unsigned int c) { px v; v.r = c & 255; v.g = c >> 8; return v; }
        __device__ void add(px *a, px b) { a->r += b.r; (*a).g += b.g; }
        __device__ void twice(px *a, px b) { add(a, b); add(a, b); }
        __device__ void put(unsigned int *p, unsigned int v) { p[0] = v; }
        __device__ void bump(unsigned int *p, unsigned int v) { atomicAdd(p, v); }
        __device__ float wait(float v) { __syncthreads(); return v; }
        struct rec { unsigned int *p; };
        __device__ void put_member(rec *r, unsigned int v) { r->p[0] = v; }
        __device__ void put_pp(unsigned int **pp, unsigned int v) { (*pp)[0] = v; }
        __device__ void put_retarget(unsigned int *a, unsigned int *b, unsigned int v) { a = b; a[0] = v; }
        __device__ unsigned int *same(unsigned int *p) { return p; }
    ";

    fn kernel(body: &str) -> String {
        format!(
            "{HELPERS}
            __global__ void k(unsigned int *id, unsigned int *od, int n) {{
                px t; t.r = 0; t.g = 0;
                float s = 0;
                for (int y = 0; y < n; y++) {{ {body} }}
                od[0] = t.r + s;
            }}"
        )
    }

    #[test]
    fn calls_that_write_only_the_callers_variables_keep_the_element() {
        // Conversions and `+=` on a local struct, also two calls deep.
        assert!(keeps_first_element(&kernel("add(&t, unpack(id[0]));")));
        assert!(keeps_first_element(&kernel("twice(&t, unpack(id[y]));")));
    }

    #[test]
    fn calls_that_may_write_memory_or_wait_do_not() {
        // Through a pointer into memory, atomically, or at a barrier where
        // other threads may write.
        assert!(!keeps_first_element(&kernel(
            "put(id, 5); add(&t, unpack(id[0]));"
        )));
        assert!(!keeps_first_element(&kernel("put(&od[y], 5);")));
        assert!(!keeps_first_element(&kernel("bump(od, 1); s += id[0];")));
        assert!(!keeps_first_element(&kernel("s += wait(id[0]);")));
        // Through a pointer held in a record or in memory, a parameter
        // repointed inside the callee, or a pointer a call returns.
        assert!(!keeps_first_element(&kernel(
            "rec r; r.p = id; put_member(&r, 5); s += id[0];"
        )));
        assert!(!keeps_first_element(&kernel(
            "unsigned int *q = id; put_pp(&q, 5); s += id[0];"
        )));
        assert!(!keeps_first_element(&kernel(
            "unsigned int u = 0; put_retarget(&u, id, 5); s += id[0];"
        )));
        assert!(!keeps_first_element(&kernel(
            "same(id)[0] = 5; s += id[0];"
        )));
        // The loop's own element store is the caller's to check, not a call.
        assert!(keeps_first_element(&kernel("od[y] = id[0];")));
    }
}
