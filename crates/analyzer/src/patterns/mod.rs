//! The catalogue of fixes. Each pattern looks at a wasteful access (the shape
//! of its index expression in the IR and what the trace saw) and proposes a
//! rewritten kernel, with the change of data layout the caller must make if
//! it needs one. Every proposal is then
//!
//! 1. printed as CUDA C and read back by the front end, so what is verified is
//!    exactly the source shown;
//! 2. run against the original in the emulator on the launch's inputs and on
//!    random ones, relaid as the proposal says, and kept only when every
//!    buffer ends up the same;
//! 3. analysed again, and kept only when it lowers the excess of the site
//!    and of the whole kernel.
//!
//! Proposals that fail a step are returned as [`Rejected`], with the reason.

mod accumulate;
mod diff;
mod hoist;
mod interchange;
mod interleave;
pub mod layout;
mod loops;
mod misaligned;
mod register;
mod remap;
mod shared;
mod stage;
mod stencil;
mod tile;
mod vector;
pub mod verify;

use std::collections::HashMap;

use hone_emulator::AccessKind;
use hone_ir::{AddressSpace, Expr, ExprKind, Function, Module, VarId};
use serde::Serialize;

pub use diff::DiffLine;
pub use layout::Layout;
pub use verify::Verification;

use crate::analysis::{access_text, measure, Cost, LaunchSpec, Measured};
use crate::collect::SiteStats;
use crate::shape::Varying;
use crate::walk::{strip, visit_block};
use crate::{Model, Options};

/// Synthesizes shared-memory reads for an annotated kernel (`hone synth`):
/// given the whole module as CUDA C, with the kernel's tile copy written and
/// its global reads marked `__opt__`, the kernel's name and the launch to
/// profile, returns the synthesized kernel as CUDA C, checked on other
/// launches, or why there is none.
pub type Synthesizer =
    dyn Fn(&str, &str, &hone_launch::LaunchData) -> Result<String, String> + Send + Sync;

/// A [`Synthesizer`] in the analyzer's options.
#[derive(Clone)]
pub struct SynthesizerHandle(pub std::sync::Arc<Synthesizer>);

impl std::fmt::Debug for SynthesizerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SynthesizerHandle")
    }
}

/// A change the caller must make to one array's layout.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LayoutChange {
    pub array: String,
    pub layout: Layout,
    pub description: String,
}

/// A verified fix.
#[derive(Clone, Debug, Serialize)]
pub struct Suggestion {
    /// Catalogue entry: `local-accumulator`, `hoisted-load`, `register-copy`,
    /// `misaligned-offset`, `thread-remap`, `structure-of-arrays`, `row-walk`,
    /// `shared-tile`, `shared-padding`, `shared-swizzle`, `vector-load`,
    /// `loop-interchange`, `shared-stencil`, `staged-walk`.
    pub pattern: &'static str,
    pub title: String,
    pub explanation: String,
    /// The rewritten kernel as CUDA C, after the device functions the fix
    /// changed.
    pub source: String,
    /// The whole rewritten module as CUDA C (the kernel with the types and
    /// device functions it uses), which compiles on its own.
    #[serde(skip)]
    pub module_source: String,
    /// Changed lines against the original kernel as printed, with context.
    pub diff: Vec<DiffLine>,
    /// Empty when the rewrite keeps every array's layout.
    pub layout_changes: Vec<LayoutChange>,
    pub verification: Verification,
    /// The site's traffic before and after (the matching access of the
    /// rewritten kernel).
    pub site_before: Cost,
    pub site_after: Cost,
    /// The whole kernel's traffic before and after.
    pub kernel_before: Cost,
    pub kernel_after: Cost,
}

/// A proposal that did not survive verification or did not help.
#[derive(Clone, Debug, Serialize)]
pub struct Rejected {
    pub pattern: &'static str,
    pub title: String,
    pub reason: String,
}

/// A proposal before verification.
pub(crate) struct Candidate {
    pub pattern: &'static str,
    pub title: String,
    pub explanation: String,
    pub module: Module,
    /// Buffer index, array name, new layout.
    pub layouts: Vec<(usize, String, Layout)>,
    /// The variable through which the rewritten kernel makes the site's
    /// traffic, where the rewrite moves it to other code (a staged copy)
    /// whose accesses no longer read as the site's.
    pub moved_to: Option<String>,
}

/// What the patterns see of the launch.
pub(crate) struct Ctx<'a> {
    pub spec: &'a LaunchSpec,
    pub model: Model,
    pub func_index: usize,
    pub func: &'a Function,
    pub varying: Varying,
}

/// An `a[i]` access of the kernel function found for a site.
pub(crate) struct Access<'a> {
    pub array: VarId,
    pub index: &'a Expr,
}

impl<'a> Ctx<'a> {
    /// The buffer a pointer parameter points to in this launch.
    pub fn param_buffer(&self, v: VarId) -> Option<usize> {
        let pos = self.func.params.iter().position(|p| *p == v)?;
        match self.spec.launch.args.get(pos)? {
            hone_emulator::KernelArg::Buffer(i) => Some(*i),
            _ => None,
        }
    }

    /// The `a[i]` of the kernel at the site's span: the load itself, or the
    /// target of a store.
    pub fn access(&self, site: &SiteStats) -> Option<Access<'a>> {
        let mut found = None;
        visit_block(&self.func.body, &mut |e| {
            if found.is_some() || e.span != site.span {
                return;
            }
            let target = match (&e.kind, site.kind) {
                (ExprKind::Assign { lhs, .. }, AccessKind::Store) => strip(lhs),
                (ExprKind::Index(..), AccessKind::Load) => e,
                _ => return,
            };
            if let ExprKind::Index(base, index) = &target.kind {
                if let ExprKind::Var(v) = strip(base).kind {
                    found = Some(Access { array: v, index });
                }
            }
        });
        found
    }

    /// A copy of the module with the kernel function rewritten by `f`.
    pub fn rewrite(&self, f: impl FnOnce(&mut Function) -> Option<()>) -> Option<Module> {
        let mut m = self.spec.module.clone();
        f(&mut m.functions[self.func_index])?;
        Some(m)
    }
}

/// The context of the function whose body holds the site, where that is a
/// device function rather than the kernel.
fn home_ctx<'a>(kernel: &Ctx<'a>, site: &SiteStats) -> Option<Ctx<'a>> {
    let module = &kernel.spec.module;
    let holds = |f: &Function| hone_ir::path::find_span(&f.body, site.span, &|_| true).is_some();
    if holds(kernel.func) {
        return None;
    }
    let i = module.functions.iter().position(holds)?;
    let func = &module.functions[i];
    Some(Ctx {
        spec: kernel.spec,
        model: kernel.model,
        func_index: i,
        func,
        varying: Varying::new(func, kernel.spec.launch.config.block),
    })
}

/// Looks up, verifies and costs fixes for the sites of one launch.
pub struct Catalogue<'a> {
    ctx: Option<Ctx<'a>>,
    measured: &'a Measured,
    /// Each measured site's access as printed, as `Evaluated::texts_after`.
    texts: Vec<Option<String>>,
    opts: &'a Options,
    /// Outcomes by rewritten source, so a fix proposed at several sites is
    /// verified once.
    done: HashMap<String, Result<Evaluated, String>>,
    /// Synthesized stencil tiles by annotated source.
    synthesized: stencil::Cache,
}

#[derive(Clone)]
struct Evaluated {
    verification: Verification,
    sites_after: Vec<SiteStats>,
    /// Each site's access as printed (`id[0]`), to find a moved access again.
    texts_after: Vec<Option<String>>,
    source: String,
    module_source: String,
    diff: Vec<DiffLine>,
}

impl<'a> Catalogue<'a> {
    pub fn new(spec: &'a LaunchSpec, measured: &'a Measured, opts: &'a Options) -> Catalogue<'a> {
        let ctx = spec
            .module
            .functions
            .iter()
            .position(|f| f.name == spec.kernel)
            .map(|i| {
                let func = &spec.module.functions[i];
                Ctx {
                    spec,
                    model: opts.model,
                    func_index: i,
                    func,
                    varying: Varying::new(func, spec.launch.config.block),
                }
            });
        Catalogue {
            ctx,
            measured,
            texts: access_texts(&spec.module, &measured.sites),
            opts,
            done: HashMap::new(),
            synthesized: stencil::Cache::new(),
        }
    }

    /// Verified fixes for one site, and the proposals that failed.
    pub fn suggest(&mut self, site: &SiteStats) -> (Vec<Suggestion>, Vec<Rejected>) {
        let Some(ctx) = &self.ctx else {
            return (Vec::new(), Vec::new());
        };
        let mut candidates = Vec::new();
        // The patterns that need no lane analysis also act inside the device
        // function that holds the site (a loop of a helper the kernel calls).
        let home = home_ctx(ctx, site);
        let home = home.as_ref().unwrap_or(ctx);
        candidates.extend(accumulate::propose(home, site));
        candidates.extend(hoist::propose(home, site));
        candidates.extend(register::propose(ctx, site));
        candidates.extend(misaligned::propose(ctx, site));
        candidates.extend(remap::propose(ctx, site));
        candidates.extend(interleave::propose(ctx, site));
        candidates.extend(shared::propose(ctx, site));
        candidates.extend(tile::propose(ctx, site));
        candidates.extend(vector::propose(ctx, site));
        candidates.extend(interchange::propose(ctx, site));
        candidates.extend(stage::propose(ctx, home, site, &self.measured.sites));
        let mut rejected = Vec::new();
        if let Some(synth) = &self.opts.synthesizer {
            let (c, r) = stencil::propose(ctx, site, synth, &mut self.synthesized);
            candidates.extend(c);
            rejected.extend(r);
        }
        let mut found = Vec::new();
        for c in candidates {
            match self.evaluate(site, &c) {
                Ok(s) => found.push(s),
                Err(reason) => rejected.push(Rejected {
                    pattern: c.pattern,
                    title: c.title,
                    reason,
                }),
            }
        }
        // Fixes that leave the caller's data layout alone come first.
        found.sort_by_key(|s| !s.layout_changes.is_empty());
        (found, rejected)
    }

    fn evaluate(&mut self, site: &SiteStats, c: &Candidate) -> Result<Suggestion, String> {
        let ctx = self.ctx.as_ref().ok_or("no kernel")?;
        let spec = ctx.spec;
        let text = hone_ir::print::print_module(&c.module);
        let layouts: Vec<(usize, Layout)> = c.layouts.iter().map(|(i, _, l)| (*i, *l)).collect();
        let opts = self.opts;
        let evaluated = self
            .done
            .entry(text.clone())
            .or_insert_with(|| evaluate_text(spec, &text, &layouts, opts))
            .clone()?;
        if !evaluated.verification.verified {
            return Err(format!("not verified: {}", evaluated.verification.message));
        }
        let site_before = Cost::of([site]);
        let moved = c.moved_to.as_ref().map(|base| {
            let named = format!("{base}[");
            Cost::of(
                evaluated
                    .sites_after
                    .iter()
                    .zip(&evaluated.texts_after)
                    .filter(|(s, text)| {
                        s.space == site.space
                            && s.kind == site.kind
                            && text.as_deref().is_some_and(|t| t.starts_with(&named))
                    })
                    .map(|(s, _)| s),
            )
        });
        let site_after = moved.unwrap_or_else(|| {
            counterpart(
                (&self.measured.sites, &self.texts),
                site,
                (&evaluated.sites_after, &evaluated.texts_after),
            )
            .map(|s| Cost::of([s]))
            .unwrap_or_default()
        });
        let kernel_before = Cost::of(&self.measured.sites);
        let kernel_after = Cost::of(&evaluated.sites_after);
        let model = ctx.model;
        if site_after.excess(model) >= site_before.excess(model) {
            return Err(format!(
                "does not lower this access's excess ({} -> {})",
                site_before.excess(model),
                site_after.excess(model)
            ));
        }
        if kernel_after.excess(model) >= kernel_before.excess(model) {
            return Err(format!(
                "does not lower the kernel's excess ({} -> {}): it moves the waste to other accesses",
                kernel_before.excess(model),
                kernel_after.excess(model)
            ));
        }
        Ok(Suggestion {
            pattern: c.pattern,
            title: c.title.clone(),
            explanation: c.explanation.clone(),
            source: evaluated.source,
            module_source: evaluated.module_source,
            diff: evaluated.diff,
            layout_changes: c
                .layouts
                .iter()
                .map(|(_, name, l)| LayoutChange {
                    array: name.clone(),
                    layout: *l,
                    description: l.describe(name),
                })
                .collect(),
            verification: evaluated.verification,
            site_before,
            site_after,
            kernel_before,
            kernel_after,
        })
    }
}

/// Prints, reparses, verifies and measures one rewritten module.
fn evaluate_text(
    spec: &LaunchSpec,
    text: &str,
    layouts: &[(usize, Layout)],
    opts: &Options,
) -> Result<Evaluated, String> {
    let name = format!("{}.fixed.cu", spec.kernel);
    let parsed =
        hone_frontend::parse_source(&name, text, &Default::default()).map_err(|e| e.to_string())?;
    if let Some(d) = parsed
        .diagnostics
        .iter()
        .find(|d| d.severity == hone_frontend::Severity::Error)
    {
        return Err(format!("the rewritten source does not parse: {d}"));
    }
    let module = parsed.module;
    let verification = verify::verify(spec, &module, layouts, opts.random_trials);
    let mut buffers = verify::relay(&spec.launch.buffers, layouts);
    let mut symbols = spec.launch.symbols(&module).map_err(|e| e.to_string())?;
    let measured = measure(
        &module,
        &spec.kernel,
        &spec.launch.config,
        &spec.launch.args,
        &mut buffers,
        &mut symbols,
        opts.model,
        0,
        opts,
    )
    .map_err(|e| e.to_string())?;
    // The kernel, after the device functions the rewrite changed (none but
    // the kernel, for most fixes).
    let changed: Vec<&str> = module
        .functions
        .iter()
        .filter(|f| f.name != spec.kernel)
        .filter(|f| {
            spec.module.functions.iter().any(|g| {
                g.name == f.name
                    && hone_ir::print::print_function(&spec.module, g)
                        != hone_ir::print::print_function(&module, f)
            })
        })
        .map(|f| f.name.as_str())
        .collect();
    let print_changed = |m: &Module| {
        let mut text = String::new();
        for f in m
            .functions
            .iter()
            .filter(|f| changed.contains(&f.name.as_str()))
        {
            text.push_str(&hone_ir::print::print_function(m, f));
            text.push('\n');
        }
        if let Some((_, f)) = m.kernel(&spec.kernel) {
            text.push_str(&hone_ir::print::print_function(m, f));
        }
        text
    };
    let before = print_changed(&spec.module);
    let source = print_changed(&module);
    Ok(Evaluated {
        verification,
        texts_after: access_texts(&module, &measured.sites),
        sites_after: measured.sites,
        diff: diff::changed(&diff::diff(&before, &source)),
        source,
        module_source: text.to_string(),
    })
}

/// Each site's access as printed (`id[0]`).
fn access_texts(module: &Module, sites: &[SiteStats]) -> Vec<Option<String>> {
    sites
        .iter()
        .map(|s| access_text(module, s.span, s.kind))
        .collect()
}

/// The site of the rewritten kernel that corresponds to `site`: same array,
/// space and kind, and the same access as printed at the same position among
/// those (an access a fix moved, out of a loop, is found again); else the same
/// position among all of that array, space and kind, in source order.
fn counterpart<'s>(
    before: (&[SiteStats], &[Option<String>]),
    site: &SiteStats,
    after: (&'s [SiteStats], &[Option<String>]),
) -> Option<&'s SiteStats> {
    fn ordered<'t>(
        site: &SiteStats,
        sites: &'t [SiteStats],
        texts: &[Option<String>],
        text: Option<&str>,
    ) -> Vec<&'t SiteStats> {
        let mut v: Vec<&'t SiteStats> = sites
            .iter()
            .enumerate()
            .filter(|(i, s)| {
                s.array == site.array
                    && s.space == site.space
                    && s.kind == site.kind
                    && text.is_none_or(|x| texts.get(*i).and_then(|t| t.as_deref()) == Some(x))
            })
            .map(|(_, s)| s)
            .collect();
        v.sort_by_key(|s| (s.span.line, s.span.col, s.site));
        v
    }
    let index = before.0.iter().position(|s| s.site == site.site)?;
    if let Some(text) = before.1.get(index).and_then(|t| t.as_deref()) {
        let old = ordered(site, before.0, before.1, Some(text));
        let new = ordered(site, after.0, after.1, Some(text));
        if old.len() == new.len() {
            let pos = old.iter().position(|s| s.site == site.site)?;
            return new.get(pos).copied();
        }
    }
    let old = ordered(site, before.0, before.1, None);
    let pos = old.iter().position(|s| s.site == site.site)?;
    ordered(site, after.0, after.1, None).get(pos).copied()
}

/// The global pointer parameters of the kernel that are only ever indexed,
/// so their layout can change without touching other code.
pub(crate) fn relayable(ctx: &Ctx, v: VarId) -> bool {
    ctx.func.params.contains(&v)
        && ctx.func.var(v).ty.is_pointer()
        && ctx.param_buffer(v).is_some()
        && !crate::walk::used_other_than_indexed(ctx.func, v)
}

/// Space of an access the patterns act on.
pub(crate) fn is_global(site: &SiteStats) -> bool {
    site.space == AddressSpace::Global && site.kind != AccessKind::Atomic
}
