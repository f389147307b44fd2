//! Row walks staged through shared memory, the data layout unchanged. Each
//! thread walks a row of its own, one element a trip (`for (x = lo; x < hi;
//! x++) s += a[row * w + x]`, or a helper walking the row pointer it was
//! given, as box filters do): a warp's lanes are a row apart, so each request
//! touches 32 sectors and reads one word of each. The walk can carry a value
//! from trip to trip (a running sum), so the threads cannot share a row.
//!
//! Instead the block walks its rows in chunks of C columns: for each chunk,
//! its threads copy, C consecutive threads a row, the chunk of every
//! thread's row into a shared tile (a warp reads 32 / C rows of C
//! consecutive elements: whole sectors), wait, and then each thread runs its
//! trips of the chunk reading its own tile row. Stores of the walk go to a
//! tile the same way and are copied out, row by row, after the chunk. Each
//! thread's row is named by a pointer it puts in shared memory before the
//! walk (`&a[row * w]`), so a thread can copy another's row.
//!
//! Every thread of the block must reach the walk together (a walk at the top
//! of the kernel, or of a helper the kernel calls once at its top, maybe
//! under an `if` that holds only the walk: threads that fail it take part in
//! the copies, and their rows are skipped), the bounds must be the block's
//! (made of parameters), and the trips must not leave the walk early. A
//! staged read must run on every trip (not under `?:`, `&&`, `||` or an
//! `if`), so the copy reads nothing the original did not; a read-only array
//! is staged, and a staged store must be the walk's only use of its array.
//! The tiles are sized for the analysed block; another block stops with a
//! trap.

use hone_emulator::AccessKind;
use hone_ir::path::{each_stmt, find_span, stmt_at, Child, Path};
use hone_ir::{
    AddressSpace, ArrayLen, BinaryOp, Builtin, Dim, Expr, ExprKind, FuncId, Function, Init,
    Intrinsic, Module, Stmt, StmtKind, Type, Var, VarId, VarKind,
};

use super::loops::{assigned_in, free_name, keeps, loop_around, Kept};
use super::{Candidate, Ctx};
use crate::collect::SiteStats;
use crate::walk::{is_pure, strip, visit_expr, visit_guarded};

/// Chunk lengths tried, longest first: a chunk of 32 four-byte elements is
/// one 128-byte line a row.
const CHUNKS: [u64; 3] = [32, 16, 8];
/// Shared memory the tiles may take (of the 48 KiB a block may declare).
const SHARED_BUDGET: u64 = 40 * 1024;
/// Values of the next chunk a thread may hold while the trips run.
const REGISTERS: u64 = 64;

/// One staged array of the walk: `array[x + rest]`.
struct Staged {
    array: VarId,
    rest: Expr,
    /// `rest` as printed, to tell the walk's accesses apart.
    key: String,
    elem: Type,
    store: bool,
}

pub(crate) fn propose(
    kernel: &Ctx,
    home: &Ctx,
    site: &SiteStats,
    sites: &[SiteStats],
) -> Option<Candidate> {
    if site.space != AddressSpace::Global
        || !matches!(site.kind, AccessKind::Load | AccessKind::Store)
        || site.excess_sectors() == 0
    {
        return None;
    }
    let [bx, by, bz] = kernel.spec.launch.config.block;
    let threads = u64::from(bx) * u64::from(by) * u64::from(bz);
    if !(2..=1024).contains(&threads) {
        return None;
    }
    let module = &kernel.spec.module;
    let f = home.func;
    let (access, path, _) = find_span(&f.body, site.span, &|e| match site.kind {
        AccessKind::Store => matches!(e.kind, ExprKind::Assign { .. }),
        _ => matches!(e.kind, ExprKind::Index(..)),
    })?;
    let loop_path = loop_around(&f.body, &path)?;
    let place = placement(&f.body, &loop_path)?;
    let the_loop = stmt_at(&f.body, &loop_path)?;
    let StmtKind::For {
        init,
        cond,
        step,
        body,
    } = &the_loop.kind
    else {
        return None;
    };
    let header = Header::of(f, init, cond.as_ref()?, step.as_ref()?)?;
    if assigned_in(body).contains(&header.x) || !leaves_only_at_end(f) || !plain_trips(body) {
        return None;
    }
    // The walk's bounds are the block's: made of parameters (a helper's, of
    // arguments made of the kernel's) and block-wide builtins.
    let kept = Kept::of(f);
    let not_thread = |b: Builtin| !matches!(b, Builtin::ThreadIdx(_));
    let from_kernel = reached_by_all(kernel, home)?;
    let block_wide = |e: &Expr| {
        kept.made_of_params(e, f, false, &not_thread, &|_| false)
            && from_kernel
                .as_ref()
                .is_none_or(|args| params_block_wide(kernel.func, f, e, &kept, args))
    };
    if !block_wide(&header.lo) || !block_wide(&header.hi) {
        return None;
    }

    let assigned = assigned_in(body);
    // Only accesses that waste sectors are worth a copy (a read every
    // thread makes of the same element, `x[j]`, is not).
    let wasteful: Vec<hone_ir::Span> = sites
        .iter()
        .filter(|s| s.space == AddressSpace::Global && s.excess_sectors() > 0)
        .map(|s| s.span)
        .collect();
    let staged = staged_accesses(module, f, the_loop, body, header.x, &assigned, &wasteful);
    let site_key = site_key(module, f, access, site.kind, header.x)?;
    if !staged.iter().any(|s| {
        s.store == (site.kind == AccessKind::Store)
            && (s.array, &s.key) == (site_key.0, &site_key.1)
    }) {
        return None;
    }
    let tiles = staged.len() as u64;
    let elem_bytes = staged
        .iter()
        .map(|s| s.elem.size().unwrap_or(8))
        .max()
        .unwrap_or(4);
    // Whole rows of threads a copy pass, the tiles within the budget, and a
    // thread's values of the next chunk in registers (at most 64).
    let reads = staged.iter().filter(|s| !s.store).count() as u64;
    let chunk = CHUNKS.into_iter().find(|c| {
        threads % c == 0
            && reads * c <= REGISTERS
            && tiles * threads * (c + 1) * elem_bytes + tiles * threads * 8 + threads
                <= SHARED_BUDGET
    })?;

    let mut m = module.clone();
    let names: Vec<String> = staged.iter().map(|s| f.var(s.array).name.clone()).collect();
    rewrite(
        &mut m.functions[home.func_index],
        module,
        f,
        &Plan {
            place: &place,
            loop_path: &loop_path,
            header: &header,
            staged: &staged,
            threads,
            chunk,
        },
    )?;
    guard_threads(&mut m, &kernel.spec.kernel, threads)?;

    let array = f.var(site_key.0).name.clone();
    let list = names
        .iter()
        .zip(&staged)
        .map(|(n, s)| format!("`{n}`{}", if s.store { " (stored)" } else { "" }))
        .collect::<Vec<_>>()
        .join(", ");
    Some(Candidate {
        pattern: "staged-walk",
        title: format!(
            "stage each thread's walk along its row of `{array}` through shared memory, {chunk} columns at a time"
        ),
        explanation: format!(
            "Each thread walks a row of its own, so a warp's lanes are a row apart and every \
             request touches a sector per lane. The block now walks its rows {chunk} columns at \
             a time: its threads copy the chunk of every thread's row of {list} into a shared \
             tile, {chunk} consecutive threads a row (whole sectors), wait, and each thread runs \
             its trips of the chunk on its own tile row; stores are copied out the same way after \
             the chunk. Each thread names its row by a pointer it puts in shared memory first. \
             The trips and their order are unchanged, and the data layout too. It assumes, as the \
             compiled loop cannot, that the walk's stores do not write the rows it reads. The \
             tiles are sized for blocks of {threads} threads, as in this launch: launched with \
             others, the kernel stops with a trap."
        ),
        module: m,
        layouts: Vec::new(),
        moved_to: Some(format!("{}{}", TILE_ROWS, staged_index(&staged, &site_key)?)),
    })
}

/// Names of the row pointers, `hone_rows0`, `hone_rows1`, ...: the site's
/// traffic moves to the copy through them.
pub(crate) const TILE_ROWS: &str = "hone_rows";

fn staged_index(staged: &[Staged], key: &(VarId, String)) -> Option<usize> {
    staged
        .iter()
        .position(|s| (s.array, &s.key) == (key.0, &key.1))
}

/// Where the walk stands: a top-level statement of the function, or inside
/// an `if` (no `else`) there, after declarations that read no memory (which
/// every thread can then make) and before any statements (which then run
/// under the guard after the walk).
struct Placement {
    top: usize,
    guard: Option<Expr>,
    before: Vec<Stmt>,
    after: Vec<Stmt>,
}

fn placement(body: &[Stmt], loop_path: &Path) -> Option<Placement> {
    match loop_path.as_slice() {
        [(Child::Root, i)] => Some(Placement {
            top: *i,
            guard: None,
            before: Vec::new(),
            after: Vec::new(),
        }),
        [(Child::Root, i), (Child::Then, at)] => match &body.get(*i)?.kind {
            StmtKind::If {
                cond,
                then,
                els: None,
            } if is_pure(cond) => {
                let before = then[..*at].to_vec();
                let harmless = before.iter().all(|s| match &s.kind {
                    StmtKind::Decl { init: None, .. } => true,
                    StmtKind::Decl {
                        init: Some(Init::Expr(e)),
                        ..
                    } => reads_no_memory(e),
                    _ => false,
                });
                harmless.then(|| Placement {
                    top: *i,
                    guard: Some(cond.clone()),
                    before,
                    after: then[at + 1..].to_vec(),
                })
            }
            _ => None,
        },
        _ => None,
    }
}

/// Pure, and reading no memory (no element, dereference, file-scope
/// variable or call).
fn reads_no_memory(e: &Expr) -> bool {
    let mut ok = is_pure(e);
    visit_expr(e, &mut |x| {
        ok &= !matches!(
            x.kind,
            ExprKind::Index(..) | ExprKind::Deref(..) | ExprKind::Call(..) | ExprKind::Global(_)
        )
    });
    ok
}

/// `for (x = lo; x < hi; x++)`, `x` an integer variable.
struct Header {
    x: VarId,
    ty: Type,
    declared: bool,
    lo: Expr,
    hi: Expr,
}

impl Header {
    fn of(f: &Function, init: &[Stmt], cond: &Expr, step: &Expr) -> Option<Header> {
        let (x, lo, declared) = match init {
            [Stmt {
                kind:
                    StmtKind::Decl {
                        var,
                        init: Some(Init::Expr(lo)),
                    },
                ..
            }] => (*var, lo.clone(), true),
            [Stmt {
                kind: StmtKind::Expr(e),
                ..
            }] => match &e.kind {
                ExprKind::Assign { op: None, lhs, rhs } => match strip(lhs).kind {
                    ExprKind::Var(v) => (v, (**rhs).clone(), false),
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        let ty = f.var(x).ty.clone();
        if !ty.scalar().is_some_and(|s| s.is_integer()) || f.var(x).kind != VarKind::Local {
            return None;
        }
        let is_x = |e: &Expr| matches!(strip(e).kind, ExprKind::Var(v) if v == x);
        let hi = match &strip(cond).kind {
            ExprKind::Binary(BinaryOp::Lt, a, b) if is_x(a) => (**b).clone(),
            _ => return None,
        };
        let one = |e: &Expr| crate::walk::int_value(e) == Some(1);
        let steps_by_one = match &strip(step).kind {
            ExprKind::IncDec {
                increment: true,
                target,
                ..
            } => is_x(target),
            ExprKind::Assign {
                op: Some(BinaryOp::Add),
                lhs,
                rhs,
            } => is_x(lhs) && one(rhs),
            ExprKind::Assign { op: None, lhs, rhs } => {
                is_x(lhs)
                    && matches!(&strip(rhs).kind, ExprKind::Binary(BinaryOp::Add, a, b) if is_x(a) && one(b))
            }
            _ => false,
        };
        steps_by_one.then_some(Header {
            x,
            ty,
            declared,
            lo,
            hi,
        })
    }
}

/// No `return` but a last one, anywhere in the function.
fn leaves_only_at_end(f: &Function) -> bool {
    let last = f.body.last().map(|s| s as *const Stmt);
    let mut ok = true;
    each_stmt(&f.body, &mut |s, _| {
        ok &= !matches!(s.kind, StmtKind::Return(_)) || Some(s as *const Stmt) == last;
    });
    ok
}

/// No `break`, `continue` or `return` in the trips, no barrier, warp-wide
/// operation or fence (the staged copies put barriers around them).
fn plain_trips(body: &Vec<Stmt>) -> bool {
    let mut ok = true;
    each_stmt(body, &mut |s, _| {
        ok &= !matches!(
            s.kind,
            StmtKind::Break | StmtKind::Continue | StmtKind::Return(_)
        );
    });
    hone_ir::path::each_expr(body, &mut |e, _, _| {
        ok &= !matches!(
            e.kind,
            ExprKind::Intrinsic(
                Intrinsic::SyncThreads
                    | Intrinsic::GridSync
                    | Intrinsic::SyncWarp
                    | Intrinsic::ThreadFence
                    | Intrinsic::Shfl(_)
                    | Intrinsic::Vote(_)
                    | Intrinsic::ActiveMask,
                _
            )
        );
    });
    ok
}

/// For a helper (not the kernel), the arguments of the kernel's one call of
/// it, which every thread of the block makes: a top-level statement of the
/// kernel, not behind `?:`, `&&` or `||`, in a kernel that returns only at
/// its end, and no other call of the helper in the module. `Some(None)` for
/// the kernel itself.
fn reached_by_all(kernel: &Ctx, home: &Ctx) -> Option<Option<Vec<Expr>>> {
    if home.func_index == kernel.func_index {
        return Some(None);
    }
    let module = &kernel.spec.module;
    let id = FuncId(home.func_index as u32);
    let mut calls = 0;
    for g in &module.functions {
        hone_ir::path::each_expr(&g.body, &mut |e, _, _| {
            calls += usize::from(matches!(&e.kind, ExprKind::Call(c, _) if *c == id));
        });
    }
    if calls != 1 || !leaves_only_at_end(kernel.func) {
        return None;
    }
    // Only a statement that runs once (not a loop's or an `if`'s condition).
    let mut args = None;
    for s in &kernel.func.body {
        if !matches!(s.kind, StmtKind::Expr(_) | StmtKind::Decl { .. }) {
            continue;
        }
        for (_, e) in hone_ir::path::stmt_exprs(s) {
            visit_guarded(e, &mut |x, guarded| {
                if let ExprKind::Call(c, a) = &x.kind {
                    if *c == id && !guarded {
                        args = Some(a.clone());
                    }
                }
            });
        }
    }
    Some(Some(args?))
}

/// Whether every parameter of the helper `f` that `e` reads is given a
/// block-wide argument by the kernel's call: made of the kernel's
/// parameters, literals and launch sizes or block indices.
fn params_block_wide(
    kernel: &Function,
    f: &Function,
    e: &Expr,
    kept: &Kept,
    args: &[Expr],
) -> bool {
    let Some(e) = crate::walk::inline_locals(e, &kept.inits) else {
        return false;
    };
    let mut vars = Vec::new();
    hone_ir::path::vars_read(&e, &mut vars);
    let kernel_kept = Kept::of(kernel);
    let not_thread = |b: Builtin| !matches!(b, Builtin::ThreadIdx(_));
    vars.iter()
        .all(|v| match f.params.iter().position(|p| p == v) {
            Some(i) => args.get(i).is_some_and(|a| {
                kernel_kept.made_of_params(a, kernel, false, &not_thread, &|_| false)
            }),
            None => true,
        })
}

/// `e` as `x + rest` (`x`, `x + c`, `c + x`, `x - c`, `(a + x) + c`, with
/// conversions), `rest` free of `x`.
fn split_x(e: &Expr, x: VarId) -> Option<Option<Expr>> {
    let reads_x = |e: &Expr| {
        let mut v = Vec::new();
        hone_ir::path::vars_read(e, &mut v);
        v.contains(&x)
    };
    let add = |a: Option<Expr>, b: &Expr, op: BinaryOp| -> Option<Expr> {
        Some(match a {
            None if op == BinaryOp::Add => b.clone(),
            None => hone_ir::build::mk(
                ExprKind::Unary(hone_ir::UnaryOp::Neg, Box::new(b.clone())),
                b.ty.clone(),
                b.span,
            ),
            Some(a) => crate::walk::bin(op, a, b.clone()),
        })
    };
    match &strip(e).kind {
        ExprKind::Var(v) if *v == x => Some(None),
        ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
            if !reads_x(b) {
                let r = split_x(a, x)?;
                Some(add(r, b, *op))
            } else if *op == BinaryOp::Add && !reads_x(a) {
                let r = split_x(b, x)?;
                Some(match r {
                    None => Some((**a).clone()),
                    Some(r) => Some(crate::walk::bin(BinaryOp::Add, (**a).clone(), r)),
                })
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The array and the printed `rest` of the site's access `array[x + rest]`.
fn site_key(
    m: &Module,
    f: &Function,
    access: &Expr,
    kind: AccessKind,
    x: VarId,
) -> Option<(VarId, String)> {
    let target = match (&access.kind, kind) {
        (ExprKind::Assign { lhs, .. }, AccessKind::Store) => strip(lhs),
        _ => access,
    };
    let ExprKind::Index(base, index) = &target.kind else {
        return None;
    };
    let ExprKind::Var(array) = strip(base).kind else {
        return None;
    };
    let rest = split_x(index, x)?;
    Some((array, rest_key(m, f, rest.as_ref())))
}

fn rest_key(m: &Module, f: &Function, rest: Option<&Expr>) -> String {
    rest.map(|r| hone_ir::print::print_expr(m, f, r))
        .unwrap_or_default()
}

/// Whether `rest` is the same on every trip: pure, reading no memory and no
/// variable the trips assign.
fn invariant(rest: &Expr, x: VarId, assigned: &std::collections::HashSet<VarId>) -> bool {
    let mut ok = is_pure(rest);
    visit_expr(rest, &mut |e| match &e.kind {
        ExprKind::Var(v) => ok &= *v != x && !assigned.contains(v),
        ExprKind::Index(..) | ExprKind::Deref(..) | ExprKind::Call(..) | ExprKind::Global(_) => {
            ok = false
        }
        _ => {}
    });
    ok
}

/// The walk's staged accesses: reads `a[x + rest]` that run on every trip
/// of a pointer the function never stores through and the trips leave as it
/// is, and stores `b[x + rest] = v` that are a trip's statement and the
/// walk's only use of `b`. One each per array and `rest`.
fn staged_accesses(
    m: &Module,
    f: &Function,
    the_loop: &Stmt,
    body: &[Stmt],
    x: VarId,
    assigned: &std::collections::HashSet<VarId>,
    wasteful: &[hone_ir::Span],
) -> Vec<Staged> {
    let pointee = |v: VarId| match &f.var(v).ty {
        Type::Pointer(p) if !p.pointee_volatile && p.pointee.scalar().is_some() => {
            Some(p.pointee.clone())
        }
        _ => None,
    };
    let uses = |v: VarId| {
        let mut n = 0;
        let alone = vec![the_loop.clone()];
        hone_ir::path::each_expr(&alone, &mut |e, _, _| {
            n += usize::from(matches!(e.kind, ExprKind::Var(w) if w == v));
        });
        n
    };
    let mut out: Vec<Staged> = Vec::new();
    for s in body {
        let exprs: Vec<&Expr> = match &s.kind {
            StmtKind::Expr(e) => vec![e],
            StmtKind::Decl {
                init: Some(Init::Expr(e)),
                ..
            } => vec![e],
            _ => Vec::new(),
        };
        for e in exprs {
            // A trip's store `b[x + rest] = v`.
            let mut reads_from = e;
            if let ExprKind::Assign { op: None, lhs, rhs } = &e.kind {
                if let ExprKind::Index(base, index) = &strip(lhs).kind {
                    if let ExprKind::Var(b) = strip(base).kind {
                        if let (Some(elem), Some(rest)) = (pointee(b), split_x(index, x)) {
                            if uses(b) == 1
                                && wasteful.contains(&e.span)
                                && rest.as_ref().is_none_or(|r| invariant(r, x, assigned))
                            {
                                out.push(Staged {
                                    array: b,
                                    key: rest_key(m, f, rest.as_ref()),
                                    rest: rest.unwrap_or_else(|| crate::walk::lit(0, e.span)),
                                    elem,
                                    store: true,
                                });
                            }
                        }
                    }
                }
                reads_from = rhs;
            }
            visit_guarded(reads_from, &mut |r, guarded| {
                let ExprKind::Index(base, index) = &r.kind else {
                    return;
                };
                let ExprKind::Var(a) = strip(base).kind else {
                    return;
                };
                let (Some(elem), Some(rest)) = (pointee(a), split_x(index, x)) else {
                    return;
                };
                if guarded
                    || !wasteful.contains(&r.span)
                    || !rest.as_ref().is_none_or(|r| invariant(r, x, assigned))
                    || super::hoist::stored_anywhere(f, a)
                    || !keeps(m, f, the_loop, a, &[])
                {
                    return;
                }
                let key = rest_key(m, f, rest.as_ref());
                if out.iter().any(|s| s.array == a && s.key == key) {
                    return;
                }
                out.push(Staged {
                    array: a,
                    key,
                    rest: rest.unwrap_or_else(|| crate::walk::lit(0, r.span)),
                    elem,
                    store: false,
                });
            });
        }
    }
    // An array both stored and read in the walk is not staged.
    let stored: Vec<VarId> = out.iter().filter(|s| s.store).map(|s| s.array).collect();
    out.retain(|s| s.store || !stored.contains(&s.array));
    out
}

struct Plan<'a> {
    place: &'a Placement,
    loop_path: &'a Path,
    header: &'a Header,
    staged: &'a [Staged],
    threads: u64,
    chunk: u64,
}

/// Rewrites `f` (the original `orig` of `module`) as the plan says.
fn rewrite(f: &mut Function, module: &Module, orig: &Function, p: &Plan) -> Option<()> {
    use hone_ir::build::{
        arith, assign_stmt, builtin, compare, conv, if_stmt, index, logic, mk, syncthreads, var,
    };
    let span = orig.body.get(p.place.top)?.span;
    let lit = |v: u64| hone_ir::build::lit(v, span);
    let int = Type::INT;
    let decl = |v: VarId, init: Option<Expr>| Stmt {
        kind: StmtKind::Decl {
            var: v,
            init: init.map(Init::Expr),
        },
        span,
    };
    let add = |f: &mut Function, base: &str, ty: Type, kind: VarKind| {
        let name = free_name(f, base);
        f.add_var(Var::new(name, ty, kind, span))
    };
    let array_of = |elem: Type, len: u64| Type::Array(Box::new(elem), ArrayLen::Const(len));
    let for_stmt = |init: Vec<Stmt>, cond: Expr, step: Expr, body: Vec<Stmt>| Stmt {
        kind: StmtKind::For {
            init,
            cond: Some(cond),
            step: Some(step),
            body,
        },
        span,
    };
    let add_to = |target: Expr, amount: Expr| {
        let ty = target.ty.clone();
        mk(
            ExprKind::Assign {
                op: Some(BinaryOp::Add),
                lhs: Box::new(target),
                rhs: Box::new(conv(amount, &ty)),
            },
            ty,
            span,
        )
    };

    // The thread's place in the block and the block's size.
    let b = |x: Builtin| hone_ir::build::cast(builtin(x, span), &int);
    let tid_init = arith(
        BinaryOp::Add,
        b(Builtin::ThreadIdx(Dim::X)),
        arith(
            BinaryOp::Mul,
            b(Builtin::BlockDim(Dim::X)),
            arith(
                BinaryOp::Add,
                b(Builtin::ThreadIdx(Dim::Y)),
                arith(
                    BinaryOp::Mul,
                    b(Builtin::BlockDim(Dim::Y)),
                    b(Builtin::ThreadIdx(Dim::Z)),
                ),
            ),
        ),
    );
    let tid = add(f, "hone_tid", int.clone(), VarKind::Local);
    let on_ty = array_of(Type::BOOL, p.threads);
    let on = add(f, "hone_on", on_ty.clone(), VarKind::Shared);
    let act = add(f, "hone_act", Type::BOOL, VarKind::Local);
    let mut rows = Vec::new();
    let mut tiles = Vec::new();
    for (i, s) in p.staged.iter().enumerate() {
        let Type::Pointer(ptr) = orig.var(s.array).ty.clone() else {
            return None;
        };
        let mut ptr = *ptr;
        ptr.restrict = false;
        let row_ty = array_of(Type::Pointer(Box::new(ptr)), p.threads);
        let row = add(
            f,
            &format!("{TILE_ROWS}{i}"),
            row_ty.clone(),
            VarKind::Shared,
        );
        rows.push((row, row_ty));
        let tile_ty = array_of(array_of(s.elem.clone(), p.chunk + 1), p.threads);
        let tile = add(
            f,
            &format!("hone_tile{i}"),
            tile_ty.clone(),
            VarKind::Shared,
        );
        tiles.push((tile, tile_ty));
    }
    let x_ty = p.header.ty.clone();
    let x0 = add(f, "hone_x0", x_ty.clone(), VarKind::Local);
    let k = add(f, "hone_k", int.clone(), VarKind::Local);
    let r0 = add(f, "hone_r0", int.clone(), VarKind::Local);
    let m_var = add(f, "hone_m", int.clone(), VarKind::Local);
    // A thread's values of the next chunk, one array per staged read.
    let mut values = std::collections::HashMap::new();
    for (i, s) in p.staged.iter().enumerate().filter(|(_, s)| !s.store) {
        let ty = array_of(s.elem.clone(), p.chunk);
        let held = add(f, &format!("hone_next{i}"), ty.clone(), VarKind::Local);
        values.insert(i, (held, ty));
    }

    let v = |id: VarId, ty: &Type| var(id, ty, span);
    let tid_e = || v(tid, &int);
    let x0_e = || v(x0, &x_ty);
    let x_e = || v(p.header.x, &x_ty);
    let act_e = || v(act, &Type::BOOL);
    let on_at = |i: Expr| index(v(on, &on_ty), i);

    // Before the walk: the guard, and each thread's rows.
    let truth = mk(ExprKind::BoolLit(true), Type::BOOL, span);
    let mut stmts = p.place.before.clone();
    stmts.extend([
        decl(
            act,
            Some(conv(p.place.guard.clone().unwrap_or(truth), &Type::BOOL)),
        ),
        assign_stmt(on_at(tid_e()), act_e(), span),
    ]);
    for (s, (row, row_ty)) in p.staged.iter().zip(&rows) {
        let array_ty = orig.var(s.array).ty.clone();
        let elem = index(v(s.array, &array_ty), s.rest.clone());
        let ptr_ty = match row_ty {
            Type::Array(t, _) => (**t).clone(),
            _ => return None,
        };
        let addr = mk(ExprKind::AddrOf(Box::new(elem)), ptr_ty, span);
        stmts.push(assign_stmt(index(v(*row, row_ty), tid_e()), addr, span));
    }
    if !p.header.declared {
        stmts.push(if_stmt(
            act_e(),
            vec![assign_stmt(x_e(), p.header.lo.clone(), span)],
            span,
        ));
    }

    // The copies: thread `tid` takes column `k = tid % chunk` of rows
    // `r0 + passes m` (`r0 = tid / chunk`, `passes` the rows the block
    // covers at once), so `chunk` consecutive threads read a row's chunk.
    let passes = p.threads / p.chunk;
    let row_at = || {
        let step = match passes {
            1 => v(m_var, &int),
            n => arith(BinaryOp::Mul, lit(n), v(m_var, &int)),
        };
        arith(BinaryOp::Add, v(r0, &int), step)
    };
    // `start + k`, or `k` from 0.
    let plus_k = |start: Expr| match crate::walk::int_value(&start) {
        Some(0) => v(k, &int),
        _ => arith(BinaryOp::Add, start, v(k, &int)),
    };
    let in_range = |start: Expr| {
        logic(
            BinaryOp::LogicAnd,
            compare(BinaryOp::Lt, plus_k(start), p.header.hi.clone()),
            on_at(row_at()),
        )
    };
    // A loop over the `chunk` rows a thread copies: a constant trip count,
    // which the compiler unrolls, its values then kept in registers.
    let per_row = |body: Vec<Stmt>| {
        for_stmt(
            vec![decl(m_var, Some(lit(0)))],
            compare(BinaryOp::Lt, v(m_var, &int), lit(p.chunk)),
            mk(
                ExprKind::IncDec {
                    increment: true,
                    prefix: false,
                    target: Box::new(v(m_var, &int)),
                },
                int.clone(),
                span,
            ),
            body,
        )
    };
    let value_at = |i: usize| {
        let (held, held_ty) = &values[&i];
        index(v(*held, held_ty), v(m_var, &int))
    };
    let cell_at = |i: usize| {
        let (tile, tile_ty) = &tiles[i];
        index(index(v(*tile, tile_ty), row_at()), v(k, &int))
    };
    let global_at = |i: usize, start: Expr| {
        let (row, row_ty) = &rows[i];
        index(index(v(*row, row_ty), row_at()), plus_k(start))
    };
    let loading: Vec<usize> = (0..p.staged.len())
        .filter(|i| !p.staged[*i].store)
        .collect();
    let storing: Vec<usize> = (0..p.staged.len()).filter(|i| p.staged[*i].store).collect();
    // The reads of the chunk at `start` into registers.
    let fetch = |start: &dyn Fn() -> Expr| {
        let moves = loading
            .iter()
            .map(|i| assign_stmt(value_at(*i), global_at(*i, start()), span))
            .collect();
        per_row(vec![if_stmt(in_range(start()), moves, span)])
    };
    // The trips of one chunk, on the tiles.
    let StmtKind::For {
        cond, step, body, ..
    } = &stmt_at(&orig.body, p.loop_path)?.kind
    else {
        return None;
    };
    let mut trips = body.clone();
    let staged_at = |e: &Expr| -> Option<usize> {
        let ExprKind::Index(base, idx) = &e.kind else {
            return None;
        };
        let ExprKind::Var(a) = strip(base).kind else {
            return None;
        };
        let key = rest_key(module, orig, split_x(idx, p.header.x)?.as_ref());
        p.staged.iter().position(|s| s.array == a && s.key == key)
    };
    crate::walk::rewrite_block(&mut trips, &mut |x| {
        if let Some(i) = staged_at(x) {
            let (tile, tile_ty) = &tiles[i];
            *x = index(
                index(v(*tile, tile_ty), tid_e()),
                arith(BinaryOp::Sub, x_e(), x0_e()),
            );
        }
    });
    let inner_init = if p.header.declared {
        decl(p.header.x, Some(x0_e()))
    } else {
        assign_stmt(x_e(), x0_e(), span)
    };
    let inner = for_stmt(
        vec![inner_init],
        logic(
            BinaryOp::LogicAnd,
            cond.clone()?,
            compare(
                BinaryOp::Lt,
                x_e(),
                arith(BinaryOp::Add, x0_e(), lit(p.chunk)),
            ),
        ),
        step.clone()?,
        trips,
    );
    let loads = !loading.is_empty();
    let stores = !storing.is_empty();
    // The first chunk's reads before the walk, each next chunk's while the
    // trips of the one before run.
    stmts.push(syncthreads(span));
    if loads {
        let zero = loading
            .iter()
            .map(|i| {
                let elem = p.staged[*i].elem.clone();
                assign_stmt(value_at(*i), conv(lit(0), &elem), span)
            })
            .collect();
        stmts.push(per_row(zero));
        stmts.push(fetch(&|| conv(p.header.lo.clone(), &x_ty)));
    }
    let mut chunk_body = vec![syncthreads(span)];
    if loads {
        let fill = loading
            .iter()
            .map(|i| assign_stmt(cell_at(*i), value_at(*i), span))
            .collect();
        chunk_body.push(per_row(fill));
        chunk_body.push(syncthreads(span));
        chunk_body.push(fetch(&|| arith(BinaryOp::Add, x0_e(), lit(p.chunk))));
    }
    chunk_body.push(if_stmt(act_e(), vec![inner], span));
    if stores {
        chunk_body.push(syncthreads(span));
        let out = storing
            .iter()
            .map(|i| assign_stmt(global_at(*i, x0_e()), cell_at(*i), span))
            .collect();
        chunk_body.push(per_row(vec![if_stmt(in_range(x0_e()), out, span)]));
    }
    stmts.push(for_stmt(
        vec![decl(x0, Some(conv(p.header.lo.clone(), &x_ty)))],
        compare(BinaryOp::Lt, x0_e(), p.header.hi.clone()),
        add_to(x0_e(), lit(p.chunk)),
        chunk_body,
    ));
    if stores {
        stmts.push(syncthreads(span));
    }
    if !p.place.after.is_empty() {
        stmts.push(if_stmt(act_e(), p.place.after.clone(), span));
    }
    f.body.splice(p.place.top..=p.place.top, stmts);

    let mut decls = vec![
        decl(tid, Some(tid_init)),
        decl(k, Some(arith(BinaryOp::Rem, tid_e(), lit(p.chunk)))),
        decl(r0, Some(arith(BinaryOp::Div, tid_e(), lit(p.chunk)))),
        decl(on, None),
    ];
    for ((row, _), (tile, _)) in rows.iter().zip(&tiles) {
        decls.push(decl(*row, None));
        decls.push(decl(*tile, None));
    }
    for i in &loading {
        decls.push(decl(values[i].0, None));
    }
    f.body.splice(0..0, decls);
    Some(())
}

/// Makes the kernel stop with a trap when launched with another number of
/// threads a block than the tiles have rows (the copies count on it).
fn guard_threads(m: &mut Module, kernel: &str, threads: u64) -> Option<()> {
    use hone_ir::build::{arith, builtin, compare, if_stmt, lit, mk};
    let i = m.functions.iter().position(|f| f.name == kernel)?;
    let f = &mut m.functions[i];
    let span = f.body.first().map(|s| s.span).unwrap_or_default();
    let dim = |d: Dim| builtin(Builtin::BlockDim(d), span);
    let size = arith(
        BinaryOp::Mul,
        arith(BinaryOp::Mul, dim(Dim::X), dim(Dim::Y)),
        dim(Dim::Z),
    );
    let trap = Stmt {
        kind: StmtKind::Expr(mk(
            ExprKind::Intrinsic(Intrinsic::Trap, Vec::new()),
            Type::Void,
            span,
        )),
        span,
    };
    let check = if_stmt(
        compare(BinaryOp::Ne, size, lit(threads, span)),
        vec![trap],
        span,
    );
    f.body.insert(0, check);
    Some(())
}
