//! SYMV as a library routine: its variants (`dsymv_lower`, ...), problems
//! (`n`, with the leading dimension the runner pads to), the rules' kernels
//! checked and timed against cuBLAS `?symv` and `?gemv` on the same buffers.

use std::path::Path;

use hone_gpu::{Gpu, ModuleCache};

use super::bench::{compare_kernel, tools_line, BenchRow};
use super::cublas::Cublas;
use super::library::{parse_variant, variants};
use super::reference::tolerance;
use super::traffic::{gemv_bytes, symv_bytes};
use super::tuning::library_name;
use super::{Precision, RunOptions, Symv, SymvError, SymvRules, SymvRunner, Uplo};
use crate::routine::problem::{reject_unknown, size_word};
use crate::routine::{
    Comparison, DefaultSizes, DimHelp, LaunchInfo, LibError, MeasureOptions, Problem, Result, Roof,
    Routine, Row, Selection, Session, WorkUnit,
};

/// The largest n: the kernels index with 32-bit integers.
const MAX_N: u64 = i32::MAX as u64;

/// The routine's description; see [`Routine`].
pub struct SymvRoutine;

impl From<SymvError> for LibError {
    fn from(e: SymvError) -> LibError {
        match e {
            SymvError::Gpu(g) => LibError::Gpu(g),
            SymvError::Io { path, source } => LibError::Io { path, source },
            SymvError::Problem(m) => LibError::Usage(m),
            other => LibError::Routine(other.to_string()),
        }
    }
}

fn variant_of(name: &str) -> Result<(Precision, Uplo)> {
    parse_variant(name).ok_or_else(|| {
        LibError::Usage(format!(
            "unknown SYMV variant `{name}` (expected one of {})",
            variants().join(", ")
        ))
    })
}

/// The leading dimension the runner gives an n x n matrix.
fn lda_of(n: u64) -> u64 {
    RunOptions::default().lda(n as usize) as u64
}

fn symv_problem(precision: Precision, uplo: Uplo, n: u64) -> Problem {
    Problem::new(
        library_name(precision, uplo),
        vec![("n", n), ("lda", lda_of(n))],
        n,
    )
}

impl Routine for SymvRoutine {
    fn name(&self) -> &'static str {
        "symv"
    }

    fn about(&self) -> &'static str {
        "y = alpha A x + beta y, A symmetric with one triangle stored (double, single; lower, upper)"
    }

    fn variants(&self) -> Vec<String> {
        variants()
    }

    fn dims(&self) -> &'static [DimHelp] {
        &[
            DimHelp {
                name: "n",
                help: "the matrix size (required)",
            },
            DimHelp {
                name: "precision",
                help: "d (double, default) or s (single)",
            },
            DimHelp {
                name: "uplo",
                help: "the stored triangle: lower (default) or upper",
            },
        ]
    }

    fn problem(&self, words: &[(String, String)]) -> Result<Problem> {
        reject_unknown(words, &["n", "precision", "uplo"])?;
        let word = |k: &str| words.iter().find(|(w, _)| w == k).map(|(_, v)| v.as_str());
        let precision = match word("precision") {
            Some(p) => p.parse::<Precision>().map_err(LibError::Usage)?,
            None => Precision::Double,
        };
        let uplo = match word("uplo") {
            Some(u) => u.parse::<Uplo>().map_err(LibError::Usage)?,
            None => Uplo::Lower,
        };
        let n = size_word(words, "n", MAX_N)?
            .ok_or_else(|| LibError::Usage("SYMV needs n=N".to_string()))?;
        Ok(symv_problem(precision, uplo, n))
    }

    fn family_problem(&self, variant: &str, size: u64) -> Result<Problem> {
        let (p, u) = variant_of(variant)?;
        if size == 0 || size > MAX_N {
            return Err(LibError::Usage(format!(
                "N = {size} is out of range (1 to {MAX_N})"
            )));
        }
        Ok(symv_problem(p, u, size))
    }

    fn size_axis(&self) -> &'static str {
        "N"
    }

    fn default_sizes(&self) -> DefaultSizes {
        DefaultSizes {
            table: vec![512, 1024, 2048, 4096, 8192, 16384, 32768],
            chart: (64, 32768),
        }
    }

    fn work_unit(&self) -> WorkUnit {
        WorkUnit::Bytes
    }

    fn retune_files(&self) -> Vec<(&'static str, &'static str)> {
        crate::symv::space::retune_files()
    }

    fn tuned_on(&self) -> &'static [&'static str] {
        &crate::symv::library::BUILT_IN_GPUS
    }

    fn open<'g>(&self, gpu: &'g Gpu, rules_dir: Option<&Path>) -> Result<Box<dyn Session + 'g>> {
        let rules = match rules_dir {
            Some(d) => SymvRules::load_dir(d)?,
            None => SymvRules::bundled_for(&gpu.props().name),
        };
        let runner = SymvRunner::new(gpu, ModuleCache::open_default())?;
        let cublas = Cublas::new(gpu)?;
        Ok(Box::new(SymvSession {
            symv: Symv::with_runner(runner, rules),
            cublas,
        }))
    }
}

/// SYMV opened on a GPU: the runner with the rules, and cuBLAS.
struct SymvSession<'g> {
    symv: Symv<'g>,
    cublas: Cublas,
}

/// A SYMV benchmark row as a library row: `hone`, `cublas dsymv`, `cublas
/// dgemv`, each rated on its own bytes.
fn row_of(problem: &Problem, precision: Precision, r: &BenchRow) -> Row {
    let (n, elem) = (r.n, precision.size());
    let prefix = precision.blas_prefix();
    let (implementation, bytes) = match r.implementation.as_str() {
        "cublas gemv" => (format!("cublas {prefix}gemv"), gemv_bytes(n, elem)),
        "cublas symv" => (format!("cublas {prefix}symv"), symv_bytes(n, elem)),
        _ => ("hone".to_string(), symv_bytes(n, elem)),
    };
    let mut row = Row::new(problem, &implementation, bytes);
    if implementation == "hone" {
        row.kernel = format!(
            "{} {}",
            r.implementation.trim_start_matches("hone "),
            r.config
        );
    }
    row.status = r.status.clone();
    row.medians_ms = r.medians_ms.clone();
    row.rate = r.gbps;
    row.error = r.relative_error;
    row.bound = Some(tolerance(precision, n));
    if let (Some(registers), Some(grid), Some(block)) = (r.registers, r.grid, r.block) {
        row.launch = Some(LaunchInfo {
            registers,
            local_bytes: r.local_bytes.unwrap_or(0),
            grid: (grid, 1, 1),
            block: (block, 1, 1),
            shared_mem: r.shared_mem.unwrap_or(0),
        });
    }
    row
}

impl Session for SymvSession<'_> {
    fn tools(&self) -> String {
        let (runner, cublas) = (self.symv.runner_ref(), &self.cublas);
        tools_line(runner, cublas)
    }

    fn rules_origin(&self) -> String {
        self.symv.rules().origin().to_string()
    }

    fn select(&self, problem: &Problem) -> Result<Selection> {
        let (p, u) = variant_of(&problem.variant)?;
        let s = self.symv.rules().select(p, u, problem.size as usize)?;
        Ok(Selection {
            variant: problem.variant.clone(),
            config: self.symv.rules().rule(p, u).select(problem.size).clone(),
            label: format!("{} ({})", s.kernel.label(), s.label),
            start: s.start,
            end: s.end,
        })
    }

    fn compare(
        &mut self,
        problem: &Problem,
        options: &MeasureOptions,
        log: &mut dyn FnMut(&Row),
    ) -> Result<Comparison> {
        let (p, u) = variant_of(&problem.variant)?;
        let n = problem.size as usize;
        let selection = self.symv.rules().select(p, u, n)?;
        let run = RunOptions {
            timing: options.timing.clone(),
            timed_runs: options.timed_runs,
            ..RunOptions::default()
        };
        let (rows, _) = compare_kernel(
            self.symv.runner(),
            &self.cublas,
            &run,
            &selection.kernel,
            n,
            &mut |_| {},
        )?;
        let mut rows = rows.iter().map(|r| row_of(problem, p, r));
        let hone = rows
            .next()
            .ok_or_else(|| LibError::Routine("no row for hone's kernel".to_string()))?;
        let baselines: Vec<Row> = rows.collect();
        for r in std::iter::once(&hone).chain(&baselines) {
            log(r);
        }
        Ok(Comparison {
            problem: problem.clone(),
            rule_kernel: selection.label.clone(),
            interval: selection.interval(),
            hone,
            baselines,
        })
    }

    fn roof(&mut self, options: &MeasureOptions) -> Option<Roof> {
        Roof::copy(self.symv.runner().gpu(), &options.timing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routine::parse_words;

    #[test]
    fn problems_come_from_words_with_defaults() {
        let r = SymvRoutine;
        let p = r.problem(&parse_words(&["n=1000"]).unwrap()).unwrap();
        assert_eq!(p.variant, "dsymv_lower");
        assert_eq!(p.key(), "n=1000 lda=1024");
        assert_eq!(p.size, 1000);
        let p = r
            .problem(&parse_words(&["n=64", "precision=s", "uplo=U"]).unwrap())
            .unwrap();
        assert_eq!(p.variant, "ssymv_upper");
        for (words, msg) in [
            (vec!["precision=d"], "needs n=N"),
            (vec!["n=0"], "out of range"),
            (vec!["n=8", "uplo=diag"], "unknown storage"),
            (vec!["n=8", "m=3"], "unknown key `m`"),
        ] {
            let e = r.problem(&parse_words(&words).unwrap()).unwrap_err();
            assert!(e.to_string().contains(msg), "{words:?}: {e}");
        }
    }

    #[test]
    fn every_variant_has_a_family_and_a_bundled_rule() {
        let r = SymvRoutine;
        let rules = SymvRules::bundled();
        for v in r.variants() {
            let p = r.family_problem(&v, 4096).unwrap();
            assert_eq!((p.variant.as_str(), p.size), (v.as_str(), 4096));
            let (pr, u) = variant_of(&v).unwrap();
            assert_eq!(rules.rule(pr, u).name, v);
        }
        assert!(r.family_problem("zsymv_lower", 10).is_err());
        assert!(r.family_problem("dsymv_lower", 0).is_err());
    }

    #[test]
    fn rows_are_named_and_rated_on_their_own_bytes() {
        let p = symv_problem(Precision::Double, Uplo::Lower, 1024);
        let mut b = BenchRow::new(Precision::Double, Uplo::Lower, 1024, 1024, "cublas gemv");
        b.gbps = Some(2000.0);
        b.medians_ms = vec![0.5];
        let r = row_of(&p, Precision::Double, &b);
        assert_eq!(r.implementation, "cublas dgemv");
        assert_eq!(r.work, gemv_bytes(1024, 8));
        assert_eq!(r.rate, Some(2000.0));
        let mut h = BenchRow::new(Precision::Double, Uplo::Lower, 1024, 1024, "hone lu");
        h.config = "BLOCK_SIZE=64 NB=8".into();
        let r = row_of(&p, Precision::Double, &h);
        assert_eq!(
            (r.implementation.as_str(), r.kernel.as_str()),
            ("hone", "lu BLOCK_SIZE=64 NB=8")
        );
        assert_eq!(r.bound, Some(tolerance(Precision::Double, 1024)));
    }
}
