//! Counting what the compiled kernel does rather than what its source says.
//!
//! The compiler keeps values in registers, forwards loads from stores, moves
//! loop-invariant loads out of loops and merges neighbouring accesses into
//! vector instructions; each of those changes the requests the hardware
//! sees. Given the kernel's disassembly (printed with `#line` directives, so
//! the line information names the user's lines; see
//! `hone_gpu::sass::listings`), each source access is matched with the
//! memory instructions of its line: in a build with every loop kept rolled,
//! one instruction per access kept, at its loop depth; in the build the GPU
//! runs, the width of those instructions. The site is then counted as the
//! compiled code executes it, from counts gathered in the same emulated run
//! ([`tally`]): not at all, once per loop entry, merged into wider accesses,
//! or as written.

pub mod alternatives;
mod exchange;
pub mod overwrites;
pub mod places;
pub mod sass;
pub mod tally;

use std::collections::HashMap;

use hone_emulator::AccessKind;
use hone_ir::{AddressSpace, Module};
use serde::Serialize;

use crate::collect::SiteStats;
use places::Place;
use sass::{Listing, MemInstr, Space};
use tally::{SiteTallies, Tally, MERGES, PAIR_WIDTHS};

/// The disassembly of a kernel's module, compiled twice (see
/// `hone_gpu::sass::Listings`).
#[derive(Clone, Debug)]
pub struct CompiledCode {
    /// The build the GPU runs.
    pub compiled: Listing,
    /// The same with every loop rolled.
    pub rolled: Listing,
    /// Names the compiler and target in reports (`sm_90, NVRTC 13.0`).
    pub description: String,
}

impl CompiledCode {
    pub fn parse(compiled: &str, rolled: &str, description: &str) -> CompiledCode {
        CompiledCode {
            compiled: Listing::parse(compiled),
            rolled: Listing::parse(rolled),
            description: description.to_string(),
        }
    }
}

/// Compiles a module for the analysis: gives its disassembly, or why there
/// is none (no NVRTC, no disassembler, a compile error). The analyzer then
/// counts the source's accesses.
pub type Compiler = dyn Fn(&Module) -> Result<CompiledCode, String> + Send + Sync;

/// A [`Compiler`] in the analyzer's options.
#[derive(Clone)]
pub struct CompilerHandle(pub std::sync::Arc<Compiler>);

impl std::fmt::Debug for CompilerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CompilerHandle")
    }
}

/// Where a launch's counts come from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CountSource {
    /// The compiled code's description, when its disassembly was read.
    pub compiled: Option<String>,
    /// Why the source's accesses were counted instead.
    pub reason: Option<String>,
}

impl CountSource {
    pub fn describe(&self) -> String {
        match (&self.compiled, &self.reason) {
            (Some(c), _) => format!("compiled code ({c})"),
            (None, Some(r)) => format!("source model ({r})"),
            (None, None) => "source model".to_string(),
        }
    }
}

/// Traffic a site repeats: requests of a warp to the very addresses its
/// previous request at this site touched (an accumulator in memory, a value
/// reloaded in every iteration), which the compiled code executes because
/// it cannot prove that no other pointer writes there. A site is not
/// counted so where another thread wrote or read those addresses between a
/// warp's repeats: values handed between threads are traffic the kernel
/// needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Repeated {
    pub requests: u64,
    pub sectors: u64,
    pub wavefronts: u64,
}

impl Repeated {
    /// What the ranking adds for it: sectors or wavefronts.
    pub fn cost(&self) -> u64 {
        self.sectors + self.wavefronts
    }
}

/// How a site's counts were obtained.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "counted")]
pub enum Counted {
    /// Every access of the source, one request each (no compiled code).
    #[default]
    Source,
    /// Compiled as written: one instruction per access.
    Kept,
    /// No instruction: the compiler reuses a value it holds in a register.
    Removed,
    /// The instruction sits outside the loop the source access is in: it
    /// runs once per entry of that loop.
    Hoisted,
    /// Made by one wider instruction together with a neighbouring access of
    /// its line (members of one struct): its request is counted there.
    Combined,
    /// `factor` consecutive accesses of a warp make one vector instruction.
    Merged { factor: u32, opcode: String },
    /// One of the loads of an `if / else if` chain's arms that set the same
    /// variable, which the compiled code makes one load of the address each
    /// lane's arm names: the request is counted at the line given.
    Selected { line: u32 },
    /// A conditional store that overwrites the store on the line given,
    /// which the compiled code makes one store of the value chosen: its
    /// requests are that store's.
    Overwritten { line: u32 },
    /// Made one wider instruction with the accesses of other sites that the
    /// warp makes right after it at the next addresses (`a[i]`, `a[i + 1]`):
    /// the wider request is counted at the first of them.
    Paired { opcode: String },
    /// The line's instructions could not be matched with its accesses; the
    /// source's counts are kept.
    Unmatched { reason: String },
}

impl Counted {
    /// One word for JSON: `source`, `kept`, `removed`, `hoisted`, `merged`,
    /// `paired`, `selected`, `overwritten`, `combined`, `unmatched`.
    pub fn tag(&self) -> &'static str {
        match self {
            Counted::Source => "source",
            Counted::Kept => "kept",
            Counted::Removed => "removed",
            Counted::Hoisted => "hoisted",
            Counted::Merged { .. } => "merged",
            Counted::Paired { .. } => "paired",
            Counted::Selected { .. } => "selected",
            Counted::Overwritten { .. } => "overwritten",
            Counted::Combined => "combined",
            Counted::Unmatched { .. } => "unmatched",
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Counted::Source => "source".to_string(),
            Counted::Kept => "compiled: kept".to_string(),
            Counted::Removed => "compiled: removed (value kept in a register)".to_string(),
            Counted::Hoisted => "compiled: moved out of its loop".to_string(),
            Counted::Combined => {
                "compiled: made by a wider instruction with its neighbour".to_string()
            }
            Counted::Merged { factor, opcode } => {
                format!("compiled: {factor} accesses merged into one {opcode}")
            }
            Counted::Overwritten { line } => {
                format!("compiled: one store with the one on line {line}, which it overwrites")
            }
            Counted::Selected { line } => format!(
                "compiled: one load for every arm of its if/else chain, counted on line {line}"
            ),
            Counted::Paired { opcode } => {
                format!("compiled: made one {opcode} with its neighbours' accesses")
            }
            Counted::Unmatched { reason } => format!("source ({reason})"),
        }
    }
}

fn same_space(instr: Space, site: AddressSpace) -> bool {
    match instr {
        Space::Global => site == AddressSpace::Global,
        Space::Shared => site == AddressSpace::Shared,
        Space::Generic => matches!(site, AddressSpace::Global | AddressSpace::Shared),
    }
}

/// The space a group's `shared` flag stands for.
fn space_of(shared: bool) -> AddressSpace {
    if shared {
        AddressSpace::Shared
    } else {
        AddressSpace::Global
    }
}

/// Sites of one line, one space and one kind, with their instructions.
struct Group<'a> {
    sites: Vec<usize>,
    rolled: Vec<&'a MemInstr>,
    compiled: Vec<&'a MemInstr>,
}

/// Decides how each site is counted and replaces its counts accordingly
/// (the source's stay in `SiteStats::source`).
pub fn apply<'a>(
    module: &'a Module,
    kernel: &str,
    places: &HashMap<hone_ir::Span, Place>,
    code: &'a CompiledCode,
    sites: &mut [SiteStats],
    tallies: &HashMap<u32, SiteTallies>,
) {
    let mut groups: HashMap<(u32, u32, bool, AccessKind), Group> = HashMap::new();
    for (i, s) in sites.iter_mut().enumerate() {
        let countable = matches!(s.space, AddressSpace::Global | AddressSpace::Shared)
            && matches!(s.kind, AccessKind::Load | AccessKind::Store);
        if !countable {
            continue;
        }
        let Some(p) = places.get(&s.span) else {
            s.counted = Counted::Unmatched {
                reason: "no statement of the kernel holds it".to_string(),
            };
            continue;
        };
        groups
            .entry((p.file, p.line, s.space == AddressSpace::Shared, s.kind))
            .or_insert_with(|| Group {
                sites: Vec::new(),
                rolled: Vec::new(),
                compiled: Vec::new(),
            })
            .sites
            .push(i);
    }
    let rolled = located(module, kernel, &code.rolled.instrs);
    let compiled = located(module, kernel, &code.compiled.instrs);
    for (key, g) in groups.iter_mut() {
        let (file, line, shared, kind) = *key;
        let space = space_of(shared);
        let matches = |&&(f, ins): &&(u32, &MemInstr)| {
            f == file && ins.line == line && ins.kind == kind && same_space(ins.space, space)
        };
        g.rolled = rolled.iter().filter(matches).map(|x| x.1).collect();
        g.compiled = compiled.iter().filter(matches).map(|x| x.1).collect();
    }
    // Instructions of lines where the source has no access of their kind:
    // where the compiler put accesses it moved out of loops.
    let mut orphans: Vec<&MemInstr> = rolled
        .iter()
        .filter(|(f, ins)| {
            ![false, true].iter().any(|&shared| {
                same_space(ins.space, space_of(shared))
                    && groups.contains_key(&(*f, ins.line, shared, ins.kind))
            })
        })
        .map(|x| x.1)
        .collect();
    let mut keys: Vec<_> = groups.keys().copied().collect();
    keys.sort_by_key(|k| (k.0, k.1, k.2, k.3 == AccessKind::Store));
    for k in keys {
        decide(&groups[&k], places, sites, tallies, &mut orphans);
    }
    pair(places, &compiled, sites, tallies);
}

/// The loads of each cluster of alternatives (see [`alternatives`]): one
/// request per run of their chain, counted at the member whose line has the
/// instruction.
pub fn select(clusters: &[alternatives::Cluster], selected: &[Tally], sites: &mut [SiteStats]) {
    for (c, members) in clusters.iter().enumerate() {
        let Some(&tally) = selected.get(c) else {
            continue;
        };
        // One load site per member, all of one space and width.
        let mut at: Vec<usize> = Vec::new();
        for m in members {
            let found: Vec<usize> = sites
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind == AccessKind::Load && m.spans.contains(&s.span))
                .map(|(i, _)| i)
                .collect();
            if found.len() != 1 {
                at.clear();
                break;
            }
            at.push(found[0]);
        }
        let Some(&first) = at.first() else {
            continue;
        };
        let (space, size) = (sites[first].space, sites[first].size);
        if at.len() < 2
            || at
                .iter()
                .any(|&i| sites[i].space != space || sites[i].size != size)
        {
            continue;
        }
        for &i in &at {
            sites[i].replace_counts(if i == first { tally } else { Tally::default() });
            sites[i].repeated = None;
            sites[i].counted = Counted::Selected {
                line: members[0].line,
            };
        }
    }
}

/// The lines (file, line) of the kernel's code where the build the GPU runs
/// has an instruction of `kind`.
pub fn instruction_lines(
    module: &Module,
    kernel: &str,
    code: &CompiledCode,
    kind: AccessKind,
) -> std::collections::HashSet<(u32, u32)> {
    located(module, kernel, &code.compiled.instrs)
        .into_iter()
        .filter(|(_, ins)| ins.kind == kind)
        .map(|(f, ins)| (f, ins.line))
        .collect()
}

/// Conditional stores that overwrite the store before them (see
/// [`overwrites`]), where the compiled code has one store instruction for
/// the two lines or none: made one store of the value chosen, they add no
/// request, and the unconditional store's requests stand (its instruction
/// may carry either line).
pub fn overwrite(
    overwrites: &[overwrites::Overwrite],
    store_lines: &std::collections::HashSet<(u32, u32)>,
    sites: &mut [SiteStats],
) {
    for o in overwrites {
        let conditional = store_lines.contains(&(o.file, o.line));
        let unconditional = store_lines.contains(&(o.file, o.overwritten));
        if conditional && unconditional {
            continue;
        }
        let mut first = None;
        for s in sites
            .iter_mut()
            .filter(|s| s.kind == AccessKind::Store && s.span == o.span)
        {
            s.replace_counts(Tally::default());
            s.repeated = None;
            s.counted = Counted::Overwritten {
                line: o.overwritten,
            };
            first = Some(s.space);
        }
        // The one instruction on the conditional store's line is the pair's.
        if let (true, Some(space)) = (conditional, first) {
            for s in sites.iter_mut().filter(|s| {
                s.kind == AccessKind::Store
                    && s.space == space
                    && s.span.file == o.file
                    && s.span.line == o.overwritten
                    && matches!(s.counted, Counted::Unmatched { .. })
            }) {
                s.counted = Counted::Kept;
            }
        }
    }
}

/// The instructions of `kernel` (and the device functions it calls), each
/// with the index of its file in the module.
fn located<'a>(module: &Module, kernel: &str, instrs: &'a [MemInstr]) -> Vec<(u32, &'a MemInstr)> {
    // The disassembler puts the compilation's folder before relative names.
    let file_of = |name: &str| -> Option<u32> {
        module
            .files
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                name == f.as_str()
                    || (name.ends_with(f.as_str()) && name[..name.len() - f.len()].ends_with('/'))
            })
            .max_by_key(|(_, f)| f.len())
            .map(|(i, _)| i as u32)
    };
    // The module's other kernels have code of their own, which may inline
    // the same device functions; device functions left out of line count.
    let other_kernel = |name: &str| {
        name != kernel
            && module
                .functions
                .iter()
                .any(|f| f.kind == hone_ir::FuncKind::Global && f.name == name)
    };
    instrs
        .iter()
        .filter(|ins| !other_kernel(&ins.function))
        .filter_map(|ins| Some((file_of(&ins.file)?, ins)))
        .collect()
}

/// Accesses of different sites that a warp makes one right after the other
/// at consecutive addresses, where the build the GPU runs has a wider
/// instruction on one of their lines: one instruction (after unrolling, a
/// stride that became 1, say), counted at the first site.
fn pair(
    places: &HashMap<hone_ir::Span, Place>,
    compiled: &[(u32, &MemInstr)],
    sites: &mut [SiteStats],
    tallies: &HashMap<u32, SiteTallies>,
) {
    let line_of: HashMap<u32, (u32, u32)> = sites
        .iter()
        .filter_map(|s| places.get(&s.span).map(|p| (s.site, (p.file, p.line))))
        .collect();
    for s in sites.iter_mut() {
        // A struct's members given one instruction are both (`Combined`
        // says only that another access made the request), and the wider
        // instruction may sit on the partner's line alone.
        if !matches!(
            s.counted,
            Counted::Kept | Counted::Combined | Counted::Unmatched { .. }
        ) {
            continue;
        }
        let Some(t) = tallies.get(&s.site) else {
            continue;
        };
        if t.pieces == [0, 0] {
            continue;
        }
        let lines: Vec<(u32, u32)> = std::iter::once(s.site)
            .chain(t.partners.iter().copied())
            .filter_map(|site| line_of.get(&site).copied())
            .collect();
        let wider = compiled
            .iter()
            .filter(|(f, ins)| {
                lines.contains(&(*f, ins.line))
                    && ins.kind == s.kind
                    && same_space(ins.space, s.space)
                    && ins.width > s.size
            })
            .max_by_key(|(_, ins)| ins.width);
        let Some((_, ins)) = wider else {
            continue;
        };
        // The widest width the instructions reach.
        let Some(w) = PAIR_WIDTHS.iter().rposition(|&w| w <= ins.width) else {
            continue;
        };
        if t.pieces[w] > 0 {
            s.replace_counts(t.paired[w]);
            s.repeated = None;
            s.counted = Counted::Paired {
                opcode: ins.opcode.clone(),
            };
        }
    }
}

fn decide(
    g: &Group,
    places: &HashMap<hone_ir::Span, Place>,
    sites: &mut [SiteStats],
    tallies: &HashMap<u32, SiteTallies>,
    orphans: &mut Vec<&MemInstr>,
) {
    // `moved_to`: the loop depth of the instruction a moved access was
    // given. Out of every loop it runs once; inside an outer loop, again
    // after each barrier of that loop (no access is moved across one).
    let set = |s: &mut SiteStats, c: Counted, moved_to: Option<u32>| {
        let t = tallies.get(&s.site);
        let tally = match &c {
            Counted::Removed | Counted::Combined => Some(Tally::default()),
            Counted::Hoisted if moved_to == Some(0) => t.map(|t| t.once),
            Counted::Hoisted => t.map(|t| t.hoisted),
            Counted::Merged { factor, .. } => {
                let i = MERGES.iter().position(|m| m == factor);
                t.zip(i).map(|(t, i)| t.merged[i])
            }
            _ => None,
        };
        if let Some(tally) = tally {
            s.replace_counts(tally);
        }
        if c == Counted::Kept {
            if let Some(t) = t.filter(|t| t.once.requests < s.requests && !t.exchanged) {
                s.repeated = Some(Repeated {
                    requests: s.requests - t.once.requests,
                    sectors: s.sectors.saturating_sub(t.once.sectors),
                    wavefronts: s.wavefronts.saturating_sub(t.once.wavefronts),
                });
            }
        }
        s.counted = c;
    };
    // Each inlined copy of a device function repeats its instructions.
    let copies = g
        .sites
        .iter()
        .filter_map(|&i| places.get(&sites[i].span))
        .map(|p| p.copies)
        .max()
        .unwrap_or(1)
        .max(1) as usize;
    let tally = |i: usize| tallies.get(&sites[i].site);
    // Loads repeating a value the warp holds are what a compiler drops or
    // loads once; accesses repeating their own addresses, what it moves out
    // of a loop.
    let repeats = |i: usize| {
        tally(i)
            .map(|t| t.repeats as f64 / t.requests.max(1) as f64)
            .unwrap_or(0.0)
    };
    let invariant = |i: usize| {
        tally(i)
            .map(|t| 1.0 - t.once.requests as f64 / t.requests.max(1) as f64)
            .unwrap_or(0.0)
    };
    let depth_of = |i: usize| places.get(&sites[i].span).map_or(0, |p| p.depth);
    // The accesses least likely to have been changed take the line's
    // instructions first, each one at its own loop depth or deeper.
    let mut order: Vec<usize> = g.sites.clone();
    order.sort_by(|&a, &b| {
        let key = |i: usize| repeats(i) + invariant(i);
        key(a)
            .total_cmp(&key(b))
            .then(depth_of(b).cmp(&depth_of(a)))
            .then(a.cmp(&b))
    });
    let mut pool: Vec<u32> = g.rolled.iter().map(|i| i.depth).collect();
    pool.sort_unstable();
    // How the accesses without an instruction at their depth are counted.
    let mut decided: HashMap<usize, (Counted, Option<u32>)> = HashMap::new();
    let mut left: Vec<usize> = Vec::new();
    for &i in &order {
        let d = depth_of(i);
        if !pool.iter().any(|&p| p >= d) {
            left.push(i);
            continue;
        }
        for _ in 0..copies {
            let Some(k) = pool.iter().position(|&p| p >= d) else {
                break;
            };
            pool.remove(k);
        }
    }
    for i in left {
        let s = &sites[i];
        let d = depth_of(i);
        // An instruction of the line outside the access's loop, or one on a
        // line without accesses of its kind: where the compiler moved it.
        let inline_pool = pool.iter().position(|&p| p < d);
        let orphan = orphans.iter().position(|o| {
            o.kind == s.kind && same_space(o.space, s.space) && o.width == s.size && o.depth < d
        });
        let mut moved_to = None;
        let c = if invariant(i) > 0.0 && (inline_pool.is_some() || orphan.is_some()) {
            moved_to = if let Some(k) = inline_pool {
                Some(pool.remove(k))
            } else {
                orphan.map(|o| orphans.remove(o).depth)
            };
            Counted::Hoisted
        } else if s.kind == AccessKind::Load && repeats(i) >= 0.5 {
            Counted::Removed
        } else if g.rolled.iter().any(|ins| ins.width > s.size) {
            // Neighbouring fields read or written by one wider instruction
            // (a struct's members): the request is the other access's.
            Counted::Combined
        } else {
            let reason = if g.compiled.is_empty() {
                "no instruction on its line"
            } else {
                "instructions only where loops are unrolled"
            };
            Counted::Unmatched {
                reason: reason.to_string(),
            }
        };
        decided.insert(i, (c, moved_to));
    }
    // Widths: the rolled build's one per source access, the GPU build's
    // possibly wider.
    let rolled_width = uniform(g.rolled.iter().map(|i| i.width));
    let widest_instr = g.compiled.iter().max_by_key(|i| i.width);
    let widest = widest_instr.map(|i| i.width);
    let widest_op = widest_instr.map(|i| i.opcode.clone());
    for &i in &g.sites {
        if let Some((c, moved_to)) = decided.remove(&i) {
            set(&mut sites[i], c, moved_to);
            continue;
        }
        let s = &sites[i];
        // The widest instruction of the line in the build the GPU runs: the
        // accesses of a warp that run one after the other at consecutive,
        // aligned addresses may be what it merged.
        let merge = match (rolled_width, widest, &widest_op) {
            (Some(r), Some(c), Some(op)) if r == s.size && c > r && c % r == 0 => {
                let factor = c / r;
                let merged = MERGES
                    .iter()
                    .position(|&m| m == factor)
                    .and_then(|k| tallies.get(&s.site).map(|t| t.merged[k].requests));
                merged.filter(|&m| m < s.requests).map(|_| Counted::Merged {
                    factor,
                    opcode: op.clone(),
                })
            }
            _ => None,
        };
        // An access given an instruction has one at its depth or deeper.
        set(&mut sites[i], merge.unwrap_or(Counted::Kept), None);
    }
}

fn uniform(mut widths: impl Iterator<Item = u32>) -> Option<u32> {
    let first = widths.next()?;
    widths.all(|w| w == first).then_some(first)
}
