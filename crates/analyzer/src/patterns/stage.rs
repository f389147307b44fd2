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
//! consecutive elements), wait, and then each thread runs its
//! trips of the chunk reading its own tile row. Stores of the walk go to a
//! tile the same way and are copied out, row by row, after the chunk. Each
//! thread's row is named by a pointer it puts in shared memory before the
//! walk (`&a[row * w]`), so a thread can copy another's row.
//!
//! Every thread of the block must reach the walk together: a walk at the
//! top of the kernel, or of a helper the kernel calls once at its top, maybe
//! under an `if` (after declarations that read no memory, which every
//! thread then makes; what follows the walk in it runs under the guard) or
//! after `if (c) return;` statements (what follows the walk then runs for
//! the threads that stayed). Threads that fail the guard or left take part
//! in the copies, and their rows are skipped. The bounds must be the
//! block's (made of parameters), the loop variable 32 or 64 bits wide, and
//! the trips must not leave the walk early, wait at a barrier or call what
//! writes memory. A staged read must run on every trip (not under `?:`,
//! `&&`, `||` or an `if`), so the copy reads nothing the original did not,
//! of an array the function stores nowhere and names no other way (for a
//! helper, one the kernel passes no second pointer into); a staged store
//! must be the walk's only use of its array. Other parameters are taken not
//! to point into the staged rows, as `__restrict__` would say. The tiles
//! are sized for the analysed block, within the shared memory the module
//! leaves; another block stops with a trap.

use std::collections::HashMap;

use hone_emulator::AccessKind;
use hone_ir::path::{each_stmt, find_span, stmt_at, Child, Path};
use hone_ir::{
    AddressSpace, ArrayLen, BinaryOp, Builtin, Dim, Expr, ExprKind, FuncId, Function, Init,
    Intrinsic, Module, Stmt, StmtKind, Type, Var, VarId, VarKind,
};

use super::loops::{
    assigned_in, free_name, keeps, leaves_only_at_end, loop_around, trap_first, Kept,
};
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
    if assigned_in(body).contains(&header.x)
        || !plain_trips(module, body)
        || !fresh_names(f, &place.before)
    {
        return None;
    }
    // The walk's bounds are the block's: made of parameters (a helper's, of
    // arguments made of the kernel's) and block-wide builtins.
    let kept = Kept::of(f);
    let kernel_kept = Kept::of(kernel.func);
    let not_thread = |b: Builtin| !matches!(b, Builtin::ThreadIdx(_));
    let from_kernel = reached_by_all(kernel, home)?;
    let block_wide = |e: &Expr| {
        kept.made_of_params(e, f, false, &not_thread, &|_| false)
            && from_kernel.as_ref().is_none_or(|args| {
                params_block_wide((kernel.func, &kernel_kept), f, e, &kept, args)
            })
    };
    if !block_wide(&header.lo) || !block_wide(&header.hi) {
        return None;
    }

    // Variables the trips assign or declare (a pointer or offset declared
    // in a trip is not there before the walk).
    let mut assigned = assigned_in(body);
    each_stmt(body, &mut |st, _| {
        if let StmtKind::Decl { var, .. } = st.kind {
            assigned.insert(var);
        }
    });
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
    if !apart(
        (kernel.func, &kernel_kept),
        (f, &kept),
        body,
        &staged,
        from_kernel.as_deref(),
    ) {
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
    let budget = SHARED_BUDGET
        .min(SHARED_LIMIT.saturating_sub(
            shared_in_use(module) + kernel.spec.launch.config.dynamic_shared_bytes,
        ));
    let chunk = CHUNKS.into_iter().find(|c| {
        threads % c == 0
            && reads * c <= REGISTERS
            && tiles * threads * (c + 1) * elem_bytes + tiles * threads * 8 + threads <= budget
    })?;

    // A walk shorter than a chunk at the analysed launch gains nothing the
    // copy does not cost.
    if trips_at_launch(
        kernel,
        &kernel_kept,
        (f, &kept),
        from_kernel.as_deref(),
        &header,
    )
    .is_some_and(|t| t < chunk as i64)
    {
        return None;
    }

    let mut m = module.clone();
    let names: Vec<String> = staged.iter().map(|s| f.var(s.array).name.clone()).collect();
    let row_names = rewrite(
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
             tile, {chunk} consecutive threads a row (runs of consecutive elements), wait, and each thread runs \
             its trips of the chunk on its own tile row; stores are copied out the same way after \
             the chunk. Each thread names its row by a pointer it puts in shared memory first. \
             The trips and their order are unchanged, and the data layout too. It assumes, as the \
             compiled loop cannot, that no store of the walk writes the rows it reads through \
             another parameter (as `__restrict__` on them would say). The \
             tiles are sized for blocks of {threads} threads, as in this launch: launched with \
             others, the kernel stops with a trap. With one or two blocks an SM, each chunk waits \
             for its loads: time it at your size (`--measure`)."
        ),
        module: m,
        layouts: Vec::new(),
        moved_to: Some(row_names.get(staged_index(&staged, &site_key)?)?.clone()),
    })
}

/// The walk's trips at the analysed launch, where its bounds can be
/// evaluated there (a helper's parameters replaced by the kernel's
/// arguments).
fn trips_at_launch(
    kernel: &Ctx,
    kernel_kept: &Kept,
    (f, kept): (&Function, &Kept),
    args: Option<&[Expr]>,
    header: &Header,
) -> Option<i64> {
    let span = header.hi.span;
    let count = hone_ir::build::mk(
        ExprKind::Binary(
            BinaryOp::Sub,
            Box::new(header.hi.clone()),
            Box::new(header.lo.clone()),
        ),
        Type::Scalar(hone_ir::Scalar::I64),
        span,
    );
    let mut e = crate::walk::inline_locals(&count, &kept.inits)?;
    if let Some(args) = args {
        crate::walk::rewrite_expr(&mut e, &mut |x| {
            if let ExprKind::Var(v) = x.kind {
                if let Some(i) = f.params.iter().position(|p| *p == v) {
                    if let Some(a) = args.get(i) {
                        *x = a.clone();
                    }
                }
            }
        });
        e = crate::walk::inline_locals(&e, &kernel_kept.inits)?;
    }
    let launch = &kernel.spec.launch;
    crate::shape::eval_uniform(&e, kernel.func, &launch.args, &launch.config)
}

/// The row pointers are named `hone_rows0`, `hone_rows1`, ... where free.
const TILE_ROWS: &str = "hone_rows";
/// Static shared memory a block may declare.
const SHARED_LIMIT: u64 = 48 * 1024;

/// The static shared memory the module's functions declare (all of them, as
/// a bound of what the kernel's block holds).
fn shared_in_use(m: &Module) -> u64 {
    m.functions
        .iter()
        .flat_map(|f| f.vars.iter())
        .filter(|v| v.kind == VarKind::Shared)
        .map(|v| v.ty.size().unwrap_or(SHARED_LIMIT))
        .sum()
}

/// Whether the declarations moved out of the guard keep their names unique
/// in the function (none shadows another variable of the same name).
fn fresh_names(f: &Function, moved: &[Stmt]) -> bool {
    moved.iter().all(|s| match s.kind {
        StmtKind::Decl { var, .. } => {
            let name = &f.var(var).name;
            f.vars.iter().filter(|v| &v.name == name).count() == 1
        }
        _ => true,
    })
}

/// The parameter a pointer variable points into: the parameter itself
/// (never assigned), or what a local never assigned after its declaration
/// was made from (`q = p`, `q = &p[i]`, `q = p + i`). `None` for anything
/// else (a pointer read from memory, one assigned in the function).
fn root_param(f: &Function, kept: &Kept, v: VarId, depth: usize) -> Option<VarId> {
    if f.var(v).kind == VarKind::Param {
        return (!kept.assigned.contains(&v)).then_some(v);
    }
    root_of(f, kept, kept.inits.get(&v)?, depth.checked_sub(1)?)
}

fn root_of(f: &Function, kept: &Kept, e: &Expr, depth: usize) -> Option<VarId> {
    match &strip(e).kind {
        ExprKind::Var(u) => root_param(f, kept, *u, depth),
        ExprKind::AddrOf(inner) => match &strip(inner).kind {
            ExprKind::Index(base, _) => root_of(f, kept, base, depth),
            _ => None,
        },
        ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, _) if a.ty.is_pointer() => {
            root_of(f, kept, a, depth)
        }
        ExprKind::Binary(BinaryOp::Add, _, b) if b.ty.is_pointer() => root_of(f, kept, b, depth),
        ExprKind::Cast { expr, .. } if expr.ty.is_pointer() => root_of(f, kept, expr, depth),
        _ => None,
    }
}

/// How deep [`root_param`] follows locals made of locals.
const ROOT_DEPTH: usize = 8;

/// Whether the trips can reach a staged row through a second name: every
/// pointer the trips read or write through must lead to a known parameter
/// (of the kernel, through a helper's arguments), the staged arrays' apart
/// from each other's and from every other one the trips store through, and
/// no other read reaching a staged store's. Which parameters of the kernel
/// point into one buffer is the caller's to keep apart, as `__restrict__`
/// would say.
fn apart(
    kernel: (&Function, &Kept),
    (f, kept): (&Function, &Kept),
    body: &Vec<Stmt>,
    staged: &[Staged],
    args: Option<&[Expr]>,
) -> bool {
    let (kernel, kernel_kept) = kernel;
    // A helper's parameter stands for the kernel's parameter its argument
    // leads to.
    let kernel_root = |v: VarId| -> Option<VarId> {
        let p = root_param(f, kept, v, ROOT_DEPTH)?;
        match args {
            None => Some(p),
            Some(args) => {
                let i = f.params.iter().position(|q| *q == p)?;
                root_of(kernel, kernel_kept, args.get(i)?, ROOT_DEPTH)
            }
        }
    };
    let mut loads = Vec::new();
    let mut stores = Vec::new();
    for s in staged {
        match kernel_root(s.array) {
            Some(r) if s.store => stores.push(r),
            Some(r) => loads.push(r),
            None => return false,
        }
    }
    if stores.iter().any(|r| loads.contains(r)) {
        return false;
    }
    let mut sorted = stores.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != stores.len() {
        return false;
    }
    // Every access through a pointer in the trips, but the staged ones (the
    // loop's header, made of its own variable and parameters that are not
    // pointers, makes none).
    let staged_store = |e: &Expr| {
        staged.iter().any(|s| {
            s.store
                && matches!(&strip(e).kind, ExprKind::Index(b, _)
                    if matches!(strip(b).kind, ExprKind::Var(v) if v == s.array))
        })
    };
    let mut ok = true;
    hone_ir::path::each_expr(body, &mut |e, _, _| match &e.kind {
        ExprKind::Assign { lhs: t, .. } | ExprKind::IncDec { target: t, .. } => {
            if staged_store(t) {
                return;
            }
            if let Some((v, true)) = super::loops::place_root(t) {
                if !matches!(f.var(v).ty, Type::Array(..)) {
                    ok &=
                        kernel_root(v).is_some_and(|r| !loads.contains(&r) && !stores.contains(&r));
                }
            } else if super::loops::place_root(t).is_none() {
                ok = false;
            }
        }
        ExprKind::Index(base, _) | ExprKind::Deref(base) => {
            if let ExprKind::Var(v) = strip(base).kind {
                if f.var(v).ty.is_pointer()
                    && !stores.is_empty()
                    && !staged.iter().any(|s| s.store && s.array == v)
                {
                    ok &= kernel_root(v).is_some_and(|r| !stores.contains(&r));
                }
            }
        }
        _ => {}
    });
    ok
}

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
    /// The conditions of `if (c) return;` statements before the walk.
    exits: Vec<Expr>,
}

fn placement(body: &[Stmt], loop_path: &Path) -> Option<Placement> {
    match loop_path.as_slice() {
        [(Child::Root, i)] => Some(Placement {
            top: *i,
            guard: None,
            before: Vec::new(),
            after: Vec::new(),
            exits: early_exits(body, *i)?,
        }),
        [(Child::Root, i), (Child::Then, at)] => match &body.get(*i)?.kind {
            StmtKind::If {
                cond,
                then,
                els: None,
            } if is_pure(cond) => {
                let before = then[..*at].to_vec();
                if !before.iter().all(memory_free_decl) {
                    return None;
                }
                Some(Placement {
                    top: *i,
                    guard: Some(cond.clone()),
                    before,
                    after: then[at + 1..].to_vec(),
                    exits: early_exits(body, *i)?,
                })
            }
            _ => None,
        },
        _ => None,
    }
}

/// A declaration whose value reads no memory, which a thread that would
/// not have reached it can make harmlessly.
fn memory_free_decl(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Decl { init: None, .. } => true,
        StmtKind::Decl {
            init: Some(Init::Expr(e)),
            ..
        } => reads_no_memory(e),
        _ => false,
    }
}

/// Threads that leave before the walk: the conditions of `if (c) return;`
/// statements at the top of the function before it, in order, where
/// nothing but declarations that read no memory comes between the first and
/// the walk. `None` where a `return` stands anywhere else before the walk.
fn early_exits(body: &[Stmt], top: usize) -> Option<Vec<Expr>> {
    let mut exits = Vec::new();
    for s in &body[..top] {
        if let (true, StmtKind::If { cond, .. }) = (is_exit(s), &s.kind) {
            exits.push(cond.clone());
            continue;
        }
        let mut returns = false;
        each_stmt(&vec![s.clone()], &mut |x, _| {
            returns |= matches!(x.kind, StmtKind::Return(_));
        });
        if returns || (!exits.is_empty() && !memory_free_decl(s)) {
            return None;
        }
    }
    Some(exits)
}

/// `if (c) return;`, `c` pure.
fn is_exit(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::If { cond, then, els: None }
        if is_pure(cond)
            && matches!(then.as_slice(), [Stmt { kind: StmtKind::Return(None), .. }]))
}

/// Pure, reading no memory (no element, dereference, file-scope variable or
/// call), and dividing only by non-zero constants.
fn reads_no_memory(e: &Expr) -> bool {
    let mut ok = is_pure(e);
    visit_expr(e, &mut |x| match &x.kind {
        ExprKind::Index(..) | ExprKind::Deref(..) | ExprKind::Call(..) | ExprKind::Global(_) => {
            ok = false
        }
        // A thread that would not have reached it may divide by zero.
        ExprKind::Binary(BinaryOp::Div | BinaryOp::Rem, _, d) => {
            ok &= crate::walk::int_value(d).is_some_and(|v| v != 0)
        }
        _ => {}
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
        // 32 or 64 bits: the chunk loop counts in `x`'s type, and a check
        // before the walk keeps a 32-bit count from wrapping.
        if !ty.scalar().is_some_and(|s| s.is_integer() && s.size() >= 4)
            || f.var(x).kind != VarKind::Local
        {
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

/// No `break`, `continue` or `return` in the trips, no barrier, warp-wide
/// operation or fence (the staged copies put barriers around them), and
/// calls only of functions that write nothing through their parameters and
/// wait at no barrier.
fn plain_trips(module: &Module, body: &Vec<Stmt>) -> bool {
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
        // A call may wait at a barrier or write memory a staged row holds.
        if let ExprKind::Call(g, _) = e.kind {
            ok &= super::loops::writes_through(module, g, super::loops::CALL_DEPTH)
                .is_some_and(|w| w.is_empty());
        }
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
    if calls != 1 || !leaves_only_at_end(&kernel.func.body) {
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
    (kernel, kernel_kept): (&Function, &Kept),
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

/// Whether `rest` is the same on every trip, and safe to compute before the
/// walk in every thread: pure, reading no memory and no variable the trips
/// assign or declare, dividing only by non-zero constants.
fn invariant(rest: &Expr, x: VarId, assigned: &std::collections::HashSet<VarId>) -> bool {
    let mut vars = Vec::new();
    hone_ir::path::vars_read(rest, &mut vars);
    reads_no_memory(rest) && vars.iter().all(|v| *v != x && !assigned.contains(v))
}

/// Whether `array[x + rest]` may be read as `(&array[rest])[x]`: the index
/// is signed or 64 bits wide, or, for a narrower unsigned index, `rest` is
/// made of unsigned variables and literals by `+` and `*` only (where
/// `x + rest` would wrap in 32 bits, `&array[rest]` would not).
fn splits_without_wrap(f: &Function, index: &Expr, rest: Option<&Expr>) -> bool {
    let narrow_unsigned = index
        .ty
        .scalar()
        .is_some_and(|s| !s.is_signed() && s.size() < 8);
    let (true, Some(r)) = (narrow_unsigned, rest) else {
        return true;
    };
    let mut ok = true;
    visit_expr(r, &mut |e| match &e.kind {
        ExprKind::Var(v) => ok &= f.var(*v).ty.scalar().is_some_and(|s| !s.is_signed()),
        ExprKind::IntLit(_) | ExprKind::Cast { .. } => {}
        ExprKind::Binary(BinaryOp::Add | BinaryOp::Mul, ..) => {}
        _ => ok = false,
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
    body: &Vec<Stmt>,
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
    // Uses of each variable in the trips (the loop's header, made of its
    // own variable and parameters that are not pointers, names no array).
    let mut uses: HashMap<VarId, usize> = HashMap::new();
    hone_ir::path::each_expr(body, &mut |e, _, _| {
        if let ExprKind::Var(v) = e.kind {
            *uses.entry(v).or_default() += 1;
        }
    });
    let uses = |v: VarId| uses.get(&v).copied().unwrap_or(0);
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
                                && !assigned.contains(&b)
                                && wasteful.contains(&e.span)
                                && splits_without_wrap(f, index, rest.as_ref())
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
                    || assigned.contains(&a)
                    || !wasteful.contains(&r.span)
                    || !splits_without_wrap(f, index, rest.as_ref())
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
/// Returns the names of the row pointers, one per staged access.
fn rewrite(f: &mut Function, module: &Module, orig: &Function, p: &Plan) -> Option<Vec<String>> {
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
    // The chunk's first column, of `x`'s type; the check before the walk
    // keeps `x0 + 2 chunk` from wrapping.
    let wide = x_ty.clone();
    let x0 = add(f, "hone_x0", wide.clone(), VarKind::Local);
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
    let x0_e = || v(x0, &wide);
    let x_e = || v(p.header.x, &x_ty);
    let act_e = || v(act, &Type::BOOL);
    let on_at = |i: Expr| index(v(on, &on_ty), i);

    // Before the walk: the guard, and each thread's rows.
    // A thread stays unless it left before the walk (testing the exits in
    // order), and walks its row if it stays and passes the guard: what
    // follows the walk runs for those that stayed.
    let not = |c: &Expr| {
        mk(
            ExprKind::Unary(
                hone_ir::UnaryOp::Not,
                Box::new(conv(c.clone(), &Type::BOOL)),
            ),
            Type::BOOL,
            span,
        )
    };
    let stays = p
        .place
        .exits
        .iter()
        .map(not)
        .reduce(|a, b| logic(BinaryOp::LogicAnd, a, b));
    let stay = stays
        .as_ref()
        .map(|_| add(f, "hone_stay", Type::BOOL, VarKind::Local));
    let walks = match (stay, &p.place.guard) {
        (Some(st), Some(g)) => logic(
            BinaryOp::LogicAnd,
            v(st, &Type::BOOL),
            conv(g.clone(), &Type::BOOL),
        ),
        (Some(st), None) => v(st, &Type::BOOL),
        (None, Some(g)) => conv(g.clone(), &Type::BOOL),
        (None, None) => mk(ExprKind::BoolLit(true), Type::BOOL, span),
    };
    let mut stmts = p.place.before.clone();
    // Rows of 32-bit columns within two chunks of the type's largest value
    // would make the chunk's columns wrap: the kernel stops there instead.
    let limit = x_ty
        .scalar()
        .and_then(|sc| match (sc.size(), sc.is_signed()) {
            (4, true) => Some(i32::MAX as u64),
            (4, false) => Some(u32::MAX as u64),
            _ => None,
        });
    if let Some(max) = limit {
        stmts.push(if_stmt(
            compare(
                BinaryOp::Gt,
                hone_ir::build::cast(p.header.hi.clone(), &x_ty),
                lit(max - 2 * p.chunk),
            ),
            vec![hone_ir::build::trap(span)],
            span,
        ));
    }
    if let (Some(st), Some(init)) = (stay, stays) {
        stmts.push(decl(st, Some(init)));
    }
    stmts.extend([
        decl(act, Some(walks)),
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
    // An access of a staged array at `x + rest`, `rest` made of the same
    // variables (none declared in the trips, where a name may be reused).
    let mut declared = Vec::new();
    each_stmt(body, &mut |st, _| {
        if let StmtKind::Decl { var, .. } = st.kind {
            declared.push(var);
        }
    });
    let staged_at = |e: &Expr| -> Option<usize> {
        let ExprKind::Index(base, idx) = &e.kind else {
            return None;
        };
        let ExprKind::Var(a) = strip(base).kind else {
            return None;
        };
        let rest = split_x(idx, p.header.x)?;
        let mut vars = Vec::new();
        if let Some(r) = &rest {
            hone_ir::path::vars_read(r, &mut vars);
        }
        if vars.iter().any(|v| declared.contains(v)) {
            return None;
        }
        let key = rest_key(module, orig, rest.as_ref());
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
    let x_from_x0 = x0_e;
    let inner_init = if p.header.declared {
        decl(p.header.x, Some(x_from_x0()))
    } else {
        assign_stmt(x_e(), x_from_x0(), span)
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
        // Only for a walk with trips: then `lo` is below `hi`, and `lo + k`
        // cannot wrap.
        stmts.push(if_stmt(
            compare(
                BinaryOp::Lt,
                conv(p.header.lo.clone(), &wide),
                p.header.hi.clone(),
            ),
            vec![fetch(&|| conv(p.header.lo.clone(), &wide))],
            span,
        ));
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
        vec![decl(x0, Some(conv(p.header.lo.clone(), &wide)))],
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
    if p.place.exits.is_empty() {
        f.body.splice(p.place.top..=p.place.top, stmts);
    } else {
        // The early exits go (every thread now reaches the walk), and what
        // follows the walk runs for the threads that stayed.
        let rest: Vec<Stmt> = f.body.drain(p.place.top + 1..).collect();
        f.body.truncate(p.place.top);
        f.body.retain(|s| !is_exit(s));
        f.body.extend(stmts);
        if !rest.is_empty() {
            f.body.push(if_stmt(v(stay?, &Type::BOOL), rest, span));
        }
    }

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
    Some(
        rows.iter()
            .map(|(row, _)| f.var(*row).name.clone())
            .collect(),
    )
}

/// Makes the kernel stop with a trap when launched with another number of
/// threads a block than the tiles have rows (the copies count on it).
fn guard_threads(m: &mut Module, kernel: &str, threads: u64) -> Option<()> {
    use hone_ir::build::{arith, builtin, compare, lit};
    trap_first(m, kernel, |span| {
        let dim = |d: Dim| builtin(Builtin::BlockDim(d), span);
        let size = arith(
            BinaryOp::Mul,
            arith(BinaryOp::Mul, dim(Dim::X), dim(Dim::Y)),
            dim(Dim::Z),
        );
        compare(BinaryOp::Ne, size, lit(threads, span))
    })
}
