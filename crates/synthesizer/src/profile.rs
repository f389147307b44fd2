//! The profile run of section 4.2.2, in hone's emulator.
//!
//! The annotated kernel (annotations taken out) is instrumented and run on
//! the profile launches with every input filled with distinct values:
//!
//! - before each statement holding a marked read, the recorded variables are
//!   stored to an extra global buffer, so the trace carries their values per
//!   thread (thread and block ids and dimensions come with every access);
//! - the marked reads get spans of their own, so their loads are recognised
//!   in the trace, value and element;
//! - every store to shared memory updates an image of each block's shared
//!   arrays, indexed by value, so a marked read's value gives the set of
//!   **all** shared indices holding it at that moment (the thesis kept only
//!   the first);
//! - for `__opt__(shared, global)`, the read becomes `(shared, global)` so
//!   both values are traced, and the variables are recorded at `__insert()`,
//!   where the copy's condition will be evaluated.
//!
//! The instrumented kernel runs statement by statement across each block
//! (see [`crate::lockstep`]), as the thesis's Kani-CUDA runs it.

use std::collections::{BTreeMap, HashMap};

use hone_emulator::{AccessKind, FaultKind, Options, TraceSink, Value, WarpAccess};
use hone_ir::{
    AddressSpace, Builtin, Expr, ExprKind, Function, Scalar, Span, Stmt, Type, Var, VarId, VarKind,
};

use crate::data::fill_distinct;
use crate::error::SynthError;
use crate::search::Table;
use crate::sites::AnnotatedKernel;
use crate::symbols::{SymKind, Symbol};
use hone_ir::build;
use hone_ir::path::{self as walk, Path};
use hone_launch::LaunchData;

/// The file index of spans that tag instrumented code.
pub const PROBE_FILE: u32 = u32::MAX;
const ROLE_READ: u32 = 1;
const ROLE_SHARED: u32 = 2;
const ROLE_GLOBAL: u32 = 3;
const ROLE_PROBE: u32 = 4;

fn tag(role: u32, id: u32, slot: u32) -> Span {
    Span {
        file: PROBE_FILE,
        line: id,
        col: (role << 16) | slot,
        end_line: 0,
        end_col: 0,
    }
}

fn untag(s: Span) -> Option<(u32, u32, u32)> {
    (s.file == PROBE_FILE).then_some((s.col >> 16, s.line, s.col & 0xffff))
}

/// A marked read to profile, with the symbols to record for it.
pub struct ReadPlan {
    pub site: usize,
    pub symbols: Vec<Symbol>,
}

/// What one profile run covers.
pub struct Plan {
    pub reads: Vec<ReadPlan>,
    /// A sleeve site to observe, with its symbols (recorded at `__insert()`).
    pub sleeve: Option<ReadPlan>,
    /// Copies already synthesized, run at `__insert()`.
    pub copies: Vec<Stmt>,
}

/// Profile of a marked read: one case per execution by a thread.
pub struct ReadProfile {
    pub table: Table,
    /// The shared arrays of the kernel, in declaration order.
    pub arrays: Vec<VarId>,
    /// `answers[a][case]`: sorted indices of array `a` holding the value read.
    pub answers: Vec<Vec<Vec<i64>>>,
}

/// Profile of a sleeve site: per case, whether the shared read differs from
/// the global one (a copy is needed).
pub struct SleeveProfile {
    pub table: Table,
    pub need: Vec<bool>,
}

pub struct Profile {
    pub reads: Vec<ReadProfile>,
    pub sleeve: Option<SleeveProfile>,
}

/// A read's profile as it is collected: symbol columns, and per shared
/// array the answers of each case.
type ReadAcc = (Vec<Vec<i64>>, Vec<Vec<Vec<i64>>>);

/// Where a symbol's value comes from in the trace.
#[derive(Clone, Copy)]
enum Src {
    Builtin(Builtin),
    Slot(usize),
}

struct Group {
    sleeve: bool,
}

/// The instrumented kernel and how to read its trace.
struct Instrumented {
    kernel: Function,
    groups: Vec<Group>,
    /// Per read plan: its probe group and where each symbol comes from.
    reads: Vec<(u32, Vec<Src>)>,
    /// For the sleeve: where each symbol comes from, and the slots holding
    /// the shared and global indices at `__insert()`.
    sleeve: Option<(Vec<Src>, usize, usize)>,
}

fn probe_store(probe: VarId, e: Expr, span: Span) -> Stmt {
    let i64t = Type::Scalar(Scalar::I64);
    let lhs = build::index(
        build::var(probe, &Type::ptr(i64t.clone()), span),
        build::lit(0, span),
    );
    let rhs = build::cast(e, &i64t);
    build::assign_stmt(lhs, rhs, span)
}

fn index_of(e: &Expr) -> Option<&Expr> {
    match &build::peel(e).kind {
        ExprKind::Index(_, i) => Some(i),
        _ => None,
    }
}

fn instrument(ak: &AnnotatedKernel, plan: &Plan) -> Instrumented {
    let mut f = ak.kernel.clone();
    let probe = f.add_var(Var::new(
        "__hone_probe",
        Type::ptr(Type::Scalar(Scalar::I64)),
        VarKind::Param,
        f.span,
    ));
    f.params.push(probe);

    for (i, rp) in plan.reads.iter().enumerate() {
        let span = ak.reads[rp.site].span;
        let mut done = false;
        walk::rewrite_exprs(&mut f.body, &mut |e| {
            if !done && e.span == span && matches!(e.kind, ExprKind::Index(..)) {
                e.span = tag(ROLE_READ, i as u32, 0);
                done = true;
                return true;
            }
            false
        });
    }
    let mut inserts: BTreeMap<Path, Vec<Stmt>> = BTreeMap::new();
    let mut groups = Vec::new();
    let mut group_of: HashMap<Path, (u32, Vec<VarId>)> = HashMap::new();
    let var_of = |s: &Symbol| match s.kind {
        SymKind::Var(v) => Some(v),
        SymKind::Builtin(_) => None,
    };
    for rp in &plan.reads {
        let path = ak.reads[rp.site].path.clone();
        let entry = group_of.entry(path).or_insert_with(|| {
            groups.push(Group { sleeve: false });
            (groups.len() as u32 - 1, Vec::new())
        });
        for v in rp.symbols.iter().filter_map(var_of) {
            if !entry.1.contains(&v) {
                entry.1.push(v);
            }
        }
    }
    let mut reads = Vec::new();
    for rp in &plan.reads {
        let (g, vars) = &group_of[&ak.reads[rp.site].path];
        let srcs = rp
            .symbols
            .iter()
            .map(|s| match s.kind {
                SymKind::Builtin(b) => Src::Builtin(b),
                SymKind::Var(v) => {
                    Src::Slot(vars.iter().position(|x| *x == v).expect("grouped above"))
                }
            })
            .collect();
        reads.push((*g, srcs));
    }
    let mut read_groups: Vec<(&Path, &(u32, Vec<VarId>))> = group_of.iter().collect();
    read_groups.sort_by_key(|(_, (g, _))| *g);

    let mut sleeve = None;
    let mut at_insert = Vec::new();
    if let (Some(sp), Some(_)) = (&plan.sleeve, &ak.insert) {
        let site = &ak.sleeves[sp.site];
        let g = groups.len() as u32;
        groups.push(Group { sleeve: true });
        let vars: Vec<VarId> = sp.symbols.iter().filter_map(var_of).collect();
        let mut slot = 0;
        for &v in &vars {
            at_insert.push(probe_store(
                probe,
                build::var(v, &f.var(v).ty, site.span),
                tag(ROLE_PROBE, g, slot),
            ));
            slot += 1;
        }
        let sidx = index_of(&site.shared).expect("a shared read").clone();
        let gidx = index_of(&site.global).expect("a global read").clone();
        at_insert.push(probe_store(probe, sidx, tag(ROLE_PROBE, g, slot)));
        at_insert.push(probe_store(probe, gidx, tag(ROLE_PROBE, g, slot + 1)));
        // Slot 0 opens a new record; with no variables it is the shared index.
        let srcs = sp
            .symbols
            .iter()
            .map(|s| match s.kind {
                SymKind::Builtin(b) => Src::Builtin(b),
                SymKind::Var(v) => Src::Slot(vars.iter().position(|x| *x == v).expect("listed")),
            })
            .collect();
        sleeve = Some((srcs, slot as usize, slot as usize + 1));
        let span = site.span;
        let mut shared = site.shared.clone();
        shared.span = tag(ROLE_SHARED, 0, 0);
        walk::rewrite_exprs(&mut f.body, &mut |e| {
            if e.span == span && matches!(e.kind, ExprKind::Index(..)) {
                let mut global = e.clone();
                global.span = tag(ROLE_GLOBAL, 0, 0);
                let ty = global.ty.clone();
                *e = build::mk(
                    ExprKind::Comma(Box::new(shared.clone()), Box::new(global)),
                    ty,
                    span,
                );
                return true;
            }
            false
        });
    }
    if let Some((ipath, _)) = &ak.insert {
        at_insert.extend(plan.copies.iter().cloned());
        if !at_insert.is_empty() {
            inserts.entry(ipath.clone()).or_default().extend(at_insert);
        }
    }
    for (path, (g, vars)) in read_groups {
        let stmts = vars.iter().enumerate().map(|(slot, &v)| {
            probe_store(
                probe,
                build::var(v, &f.var(v).ty, f.span),
                tag(ROLE_PROBE, *g, slot as u32),
            )
        });
        inserts.entry(path.clone()).or_default().extend(stmts);
    }
    for (path, stmts) in inserts.into_iter().rev() {
        let idx = path.last().expect("non-empty path").1;
        let block =
            walk::parent_block_mut(&mut f.body, &path).expect("paths come from this kernel");
        block.splice(idx..idx, stmts);
    }
    // Without lockstep (an early return some threads take) the profile
    // still holds for one-warp blocks, the thesis's setting.
    crate::lockstep::add_barriers(&mut f, &|s| {
        untag(s.span).is_some_and(|(role, _, _)| role == ROLE_PROBE)
    });
    Instrumented {
        kernel: f,
        groups,
        reads,
        sleeve,
    }
}

/// A block's shared array as seen so far, indexed by value.
#[derive(Default)]
struct Image {
    vals: Vec<Option<u64>>,
    by_val: HashMap<u64, Vec<u32>>,
}

impl Image {
    fn store(&mut self, idx: usize, key: Option<u64>) {
        if idx >= self.vals.len() {
            self.vals.resize(idx + 1, None);
        }
        if let Some(old) = self.vals[idx] {
            if let Some(v) = self.by_val.get_mut(&old) {
                v.retain(|&i| i as usize != idx);
            }
        }
        self.vals[idx] = key;
        if let Some(k) = key {
            self.by_val.entry(k).or_default().push(idx as u32);
        }
    }
}

fn key(v: &Value) -> Option<u64> {
    let x = v.as_f64();
    if x.is_nan() {
        None
    } else if x == 0.0 {
        Some(0)
    } else {
        Some(x.to_bits())
    }
}

struct Collector<'a> {
    ins: &'a Instrumented,
    grid: [u32; 3],
    block: [u32; 3],
    arrays: &'a [String],
    latest: HashMap<(u32, u64), Vec<i64>>,
    history: HashMap<u64, Vec<Vec<i64>>>,
    images: HashMap<(u64, String), Image>,
    reads: &'a mut [ReadAcc],
    pending: HashMap<u64, (Option<u64>, i64)>,
    seen: HashMap<u64, usize>,
    sleeve: &'a mut (Vec<Vec<i64>>, Vec<bool>),
    error: Option<String>,
}

impl Collector<'_> {
    fn thread_slot(&self, block: [u32; 3], t: [u32; 3]) -> u64 {
        let [gx, gy, _] = self.grid.map(u64::from);
        let [bx, by, bz] = self.block.map(u64::from);
        let bl = block[0] as u64 + gx * (block[1] as u64 + gy * block[2] as u64);
        bl * bx * by * bz + t[0] as u64 + bx * (t[1] as u64 + by * t[2] as u64)
    }

    fn builtin(&self, b: Builtin, block: [u32; 3], t: [u32; 3]) -> i64 {
        match b {
            Builtin::ThreadIdx(d) => t[d.index()] as i64,
            Builtin::BlockIdx(d) => block[d.index()] as i64,
            Builtin::BlockDim(d) => self.block[d.index()] as i64,
            Builtin::GridDim(d) => self.grid[d.index()] as i64,
            Builtin::WarpSize => 32,
        }
    }

    fn values(&self, srcs: &[Src], snap: &[i64], block: [u32; 3], t: [u32; 3]) -> Vec<i64> {
        srcs.iter()
            .map(|s| match *s {
                Src::Builtin(b) => self.builtin(b, block, t),
                Src::Slot(i) => snap.get(i).copied().unwrap_or(0),
            })
            .collect()
    }
}

fn element(a: &WarpAccess, address: u64) -> i64 {
    (address as i64 - a.array_base as i64) / a.size.max(1) as i64
}

impl TraceSink for Collector<'_> {
    fn warp_access(&mut self, a: &WarpAccess) {
        if self.error.is_some() {
            return;
        }
        if a.space == AddressSpace::Shared
            && matches!(a.kind, AccessKind::Store | AccessKind::Atomic)
        {
            let bl = self.thread_slot(a.block, [0; 3]);
            let img = self.images.entry((bl, a.array.clone())).or_default();
            for l in &a.lanes {
                let idx = element(a, l.address);
                if idx >= 0 {
                    img.store(idx as usize, key(&l.value));
                }
            }
        }
        let Some((role, id, slot)) = untag(a.span) else {
            return;
        };
        match role {
            ROLE_PROBE => {
                let sleeve = self.ins.groups.get(id as usize).is_some_and(|g| g.sleeve);
                for l in &a.lanes {
                    let t = self.thread_slot(a.block, l.thread);
                    let v = match &l.value {
                        Value::Int(v) => *v,
                        Value::UInt(v) => *v as i64,
                        other => other.as_f64() as i64,
                    };
                    let rec = if sleeve {
                        let h = self.history.entry(t).or_default();
                        if slot == 0 || h.is_empty() {
                            h.push(Vec::new());
                        }
                        h.last_mut().expect("pushed")
                    } else {
                        self.latest.entry((id, t)).or_default()
                    };
                    if rec.len() <= slot as usize {
                        rec.resize(slot as usize + 1, 0);
                    }
                    rec[slot as usize] = v;
                }
            }
            ROLE_READ => {
                let (group, srcs) = &self.ins.reads[id as usize];
                let bl = self.thread_slot(a.block, [0; 3]);
                for l in &a.lanes {
                    let t = self.thread_slot(a.block, l.thread);
                    let snap = self.latest.get(&(*group, t)).cloned().unwrap_or_default();
                    let vals = self.values(srcs, &snap, a.block, l.thread);
                    let k = key(&l.value);
                    let answers: Vec<Vec<i64>> = self
                        .arrays
                        .iter()
                        .map(|name| {
                            let mut found: Vec<i64> =
                                match (k, self.images.get(&(bl, name.clone()))) {
                                    (Some(k), Some(img)) => img
                                        .by_val
                                        .get(&k)
                                        .map(|v| v.iter().map(|&i| i as i64).collect())
                                        .unwrap_or_default(),
                                    _ => Vec::new(),
                                };
                            found.sort_unstable();
                            found
                        })
                        .collect();
                    let out = &mut self.reads[id as usize];
                    for (col, v) in out.0.iter_mut().zip(vals) {
                        col.push(v);
                    }
                    for (per_array, ans) in out.1.iter_mut().zip(answers) {
                        per_array.push(ans);
                    }
                }
            }
            ROLE_SHARED => {
                for l in &a.lanes {
                    let t = self.thread_slot(a.block, l.thread);
                    self.pending
                        .insert(t, (key(&l.value), element(a, l.address)));
                }
            }
            ROLE_GLOBAL => {
                let Some((srcs, sslot, gslot)) = &self.ins.sleeve else {
                    return;
                };
                for l in &a.lanes {
                    let t = self.thread_slot(a.block, l.thread);
                    let Some((shared, sidx)) = self.pending.remove(&t) else {
                        continue;
                    };
                    let n = self.seen.entry(t).or_default();
                    let occurrence = *n;
                    *n += 1;
                    let Some(snap) = self
                        .history
                        .get(&t)
                        .and_then(|h| h.get(occurrence))
                        .cloned()
                    else {
                        self.error = Some(format!(
                            "block {:?} thread {:?} reaches the `__opt__` more often than `__insert()`: the insertion point must run once before each read",
                            a.block, l.thread
                        ));
                        return;
                    };
                    let gidx = element(a, l.address);
                    if snap.get(*sslot) != Some(&sidx) || snap.get(*gslot) != Some(&gidx) {
                        self.error = Some(format!(
                            "block {:?} thread {:?}: the indices of the `__opt__` operands at `__insert()` ({}, {}) differ from those at the read ({sidx}, {gidx}); the copy must see the same variables as the read",
                            a.block,
                            l.thread,
                            snap.get(*sslot).copied().unwrap_or_default(),
                            snap.get(*gslot).copied().unwrap_or_default(),
                        ));
                        return;
                    }
                    let vals = self.values(srcs, &snap, a.block, l.thread);
                    for (col, v) in self.sleeve.0.iter_mut().zip(vals) {
                        col.push(v);
                    }
                    let equal = shared.is_some() && shared == key(&l.value);
                    self.sleeve.1.push(!equal);
                }
            }
            _ => {}
        }
    }
}

/// Runs the profile of `plan` on every launch.
pub fn run(
    ak: &AnnotatedKernel,
    plan: &Plan,
    launches: &[LaunchData],
    limits: &hone_emulator::Limits,
) -> Result<Profile, SynthError> {
    let ins = instrument(ak, plan);
    let mut module = ak.module.clone();
    let (fid, _) = module
        .kernel(&ak.name)
        .expect("the kernel is in its module");
    module.functions[fid.0 as usize] = ins.kernel.clone();
    let arrays: Vec<VarId> = (0..ak.kernel.vars.len() as u32)
        .map(VarId)
        .filter(|v| {
            matches!(
                ak.kernel.var(*v).kind,
                VarKind::Shared | VarKind::ExternShared
            )
        })
        .collect();
    let array_names: Vec<String> = arrays
        .iter()
        .map(|v| ak.kernel.var(*v).name.clone())
        .collect();
    let mut reads: Vec<ReadAcc> = plan
        .reads
        .iter()
        .map(|r| {
            (
                vec![Vec::new(); r.symbols.len()],
                vec![Vec::new(); arrays.len()],
            )
        })
        .collect();
    let nsleeve = plan.sleeve.as_ref().map_or(0, |s| s.symbols.len());
    let mut sleeve: (Vec<Vec<i64>>, Vec<bool>) = (vec![Vec::new(); nsleeve], Vec::new());
    let opts = Options {
        parallel: false,
        detect_races: false,
        warn_uninitialized_shared: false,
        limits: limits.clone(),
        ..Options::default()
    };
    for (li, launch) in launches.iter().enumerate() {
        let mut buffers = launch.buffers.clone();
        fill_distinct(&mut buffers, 0x5eed + li as u64);
        buffers.push(hone_emulator::Buffer::zeros(
            "__hone_probe",
            Type::Scalar(Scalar::I64),
            1,
        ));
        let mut args = launch.args.clone();
        args.push(hone_emulator::KernelArg::Buffer(buffers.len() - 1));
        let mut col = Collector {
            ins: &ins,
            grid: launch.config.grid,
            block: launch.config.block,
            arrays: &array_names,
            latest: HashMap::new(),
            history: HashMap::new(),
            images: HashMap::new(),
            reads: &mut reads,
            pending: HashMap::new(),
            seen: HashMap::new(),
            sleeve: &mut sleeve,
            error: None,
        };
        let report = hone_emulator::run(
            &module,
            &ak.name,
            &launch.config,
            &args,
            &mut buffers,
            &opts,
            Some(&mut col),
        )
        .map_err(|e| SynthError::Launch(format!("{}: {e}", launch.name)))?;
        if let Some(e) = col.error.take() {
            return Err(SynthError::Annotation {
                location: plan
                    .sleeve
                    .as_ref()
                    .map(|s| ak.location(ak.sleeves[s.site].span))
                    .unwrap_or_default(),
                message: e,
            });
        }
        if let Some(f) = report.faults.first() {
            return Err(fault_error(ak, plan, f, &launch.name));
        }
        if !report.completed {
            return Err(SynthError::Profile(format!(
                "{}: the annotated kernel did not complete",
                launch.name
            )));
        }
    }
    let tables = |cols: Vec<Vec<i64>>, syms: &[Symbol]| Table {
        n: cols.first().map_or(0, Vec::len),
        names: syms.iter().map(|s| s.name.clone()).collect(),
        axes: syms.iter().map(|s| s.axis).collect(),
        cols,
    };
    let mut out = Profile {
        reads: Vec::new(),
        sleeve: None,
    };
    for ((cols, answers), rp) in reads.into_iter().zip(&plan.reads) {
        let mut table = tables(cols, &rp.symbols);
        table.n = answers.first().map_or(table.n, Vec::len);
        out.reads.push(ReadProfile {
            table,
            arrays: arrays.clone(),
            answers,
        });
    }
    if let Some(sp) = &plan.sleeve {
        let mut table = tables(sleeve.0, &sp.symbols);
        table.n = sleeve.1.len();
        out.sleeve = Some(SleeveProfile {
            table,
            need: sleeve.1,
        });
    }
    Ok(out)
}

fn fault_error(
    ak: &AnnotatedKernel,
    plan: &Plan,
    f: &hone_emulator::Fault,
    launch: &str,
) -> SynthError {
    let who = format!("block {:?} thread {:?}", f.block, f.thread);
    let what = match &f.kind {
        FaultKind::OutOfBounds {
            array,
            index,
            length,
            ..
        } => {
            format!("index {index} is outside `{array}` ({length} elements)")
        }
        other => format!("{other:?}"),
    };
    match untag(f.span) {
        Some((ROLE_SHARED, _, _)) => {
            let site = &ak.sleeves[plan.sleeve.as_ref().expect("observing a sleeve").site];
            SynthError::Annotation {
                location: ak.location(site.span),
                message: format!(
                    "the shared-memory target of `{}` is out of bounds in the profile launch {launch}: {what} for {who}; the copy would write outside the shared array",
                    site.text
                ),
            }
        }
        Some((ROLE_READ, id, _)) => {
            let site = &ak.reads[plan.reads[id as usize].site];
            SynthError::Profile(format!(
                "{launch}: the marked read `{}` at {} faulted: {what} for {who}",
                site.text,
                ak.location(site.span)
            ))
        }
        Some(_) => SynthError::Profile(format!("{launch}: {what} for {who}")),
        None => SynthError::Profile(format!(
            "{launch}: the annotated kernel faulted at {}: {what} for {who}{}",
            ak.location(f.span),
            if matches!(
                f.kind,
                FaultKind::OutOfBounds {
                    space: AddressSpace::Shared,
                    ..
                }
            ) {
                "; check the copy into shared memory"
            } else {
                ""
            }
        )),
    }
}
