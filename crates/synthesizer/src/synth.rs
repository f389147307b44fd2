//! The whole synthesis: profile, search, rewrite, emit, verify (and, when a
//! verification launch shows an expression held only for the profile's
//! sizes, profile again with that launch added).

use std::time::Instant;

use hone_frontend::FrontendOptions;
use hone_ir::{Expr, ExprKind, Function, Module, Span, Stmt, Type};
use serde::Serialize;

use crate::emit::{self, DynShared};
use crate::error::SynthError;
use crate::launches;
use crate::profile::{self, Plan, ReadPlan};
use crate::render::{IndexExp, Render};
use crate::rewrite::{self, mark_of, mark_span};
use crate::search::cond::{self, BExp, CondSpec};
use crate::search::index::{self, IndexSpec};
use crate::search::{split, Space};
use crate::sites::{vars_in_scope, AnnotatedKernel};
use crate::symbols::{self, Symbol};
use crate::verify::{self, Check, Subject};
use hone_ir::build;
use hone_launch::LaunchData;

/// Knobs of a synthesis.
#[derive(Clone, Debug)]
pub struct Options {
    /// The symbols to record (`--vars`); `None` picks them per site.
    pub vars: Option<Vec<String>>,
    /// Verification launches given explicitly.
    pub verify_launches: Vec<LaunchData>,
    /// How many verification launches to derive from the first profile launch.
    pub derived_launches: usize,
    /// Skip verification.
    pub unverified: bool,
    /// When verification shows an expression that held only for the
    /// profile's sizes, add a small profile launch of other sizes and
    /// synthesize again (at most twice).
    pub refine: bool,
    /// What each profile launch may use in the emulator.
    pub limits: hone_emulator::Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            vars: None,
            verify_launches: Vec::new(),
            derived_launches: 2,
            unverified: false,
            refine: true,
            limits: hone_emulator::Limits::default(),
        }
    }
}

/// One synthesized expression or copy.
#[derive(Clone, Debug, Serialize)]
pub struct SiteReport {
    /// `read` (an `__opt__` read served from shared memory) or `copy` (a
    /// halo copy for `__opt__(shared, global)`).
    pub kind: String,
    pub location: String,
    pub original: String,
    /// The synthesized expression, or the copy statement.
    pub synthesized: String,
    /// The shared array used.
    pub array: String,
    /// Profile cases (executions of the read by a thread).
    pub cases: usize,
    /// Cases with the value in shared memory (reads) or needing the copy.
    pub found: usize,
    /// Cases whose value sits at more than one shared index.
    pub multiple: usize,
    /// Whether the index needed the then/else/cond split.
    pub split: bool,
    pub symbols: Vec<String>,
    /// This site's share of the profile runs (last round).
    pub profile_seconds: f64,
    /// Search time (last round).
    pub search_seconds: f64,
    /// Profile share and search, summed over all rounds.
    pub seconds: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct VerificationReport {
    pub checks: Vec<Check>,
    pub passed: bool,
    pub skipped: bool,
    /// How derived launches follow the profile launch.
    pub rules: Vec<String>,
    pub seconds: f64,
}

/// The result: the emitted source and what was done and checked.
#[derive(Clone, Debug, Serialize)]
pub struct Synthesis {
    pub kernel: String,
    /// The whole synthesized kernel as CUDA C.
    pub source: String,
    /// Whether every check passed (the source should be used only then).
    pub verified: bool,
    pub sites: Vec<SiteReport>,
    /// `__syncthreads()` inserted to remove races.
    pub barriers: Vec<String>,
    /// Global intermediates folded away (temporal blocking's `mid`).
    pub folded: Vec<String>,
    /// Dynamic shared memory to launch the emitted kernel with.
    pub dynamic_shared: Option<String>,
    pub tolerate_same_value_races: bool,
    pub profile_launches: Vec<String>,
    pub notes: Vec<String>,
    pub verification: VerificationReport,
    pub seconds: f64,
    #[serde(skip)]
    dynamic: Option<DynShared>,
    #[serde(skip)]
    params: Vec<hone_ir::VarId>,
}

impl Synthesis {
    /// The layout of the dynamic shared memory the emitted kernel takes.
    pub(crate) fn dynamic_layout(&self) -> Option<&DynShared> {
        self.dynamic.as_ref()
    }

    /// Bytes of dynamic shared memory to launch the emitted kernel with
    /// (zero when its shared arrays have constant sizes).
    pub fn shared_bytes(
        &self,
        config: &hone_emulator::LaunchConfig,
        args: &[hone_emulator::KernelArg],
    ) -> Result<u64, String> {
        let Some(d) = &self.dynamic else { return Ok(0) };
        d.launch_bytes(&self.params, config, args)
    }
}

struct Marker {
    label: String,
    origin: Span,
    /// Marks a synthesized halo copy.
    copy: bool,
}

#[derive(Default)]
struct Markers(Vec<Marker>);

impl Markers {
    fn add(&mut self, label: String, origin: Span) -> Span {
        self.0.push(Marker {
            label,
            origin,
            copy: false,
        });
        mark_span(self.0.len() - 1)
    }

    fn add_copy(&mut self, label: String, origin: Span) -> Span {
        let s = self.add(label, origin);
        self.0.last_mut().expect("just added").copy = true;
        s
    }
}

/// The rewritten kernel of one round.
struct Round {
    kernel: Function,
    sites: Vec<SiteReport>,
    folded: Vec<String>,
    markers: Markers,
}

fn param_names(f: &Function) -> Vec<String> {
    f.params.iter().map(|&p| f.var(p).name.clone()).collect()
}

fn index_expr(e: &Expr) -> &Expr {
    match &build::peel(e).kind {
        ExprKind::Index(_, i) => i,
        _ => e,
    }
}

fn site_symbols(
    ak: &AnnotatedKernel,
    opts: &Options,
    seeds: &[&Expr],
    path: &hone_ir::path::Path,
    blocks: &[[u32; 3]],
    at: &str,
) -> Result<Vec<Symbol>, SynthError> {
    let scope = vars_in_scope(&ak.kernel, path);
    match &opts.vars {
        Some(names) => {
            symbols::named_symbols(&ak.kernel, names, &scope, at).map_err(SynthError::Input)
        }
        None => Ok(symbols::default_symbols(&ak.kernel, seeds, &scope, blocks)),
    }
}

fn synth_round(
    ak: &AnnotatedKernel,
    profiles: &[LaunchData],
    opts: &Options,
) -> Result<Round, SynthError> {
    let f = &ak.kernel;
    let blocks: Vec<[u32; 3]> = profiles.iter().map(|l| l.config.block).collect();
    let mut markers = Markers::default();
    let mut sites = Vec::new();
    let mut replacements: Vec<(Span, Replace)> = Vec::new();

    // Marked reads: one profile run for all of them.
    let mut plans = Vec::new();
    for (i, r) in ak.reads.iter().enumerate() {
        let e = r_expr(ak, r.span);
        let symbols = site_symbols(
            ak,
            opts,
            &[index_expr(&e)],
            &r.path,
            &blocks,
            &ak.location(r.span),
        )?;
        plans.push(ReadPlan { site: i, symbols });
    }
    if !plans.is_empty() {
        let t = Instant::now();
        let prof = profile::run(
            ak,
            &Plan {
                reads: plans,
                sleeve: None,
                copies: Vec::new(),
            },
            profiles,
            &opts.limits,
        )?;
        let share = t.elapsed().as_secs_f64() / ak.reads.len() as f64;
        for (i, (r, rp)) in ak.reads.iter().zip(prof.reads).enumerate() {
            let t = Instant::now();
            let e = r_expr(ak, r.span);
            let symbols = site_symbols(
                ak,
                opts,
                &[index_expr(&e)],
                &r.path,
                &blocks,
                &ak.location(r.span),
            )?;
            let (replace, mut report) = solve_read(ak, i, rp, &symbols, &mut markers)?;
            report.profile_seconds = share;
            report.search_seconds = t.elapsed().as_secs_f64();
            report.seconds = share + report.search_seconds;
            sites.push(report);
            replacements.push((r.span, replace));
        }
    }

    // Sleeve copies, one after the other: each profile run includes the
    // copies synthesized before it.
    let mut copies: Vec<Stmt> = Vec::new();
    for (j, s) in ak.sleeves.iter().enumerate() {
        let (ipath, _) = ak.insert.as_ref().expect("checked when located");
        let at = ak.location(s.span);
        for v in vars_of(&s.shared).into_iter().chain(vars_of(&s.global)) {
            if !vars_in_scope(f, ipath).contains(&v) && f.var(v).kind != hone_ir::VarKind::Shared {
                return Err(SynthError::Annotation {
                    location: at,
                    message: format!(
                        "`{}` in `{}` is not declared before `__insert()` at {}; the copy is made there",
                        f.var(v).name,
                        s.text,
                        ak.insert.as_ref().map(|(_, sp)| ak.location(*sp)).unwrap_or_default()
                    ),
                });
            }
        }
        let symbols = site_symbols(ak, opts, &[&s.shared, &s.global], ipath, &blocks, &at)?;
        let t = Instant::now();
        let prof = profile::run(
            ak,
            &Plan {
                reads: Vec::new(),
                sleeve: Some(ReadPlan {
                    site: j,
                    symbols: symbols.clone(),
                }),
                copies: copies.clone(),
            },
            profiles,
            &opts.limits,
        )?;
        let profile_seconds = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let sp = prof.sleeve.expect("observed");
        let n = sp.need.len();
        if n == 0 {
            return Err(SynthError::Search {
                location: at,
                message: format!("`{}` never runs in the profile launches", s.text),
            });
        }
        let need: Vec<usize> = (0..n).filter(|&c| sp.need[c]).collect();
        let ok: Vec<usize> = (0..n).filter(|&c| !sp.need[c]).collect();
        let label_base = format!("{} at {}", s.text, at);
        let synthesized = if need.is_empty() {
            "(no copy needed: the shared array already holds the value in every case)".to_string()
        } else {
            let spec = CondSpec {
                must_true: need.clone(),
                must_false: ok,
            };
            let c = phased(&sp.table, |sp| cond::search(sp, &spec), |space, c| {
                Render {
                    symbols: &symbols,
                    terms: &space.terms,
                    span: s.span,
                }
                .bexp(&c)
            })
            .ok_or_else(|| SynthError::Search {
                location: at.clone(),
                message: format!(
                    "no condition of the grammar is true exactly for the threads that must copy for `{}` ({} of {n} cases); record other variables with --vars",
                    s.text,
                    need.len()
                ),
            })?;
            let span = markers.add_copy(format!("hone: synthesized copy for {label_base}"), s.span);
            let assign = build::assign_stmt(s.shared.clone(), s.global.clone(), s.span);
            let stmt = if matches!(c.kind, ExprKind::BoolLit(true)) {
                Stmt { span, ..assign }
            } else {
                build::if_stmt(c, vec![assign], span)
            };
            let text = print_stmt(&ak.module, f, &stmt);
            copies.push(stmt);
            text
        };
        let read_mark = markers.add(
            format!("hone: {} served from shared memory", s.text),
            s.span,
        );
        let shared = s.shared.clone();
        replacements.push((
            s.span,
            Box::new(move |g: Expr| {
                let mut e = build::cast(shared.clone(), &g.ty);
                e.span = read_mark;
                e
            }),
        ));
        let search_seconds = t.elapsed().as_secs_f64();
        sites.push(SiteReport {
            kind: "copy".into(),
            location: at,
            original: s.text.clone(),
            synthesized,
            array: f.var(s.shared_array).name.clone(),
            cases: n,
            found: need.len(),
            multiple: 0,
            split: false,
            symbols: symbols.iter().map(|s| s.name.clone()).collect(),
            profile_seconds,
            search_seconds,
            seconds: profile_seconds + search_seconds,
        });
    }

    let mut kernel = f.clone();
    for (span, make) in &replacements {
        if !rewrite::replace_read(&mut kernel, *span, make.as_ref()) {
            return Err(SynthError::Input(format!(
                "{}: the annotated read vanished from the kernel",
                ak.location(*span)
            )));
        }
    }
    if let Some((ipath, _)) = &ak.insert {
        rewrite::insert_at(&mut kernel, ipath, copies);
    }
    let folded = rewrite::fold_intermediates(&mut kernel, &mut |name, origin| {
        markers.add(
            format!("hone: the global intermediate `{name}` is no longer read; its store is folded into this copy into shared memory"),
            origin,
        )
    });
    Ok(Round {
        kernel,
        sites,
        folded,
        markers,
    })
}

fn r_expr(ak: &AnnotatedKernel, span: Span) -> Expr {
    hone_ir::path::find_span(&ak.kernel.body, span, &|e| {
        matches!(e.kind, ExprKind::Index(..))
    })
    .map(|(e, _, _)| e.clone())
    .expect("located when loaded")
}

fn vars_of(e: &Expr) -> Vec<hone_ir::VarId> {
    let mut v = Vec::new();
    hone_ir::path::vars_read(e, &mut v);
    v
}

fn print_stmt(m: &Module, f: &Function, s: &Stmt) -> String {
    let mut g = f.clone();
    g.body = vec![s.clone()];
    let text = hone_ir::print::print_function(m, &g);
    let lines: Vec<&str> = text.lines().collect();
    lines[1..lines.len().saturating_sub(1)]
        .iter()
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join(" ")
}

type Replace = Box<dyn Fn(Expr) -> Expr>;

/// Runs `search` without products, then with them (see [`Space::new`]),
/// and hands the first result to `out` with the space it was found in.
fn phased<T, R>(
    table: &crate::search::Table,
    search: impl Fn(&Space) -> Option<T>,
    out: impl Fn(&Space, T) -> R,
) -> Option<R> {
    for products in [false, true] {
        let space = Space::new(table.clone(), products);
        if let Some(t) = search(&space) {
            return Some(out(&space, t));
        }
    }
    None
}

fn solve_read(
    ak: &AnnotatedKernel,
    i: usize,
    rp: profile::ReadProfile,
    symbols: &[Symbol],
    markers: &mut Markers,
) -> Result<(Replace, SiteReport), SynthError> {
    let site = &ak.reads[i];
    let at = ak.location(site.span);
    let f = &ak.kernel;
    let n = rp.table.n;
    if n == 0 {
        return Err(SynthError::Search {
            location: at,
            message: format!(
                "the marked read `{}` never runs in the profile launches",
                site.text
            ),
        });
    }
    let found_in = |a: usize| rp.answers[a].iter().filter(|x| !x.is_empty()).count();
    let best = (0..rp.arrays.len()).max_by_key(|&a| (found_in(a), std::cmp::Reverse(a)));
    let Some(a) = best.filter(|&a| found_in(a) > 0) else {
        return Err(SynthError::Search {
            location: at,
            message: format!(
                "the value `{}` reads is never in shared memory: in none of the {n} profile cases does {} hold it; check the copy into shared memory and that it runs (with a barrier) before this read",
                site.text,
                if rp.arrays.is_empty() {
                    "any `__shared__` array (the kernel declares none)".to_string()
                } else {
                    rp.arrays.iter().map(|v| format!("`{}`", f.var(*v).name)).collect::<Vec<_>>().join(" or ")
                }
            ),
        });
    };
    let answers = &rp.answers[a];
    let array = rp.arrays[a];
    let table = rp.table;
    let found: Vec<usize> = (0..n).filter(|&c| !answers[c].is_empty()).collect();
    let missing: Vec<usize> = (0..n).filter(|&c| answers[c].is_empty()).collect();
    let multiple = found.iter().filter(|&&c| answers[c].len() > 1).count();
    fn render<'a>(space: &'a Space, symbols: &'a [Symbol], span: Span) -> Render<'a> {
        Render {
            symbols,
            terms: &space.terms,
            span,
        }
    }
    let cond_spec = CondSpec {
        must_true: found.clone(),
        must_false: missing.clone(),
    };
    let cond_expr = phased(&table, |sp| cond::search(sp, &cond_spec), |sp, c| match c {
        BExp::True => None,
        c => Some(render(sp, symbols, site.span).bexp(&c)),
    })
    .ok_or_else(|| SynthError::Search {
        location: at.clone(),
        message: format!(
            "no condition of the grammar is true exactly where the value of `{}` is in `{}` ({} of {n} cases); record other variables with --vars",
            site.text,
            f.var(array).name,
            found.len()
        ),
    })?;
    let spec = IndexSpec {
        cases: found.clone(),
        answers: found.iter().map(|&c| answers[c].as_slice()).collect(),
    };
    let search_index = |sp: &Space| {
        index::search(sp, &spec)
            .map(IndexExp::Lin)
            .or_else(|| split::search(sp, &spec).map(IndexExp::Split))
    };
    let (idx, is_split) = phased(&table, search_index, |sp, i| (render(sp, symbols, site.span).index(&i), matches!(i, IndexExp::Split(_))))
        .ok_or_else(|| SynthError::Search {
            location: at.clone(),
            message: format!(
                "no index expression of the grammar gives the position of `{}` in `{}`, even split into `cond ? then : else`; record other variables with --vars",
                site.text,
                f.var(array).name
            ),
        })?;
    let sb = build::var(array, &f.var(array).ty, site.span);
    let shared_read = build::index(sb, idx);
    let mark = markers.add(
        format!(
            "hone: synthesized for {} at {} ({} of {n} profile cases in `{}`)",
            site.text,
            at,
            found.len(),
            f.var(array).name
        ),
        site.span,
    );
    let make = move |orig: Expr| -> Expr {
        let ty: Type = orig.ty.clone();
        let shared = build::cast(shared_read.clone(), &ty);
        let mut e = match &cond_expr {
            None => shared,
            Some(c) => build::select(c.clone(), shared, orig),
        };
        e.span = mark;
        e
    };
    let printed = hone_ir::print::print_expr(&ak.module, f, &make(r_expr(ak, site.span)));
    let report = SiteReport {
        kind: "read".into(),
        location: at,
        original: site.text.clone(),
        synthesized: printed,
        array: f.var(array).name.clone(),
        cases: n,
        found: found.len(),
        multiple,
        split: is_split,
        symbols: symbols.iter().map(|s| s.name.clone()).collect(),
        profile_seconds: 0.0,
        search_seconds: 0.0,
        seconds: 0.0,
    };
    Ok((Box::new(make), report))
}

/// The kernel `ak` with its annotations taken out, as a module to run.
pub(crate) fn original_module(ak: &AnnotatedKernel) -> Module {
    let mut m = ak.module.clone();
    let (fid, _) = m.kernel(&ak.name).expect("kernel in module");
    m.functions[fid.0 as usize] = ak.kernel.clone();
    m
}

/// Emits `kernel` and parses the text back: what is verified is exactly
/// what is written out.
fn emit_and_parse(
    ak: &AnnotatedKernel,
    kernel: &Function,
    markers: &Markers,
) -> Result<(String, Module), SynthError> {
    let body = emit::print_kernel(&ak.module, kernel, &|id| {
        markers
            .0
            .get(id)
            .map_or_else(String::new, |m| m.label.clone())
    });
    let parsed = hone_frontend::parse_source("synthesized.cu", &body, &FrontendOptions::default())
        .map_err(|e| {
            SynthError::Input(format!("the synthesized kernel does not read back: {e}"))
        })?;
    if parsed.module.kernel(&ak.name).is_none() || parsed.has_errors() {
        let errs: Vec<String> = parsed.diagnostics.iter().map(|d| d.to_string()).collect();
        return Err(SynthError::Input(format!(
            "the synthesized kernel does not read back:\n{}\n{body}",
            errs.join("\n")
        )));
    }
    Ok((body, parsed.module))
}

/// Runs the synthesis of `ak` with `profile` launches.
pub fn synthesize(
    ak: &AnnotatedKernel,
    profile: &[LaunchData],
    opts: &Options,
) -> Result<Synthesis, SynthError> {
    let start = Instant::now();
    if profile.is_empty() {
        return Err(SynthError::Launch(
            "at least one profile launch is needed".into(),
        ));
    }
    let names = param_names(&ak.kernel);
    let mut notes = Vec::new();
    let mut profiles = profile.to_vec();
    let mut vlaunches = opts.verify_launches.clone();
    let mut rules = Vec::new();
    let original = original_module(ak);
    let mut keep = launches::Keep::Nothing;
    if opts.derived_launches > 0 {
        match launches::derive_suited(
            &original,
            &ak.kernel,
            &profile[0],
            &profile[1..],
            opts.derived_launches,
        ) {
            Ok((ls, r, k)) => {
                rules = r.text;
                vlaunches.extend(ls);
                keep = k;
            }
            Err(e) if !vlaunches.is_empty() || opts.unverified => notes.push(e.to_string()),
            Err(e) => return Err(e),
        }
    }
    let tolerate = match vlaunches.first().or(profile.first()) {
        Some(l) => verify::needs_tolerance(&original, &ak.name, l).map_err(SynthError::Launch)?,
        None => false,
    };
    if tolerate {
        notes.push("the annotated kernel writes some cells from several threads with the same value (temporal blocking); race checks tolerate such writes".into());
    }

    let mut rounds = 0;
    let mut spent: Vec<f64> = Vec::new();
    loop {
        let round = synth_round(ak, &profiles, opts)?;
        let (mut kernel, dynamic, note) = emit::nvrtc_form(&round.kernel);
        notes.extend(note);
        let mut markers = round.markers;
        let mut barriers = Vec::new();
        let mut checks = Vec::new();
        let vstart = Instant::now();
        let (mut body, mut parsed) = emit_and_parse(ak, &kernel, &markers)?;
        let mut verified = false;
        let mut mismatch = None;
        if !opts.unverified && !vlaunches.is_empty() {
            // Races in shared memory are removed by barriers: after the
            // statement of the first access, in the innermost list holding
            // both; moved outwards when that list is not run by all threads.
            let mut fixing: Option<(hone_emulator::Race, usize)> = None;
            let mut last: Option<hone_ir::path::Path> = None;
            for _attempt in 0..8 {
                let pf = parsed.kernel(&ak.name).expect("checked").1.clone();
                let subject = Subject {
                    module: &parsed,
                    kernel: &ak.name,
                    dynamic: dynamic.as_ref(),
                    function: &pf,
                };
                let outcome = {
                    let describe = |span: Span| describe_span(ak, &pf, &kernel, &markers, span);
                    verify::check(
                        &original,
                        &subject,
                        &vlaunches,
                        &round.folded,
                        tolerate,
                        &describe,
                    )
                };
                verified = outcome.passed();
                mismatch = outcome.mismatch;
                checks = outcome.checks;
                if verified {
                    break;
                }
                let divergent = matches!(
                    outcome.fault,
                    Some((hone_emulator::FaultKind::BarrierDivergence, _))
                );
                // Two writes racing, one a synthesized copy: its condition
                // holds for threads that need no copy (a profile-only answer),
                // which no barrier should paper over.
                if let Some(r) = outcome.shared_races.iter().find(|r| {
                    r.first.kind != hone_emulator::AccessKind::Load
                        && r.second.kind != hone_emulator::AccessKind::Load
                        && (is_copy(&pf, &kernel, &markers, r.first.span)
                            || is_copy(&pf, &kernel, &markers, r.second.span))
                }) {
                    mismatch = Some(mismatch.unwrap_or(0));
                    if let Some(c) = checks.iter_mut().find(|c| !c.passed) {
                        let note = format!("a synthesized halo copy writes `{}` cells that other threads write too: its condition holds for threads that need no copy", r.array);
                        c.problem = Some(match c.problem.take() {
                            Some(p) => format!("{note}; {p}"),
                            None => note,
                        });
                    }
                    break;
                }
                let (race, outward) = match (divergent, last.take(), fixing.take()) {
                    (true, Some(path), Some((race, outward))) => {
                        if let Some(b) = hone_ir::path::parent_block_mut(&mut kernel.body, &path) {
                            b.remove(path.last().expect("path").1);
                        }
                        barriers.pop();
                        (race, outward + 1)
                    }
                    _ => match outcome.shared_races.first() {
                        Some(r) => (r.clone(), 0),
                        None => break,
                    },
                };
                let Some((path, idx)) = verify::barrier_position(&pf, &race, outward) else {
                    break;
                };
                let describe = |span: Span| describe_span(ak, &pf, &kernel, &markers, span);
                // Races on the dynamic shared memory are races on its slices.
                let array = match &dynamic {
                    Some(d) if race.array == "hone_smem" && d.arrays.len() == 1 => {
                        d.arrays[0].0.clone()
                    }
                    _ => race.array.clone(),
                };
                let reason = format!(
                    "barrier inserted: race on `{}` between the {} at {} and the {} at {}",
                    array,
                    access(race.first.kind),
                    describe(race.first.span),
                    access(race.second.kind),
                    describe(race.second.span)
                );
                let span = markers.add(format!("hone: {reason}"), Span::default());
                if !crate::rewrite::insert_barrier(&mut kernel.body, &path, idx, span) {
                    break;
                }
                barriers.push(reason);
                last = Some(path);
                fixing = Some((race, outward));
                let (b, p) = emit_and_parse(ak, &kernel, &markers)?;
                body = b;
                parsed = p;
            }
        }
        let vseconds = vstart.elapsed().as_secs_f64();
        accumulate(&mut spent, &round.sites);
        let refine = !verified && !opts.unverified && opts.refine && rounds < launches::MAX_PROFILE;
        if let (true, Some(m)) = (refine, mismatch) {
            let tried: Vec<LaunchData> = profiles.iter().chain(&vlaunches).cloned().collect();
            if let Some(extra) = launches::derive_profile(&ak.kernel, &profile[0], &tried, keep)? {
                let failing = &vlaunches[m].name;
                notes.push(format!(
                    "{failing} failed its check (an expression held only for the profile's sizes); synthesized again with the {} added",
                    extra.name
                ));
                profiles.push(extra);
                rounds += 1;
                continue;
            }
        }
        let mut sites = round.sites;
        for (site, total) in sites.iter_mut().zip(&spent) {
            site.seconds = *total;
        }
        let dynamic_shared = dynamic.as_ref().map(|d| dyn_text(ak, &kernel, d));
        let source = header(
            ak,
            &profiles,
            &names,
            dynamic_shared.as_deref(),
            &checks,
            verified,
            opts.unverified,
        ) + &body;
        return Ok(Synthesis {
            kernel: ak.name.clone(),
            source,
            verified,
            sites,
            barriers,
            folded: round.folded,
            dynamic_shared,
            tolerate_same_value_races: tolerate,
            profile_launches: profiles
                .iter()
                .map(|l| format!("{}: {}", l.name, l.describe(&names)))
                .collect(),
            notes,
            verification: VerificationReport {
                passed: verified,
                skipped: opts.unverified,
                checks,
                rules,
                seconds: vseconds,
            },
            seconds: start.elapsed().as_secs_f64(),
            dynamic,
            params: ak.kernel.params.clone(),
        });
    }
}

/// Adds each site's time of a round to its total over the rounds.
fn accumulate(spent: &mut Vec<f64>, sites: &[SiteReport]) {
    spent.resize(sites.len(), 0.0);
    for (t, s) in spent.iter_mut().zip(sites) {
        *t += s.seconds;
    }
}

fn access(k: hone_emulator::AccessKind) -> &'static str {
    match k {
        hone_emulator::AccessKind::Load => "read",
        hone_emulator::AccessKind::Store => "write",
        hone_emulator::AccessKind::Atomic => "atomic",
    }
}

/// Names the user's line for a span of the emitted kernel: the statement
/// there, as it was in the annotated file (or the synthesized code it is).
fn describe_span(
    ak: &AnnotatedKernel,
    parsed: &Function,
    kernel: &Function,
    markers: &Markers,
    span: Span,
) -> String {
    let mut path = None;
    hone_ir::path::each_stmt(&parsed.body, &mut |s, p| {
        for (_, e) in hone_ir::path::stmt_exprs(s) {
            hone_ir::path::visit(e, &mut |x| {
                if x.span == span {
                    path = Some(p.clone());
                }
            });
        }
    });
    let fallback = format!("line {} of the synthesized kernel", span.line);
    let Some(path) = path else { return fallback };
    match hone_ir::path::stmt_at(&kernel.body, &path) {
        Some(s) if s.span.file == 0 && s.span.line > 0 => ak.location(s.span),
        Some(s) => match mark_of(s.span).and_then(|m| markers.0.get(m)) {
            Some(m) if m.origin.line > 0 => format!("{} (synthesized)", ak.location(m.origin)),
            _ => fallback,
        },
        None => fallback,
    }
}

/// Whether `span` (of the parsed emitted kernel) lies in a synthesized copy.
fn is_copy(parsed: &Function, kernel: &Function, markers: &Markers, span: Span) -> bool {
    let mut path = None;
    hone_ir::path::each_stmt(&parsed.body, &mut |s, p| {
        for (_, e) in hone_ir::path::stmt_exprs(s) {
            hone_ir::path::visit(e, &mut |x| {
                if x.span == span {
                    path = Some(p.clone());
                }
            });
        }
    });
    let Some(path) = path else { return false };
    (1..=path.len()).any(|n| {
        hone_ir::path::stmt_at(&kernel.body, &path[..n])
            .and_then(|s| mark_of(s.span))
            .and_then(|m| markers.0.get(m))
            .is_some_and(|m| m.copy)
    })
}

fn dyn_text(ak: &AnnotatedKernel, kernel: &Function, d: &DynShared) -> String {
    let lens: Vec<String> = d
        .arrays
        .iter()
        .map(|(_, e)| format!("({})", hone_ir::print::print_expr(&ak.module, kernel, e)))
        .collect();
    format!(
        "{} * sizeof({}) bytes",
        lens.join(" + "),
        hone_ir::print::print_type(&d.elem)
    )
}

fn header(
    ak: &AnnotatedKernel,
    profiles: &[LaunchData],
    names: &[String],
    dynamic: Option<&str>,
    checks: &[Check],
    verified: bool,
    unverified: bool,
) -> String {
    let mut h = format!(
        "// Synthesized by hone synth from {} (kernel `{}`).\n// Profile launches:\n",
        ak.module.files.first().map_or("<input>", String::as_str),
        ak.name
    );
    for l in profiles {
        h.push_str(&format!("//   {}\n", l.describe(names)));
    }
    if let Some(d) = dynamic {
        h.push_str(&format!(
            "// Launch with {d} of dynamic shared memory (blockDim as launched).\n"
        ));
    }
    if unverified {
        h.push_str("// NOT VERIFIED (--unverified).\n");
    } else if verified {
        h.push_str(&format!(
            "// Verified in hone's emulator against the annotated kernel on {} launches (random data, outputs bit-equal, no races):\n",
            checks.len()
        ));
        for c in checks {
            h.push_str(&format!("//   {}\n", c.launch));
        }
    } else {
        h.push_str("// VERIFICATION FAILED: do not use.\n");
    }
    h.push('\n');
    h
}
