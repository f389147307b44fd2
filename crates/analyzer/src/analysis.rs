//! The analysis driver: one emulated launch with the collecting sink, sites
//! ranked by their excess, and fixes looked for at the worst ones.

use std::collections::HashMap;

use hone_emulator::{AccessKind, Buffer, KernelArg, LaunchConfig, Report, SetupError, Symbols};
use hone_ir::{AddressSpace, ExprKind, Intrinsic, Module, Span};
use hone_launch::LaunchData;
use serde::Serialize;

use crate::collect::{Collector, SiteStats};
use crate::compiled::tally::Tallies;
use crate::compiled::CountSource;
use crate::patterns::{self, Rejected, Suggestion};
use crate::walk::visit_block;
use crate::{AnalyzeError, Model, Options};

/// One launch to analyse: the module, the kernel, and the launch (grid,
/// block, arguments and the buffers they point to).
#[derive(Clone, Debug)]
pub struct LaunchSpec {
    pub module: Module,
    pub kernel: String,
    pub launch: LaunchData,
}

/// What one costed run gathered.
pub struct Measured {
    /// By site, in site order.
    pub sites: Vec<SiteStats>,
    pub report: Report,
    pub count_source: CountSource,
}

/// Runs `kernel` once with the collecting sink. `buffers` are updated in place.
#[allow(clippy::too_many_arguments)]
pub fn measure(
    module: &Module,
    kernel: &str,
    config: &LaunchConfig,
    args: &[KernelArg],
    buffers: &mut [Buffer],
    symbols: &mut Symbols,
    model: Model,
    worst_warps: usize,
    opts: &crate::Options,
) -> Result<Measured, SetupError> {
    let mut sink = Collector::new(model, config, worst_warps);
    let mut count_source = CountSource::default();
    let mut clusters = Vec::new();
    let code = match &opts.compiler {
        Some(c) => match (c.0)(module) {
            Ok(code) => {
                count_source.compiled = Some(code.description.clone());
                let lines =
                    crate::compiled::instruction_lines(module, kernel, &code, AccessKind::Load);
                let groups = crate::compiled::alternatives::alternatives(module);
                clusters = crate::compiled::alternatives::clusters(&groups, |f, l| {
                    lines.contains(&(f, l))
                });
                let index = crate::compiled::alternatives::index(&clusters);
                sink = sink.with_tallies(Tallies::with_alternatives(index, clusters.len()));
                Some(code)
            }
            Err(why) => {
                count_source.reason = Some(why);
                None
            }
        },
        None => {
            count_source.reason = Some("the compiled code was not asked for".to_string());
            None
        }
    };
    let opts = hone_emulator::Options {
        detect_races: false,
        warn_uninitialized_shared: false,
        parallel: false,
        limits: opts.limits.clone(),
        progress: opts.progress.clone(),
        ..hone_emulator::Options::default()
    };
    let report = hone_emulator::run_with_symbols(
        module,
        kernel,
        config,
        args,
        buffers,
        symbols,
        &opts,
        Some(&mut sink),
    )?;
    let mut sites: Vec<SiteStats> = sink.sites.into_values().collect();
    if let (Some(code), Some(mut tallies)) = (code, sink.tallies) {
        tallies.finish();
        let kernel_id = module
            .kernel(kernel)
            .or_else(|| module.function(kernel))
            .map(|(id, _)| id);
        if let Some(id) = kernel_id {
            let places = crate::compiled::places::places(module, id);
            let per_site = tallies.sites.into_iter().collect();
            crate::compiled::apply(module, kernel, &places, &code, &mut sites, &per_site);
            crate::compiled::select(&clusters, &tallies.selected, &mut sites);
            let stores =
                crate::compiled::instruction_lines(module, kernel, &code, AccessKind::Store);
            let overwrites = crate::compiled::overwrites::overwrites(module);
            crate::compiled::overwrite(&overwrites, &stores, &mut sites);
        }
    }
    Ok(Measured {
        sites,
        report,
        count_source,
    })
}

/// Traffic of a group of sites.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cost {
    pub requests: u64,
    pub sectors: u64,
    pub ideal_sectors: u64,
    pub transactions: u64,
    pub ideal_transactions: u64,
    pub wavefronts: u64,
    pub ideal_wavefronts: u64,
    /// Constant-memory accesses after serialization, and one per request.
    pub constant_replays: u64,
    pub ideal_constant_replays: u64,
    /// Sectors and wavefronts the compiled code repeats at the addresses it
    /// just touched (see `compiled::Repeated`).
    pub repeated: u64,
}

impl Cost {
    pub fn add(&mut self, s: &SiteStats) {
        if s.space == AddressSpace::Constant {
            self.constant_replays += s.constant_replays;
            self.ideal_constant_replays += s.requests;
        }
        self.requests += s.requests;
        self.sectors += s.sectors;
        self.ideal_sectors += s.ideal_sectors;
        self.transactions += s.transactions;
        self.ideal_transactions += s.ideal_transactions;
        self.wavefronts += s.wavefronts;
        self.ideal_wavefronts += s.ideal_wavefronts;
        self.repeated += s.repeated.map_or(0, |r| r.cost());
    }
    pub fn of<'a>(sites: impl IntoIterator<Item = &'a SiteStats>) -> Cost {
        let mut c = Cost::default();
        sites.into_iter().for_each(|s| c.add(s));
        c
    }
    /// The excess the model ranks by: sectors (or CC 1.1 transactions) plus
    /// shared-memory wavefronts beyond their ideals.
    pub fn excess(&self, model: Model) -> u64 {
        let global = match model {
            Model::Sm90 => self.sectors.saturating_sub(self.ideal_sectors),
            Model::Cc11 => self.transactions.saturating_sub(self.ideal_transactions),
        };
        global
            + self.wavefronts.saturating_sub(self.ideal_wavefronts)
            + self
                .constant_replays
                .saturating_sub(self.ideal_constant_replays)
            + self.repeated
    }
}

/// Launch totals by space and kind, the figures Nsight Compute counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub global_load: Cost,
    pub global_store: Cost,
    pub global_atomic: Cost,
    pub shared_load: Cost,
    pub shared_store: Cost,
    pub shared_atomic: Cost,
    /// `__constant__` reads (their serialization, not sectors).
    pub constant_load: Cost,
}

impl Totals {
    pub fn of<'a>(sites: impl IntoIterator<Item = &'a SiteStats>) -> Totals {
        let mut t = Totals::default();
        for s in sites {
            let slot = match (s.space, s.kind) {
                (AddressSpace::Constant, _) => &mut t.constant_load,
                (AddressSpace::Shared, AccessKind::Load) => &mut t.shared_load,
                (AddressSpace::Shared, AccessKind::Store) => &mut t.shared_store,
                (AddressSpace::Shared, AccessKind::Atomic) => &mut t.shared_atomic,
                (_, AccessKind::Load) => &mut t.global_load,
                (_, AccessKind::Store) => &mut t.global_store,
                (_, AccessKind::Atomic) => &mut t.global_atomic,
            };
            slot.add(s);
        }
        t
    }
    pub fn all(&self) -> Cost {
        let mut c = Cost::default();
        for x in [
            &self.global_load,
            &self.global_store,
            &self.global_atomic,
            &self.shared_load,
            &self.shared_store,
            &self.shared_atomic,
            &self.constant_load,
        ] {
            c.requests += x.requests;
            c.sectors += x.sectors;
            c.ideal_sectors += x.ideal_sectors;
            c.transactions += x.transactions;
            c.ideal_transactions += x.ideal_transactions;
            c.wavefronts += x.wavefronts;
            c.ideal_wavefronts += x.ideal_wavefronts;
            c.constant_replays += x.constant_replays;
            c.ideal_constant_replays += x.ideal_constant_replays;
        }
        c
    }
}

/// One access site, ranked, with its figures and the verified fixes.
#[derive(Clone, Debug, Serialize)]
pub struct Site {
    /// 1 for the site that wastes most.
    pub rank: usize,
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The access as CUDA C (`d_A[id + 1]`).
    pub expression: Option<String>,
    /// The source line it is on, when the file can be read.
    pub source_line: Option<String>,
    pub stats: SiteStats,
    pub suggestions: Vec<Suggestion>,
    pub rejected: Vec<Rejected>,
    /// Whether the catalogue was consulted for this site (only the worst
    /// `Options::suggest_sites` flagged sites are).
    pub searched: bool,
    /// The rank of the best-ranked site of the same source access: the
    /// site's own rank unless one access of the source makes several (a
    /// record copied whole makes one per member), which reports show once.
    pub group: usize,
}

impl Site {
    /// Whether the site leads its source access's group (see `group`): the
    /// site reports show and the fix search visits.
    pub fn leads_group(&self) -> bool {
        self.group == self.rank
    }

    /// Whether the site wastes anything under `model`.
    pub fn flagged(&self, model: Model) -> bool {
        self.stats.excess(model) > 0
            || self.stats.repeated.is_some()
            || (model == Model::Cc11
                && self.stats.space != AddressSpace::Shared
                && !self.stats.cc11_failed().is_empty())
    }
}

/// The result of [`analyze`].
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub kernel: String,
    pub model: Model,
    pub config: LaunchConfig,
    /// Best-ranked (most wasteful) first.
    pub sites: Vec<Site>,
    pub totals: Totals,
    pub completed: bool,
    /// Faults that stopped the launch, with their locations.
    pub faults: Vec<String>,
    /// Whether the counts are the compiled code's or the source's.
    pub count_source: CountSource,
}

/// Sets each site's `group`: sites of one source access belong together,
/// as the members of a record (or vector) read or written whole do. They
/// share the place, expression, array, space and kind, are executed as
/// often with as many requests in the source (the compiled code may merge
/// or drop members), and step through memory alike from lane to lane (two
/// instances of one template access differ there, if in nothing else). A
/// group is led by its best-ranked site that `model` flags, else by its
/// best-ranked site.
fn group_accesses(sites: &mut [Site], model: Model) {
    type Key = (
        String,
        u32,
        u32,
        Option<String>,
        String,
        AddressSpace,
        AccessKind,
        u64,
        u64,
        String,
    );
    let key = |s: &Site| -> Key {
        (
            s.file.clone(),
            s.line,
            s.column,
            s.expression.clone(),
            s.stats.array.clone(),
            s.stats.space,
            s.stats.kind,
            s.stats.executions,
            s.stats.source.map_or(s.stats.requests, |t| t.requests),
            format!("{:?}", s.stats.lane_stride),
        )
    };
    let mut leader: HashMap<Key, usize> = HashMap::new();
    for flagged in [true, false] {
        for s in sites.iter().filter(|s| s.flagged(model) == flagged) {
            leader.entry(key(s)).or_insert(s.rank);
        }
    }
    for s in sites.iter_mut() {
        s.group = leader[&key(s)];
    }
}

/// Analyses one launch. The launch's buffers are not modified.
pub fn analyze(spec: &LaunchSpec, opts: &Options) -> Result<Analysis, AnalyzeError> {
    let mut buffers = spec.launch.buffers.clone();
    let mut symbols = spec
        .launch
        .symbols(&spec.module)
        .map_err(|e| AnalyzeError::Launch(e.to_string()))?;
    let measured = measure(
        &spec.module,
        &spec.kernel,
        &spec.launch.config,
        &spec.launch.args,
        &mut buffers,
        &mut symbols,
        opts.model,
        opts.worst_warps,
        opts,
    )?;
    let totals = Totals::of(&measured.sites);
    let mut sources = SourceCache::default();
    let mut sites: Vec<Site> = measured
        .sites
        .iter()
        .map(|s| Site {
            rank: 0,
            file: spec
                .module
                .files
                .get(s.span.file as usize)
                .cloned()
                .unwrap_or_default(),
            line: s.span.line,
            column: s.span.col,
            expression: access_text(&spec.module, s.span, s.kind),
            source_line: sources.line(&spec.module, s.span),
            stats: s.clone(),
            suggestions: Vec::new(),
            rejected: Vec::new(),
            searched: false,
            group: 0,
        })
        .collect();
    let waste = |s: &Site| s.stats.excess(opts.model) + s.stats.repeated.map_or(0, |r| r.cost());
    sites.sort_by(|a, b| {
        waste(b)
            .cmp(&waste(a))
            .then(b.stats.requests.cmp(&a.stats.requests))
            .then(a.stats.site.cmp(&b.stats.site))
    });
    for (i, s) in sites.iter_mut().enumerate() {
        s.rank = i + 1;
    }
    group_accesses(&mut sites, opts.model);
    if opts.suggest && measured.report.completed {
        let mut catalogue = patterns::Catalogue::new(spec, &measured, opts);
        // One search per source access: its other sites are the same code.
        for s in sites
            .iter_mut()
            .filter(|s| s.flagged(opts.model) && s.leads_group())
            .take(opts.suggest_sites)
        {
            let (found, rejected) = catalogue.suggest(&s.stats);
            s.suggestions = found;
            s.rejected = rejected;
            s.searched = true;
        }
    }
    Ok(Analysis {
        kernel: spec.kernel.clone(),
        model: opts.model,
        config: spec.launch.config.clone(),
        sites,
        totals,
        completed: measured.report.completed,
        faults: measured
            .report
            .faults
            .iter()
            .map(|f| f.message.clone())
            .collect(),
        count_source: measured.count_source.clone(),
    })
}

/// The access at `span` printed as CUDA C: the target of a store, the
/// address of an atomic, the expression of a load.
pub fn access_text(module: &Module, span: Span, kind: AccessKind) -> Option<String> {
    for f in &module.functions {
        let mut found = None;
        visit_block(&f.body, &mut |e| {
            if found.is_some() || e.span != span {
                return;
            }
            let target = match (&e.kind, kind) {
                (ExprKind::Assign { lhs, .. }, AccessKind::Store | AccessKind::Atomic) => {
                    lhs.as_ref()
                }
                (ExprKind::IncDec { target, .. }, AccessKind::Store) => target.as_ref(),
                (ExprKind::Intrinsic(Intrinsic::Atomic(_), args), _) if !args.is_empty() => {
                    &args[0]
                }
                (
                    ExprKind::Index(..)
                    | ExprKind::Deref(_)
                    | ExprKind::Component(..)
                    | ExprKind::Field(..)
                    | ExprKind::Global(_),
                    AccessKind::Load | AccessKind::Store,
                ) => e,
                _ => return,
            };
            found = Some(hone_ir::print::print_expr(module, f, target));
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

#[derive(Default)]
struct SourceCache {
    files: HashMap<u32, Option<Vec<String>>>,
}

impl SourceCache {
    fn line(&mut self, module: &Module, span: Span) -> Option<String> {
        let lines = self.files.entry(span.file).or_insert_with(|| {
            let name = module.files.get(span.file as usize)?;
            let text = std::fs::read_to_string(name).ok()?;
            Some(text.lines().map(str::to_string).collect())
        });
        lines
            .as_ref()?
            .get((span.line as usize).checked_sub(1)?)
            .map(|l| l.trim_end().to_string())
    }
}
