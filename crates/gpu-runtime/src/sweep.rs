//! Evaluating many variants: compile them on a thread pool in this process
//! (NVRTC needs no device) while the worker process checks and times those
//! already compiled.

use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::cache::ModuleCache;
use crate::error::Result;
use crate::evaluate::{EvalOptions, EvalRequest, ModuleSource, Outcome};
use crate::isolated::IsolatedEvaluator;
use crate::nvrtc::Target;
use crate::pool::{CompilePool, Compiled};
use crate::template::{Config, KernelTemplate};
use crate::tuning::compile_variant;

/// One variant to evaluate at some sizes.
#[derive(Debug, Clone)]
pub struct Variant {
    pub label: String,
    pub template: Arc<KernelTemplate>,
    pub config: Config,
    pub sizes: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SizeResult {
    pub n: i64,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantResult {
    /// Position in the list given to [`sweep`].
    pub index: usize,
    pub label: String,
    pub config: Config,
    /// Wall time of compilation (or cache lookup) in milliseconds.
    pub compile_ms: f64,
    /// `None` when compilation failed.
    pub cache_hit: Option<bool>,
    pub results: Vec<SizeResult>,
}

impl VariantResult {
    pub fn outcome_at(&self, n: i64) -> Option<&Outcome> {
        self.results.iter().find(|r| r.n == n).map(|r| &r.outcome)
    }
}

/// How a sweep runs.
#[derive(Debug, Clone)]
pub struct SweepOptions {
    pub eval: EvalOptions,
    pub compile_threads: usize,
}

impl Default for SweepOptions {
    fn default() -> Self {
        SweepOptions {
            eval: EvalOptions::default(),
            compile_threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
                .clamp(1, 8),
        }
    }
}

/// Compiles every variant for `target` through `cache` ahead on the compile
/// pool and evaluates each at its sizes in `evaluator`, in variant order,
/// calling `on_result` as each variant finishes. Returns the results. Stops early only when the machinery fails (no device, a worker
/// that cannot start).
pub fn sweep(
    evaluator: &mut IsolatedEvaluator,
    cache: &ModuleCache,
    target: Target,
    nvrtc_version: (u32, u32),
    variants: Vec<Variant>,
    options: &SweepOptions,
    mut on_result: impl FnMut(&VariantResult),
) -> Result<Vec<VariantResult>> {
    let variants = Arc::new(variants);
    let jobs = Arc::clone(&variants);
    let cache = cache.clone();
    let mut pool = CompilePool::new(move |&i: &usize| {
        let v = &jobs[i];
        let start = Instant::now();
        let c = compile_variant(&v.template, &cache, target, nvrtc_version, &v.config);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        Compiled {
            cache_hit: c.cache_hit,
            result: c.result.map(|m| (m.path, m.module.kind, m.hit, ms)),
        }
    });
    pool.queue(0..variants.len(), options.compile_threads);
    let mut results: Vec<VariantResult> = Vec::with_capacity(variants.len());
    for (index, v) in variants.iter().enumerate() {
        let module = pool.wait(&index);
        let mut result = VariantResult {
            index,
            label: v.label.clone(),
            config: v.config.clone(),
            compile_ms: module.as_ref().map_or(0.0, |m| m.3),
            cache_hit: None,
            results: Vec::new(),
        };
        match module {
            Err(invalid) => {
                result.results = v
                    .sizes
                    .iter()
                    .map(|&n| SizeResult {
                        n,
                        outcome: invalid.clone().into(),
                    })
                    .collect();
            }
            Ok((path, kind, hit, _)) => {
                result.cache_hit = Some(hit);
                for &n in &v.sizes {
                    let request = EvalRequest {
                        template: (*v.template).clone(),
                        config: v.config.clone(),
                        n,
                        module: ModuleSource::File {
                            path: path.clone(),
                            kind,
                        },
                        options: options.eval.clone(),
                    };
                    let outcome = evaluator.evaluate(&request)?;
                    result.results.push(SizeResult { n, outcome });
                }
            }
        }
        on_result(&result);
        results.push(result);
    }
    Ok(results)
}

/// A label such as `BLOCK_SIZE=256 ELEMS_PER_THREAD=4 VEC=4`.
pub fn config_label(config: &Config) -> String {
    config
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_list_parameters_in_name_order() {
        let c: Config = [("VEC".to_string(), 4), ("BLOCK_SIZE".to_string(), 256)].into();
        assert_eq!(config_label(&c), "BLOCK_SIZE=256 VEC=4");
    }

    #[test]
    fn configurations_breaking_a_constraint_are_invalid_before_compiling() {
        let t = Arc::new(crate::template::bundled_vcopy());
        let config: Config = [
            ("BLOCK_SIZE".to_string(), 1024),
            ("ELEMS_PER_THREAD".to_string(), 8),
            ("VEC".to_string(), 4),
        ]
        .into();
        let v = Variant {
            label: "too big".into(),
            template: t,
            config,
            sizes: vec![1024],
        };
        let cache = ModuleCache::new(std::env::temp_dir().join("hone-sweep-unused"));
        let target = Target {
            arch: 90,
            kind: crate::nvrtc::ImageKind::Cubin,
            arch_specific: false,
        };
        let c = compile_variant(&v.template, &cache, target, (13, 0), &v.config);
        let err = c.result.unwrap_err();
        assert!(err.reason.starts_with("invalid configuration"), "{err}");
        assert_eq!(err.kind, hone_tuner::InvalidKind::Constraint);
        assert!(!cache.dir().exists(), "nothing was compiled");
    }
}
