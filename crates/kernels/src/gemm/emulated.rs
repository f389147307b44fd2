//! DGEMM and double-double GEMM emulated on the INT8 tensor cores
//! ([`super::ozaki`]) as routines of the library layer, opt-in beside
//! `gemm`'s `dgemm` and `ddgemm`: `hone run dgemm_int8 m=8192 moduli=14`,
//! `hone run ddgemm_int8 m=4096 moduli=auto`, `hone bench dgemm_int8`. Each
//! problem is checked against the reference with the flavor's bound (FP64, or
//! the exact double-double product) and timed beside cuBLAS DGEMM, or beside
//! hone's CUDA-core double-double kernel (no vendor library computes in
//! double-double), on the same buffers. The number of moduli is the
//! problem's (accuracy for speed; `auto` takes the fewest that bound every
//! entry's error by about sqrt(K) u ||row of op(A)|| ||column of op(B)||;
//! `fit` measures each call's inputs and takes the fewest that bound it by
//! sqrt(K) u (|op(A)| |op(B)|)_ij, or refuses, [`super::ozaki_fit`]), not a
//! tuned choice: there are no rules.

use std::collections::HashMap;
use std::path::Path;

use hone_gpu::timing::L2Flusher;
use hone_gpu::{Gpu, ModuleCache};

use super::dd::Dd;
use super::device::GemmRunner;
use super::library::GemmRules;
use super::ozaki::{Crt, MAX_FP64_MODULI, MODULI};
use super::ozaki_fit::{Emulation, FittedGemm};
use super::routine::fill_row;
use super::{Flavor, GemmProblem, Layout, LD_MULTIPLE};
use crate::routine::problem::{reject_unknown, size_word};
use crate::routine::{
    pass_medians, Comparison, DefaultSizes, DimHelp, LibError, MeasureOptions, Problem, Result,
    Roof, Routine, Row, Selection, Session, WorkUnit,
};
use crate::vendor::cublas::{Cublas, DefaultStreamTimer};

/// The count that stands for moduli fitted to each call's inputs
/// (`moduli=fit`); such problems carry no `moduli` dimension.
pub const FIT: u64 = 0;
/// Moduli when a problem names none: fitted to each call's inputs, so
/// that every entry's error is bounded by sqrt(k) u (|op(A)| |op(B)|)_ij
/// or the call is refused; never a result less accurate than that.
pub const DEFAULT_MODULI: u64 = FIT;

/// The routine's description; see [`Routine`]. One value per precision.
pub struct EmulatedRoutine {
    dd: bool,
}

impl EmulatedRoutine {
    /// `dgemm_int8`.
    pub const DGEMM: EmulatedRoutine = EmulatedRoutine { dd: false };
    /// `ddgemm_int8`: (hi, lo) pairs.
    pub const DDGEMM: EmulatedRoutine = EmulatedRoutine { dd: true };

    fn stem(&self) -> &'static str {
        if self.dd {
            "ddgemm_int8"
        } else {
            "dgemm_int8"
        }
    }

    fn flavor(&self) -> Flavor {
        if self.dd {
            Flavor::Ddgemm
        } else {
            Flavor::Dgemm
        }
    }

    fn max_moduli(&self) -> usize {
        if self.dd {
            MODULI.len()
        } else {
            MAX_FP64_MODULI
        }
    }

    fn default_moduli(&self) -> u64 {
        DEFAULT_MODULI
    }

    /// The unit roundoff `moduli=auto` aims at, as the fit does.
    fn unit(&self) -> f64 {
        FittedGemm::unit(self.dd)
    }

    fn variant(&self, layout: Layout) -> String {
        format!(
            "{}_{}",
            self.stem(),
            layout.to_string().to_ascii_lowercase()
        )
    }

    fn layout_of(&self, variant_name: &str) -> Result<Layout> {
        Layout::ALL
            .into_iter()
            .find(|&l| self.variant(l) == variant_name)
            .ok_or_else(|| {
                LibError::Usage(format!(
                    "unknown variant `{variant_name}` (expected {0}_nn, _nt, _tn or _tt)",
                    self.stem()
                ))
            })
    }

    /// The library problem of `p` with `moduli` ([`FIT`]: no `moduli`
    /// dimension, as a problem that names none reads).
    fn problem_of(&self, p: &GemmProblem, moduli: u64) -> Problem {
        let mut dims = vec![
            ("m", p.m as u64),
            ("n", p.n as u64),
            ("k", p.k as u64),
            ("lda", p.lda as u64),
            ("ldb", p.ldb as u64),
            ("ldc", p.ldc as u64),
        ];
        if moduli != FIT {
            dims.push(("moduli", moduli));
        }
        Problem::new(
            self.variant(p.layout),
            dims,
            (p.m as f64 * p.n as f64 * p.k as f64).cbrt().round() as u64,
        )
    }

    /// The GEMM problem and the moduli of a library problem ([`FIT`] for
    /// fitted ones).
    fn emulated_of(&self, p: &Problem) -> Result<(GemmProblem, usize)> {
        let layout = self.layout_of(&p.variant)?;
        let dim = |name: &str| {
            p.dim(name)
                .map(|v| v as usize)
                .ok_or_else(|| LibError::Usage(format!("{p}: no {name}")))
        };
        let g = GemmProblem {
            flavor: self.flavor(),
            layout,
            m: dim("m")?,
            n: dim("n")?,
            k: dim("k")?,
            lda: dim("lda")?,
            ldb: dim("ldb")?,
            ldc: dim("ldc")?,
        };
        g.validate().map_err(LibError::Usage)?;
        let moduli = p.dim("moduli").map_or(FIT as usize, |v| v as usize);
        if moduli == FIT as usize {
            if g.k > super::ozaki::MAX_K {
                return Err(LibError::Usage(format!(
                    "k = {}: the INT8 emulation takes 1 <= k <= {}",
                    g.k,
                    super::ozaki::MAX_K
                )));
            }
            return Ok((g, moduli));
        }
        if moduli > self.max_moduli() {
            return Err(LibError::Usage(format!(
                "moduli={moduli} is out of range (1 to {})",
                self.max_moduli()
            )));
        }
        let crt = Crt::new(moduli).map_err(LibError::Usage)?;
        crt.target(g.k).map_err(LibError::Usage)?;
        Ok((g, moduli))
    }

    /// The `moduli` word: a count, `auto`, `fit` ([`FIT`]) or the default.
    fn moduli_word(&self, words: &[(String, String)], k: usize) -> Result<u64> {
        if k > super::ozaki::MAX_K {
            return Err(LibError::Usage(format!(
                "k = {k}: the INT8 emulation takes 1 <= k <= {} (its 32-bit sums)",
                super::ozaki::MAX_K
            )));
        }
        match words.iter().find(|(w, _)| w == "moduli") {
            Some((_, v)) if v == "fit" => Ok(FIT),
            Some((_, v)) if v == "auto" => Crt::fewest(k, self.unit(), self.max_moduli())
                .map(|l| l as u64)
                .ok_or_else(|| {
                    LibError::Usage(format!(
                        "moduli=auto: no count up to {} bounds the errors by sqrt(k) u at k = {k}; \
                         name one",
                        self.max_moduli()
                    ))
                }),
            _ => Ok(size_word(words, "moduli", self.max_moduli() as u64)?
                .unwrap_or(self.default_moduli())),
        }
    }
}

impl Routine for EmulatedRoutine {
    /// The runner checks hone's kernel and the vendor's on the same operands.
    fn checks_share_inputs(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        self.stem()
    }

    fn about(&self) -> &'static str {
        if self.dd {
            "double-double GEMM ((hi, lo) pairs) emulated on the INT8 tensor cores (Ozaki scheme \
             II), opt-in beside gemm's ddgemm; moduli=L or auto trades accuracy for speed, fit measures the inputs"
        } else {
            "DGEMM emulated on the INT8 tensor cores (Ozaki scheme II), opt-in beside gemm's \
             dgemm; moduli=L or auto trades accuracy for speed, fit measures the inputs"
        }
    }

    fn variants(&self) -> Vec<String> {
        Layout::ALL.into_iter().map(|l| self.variant(l)).collect()
    }

    fn default_variants(&self) -> Vec<String> {
        vec![self.variant(Layout::ALL[0])]
    }

    fn dims(&self) -> &'static [DimHelp] {
        const COMMON: [DimHelp; 4] = [
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
        ];
        const FP64: [DimHelp; 5] = [
            COMMON[0],
            COMMON[1],
            COMMON[2],
            COMMON[3],
            DimHelp {
                name: "moduli",
                help: "moduli of the emulation: fit (the default) measures each call's \
                       inputs and takes the fewest that bound every entry's error by sqrt(k) \
                       2^-53 (|op(A)| |op(B)|)_ij, or refuses inputs too wide for 34; a count \
                       (1 to 34) or auto (the fewest that bound it by about sqrt(k) 2^-53 \
                       ||row of op(A)|| ||column of op(B)||, 14 up to k = 2^17) skip the \
                       measurement, and entries far below that product (inputs with a wide \
                       exponent range) lose relative accuracy",
            },
        ];
        const DD: [DimHelp; 5] = [
            COMMON[0],
            COMMON[1],
            COMMON[2],
            COMMON[3],
            DimHelp {
                name: "moduli",
                help: "moduli of the emulation: fit (the default) measures each call's \
                       inputs and takes the fewest that bound every entry's error by sqrt(k) \
                       2^-104 (|op(A)| |op(B)|)_ij, or refuses inputs too wide for 34; a count \
                       (1 to 34) or auto (the fewest that bound it by about sqrt(k) 2^-104 \
                       ||row of op(A)|| ||column of op(B)||) skip the measurement, and entries \
                       far below that product (inputs with a wide exponent range) lose \
                       relative accuracy",
            },
        ];
        if self.dd {
            &DD
        } else {
            &FP64
        }
    }

    fn problem(&self, words: &[(String, String)]) -> Result<Problem> {
        reject_unknown(words, &["m", "n", "k", "layout", "moduli"])?;
        let layout = match words.iter().find(|(w, _)| w == "layout") {
            Some((_, l)) => l.parse::<Layout>().map_err(LibError::Usage)?,
            None => Layout::ALL[0],
        };
        let max = i32::MAX as u64;
        let m = size_word(words, "m", max)?.ok_or_else(|| {
            LibError::Usage(format!("{} needs m=M (n and k default to m)", self.stem()))
        })?;
        let n = size_word(words, "n", max)?.unwrap_or(m);
        let k = size_word(words, "k", max)?.unwrap_or(m);
        let g = GemmProblem::packed(self.flavor(), layout, m as usize, n as usize, k as usize);
        let moduli = self.moduli_word(words, g.k)?;
        let p = self.problem_of(&g, moduli);
        self.emulated_of(&p)?;
        Ok(p)
    }

    fn family_problem(&self, variant_name: &str, size: u64) -> Result<Problem> {
        let layout = self.layout_of(variant_name)?;
        let s = size as usize;
        let g = GemmProblem::padded(self.flavor(), layout, s, s, s, LD_MULTIPLE);
        let p = self.problem_of(&g, self.default_moduli());
        self.emulated_of(&p)?;
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

    fn open<'g>(&self, gpu: &'g Gpu, rules_dir: Option<&Path>) -> Result<Box<dyn Session + 'g>> {
        // The double-double baseline is hone's CUDA-core kernel, by its rules.
        let rules = match rules_dir {
            Some(d) if self.dd => GemmRules::load_dir(d)?,
            _ => GemmRules::for_device(&gpu.props().name).0,
        };
        Ok(Box::new(EmulatedSession {
            routine: EmulatedRoutine { dd: self.dd },
            gpu,
            runner: GemmRunner::new(gpu, ModuleCache::open_default())?,
            cublas: Cublas::new(gpu)?,
            timer: DefaultStreamTimer::new(gpu)?,
            flusher: L2Flusher::new(gpu)?,
            emulations: HashMap::new(),
            rules,
        }))
    }
}

struct EmulatedSession<'g> {
    routine: EmulatedRoutine,
    gpu: &'g Gpu,
    runner: GemmRunner<'g>,
    cublas: Cublas,
    timer: DefaultStreamTimer,
    flusher: L2Flusher,
    /// By moduli, [`FIT`] for the fitted one.
    emulations: HashMap<usize, Emulation<'g>>,
    rules: GemmRules,
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
        "none: the number of moduli is the problem's (moduli=L, auto or fit)".to_string()
    }

    fn select(&self, problem: &Problem) -> Result<Selection> {
        let (_, moduli) = self.routine.emulated_of(problem)?;
        if moduli == FIT as usize {
            return Ok(Selection::for_problem(
                problem,
                hone_tuner::Config::new(vec![(
                    "MODULI".to_string(),
                    hone_tuner::ParamValue::Str("fit".to_string()),
                )]),
                "moduli fitted to the inputs".to_string(),
            ));
        }
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
        let (g, moduli) = self.routine.emulated_of(problem)?;
        let selection = self.select(problem)?;
        let gpu = self.gpu;
        let dd = self.routine.dd;
        let emu = match self.emulations.entry(moduli) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(Emulation::new(
                gpu,
                dd,
                (moduli != FIT as usize).then_some(moduli),
            )?),
        };
        self.runner.data(&g, &options.timing)?;

        let mut hone = Row::new(problem, "hone", g.flops());
        hone.kernel = selection.label.clone();
        let check = self.runner.check_with(|alpha, a, b, beta, c| {
            // SAFETY: the runner's buffers hold the problem's matrices.
            unsafe { emu.enqueue(&g, alpha, a, b, beta, c) }.map(|_| ())
        });
        let check = match check {
            // The fit refused these inputs: say so on the row.
            Err(LibError::Refused(why)) => {
                hone.invalid(why);
                None
            }
            other => Some(other?),
        };
        if let Emulation::Fit(f) = &*emu {
            if let Some(last) = f.last() {
                hone.kernel = format!("fit: {} moduli ({})", last.moduli, last.describe());
            }
        }
        match check {
            Some(check) if check.passed() => {
                let d = self.runner.data(&g, &options.timing)?;
                let (alpha, beta) = (super::device::ALPHA, super::device::BETA);
                let medians = pass_medians(
                    gpu,
                    &options.timing,
                    options.timed_runs,
                    d.copies() as u32,
                    Some(&mut self.flusher),
                    |copy| {
                        let (a, b, c) = d.ptrs(copy);
                        // SAFETY: copy `copy` of the problem's buffers.
                        unsafe { emu.enqueue(&g, Dd::from_f64(alpha), a, b, Dd::from_f64(beta), c) }
                            .map(|_| ())
                    },
                )?;
                fill_row(&mut hone, Some(&check), None);
                hone.timed(WorkUnit::Flops, medians);
            }
            Some(check) => {
                fill_row(&mut hone, Some(&check), None);
                hone.invalid(format!("wrong result: {}", check.describe()));
            }
            None => {}
        }
        log(&hone);

        let baseline = if dd {
            // No vendor library computes in double-double: hone's CUDA-core
            // kernel on the same buffers.
            super::routine::kernel_row(
                &mut self.runner,
                &self.rules,
                &g,
                problem,
                "hone cuda cores",
                options,
            )?
        } else {
            super::routine::cublas_row(
                &mut self.runner,
                &self.cublas,
                &mut self.timer,
                problem,
                "cublas dgemm",
                options,
            )?
        };
        log(&baseline);
        Ok(Comparison::new(problem, &selection, hone, vec![baseline]))
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
        let r = EmulatedRoutine::DGEMM;
        let p = r.problem(&parse_words(&["m=100"]).unwrap()).unwrap();
        assert_eq!(p.variant, "dgemm_int8_nn");
        assert_eq!(p.dim("moduli"), None);
        let p = r
            .problem(&parse_words(&["m=64", "k=300", "layout=tn", "moduli=14"]).unwrap())
            .unwrap();
        assert_eq!(p.variant, "dgemm_int8_tn");
        let (g, moduli) = r.emulated_of(&p).unwrap();
        assert_eq!((g.m, g.n, g.k, g.lda, moduli), (64, 64, 300, 300, 14));
        for (words, msg) in [
            (vec!["m=3", "moduli=35"], "out of range"),
            (vec!["m=3", "k=131072", "moduli=fit"], "k = 131072"),
            (vec!["m=3", "k=131072"], "k = 131072"),
            (vec!["m=3", "k=131072", "moduli=auto"], "k = 131072"),
            (vec!["m=3", "precision=s"], "unknown key"),
            (vec!["n=3"], "needs m=M"),
        ] {
            let e = r.problem(&parse_words(&words).unwrap()).unwrap_err();
            assert!(e.to_string().contains(msg), "{words:?}: {e}");
        }
        let f = r.family_problem("dgemm_int8_tt", 512).unwrap();
        assert_eq!(f.size, 512);
        assert!(r.family_problem("dgemm_nn", 512).is_err());
        let auto = r
            .problem(&parse_words(&["m=64", "k=8192", "moduli=auto"]).unwrap())
            .unwrap();
        assert_eq!(auto.dim("moduli"), Some(14));
    }

    #[test]
    fn double_double_problems_take_up_to_32_moduli() {
        let r = EmulatedRoutine::DDGEMM;
        let p = r.problem(&parse_words(&["m=100"]).unwrap()).unwrap();
        assert_eq!(p.variant, "ddgemm_int8_nn");
        assert_eq!(p.dim("moduli"), None);
        let (g, _) = r.emulated_of(&p).unwrap();
        assert_eq!(g.flavor, Flavor::Ddgemm);
        let auto = r
            .problem(&parse_words(&["m=64", "k=8192", "moduli=auto", "layout=tn"]).unwrap())
            .unwrap();
        assert_eq!(
            (auto.variant.as_str(), auto.dim("moduli")),
            ("ddgemm_int8_tn", Some(28))
        );
        let e = r
            .problem(&parse_words(&["m=3", "moduli=35"]).unwrap())
            .unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
        for r in [EmulatedRoutine::DGEMM, EmulatedRoutine::DDGEMM] {
            let fit = r
                .problem(&parse_words(&["m=64", "moduli=fit"]).unwrap())
                .unwrap();
            assert_eq!(fit.dim("moduli"), None);
            assert_eq!(r.emulated_of(&fit).unwrap().1, FIT as usize);
        }
        let wide = EmulatedRoutine::DGEMM
            .problem(&parse_words(&["m=3", "moduli=30"]).unwrap())
            .unwrap();
        assert_eq!(wide.dim("moduli"), Some(30));
        assert!(r.family_problem("dgemm_int8_nn", 64).is_err());
    }
}
