//! A register queue along the walk: a load that reads what another load of
//! the same read-only buffer read one step of the walk earlier (`in[c]`
//! reading what `in[t]` read, `in[b]` what `in[c]` read, as a 7-point
//! stencil walks z) takes that value from a register instead of memory.
//!
//! Which load reads what another read a step before is seen by running the
//! chunked kernel in the emulator, each thread walking its whole column;
//! the rewritten kernel checks it again at run time: each source keeps the
//! index and value of its last load, and a load takes the value only where
//! its own index equals the one kept. So the kernel computes what it
//! computed before for any input, as long as nothing writes the buffer
//! while it runs (no store of the kernel goes to it; the template's buffers
//! do not overlap). Values pass from one step to the next only: a source's
//! load of this step is kept in a second set of registers, moved into the
//! first at the end of the step, so a load and its source may share a
//! statement (whose operands C leaves unordered).

use std::collections::HashMap;

use hone_emulator::{AccessKind, Buffer, KernelArg, LaunchConfig, TraceSink, WarpAccess};
use hone_ir::path::{each_stmt, parent_block_mut, rewrite_exprs, Path};
use hone_ir::{
    build, visit, BinaryOp, Expr, ExprKind, Function, Init, Module, Span, Stmt, StmtKind, Type,
    Var, VarId, VarKind,
};
use hone_launch::LaunchData;

use crate::data::fill_random;
use crate::emit::DynShared;
use crate::zchunk::CHUNK_PARAM;

/// The share of a load's executions that must find its value kept by the
/// chosen source for the pair to be used.
const MIN_REUSE: f64 = 0.5;

/// A kernel with its queue, and which load takes whose value.
#[derive(Clone, Debug)]
pub struct Queued {
    pub kernel: Function,
    /// (the load, its source), as printed.
    pub pairs: Vec<(String, String)>,
}

/// Adds the queue to `f`, a chunked kernel named `name` of module `m` (its
/// last parameter the chunk length), profiled on `launch` (with `dynamic`
/// shared memory, where the kernel takes some).
pub fn queue(
    m: &Module,
    f: &Function,
    name: &str,
    launch: &LaunchData,
    dynamic: Option<&DynShared>,
) -> Result<Queued, String> {
    let walk = find_walk(f).ok_or("the kernel has no chunked walk")?;
    let loads = walk_loads(f, &walk)?;
    if loads.len() < 2 {
        return Err("the walk has fewer than two loads of a read-only buffer".into());
    }
    // The emulator runs the kernel as printed (shared arrays sized by the
    // block become dynamic there), whose loads are these in the same order.
    let mut whole = m.clone();
    let (fid, _) = whole
        .kernel(name)
        .ok_or("the kernel is not in its module")?;
    whole.functions[fid.0 as usize] = f.clone();
    let printed = crate::tunable::read_back(&whole, name)?;
    let (_, pf) = printed
        .kernel(name)
        .ok_or("the kernel does not read back")?;
    let printed_walk = find_walk(pf).ok_or("the printed kernel has no chunked walk")?;
    let printed_loads = walk_loads(pf, &printed_walk)?;
    let same = printed_loads.len() == loads.len()
        && loads.iter().zip(&printed_loads).all(|((_, a), (_, b))| {
            hone_ir::print::print_expr(m, f, a) == hone_ir::print::print_expr(&printed, pf, b)
        });
    if !same {
        return Err("the printed kernel's loads are not the kernel's".into());
    }
    let reuse = profile(&printed, pf, name, launch, dynamic, &printed_loads)?;
    // Each load's best source among the loads of the same buffer.
    let base_of = |e: &Expr| match &e.kind {
        ExprKind::Index(b, _) => match build::peel(b).kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        },
        _ => None,
    };
    let mut source_of: Vec<Option<usize>> = vec![None; loads.len()];
    for l in 0..loads.len() {
        let total = reuse.total[l].max(1) as f64;
        let best = (0..loads.len())
            .filter(|&s| s != l && base_of(&loads[s].1) == base_of(&loads[l].1))
            .max_by_key(|&s| (reuse.hits[l][s], std::cmp::Reverse(s)));
        if let Some(s) = best {
            if reuse.hits[l][s] as f64 >= MIN_REUSE * total {
                source_of[l] = Some(s);
            }
        }
    }
    if source_of.iter().all(Option::is_none) {
        return Err("no load of the walk reads what another read a step before".into());
    }
    let text = |e: &Expr| hone_ir::print::print_expr(m, f, e);
    let pairs = source_of
        .iter()
        .enumerate()
        .filter_map(|(l, s)| s.map(|s| (text(&loads[l].1), text(&loads[s].1))))
        .collect();
    Ok(Queued {
        kernel: rewrite(f, &walk, &loads, &source_of),
        pairs,
    })
}

/// The registers of one source: what the step reads (`q*`) and what this
/// step's load leaves for the next (`n*`): index, value, whether set.
#[derive(Clone, Copy)]
struct Slots {
    qi: VarId,
    qv: VarId,
    qk: VarId,
    ni: VarId,
    nv: VarId,
    nk: VarId,
}

fn rewrite(
    f: &Function,
    walk: &Path,
    loads: &[(Span, Expr)],
    source_of: &[Option<usize>],
) -> Function {
    let mut g = f.clone();
    let span = loads[0].0;
    let mut slots: HashMap<usize, Slots> = HashMap::new();
    let mut decls = Vec::new();
    let mut rotate = Vec::new();
    for s in source_of.iter().flatten() {
        if slots.contains_key(s) {
            continue;
        }
        let (ExprKind::Index(_, idx), ty) = (&loads[*s].1.kind, loads[*s].1.ty.clone()) else {
            continue;
        };
        let n = slots.len();
        let mut local =
            |name: String, ty: &Type| g.add_var(Var::new(name, ty.clone(), VarKind::Local, span));
        let it = idx.ty.clone();
        let sl = Slots {
            qi: local(format!("hone_q{n}i"), &it),
            qv: local(format!("hone_q{n}v"), &ty),
            qk: local(format!("hone_q{n}k"), &Type::BOOL),
            ni: local(format!("hone_n{n}i"), &it),
            nv: local(format!("hone_n{n}v"), &ty),
            nk: local(format!("hone_n{n}k"), &Type::BOOL),
        };
        // Set before the first step's loads, so no register is read unset.
        let no = || build::mk(ExprKind::BoolLit(false), Type::BOOL, span);
        let zero = |t: &Type| build::conv(build::lit(0, span), t);
        for (v, init) in [
            (sl.qi, zero(&it)),
            (sl.qv, zero(&ty)),
            (sl.qk, no()),
            (sl.ni, zero(&it)),
            (sl.nv, zero(&ty)),
            (sl.nk, no()),
        ] {
            decls.push(Stmt {
                kind: StmtKind::Decl {
                    var: v,
                    init: Some(Init::Expr(init)),
                },
                span,
            });
        }
        let var = |v: VarId, t: &Type| build::var(v, t, span);
        rotate.push(build::assign_stmt(var(sl.qi, &it), var(sl.ni, &it), span));
        rotate.push(build::assign_stmt(var(sl.qv, &ty), var(sl.nv, &ty), span));
        rotate.push(build::assign_stmt(
            var(sl.qk, &Type::BOOL),
            var(sl.nk, &Type::BOOL),
            span,
        ));
        slots.insert(*s, sl);
    }
    let vars = g.vars.clone();
    let ty_of = |v: VarId| vars[v.0 as usize].ty.clone();
    {
        let parent = parent_block_mut(&mut g.body, walk).expect("the walk's block");
        let at = walk.last().expect("a path").1;
        let StmtKind::For { body, .. } = &mut parent[at].kind else {
            unreachable!("the walk is a `for` loop");
        };
        rewrite_exprs(body, &mut |e| {
            let Some(l) = loads
                .iter()
                .position(|(sp, _)| *sp == e.span && matches!(e.kind, ExprKind::Index(..)))
            else {
                return false;
            };
            let ExprKind::Index(_, idx) = &e.kind else {
                return false;
            };
            let idx = (**idx).clone();
            let mut value = e.clone();
            if let Some(sl) = source_of[l].and_then(|s| slots.get(&s)) {
                let kept = build::logic(
                    BinaryOp::LogicAnd,
                    build::var(sl.qk, &Type::BOOL, span),
                    build::compare(
                        BinaryOp::Eq,
                        idx.clone(),
                        build::var(sl.qi, &ty_of(sl.qi), span),
                    ),
                );
                value = build::select(kept, build::var(sl.qv, &ty_of(sl.qv), span), value);
            }
            if let Some(sl) = slots.get(&l) {
                let set =
                    |v: VarId, x: Expr| build::assign(build::var(v, &ty_of(v), span), x, span);
                let ty = value.ty.clone();
                let yes = build::mk(ExprKind::BoolLit(true), Type::BOOL, span);
                let keep = build::mk(
                    ExprKind::Comma(Box::new(set(sl.nk, yes)), Box::new(set(sl.nv, value))),
                    ty.clone(),
                    span,
                );
                value = build::mk(
                    ExprKind::Comma(
                        Box::new(set(sl.ni, build::conv(idx, &ty_of(sl.ni)))),
                        Box::new(keep),
                    ),
                    ty,
                    span,
                );
            }
            *e = value;
            true
        });
        body.extend(rotate);
        parent.splice(at..at, decls);
    }
    g
}

/// The walk's own loads of read-only buffers (not those of loops inside
/// it), at indices with no side effects, in the order they are written.
fn walk_loads(f: &Function, walk: &Path) -> Result<Vec<(Span, Expr)>, String> {
    let StmtKind::For { body, .. } = &hone_ir::path::stmt_at(&f.body, walk)
        .ok_or("the walk is not a statement")?
        .kind
    else {
        return Err("the walk is not a `for` loop".into());
    };
    let readonly = read_only(f);
    // The walk's own loads of read-only buffers, at indices with no side effects.
    let mut loads: Vec<(Span, Expr)> = Vec::new();
    for s in body {
        if matches!(
            s.kind,
            StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }
        ) {
            continue;
        }
        let one = vec![s.clone()];
        visit::visit_block(&one, &mut |e| {
            if let ExprKind::Index(base, idx) = &e.kind {
                if let ExprKind::Var(v) = build::peel(base).kind {
                    if readonly.contains(&v)
                        && visit::is_pure(idx)
                        && e.ty.scalar().is_some()
                        && !loads.iter().any(|(sp, _)| *sp == e.span)
                    {
                        loads.push((e.span, e.clone()));
                    }
                }
            }
        });
    }
    Ok(loads)
}

/// The `for` loop whose condition names the chunk length.
fn find_walk(f: &Function) -> Option<Path> {
    let chunk = f.params.last().filter(|p| f.var(**p).name == CHUNK_PARAM)?;
    let mut found = None;
    each_stmt(&f.body, &mut |s, path| {
        if let StmtKind::For { cond: Some(c), .. } = &s.kind {
            let mut names = false;
            visit::visit_expr(c, &mut |e| {
                names |= matches!(e.kind, ExprKind::Var(v) if v == *chunk)
            });
            if names && found.is_none() {
                found = Some(path.clone());
            }
        }
    });
    found
}

/// Pointer parameters used only as the base of loads: never stored
/// through, taken the address of, passed on or moved.
fn read_only(f: &Function) -> Vec<VarId> {
    let pointers: Vec<VarId> = f
        .params
        .iter()
        .copied()
        .filter(|p| matches!(f.var(*p).ty, Type::Pointer(_)))
        .collect();
    let mut bases = HashMap::<VarId, usize>::new();
    let mut uses = HashMap::<VarId, usize>::new();
    let mut written = Vec::new();
    visit::visit_block(&f.body, &mut |e| match &e.kind {
        ExprKind::Var(v) => *uses.entry(*v).or_default() += 1,
        ExprKind::Index(b, _) => {
            if let ExprKind::Var(v) = build::peel(b).kind {
                *bases.entry(v).or_default() += 1;
            }
        }
        // Stored to, or its element's address taken (an atomic's target).
        ExprKind::Assign { lhs: target, .. }
        | ExprKind::IncDec { target, .. }
        | ExprKind::AddrOf(target) => {
            if let ExprKind::Index(b, _) = &build::peel(target).kind {
                if let ExprKind::Var(v) = build::peel(b).kind {
                    written.push(v);
                }
            }
        }
        _ => {}
    });
    pointers
        .into_iter()
        .filter(|p| !written.contains(p) && uses.get(p) == bases.get(p))
        .collect()
}

/// How often each load found its address among what its thread's loads at
/// other sites read in the step before (a step ends where a site loads
/// again), as the queue passes values on.
struct Reuse {
    spans: Vec<Span>,
    threads: HashMap<([u32; 3], [u32; 3]), Steps>,
    hits: Vec<Vec<u64>>,
    total: Vec<u64>,
}

/// One thread's addresses per site: as of the step before, and this step's.
struct Steps {
    before: Vec<Option<u64>>,
    now: Vec<Option<u64>>,
}

impl TraceSink for Reuse {
    fn warp_access(&mut self, a: &WarpAccess) {
        if a.kind != AccessKind::Load {
            return;
        }
        let Some(l) = self.spans.iter().position(|s| *s == a.span) else {
            return;
        };
        let n = self.spans.len();
        for lane in &a.lanes {
            let t = self
                .threads
                .entry((a.block, lane.thread))
                .or_insert_with(|| Steps {
                    before: vec![None; n],
                    now: vec![None; n],
                });
            if t.now[l].is_some() {
                // A new step: what this one read is what the next may reuse.
                for (b, x) in t.before.iter_mut().zip(t.now.iter_mut()) {
                    if let Some(x) = x.take() {
                        *b = Some(x);
                    }
                }
            }
            for (s, kept) in t.before.iter().enumerate() {
                if s != l && *kept == Some(lane.address) {
                    self.hits[l][s] += 1;
                }
            }
            self.total[l] += 1;
            t.now[l] = Some(lane.address);
        }
    }
}

fn profile(
    m: &Module,
    f: &Function,
    name: &str,
    launch: &LaunchData,
    dynamic: Option<&DynShared>,
    loads: &[(Span, Expr)],
) -> Result<Reuse, String> {
    let n = loads.len();
    let mut reuse = Reuse {
        spans: loads.iter().map(|(s, _)| *s).collect(),
        threads: HashMap::new(),
        hits: vec![vec![0; n]; n],
        total: vec![0; n],
    };
    // Whole columns: every step's successor is the same thread's.
    let mut config: LaunchConfig = launch.config.clone();
    let mut args = launch.args.clone();
    args.push(KernelArg::Int(1 << 30));
    if let Some(d) = dynamic {
        config.dynamic_shared_bytes = d.launch_bytes(&f.params, &config, &args)?;
    }
    let mut buffers: Vec<Buffer> = launch.buffers.clone();
    fill_random(&mut buffers, 0x3000);
    let options = hone_emulator::Options {
        parallel: false,
        warn_uninitialized_shared: false,
        ..hone_emulator::Options::default()
    };
    hone_emulator::run(
        m,
        name,
        &config,
        &args,
        &mut buffers,
        &options,
        Some(&mut reuse),
    )
    .map_err(|e| format!("{}: {e}", launch.name))?;
    Ok(reuse)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_only_names(src: &str) -> Vec<String> {
        let m = hone_frontend::parse_source("k.cu", src, &Default::default())
            .unwrap()
            .module;
        let (_, f) = m.kernel("k").unwrap();
        read_only(f)
            .into_iter()
            .map(|v| f.var(v).name.clone())
            .collect()
    }

    #[test]
    fn only_buffers_the_kernel_reads_by_index_alone_are_read_only() {
        let names = read_only_names(
            "__global__ void k(const float *a, float *b, float *c, float *d, int *e, float *g) {
                int i = threadIdx.x;
                b[i] = a[i] + a[i + 1];
                c[i] += 1.0f;
                float *p = d + 1;
                atomicAdd(&e[i], 1);
                b[i] += p[0] + g[2 * i];
            }",
        );
        assert_eq!(names, vec!["a".to_string(), "g".to_string()]);
    }
}
