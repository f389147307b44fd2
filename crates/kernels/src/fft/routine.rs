//! The FFT as a library routine: variants `cfft3d` (single) and `zfft3d`
//! (double), and the real transforms `scfft3d` and `dzfft3d` (forward
//! real-to-complex, inverse complex-to-real); problems `nx ny nz batch
//! direction place`, the planned kernels
//! checked and timed against cuFFT on the same buffers. Rates are
//! GB/s-equivalent: one read and one write of the data per transform, so
//! the copy bandwidth is the ceiling of a one-pass transform.

use std::path::Path;

use hone_gpu::{Gpu, ModuleCache};

use super::device::{Checked, FftRunner, Timed};
use super::plan::FftConfig;
use super::plans::FftPlans;
use super::tune::TuneSpace;
use super::{kind_of, radix, Direction, FftProblem, MAX_LEN};
use crate::precision::Precision;
use crate::routine::problem::{reject_unknown, size_word};
use crate::routine::rules::Selection;
use crate::routine::{
    Comparison, DefaultSizes, DimHelp, LibError, MeasureOptions, PlanOutcome, Problem, Result,
    Roof, Routine, Row, Session, WorkUnit,
};
use crate::vendor::cublas::DefaultStreamTimer;

/// The routine's description; see [`Routine`].
pub struct FftRoutine;

/// The library problem of an FFT problem.
pub fn problem_of(p: &FftProblem) -> Problem {
    Problem::new(
        p.variant(),
        vec![
            ("nx", p.n[0] as u64),
            ("ny", p.n[1] as u64),
            ("nz", p.n[2] as u64),
            ("batch", p.batch as u64),
            ("inverse", (p.direction == Direction::Inverse) as u64),
            ("in_place", p.in_place as u64),
        ],
        // Plans are per shape; the size axis places a problem by the cube
        // root of its points.
        (p.points() as f64).cbrt().round() as u64,
    )
}

/// The FFT problem of a library problem.
pub fn fft_of(p: &Problem) -> Result<FftProblem> {
    let (precision, real) = kind_of(&p.variant).ok_or_else(|| {
        LibError::Usage(format!(
            "unknown FFT variant `{}` (expected cfft3d, zfft3d, scfft3d or dzfft3d)",
            p.variant
        ))
    })?;
    let dim = |name: &str| {
        p.dim(name)
            .ok_or_else(|| LibError::Usage(format!("{p}: no {name}")))
    };
    let f = FftProblem {
        precision,
        n: [dim("nx")? as u32, dim("ny")? as u32, dim("nz")? as u32],
        batch: dim("batch")? as u32,
        direction: if dim("inverse")? == 1 {
            Direction::Inverse
        } else {
            Direction::Forward
        },
        in_place: dim("in_place")? == 1,
        real,
    };
    f.validate().map_err(LibError::Usage)?;
    Ok(f)
}

/// The smallest 7-smooth length at least `n`.
pub fn smooth_at_least(n: u64) -> u64 {
    (n.max(1)..)
        .find(|&m| radix::smooth(m))
        .expect("smooth numbers are unbounded")
}

/// The smallest length at least `n` that a real transform takes along x:
/// even, with a 7-smooth half.
pub fn real_length_at_least(n: u64) -> u64 {
    2 * smooth_at_least(n.max(2).div_ceil(2))
}

impl Routine for FftRoutine {
    /// The runner checks hone's kernel and the vendor's on the same operands.
    fn checks_share_inputs(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "fft"
    }

    fn about(&self) -> &'static str {
        "3-D FFT, forward or inverse (unnormalised), batched, on lengths that are products of \
         2, 3, 5 and 7: complex-to-complex in or out of place (cfft3d: single, zfft3d: double), \
         and real-to-complex forward / complex-to-real inverse out of place, x halved to \
         nx/2+1 in the spectrum (scfft3d: single, dzfft3d: double)"
    }

    fn variants(&self) -> Vec<String> {
        ["cfft3d", "zfft3d", "scfft3d", "dzfft3d"]
            .map(String::from)
            .to_vec()
    }

    fn dims(&self) -> &'static [DimHelp] {
        &[
            DimHelp {
                name: "n",
                help: "the length of a cube (nx, ny and nz default to it)",
            },
            DimHelp {
                name: "nx",
                help: "length along x, the contiguous axis",
            },
            DimHelp {
                name: "ny",
                help: "length along y",
            },
            DimHelp {
                name: "nz",
                help: "length along z, the slowest axis",
            },
            DimHelp {
                name: "batch",
                help: "transforms one after the other in memory (default 1)",
            },
            DimHelp {
                name: "precision",
                help: "single (default) or double",
            },
            DimHelp {
                name: "real",
                help: "yes for the real transforms: forward real-to-complex, inverse \
                       complex-to-real (default no)",
            },
            DimHelp {
                name: "direction",
                help: "forward (default) or inverse",
            },
            DimHelp {
                name: "place",
                help: "out (default) or in",
            },
        ]
    }

    fn problem(&self, words: &[(String, String)]) -> Result<Problem> {
        reject_unknown(
            words,
            &[
                "n",
                "nx",
                "ny",
                "nz",
                "batch",
                "precision",
                "direction",
                "place",
                "real",
            ],
        )?;
        let word = |k: &str| words.iter().find(|(w, _)| w == k).map(|(_, v)| v.as_str());
        let precision = match word("precision") {
            Some(s) => s.parse::<Precision>().map_err(LibError::Usage)?,
            None => Precision::Single,
        };
        let direction = match word("direction") {
            Some(s) => s.parse::<Direction>().map_err(LibError::Usage)?,
            None => Direction::Forward,
        };
        let in_place = match word("place") {
            None | Some("out") | Some("out_of_place") => false,
            Some("in") | Some("in_place") => true,
            Some(other) => {
                return Err(LibError::Usage(format!(
                    "place={other}: expected in or out"
                )))
            }
        };
        let real = match word("real") {
            None | Some("no") | Some("false") | Some("0") => false,
            Some("yes") | Some("true") | Some("1") => true,
            Some(other) => {
                return Err(LibError::Usage(format!("real={other}: expected yes or no")))
            }
        };
        let max = MAX_LEN as u64;
        let cube = size_word(words, "n", max)?;
        let nx = size_word(words, "nx", max)?
            .or(cube)
            .ok_or_else(|| LibError::Usage("the FFT needs n=N or nx=NX".into()))?;
        let ny = size_word(words, "ny", max)?.or(cube).unwrap_or(nx);
        let nz = size_word(words, "nz", max)?.or(cube).unwrap_or(ny);
        let batch = size_word(words, "batch", u32::MAX as u64)?.unwrap_or(1);
        let f = FftProblem {
            precision,
            n: [nx as u32, ny as u32, nz as u32],
            batch: batch as u32,
            direction,
            in_place,
            real,
        };
        f.validate().map_err(LibError::Usage)?;
        Ok(problem_of(&f))
    }

    fn family_problem(&self, variant: &str, size: u64) -> Result<Problem> {
        let (precision, real) = kind_of(variant)
            .ok_or_else(|| LibError::Usage(format!("unknown FFT variant `{variant}`")))?;
        if size == 0 || size > MAX_LEN as u64 {
            return Err(LibError::Usage(format!(
                "size {size}: cubes run from 1 to {MAX_LEN}"
            )));
        }
        // The charts' log-spaced sizes land between smooth lengths.
        let n = if real {
            real_length_at_least(size)
        } else {
            smooth_at_least(size)
        }
        .min(MAX_LEN as u64) as u32;
        let f = FftProblem {
            real,
            ..FftProblem::cube(precision, n)
        };
        f.validate().map_err(LibError::Usage)?;
        Ok(problem_of(&f))
    }

    fn size_axis(&self) -> &'static str {
        "N (cube N x N x N)"
    }

    fn default_sizes(&self) -> DefaultSizes {
        DefaultSizes {
            table: vec![32, 64, 128, 240, 243, 250, 256, 384, 512],
            chart: (16, 512),
        }
    }

    /// What FFT users bring besides cubes: in place, inverse, batches of
    /// small cubes, slabs and boxes whose axes differ.
    fn other_shapes(&self, variant: &str) -> Vec<Problem> {
        let Some((precision, real)) = kind_of(variant) else {
            return Vec::new();
        };
        let p = |n: [u32; 3], batch, direction, in_place| {
            problem_of(&FftProblem {
                precision,
                n,
                batch,
                direction,
                in_place,
                real,
            })
        };
        use Direction::{Forward as F, Inverse as I};
        if real {
            // Out of place only; the inverse is complex-to-real.
            return vec![
                p([256, 256, 256], 1, I, false),
                p([512, 512, 512], 1, I, false),
                p([128, 128, 128], 8, F, false),
                p([512, 512, 64], 1, F, false),
                p([240, 243, 250], 1, F, false),
                p([1024, 96, 60], 1, I, false),
            ];
        }
        vec![
            p([256, 256, 256], 1, F, true),
            p([256, 256, 256], 1, I, false),
            p([128, 128, 128], 8, F, false),
            p([512, 512, 64], 1, F, false),
            p([240, 243, 250], 1, F, false),
            p([1024, 96, 60], 1, I, true),
        ]
    }

    fn work_unit(&self) -> WorkUnit {
        WorkUnit::Bytes
    }

    fn tuned_on(&self) -> &'static [&'static str] {
        &super::plans::BUILT_IN_GPUS
    }

    fn plans_per_problem(&self) -> bool {
        true
    }

    fn save_plan(&self, dir: &Path, plan: &PlanOutcome) -> Result<Vec<std::path::PathBuf>> {
        let f = fft_of(&plan.problem)?;
        let config = FftConfig::from_config(&plan.config).map_err(LibError::Rule)?;
        Ok(vec![super::plans::save(
            dir,
            &f,
            &config,
            plan.measured_ms * 1e-3,
        )?])
    }

    fn plan_key(&self, problem: &Problem) -> String {
        match fft_of(problem) {
            Ok(f) => super::plans::key_of(&f).to_string(),
            Err(_) => problem.key(),
        }
    }

    fn has_plan(&self, dir: &Path, problem: &Problem) -> Result<bool> {
        let f = fft_of(problem)?;
        let plans = super::plans::read_dir_plans(dir, f.variant())?;
        Ok(plans.select(&super::plans::key_of(&f)).is_some())
    }

    fn open<'g>(&self, gpu: &'g Gpu, rules_dir: Option<&Path>) -> Result<Box<dyn Session + 'g>> {
        let built_in = FftPlans::bundled_for(&gpu.props().name);
        let plans = match rules_dir {
            Some(d) => FftPlans::load_dir_over(d, built_in)?,
            None => built_in,
        };
        Ok(Box::new(FftSession {
            runner: FftRunner::new(gpu, ModuleCache::open_default())?,
            timer: DefaultStreamTimer::new(gpu)?,
            plans,
        }))
    }
}

struct FftSession<'g> {
    runner: FftRunner<'g>,
    timer: DefaultStreamTimer,
    plans: FftPlans,
}

fn fill_row(row: &mut Row, check: &Checked, timed: Option<&Timed>) {
    row.error = Some(check.error);
    row.bound = Some(check.bound);
    if let Some(t) = timed {
        row.timed(WorkUnit::Bytes, t.medians_ms());
    }
}

impl Session for FftSession<'_> {
    fn tools(&self) -> String {
        format!(
            "cuFFT {}",
            super::cufft::version()
                .map(|v| v.to_string())
                .unwrap_or_else(|e| e.to_string())
        )
    }

    fn rules_origin(&self) -> String {
        self.plans.origin().to_string()
    }

    fn select(&self, problem: &Problem) -> Result<Selection> {
        let f = fft_of(problem)?;
        let (config, origin) = self.plans.config(&f);
        Ok(Selection::for_problem(
            problem,
            config.to_config(),
            format!("{origin} plan"),
        ))
    }

    fn compare(
        &mut self,
        problem: &Problem,
        options: &MeasureOptions,
        log: &mut dyn FnMut(&Row),
    ) -> Result<Comparison> {
        let f = fft_of(problem)?;
        let selection = self.select(problem)?;
        let work = f.traffic_bytes() as f64;
        self.runner.data(&f, &options.timing)?;
        let (config, _) = self.plans.config(&f);

        // hone and cuFFT are checked on the same inputs, so that their errors
        // compare (in double precision also at the same sampled outputs).
        let inputs = self.runner.input_state();
        let mut hone = Row::new(problem, "hone", work);
        match self.runner.plan(&f, &config)? {
            Err(why) => hone.invalid(why),
            Ok(plan) => {
                hone.kernel = format!("{} passes: {}", plan.memory_passes(), config.label());
                let check = self.runner.check(&plan)?;
                if !check.passed() {
                    fill_row(&mut hone, &check, None);
                    hone.invalid(format!("wrong result: {}", check.describe()));
                } else {
                    match self
                        .runner
                        .time(&plan, &options.timing, options.timed_runs)?
                    {
                        Ok(t) => fill_row(&mut hone, &check, Some(&t)),
                        Err(why) => {
                            fill_row(&mut hone, &check, None);
                            hone.invalid(why)
                        }
                    }
                }
            }
        }
        log(&hone);

        let mut vendor = Row::new(problem, "cufft", work);
        self.runner.rewind_inputs(inputs);
        match self.runner.check_vendor() {
            Ok(check) if check.passed() => {
                let t = self.runner.time_vendor(
                    &mut self.timer,
                    &options.timing,
                    options.timed_runs,
                )?;
                fill_row(&mut vendor, &check, Some(&t));
            }
            Ok(check) => {
                fill_row(&mut vendor, &check, None);
                vendor.invalid(format!("wrong result: {}", check.describe()));
            }
            Err(e) if e.is_no_device() => return Err(e),
            Err(e) => vendor.invalid(e),
        }
        log(&vendor);
        Ok(Comparison::new(problem, &selection, hone, vec![vendor]))
    }

    fn plan(
        &mut self,
        problem: &Problem,
        options: &MeasureOptions,
        log: &mut dyn FnMut(&str),
    ) -> Result<Option<PlanOutcome>> {
        let f = fft_of(problem)?;
        let t = self
            .runner
            .tune(&f, &TuneSpace::default(), &options.timing, log)?;
        Ok(Some(PlanOutcome {
            problem: problem.clone(),
            config: t.config.to_config(),
            label: t.config.label(),
            predicted_ms: t.predicted_ms,
            measured_ms: t.measured_ms,
            candidates: t.candidates,
        }))
    }

    fn roof(&mut self, options: &MeasureOptions) -> Option<Roof> {
        Roof::copy(self.runner.gpu(), &options.timing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routine::parse_words;

    #[test]
    fn problems_come_from_words_with_defaults() {
        let r = FftRoutine;
        let p = r.problem(&parse_words(&["n=256"]).unwrap()).unwrap();
        assert_eq!(p.variant, "cfft3d");
        assert_eq!(p.key(), "nx=256 ny=256 nz=256 batch=1 inverse=0 in_place=0");
        assert_eq!(p.size, 256);
        let p = r
            .problem(
                &parse_words(&[
                    "nx=240",
                    "ny=9",
                    "batch=3",
                    "precision=d",
                    "direction=inverse",
                    "place=in",
                ])
                .unwrap(),
            )
            .unwrap();
        let f = fft_of(&p).unwrap();
        assert_eq!(f.n, [240, 9, 9]);
        assert_eq!(f.batch, 3);
        assert_eq!(f.precision, Precision::Double);
        assert_eq!(f.direction, Direction::Inverse);
        assert!(f.in_place);
        assert_eq!(problem_of(&f), p);
        for (words, msg) in [
            (vec!["ny=3"], "needs n=N"),
            (vec!["n=11"], "not a product of 2, 3, 5 and 7"),
            (vec!["n=8", "place=sideways"], "expected in or out"),
            (vec!["n=8", "direction=up"], "unknown direction"),
            (vec!["n=8", "m=3"], "unknown key `m`"),
            (vec!["n=8", "batch=0"], "batch"),
        ] {
            let e = r.problem(&parse_words(&words).unwrap()).unwrap_err();
            assert!(e.to_string().contains(msg), "{words:?}: {e}");
        }
    }

    #[test]
    fn families_are_smooth_cubes() {
        let r = FftRoutine;
        let p = r.family_problem("zfft3d", 97).unwrap();
        let f = fft_of(&p).unwrap();
        assert_eq!(f.n, [98, 98, 98]);
        assert!(r.family_problem("cfft3d", 0).is_err());
        assert!(r.family_problem("sgemm", 8).is_err());
        assert_eq!(smooth_at_least(11), 12);
    }
}
