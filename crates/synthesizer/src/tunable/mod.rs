//! A synthesized kernel as a tuning template: the kernel as the user wrote
//! it and the synthesized one race each other, each with its block shape
//! and z-chunk length as parameters, checked on the GPU against the user's
//! kernel as written.
//!
//! What `hone tune` then measures was first run here in the emulator:
//! every variant, chunked and not, against the original kernel on derived
//! launches with several chunk lengths, outputs bit-equal and no races.
//! Problem sizes are named by the caller (`nx = N`), and the rest follows
//! from how the profile launch's sizes follow its shape
//! ([`crate::launches`]): which integer arguments the grid covers, how long
//! each buffer is.

mod problem;
mod race;
mod spec;
mod text;

use std::collections::BTreeMap;

use hone_frontend::FrontendOptions;
use hone_gpu::template::{KernelTemplate, TemplateSpec};
use hone_ir::{Function, Module};
use hone_launch::LaunchData;
use serde::Serialize;

use crate::emit::DynShared;
use crate::error::SynthError;
use crate::launches;
use crate::sites::AnnotatedKernel;
use crate::synth::Synthesis;

/// The kernel name every variant takes when its `HONE_VARIANT` is chosen.
pub const TUNED_KERNEL: &str = "hone_tuned";
/// A chunk length that no walk reaches: `ZCHUNK = 0` runs whole columns.
const WHOLE: i64 = 1 << 30;

/// What the template may vary and where it is tuned.
#[derive(Clone, Debug)]
pub struct TemplateOptions {
    /// Each integer argument that sets the problem size, as an expression of
    /// `N` (`nx` -> `N`, `nz` -> `2 * N + 1`).
    pub problem: BTreeMap<String, String>,
    /// Problem sizes `N` to tune at.
    pub sizes: Vec<i64>,
    /// Block extents tried along x and y (where the kernel does not fix them).
    pub block_x: Vec<i64>,
    pub block_y: Vec<i64>,
    /// Chunk lengths tried (0: whole columns).
    pub chunks: Vec<i64>,
    /// Unroll factors tried on the chunked walks (`#pragma unroll UNROLL`);
    /// `[1]` leaves the walks as they are and adds no parameter.
    pub unroll: Vec<i64>,
    /// Whether the chunked kernels' pointer parameters may be declared
    /// `__restrict__` (a `RESTRICT` parameter, 0 or 1): the template's
    /// buffers never overlap, and with the promise the compiler may keep
    /// loads in flight across the stores of a walk.
    pub restrict: bool,
    /// Whether the starting kernel, chunked, races again with a register
    /// queue along its walk ([`crate::queue`]).
    pub queue: bool,
    /// Largest relative difference from the reference kernel accepted.
    pub tolerance: f64,
    /// Units in the last place of the output's largest magnitude by which an
    /// element near zero may also differ: the variants sum a stencil's terms
    /// in other orders (queued loads, unrolled walks, chunk sums), and where
    /// terms of the output's size cancel, the element keeps their rounding.
    pub rounding_ulps: f64,
}

impl Default for TemplateOptions {
    fn default() -> Self {
        TemplateOptions {
            problem: BTreeMap::new(),
            sizes: Vec::new(),
            block_x: vec![16, 32, 64, 128, 256],
            block_y: vec![1, 2, 4, 8, 16],
            chunks: vec![0, 4, 8, 16, 32, 64],
            unroll: vec![1],
            restrict: false,
            queue: false,
            tolerance: 1e-5,
            rounding_ulps: 16.0,
        }
    }
}

/// One kernel in the race.
#[derive(Clone, Debug, Serialize)]
pub struct VariantReport {
    pub variant: i64,
    pub name: String,
    /// Inductions advanced at a chunk's start, when chunked.
    pub chunked: Option<Vec<String>>,
    /// Why it is not chunked.
    pub unchunked_because: Option<String>,
    /// Buffers the chunks add their parts of a column's sum into: the
    /// chunked kernel needs them zero before it runs.
    pub accumulated: Vec<String>,
    /// The emulator runs that admitted it.
    pub checks: Vec<String>,
    /// With a register queue along the walk: each load that takes what
    /// another read a step before, and that other load.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub queue: Vec<(String, String)>,
}

/// The template: CUDA source, description and tuning job.
#[derive(Clone, Debug, Serialize)]
pub struct Tunable {
    pub source: String,
    pub template: TemplateSpec,
    pub job: String,
    pub variants: Vec<VariantReport>,
    /// Contenders that did not enter, and why.
    pub left_out: Vec<String>,
    /// How the profile launch's sizes follow its shape.
    pub rules: Vec<String>,
}

/// Builds the template of `ak` and its verified `synthesis`, named `name`
/// (files `name.cu`, `name.json`, `name.tune.toml`).
///
/// `naive`, when given, is the kernel the user started from (the same
/// parameters, no shared memory): it replaces the annotated kernel as
/// written both in the race and as the reference.
pub fn tunable(
    ak: &AnnotatedKernel,
    synthesis: &Synthesis,
    naive: Option<(&Module, &str)>,
    profile: &LaunchData,
    name: &str,
    opts: &TemplateOptions,
) -> Result<Tunable, SynthError> {
    if !synthesis.verified {
        return Err(input(
            "the synthesized kernel was not verified; a template is made only of verified kernels",
        ));
    }
    if opts.unroll.is_empty() || opts.unroll.iter().any(|&u| u < 1) {
        return Err(input("unroll factors are 1 or more"));
    }
    if !opts.rounding_ulps.is_finite() || opts.rounding_ulps < 0.0 {
        return Err(input(format!(
            "rounding ulps are finite and 0 or more, not {}",
            opts.rounding_ulps
        )));
    }
    // What a launch file sets in `__constant__` or `__device__` variables is
    // not part of a template: the GPU would run both kernels on zeros.
    if !profile.symbols.is_empty() {
        let names: Vec<&str> = profile.symbols.iter().map(|(n, _)| n.as_str()).collect();
        return Err(input(format!(
            "the launch sets {}, which a template cannot carry to the GPU; initialise {} in the source instead",
            names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
            if names.len() == 1 { "it" } else { "them" }
        )));
    }
    let original = crate::synth::original_module(ak);
    let synthesized = hone_frontend::parse_source(
        "synthesized.cu",
        &synthesis.source,
        &FrontendOptions::default(),
    )
    .map_err(|e| input(format!("the synthesized kernel does not read back: {e}")))?
    .module;
    if synthesized.kernel(&ak.name).is_none() {
        return Err(input("the synthesized kernel does not read back"));
    }
    let start = Start::new(ak, &original, naive)?;
    let (launches, _, keep) = launches::derive_suited(&original, &ak.kernel, profile, &[], 2)?;
    // Temporal blocking writes halo cells from several blocks with the same
    // value; its folded intermediates are not outputs of the synthesized kernel.
    let tolerate =
        crate::verify::needs_tolerance(&original, &ak.name, launches.first().unwrap_or(profile))
            .map_err(SynthError::Launch)?;
    let compare = race::Compare {
        tolerate,
        folded: &synthesis.folded,
    };
    let model = launches::infer(&ak.kernel, profile, keep);
    let guarded = match launches.first() {
        Some(l) => problem::guarded(
            &[
                (&start.module, start.dynamic.as_ref()),
                (&synthesized, synthesis.dynamic_layout()),
            ],
            &ak.name,
            l,
            &model.dims,
        ),
        None => [false; 2],
    };
    let mut shape = problem::Shape::new(ak, &model, keep, guarded, opts)?;
    let written = problem::written(&original, &ak.name, profile)?;
    let contenders = [
        race::Contender {
            label: start.label.to_string(),
            module: &start.module,
            dynamic: start.dynamic.as_ref(),
            chunkable: true,
            queue: false,
        },
        race::Contender {
            label: "synthesized".into(),
            module: &synthesized,
            dynamic: synthesis.dynamic_layout(),
            chunkable: true,
            queue: false,
        },
        // The starting kernel exactly as it is runs too: a chunked walk's
        // extra bound can cost whole-column speed (fewer loads in flight),
        // and the race must never end slower than where the user started.
        race::Contender {
            label: format!("{}, unchanged", start.label),
            module: &start.module,
            dynamic: start.dynamic.as_ref(),
            chunkable: false,
            queue: false,
        },
        race::Contender {
            label: format!("{}, register queue", start.label),
            module: &start.module,
            dynamic: start.dynamic.as_ref(),
            chunkable: true,
            queue: true,
        },
    ];
    let contenders = &contenders[..if opts.queue { 4 } else { 3 }];
    let race = race::run(
        contenders, &ak.name, &launches, &original, compare, &mut shape,
    )?;
    let chunked: Vec<bool> = race.reports.iter().map(|r| r.chunked.is_some()).collect();
    let unroll = opts.unroll != [1];
    // Parameters only chunked walks use: one configuration of each for the
    // variants left whole.
    let mut pinned = Vec::new();
    if unroll {
        pinned.push(("UNROLL", opts.unroll[0]));
    }
    if opts.restrict {
        pinned.push(("RESTRICT", 0));
    }
    for r in race.reports.iter().filter(|r| r.chunked.is_none()) {
        for (param, value) in &pinned {
            shape.constraints.push(format!(
                "HONE_VARIANT != {} || {param} == {value}",
                r.variant
            ));
        }
    }
    let source = text::source(
        &ak.name,
        &start.module,
        &race.printed,
        &text::Marks {
            chunked: &chunked,
            unroll,
            restrict: opts.restrict,
        },
    );
    let spec = spec::spec(spec::Parts {
        ak,
        name,
        start: &start,
        profile,
        model: &model,
        shape: &shape,
        race: &race,
        written: &written,
        folded: &synthesis.folded,
        opts,
    })?;
    let template: TemplateSpec = serde_json::from_value(spec)
        .map_err(|e| input(format!("the template does not describe itself: {e}")))?;
    KernelTemplate::new(template.clone(), source.clone())
        .map_err(|e| input(format!("the template is not valid: {e}")))?;
    let job = text::job(name, &template, opts);
    Ok(Tunable {
        source,
        template,
        job,
        variants: race.reports,
        left_out: race.left_out,
        rules: model.text,
    })
}

/// `m` printed and parsed again: what the emulator runs is what the
/// template's source holds.
pub(crate) fn read_back(m: &Module, kernel: &str) -> Result<Module, String> {
    let text = hone_ir::print::print_module(m);
    let parsed = hone_frontend::parse_source("variant.cu", &text, &FrontendOptions::default())
        .map_err(|e| format!("the variant does not read back: {e}"))?;
    if parsed.has_errors() || parsed.module.kernel(kernel).is_none() {
        return Err("the variant does not read back".into());
    }
    Ok(parsed.module)
}

fn input(m: impl Into<String>) -> SynthError {
    SynthError::Input(m.into())
}

/// The kernel the race starts from and the outputs are checked against,
/// under the annotated kernel's name so that one launch runs either, in the
/// form NVRTC compiles (shared arrays sized by the block made dynamic).
struct Start {
    module: Module,
    label: &'static str,
    dynamic: Option<DynShared>,
}

impl Start {
    fn new(
        ak: &AnnotatedKernel,
        original: &Module,
        naive: Option<(&Module, &str)>,
    ) -> Result<Start, SynthError> {
        let kernel = &ak.kernel;
        let (mut module, label) = match naive {
            Some((m, name)) => {
                let (_, n) = m.kernel(name).ok_or_else(|| {
                    input(format!("the naive kernel `{name}` is not in its file"))
                })?;
                let same = n.params.len() == kernel.params.len()
                    && n.params
                        .iter()
                        .zip(&kernel.params)
                        .all(|(&a, &b)| n.var(a).ty == kernel.var(b).ty);
                if !same {
                    return Err(input(format!(
                        "the naive kernel `{name}` does not take the parameters of `{}`",
                        ak.name
                    )));
                }
                let mut m = m.clone();
                let (fid, _) = m.kernel(name).expect("found above");
                m.functions[fid.0 as usize].name = ak.name.clone();
                (m, "naive")
            }
            None => (original.clone(), "as written"),
        };
        let (fid, f) = module.kernel(&ak.name).expect("named above");
        let (f, dynamic, _) = crate::emit::nvrtc_form(f);
        module.functions[fid.0 as usize] = f;
        Ok(Start {
            module,
            label,
            dynamic,
        })
    }

    fn kernel(&self, name: &str) -> &Function {
        self.module.kernel(name).expect("named in new").1
    }
}
