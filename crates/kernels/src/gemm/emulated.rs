//! DGEMM emulated on the INT8 tensor cores ([`super::ozaki`]) as a routine
//! of the library layer, opt-in beside `gemm`'s native `dgemm`:
//! `hone run dgemm_int8 m=8192 moduli=15`, `hone bench dgemm_int8`. Each
//! problem is checked against the FP64 reference with DGEMM's bound and
//! timed with cuBLAS DGEMM on the same buffers. The number of moduli is the
//! problem's (accuracy for speed), not a tuned choice: there are no rules.

use std::collections::HashMap;
use std::path::Path;

use hone_gpu::timing::L2Flusher;
use hone_gpu::{Gpu, ModuleCache};

use super::device::GemmRunner;
use super::ozaki::{Crt, OzakiGemm, MAX_FP64_MODULI};
use super::routine::fill_row;
use super::{Flavor, GemmProblem, Layout, LD_MULTIPLE};
use crate::routine::problem::{reject_unknown, size_word};
use crate::routine::{
    pass_medians, Comparison, DefaultSizes, DimHelp, LibError, MeasureOptions, Problem, Result,
    Roof, Routine, Row, Selection, Session, WorkUnit,
};
use crate::vendor::cublas::{Cublas, DefaultStreamTimer};

/// Moduli when a problem names none: FP64-level accuracy up to K = 2^17.
pub const DEFAULT_MODULI: u64 = 16;

/// The routine's description; see [`Routine`].
pub struct EmulatedDgemmRoutine;

fn variant(layout: Layout) -> String {
    format!("dgemm_int8_{}", layout.to_string().to_ascii_lowercase())
}

fn layout_of(variant_name: &str) -> Result<Layout> {
    Layout::ALL
        .into_iter()
        .find(|&l| variant(l) == variant_name)
        .ok_or_else(|| {
            LibError::Usage(format!(
                "unknown variant `{variant_name}` (expected dgemm_int8_nn, _nt, _tn or _tt)"
            ))
        })
}

fn problem_of(p: &GemmProblem, moduli: u64) -> Problem {
    Problem::new(
        variant(p.layout),
        vec![
            ("m", p.m as u64),
            ("n", p.n as u64),
            ("k", p.k as u64),
            ("lda", p.lda as u64),
            ("ldb", p.ldb as u64),
            ("ldc", p.ldc as u64),
            ("moduli", moduli),
        ],
        (p.m as f64 * p.n as f64 * p.k as f64).cbrt().round() as u64,
    )
}

/// The FP64 GEMM problem and the moduli of a library problem.
fn emulated_of(p: &Problem) -> Result<(GemmProblem, usize)> {
    let layout = layout_of(&p.variant)?;
    let dim = |name: &str| {
        p.dim(name)
            .map(|v| v as usize)
            .ok_or_else(|| LibError::Usage(format!("{p}: no {name}")))
    };
    let g = GemmProblem {
        flavor: Flavor::Dgemm,
        layout,
        m: dim("m")?,
        n: dim("n")?,
        k: dim("k")?,
        lda: dim("lda")?,
        ldb: dim("ldb")?,
        ldc: dim("ldc")?,
    };
    g.validate().map_err(LibError::Usage)?;
    let moduli = dim("moduli")?;
    let crt = Crt::new(moduli).map_err(LibError::Usage)?;
    crt.target(g.k).map_err(LibError::Usage)?;
    Ok((g, moduli))
}

impl Routine for EmulatedDgemmRoutine {
    fn name(&self) -> &'static str {
        "dgemm_int8"
    }

    fn about(&self) -> &'static str {
        "DGEMM emulated on the INT8 tensor cores (Ozaki scheme II), opt-in beside gemm's dgemm; \
         moduli=L trades accuracy for speed"
    }

    fn variants(&self) -> Vec<String> {
        Layout::ALL.into_iter().map(variant).collect()
    }

    fn default_variants(&self) -> Vec<String> {
        vec![variant(Layout::ALL[0])]
    }

    fn dims(&self) -> &'static [DimHelp] {
        &[
            DimHelp {
                name: "m",
                help: "rows of C (required; n and k default to it)",
            },
            DimHelp {
                name: "n",
                help: "columns of C",
            },
            DimHelp {
                name: "k",
                help: "the inner dimension (below 2^17)",
            },
            DimHelp {
                name: "layout",
                help: "op(A) op(B): NN (default), NT, TN or TT",
            },
            DimHelp {
                name: "moduli",
                help: "moduli of the emulation, 1 to 16 (default 16: FP64 accuracy)",
            },
        ]
    }

    fn problem(&self, words: &[(String, String)]) -> Result<Problem> {
        reject_unknown(words, &["m", "n", "k", "layout", "moduli"])?;
        let layout = match words.iter().find(|(w, _)| w == "layout") {
            Some((_, l)) => l.parse::<Layout>().map_err(LibError::Usage)?,
            None => Layout::ALL[0],
        };
        let max = i32::MAX as u64;
        let m = size_word(words, "m", max)?
            .ok_or_else(|| LibError::Usage("dgemm_int8 needs m=M (n and k default to m)".into()))?;
        let n = size_word(words, "n", max)?.unwrap_or(m);
        let k = size_word(words, "k", max)?.unwrap_or(m);
        let moduli = size_word(words, "moduli", MAX_FP64_MODULI as u64)?.unwrap_or(DEFAULT_MODULI);
        let g = GemmProblem::packed(Flavor::Dgemm, layout, m as usize, n as usize, k as usize);
        let p = problem_of(&g, moduli);
        emulated_of(&p)?;
        Ok(p)
    }

    fn family_problem(&self, variant_name: &str, size: u64) -> Result<Problem> {
        let layout = layout_of(variant_name)?;
        let s = size as usize;
        let g = GemmProblem::padded(Flavor::Dgemm, layout, s, s, s, LD_MULTIPLE);
        let p = problem_of(&g, DEFAULT_MODULI);
        emulated_of(&p)?;
        Ok(p)
    }

    fn size_axis(&self) -> &'static str {
        "N (square, M = N = K)"
    }

    fn default_sizes(&self) -> DefaultSizes {
        DefaultSizes {
            table: vec![1024, 2048, 4096, 8192, 16384],
            chart: (256, 16384),
        }
    }

    fn work_unit(&self) -> WorkUnit {
        WorkUnit::Flops
    }

    /// No rules: nothing was tuned on any GPU.
    fn tuned_on(&self) -> &'static [&'static str] {
        &[]
    }

    fn open<'g>(&self, gpu: &'g Gpu, _rules: Option<&Path>) -> Result<Box<dyn Session + 'g>> {
        Ok(Box::new(EmulatedSession {
            gpu,
            runner: GemmRunner::new(gpu, ModuleCache::open_default())?,
            cublas: Cublas::new(gpu)?,
            timer: DefaultStreamTimer::new(gpu)?,
            flusher: L2Flusher::new(gpu)?,
            emulations: HashMap::new(),
        }))
    }
}

struct EmulatedSession<'g> {
    gpu: &'g Gpu,
    runner: GemmRunner<'g>,
    cublas: Cublas,
    timer: DefaultStreamTimer,
    flusher: L2Flusher,
    emulations: HashMap<usize, OzakiGemm<'g>>,
}

impl Session for EmulatedSession<'_> {
    fn tools(&self) -> String {
        format!(
            "cuBLAS {}",
            self.cublas
                .version()
                .map(|v| v.to_string())
                .unwrap_or_else(|e| e.to_string())
        )
    }

    fn rules_origin(&self) -> String {
        "none: the number of moduli is the problem's (moduli=L)".to_string()
    }

    fn select(&self, problem: &Problem) -> Result<Selection> {
        let (_, moduli) = emulated_of(problem)?;
        let config = hone_tuner::Config::new(vec![(
            "MODULI".to_string(),
            hone_tuner::ParamValue::Int(moduli as i64),
        )]);
        Ok(Selection::for_problem(
            problem,
            config,
            format!("{moduli} moduli"),
        ))
    }

    fn compare(
        &mut self,
        problem: &Problem,
        options: &MeasureOptions,
        log: &mut dyn FnMut(&Row),
    ) -> Result<Comparison> {
        let (g, moduli) = emulated_of(problem)?;
        let selection = self.select(problem)?;
        let gpu = self.gpu;
        let emu = match self.emulations.entry(moduli) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(OzakiGemm::new(gpu, moduli)?),
        };
        self.runner.data(&g, &options.timing)?;

        let mut hone = Row::new(problem, "hone", g.flops());
        hone.kernel = selection.label.clone();
        let check = self.runner.check_with(|alpha, a, b, beta, c| {
            // SAFETY: the runner's buffers hold the problem's matrices.
            unsafe { emu.enqueue(&g, alpha.hi, a, b, beta.hi, c) }
        })?;
        if check.passed() {
            let d = self.runner.data(&g, &options.timing)?;
            let medians = pass_medians(
                gpu,
                &options.timing,
                options.timed_runs,
                d.copies() as u32,
                Some(&mut self.flusher),
                |copy| {
                    let (a, b, c) = d.ptrs(copy);
                    // SAFETY: copy `copy` of the problem's buffers.
                    unsafe { emu.enqueue(&g, super::device::ALPHA, a, b, super::device::BETA, c) }
                },
            )?;
            fill_row(&mut hone, Some(&check), None);
            hone.timed(WorkUnit::Flops, medians);
        } else {
            fill_row(&mut hone, Some(&check), None);
            hone.invalid(format!("wrong result: {}", check.describe()));
        }
        log(&hone);

        let vendor = super::routine::cublas_row(
            &mut self.runner,
            &self.cublas,
            &mut self.timer,
            problem,
            "cublas dgemm",
            options,
        )?;
        log(&vendor);
        Ok(Comparison::new(problem, &selection, hone, vec![vendor]))
    }

    fn roof(&mut self, _options: &MeasureOptions) -> Option<Roof> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routine::parse_words;

    #[test]
    fn problems_carry_the_layout_and_the_moduli() {
        let r = EmulatedDgemmRoutine;
        let p = r.problem(&parse_words(&["m=100"]).unwrap()).unwrap();
        assert_eq!(p.variant, "dgemm_int8_nn");
        assert_eq!(p.dim("moduli"), Some(16));
        let p = r
            .problem(&parse_words(&["m=64", "k=300", "layout=tn", "moduli=14"]).unwrap())
            .unwrap();
        assert_eq!(p.variant, "dgemm_int8_tn");
        let (g, moduli) = emulated_of(&p).unwrap();
        assert_eq!((g.m, g.n, g.k, g.lda, moduli), (64, 64, 300, 300, 14));
        for (words, msg) in [
            (vec!["m=3", "moduli=17"], "out of range"),
            (vec!["m=3", "k=131072"], "k = 131072"),
            (vec!["m=3", "precision=s"], "unknown key"),
            (vec!["n=3"], "needs m=M"),
        ] {
            let e = r.problem(&parse_words(&words).unwrap()).unwrap_err();
            assert!(e.to_string().contains(msg), "{words:?}: {e}");
        }
        let f = r.family_problem("dgemm_int8_tt", 512).unwrap();
        assert_eq!(f.size, 512);
        assert!(r.family_problem("dgemm_nn", 512).is_err());
    }
}
