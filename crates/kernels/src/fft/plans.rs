//! The tuned plans the library call uses: one configuration per problem
//! shape (`nx,ny,nz`) and precision, as `hone tune` measured them
//! ([`hone_tuner::Plans`], an exact key per size: FFT sizes form no line
//! along which an interval rule could interpolate). A shape without a plan
//! runs the default configuration. A real transform without a plan of its
//! own takes the complex plan of its shape, whose Y and Z passes it shares.
//!
//! The built-in plans are the H100's (`kernels/fft/plans/`), which serve
//! every GPU without plans of its own, and the H200's
//! (`kernels/fft/plans/nvidia-h200/`, every variant but `dzfft3d`, which
//! keeps the H100's); [`FftPlans::bundled_for`] picks by the device's name.

use std::path::Path;

use hone_tuner::{Config, KeyValue, Plans, ProblemKey};

use super::plan::FftConfig;
use super::{real_variant_of, variant_of, FftProblem};
use crate::precision::Precision;
use crate::routine::{LibError, Result};

const BUILT_IN: [(&str, &str); 4] = [
    (
        "cfft3d",
        include_str!("../../../../kernels/fft/plans/cfft3d.json"),
    ),
    (
        "zfft3d",
        include_str!("../../../../kernels/fft/plans/zfft3d.json"),
    ),
    (
        "scfft3d",
        include_str!("../../../../kernels/fft/plans/scfft3d.json"),
    ),
    (
        "dzfft3d",
        include_str!("../../../../kernels/fft/plans/dzfft3d.json"),
    ),
];

/// The H200's plans: the variants planned on it.
const BUILT_IN_H200: [(&str, &str); 3] = [
    (
        "cfft3d",
        include_str!("../../../../kernels/fft/plans/nvidia-h200/cfft3d.json"),
    ),
    (
        "zfft3d",
        include_str!("../../../../kernels/fft/plans/nvidia-h200/zfft3d.json"),
    ),
    (
        "scfft3d",
        include_str!("../../../../kernels/fft/plans/nvidia-h200/scfft3d.json"),
    ),
];

/// The GPU models with built-in plans, the fallback first.
pub const BUILT_IN_GPUS: [&str; 2] = [crate::routine::device_rules::BUILT_IN_GPU, "NVIDIA H200"];

/// The plans of both precisions, complex and real.
#[derive(Debug, Clone)]
pub struct FftPlans {
    single: Plans,
    double: Plans,
    /// Real transforms' plans (`scfft3d`, `dzfft3d`); shapes without one
    /// take the complex plan of their shape.
    real_single: Option<Plans>,
    real_double: Option<Plans>,
    origin: String,
}

/// The plans' key of a problem: its three lengths, and its batch where it
/// transforms more than one (a batch moves more data than its transforms
/// one at a time, so it is planned on its own, as FFT libraries plan it).
pub fn key_of(p: &FftProblem) -> ProblemKey {
    let mut entries: Vec<(String, KeyValue)> = ["nx", "ny", "nz"]
        .iter()
        .zip(p.n)
        .map(|(k, v)| (k.to_string(), KeyValue::Int(v as i64)))
        .collect();
    if p.batch > 1 {
        entries.push(("batch".to_string(), KeyValue::Int(p.batch as i64)));
    }
    ProblemKey::new(entries).expect("lengths and batch are integers")
}

/// The plan of the first of `keys` that `plans` has.
fn pick<'a>(plans: &'a Plans, keys: &[ProblemKey]) -> Option<&'a Config> {
    keys.iter().find_map(|k| plans.select(k))
}

/// The key of one transform of `p`'s shape: what a batch without a plan of
/// its own runs.
fn shape_key(p: &FftProblem) -> ProblemKey {
    key_of(&FftProblem { batch: 1, ..*p })
}

fn parse(variant: &str, text: &str, origin: &str) -> Result<Plans> {
    let plans = Plans::from_json(text, origin).map_err(|e| LibError::Rule(e.to_string()))?;
    if plans.name != variant {
        return Err(LibError::Rule(format!(
            "{origin}: the plans are named `{}`, expected `{variant}`",
            plans.name
        )));
    }
    for plan in &plans.plans {
        FftConfig::from_config(&plan.config)
            .map_err(|e| LibError::Rule(format!("{origin}: plan for `{}`: {e}", plan.key)))?;
        for dim in ["nx", "ny", "nz"] {
            if plan.key.int(dim).is_none() {
                return Err(LibError::Rule(format!(
                    "{origin}: plan key `{}` has no {dim}",
                    plan.key
                )));
            }
        }
    }
    Ok(plans)
}

impl FftPlans {
    /// The plans built into the library.
    pub fn bundled() -> FftPlans {
        let get = |v: &str| {
            let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == v).expect("built in");
            parse(v, text, &format!("built-in {v}.json")).expect("built-in plans parse")
        };
        FftPlans {
            single: get("cfft3d"),
            double: get("zfft3d"),
            real_single: Some(get("scfft3d")),
            real_double: Some(get("dzfft3d")),
            origin: "built-in plans (kernels/fft/plans/)".to_string(),
        }
    }

    /// The built-in plans for the GPU named `device_name`: its model's
    /// where hone carries them, variant by variant, else
    /// [`FftPlans::bundled`]'s.
    pub fn bundled_for(device_name: &str) -> FftPlans {
        let mut out = FftPlans::bundled();
        if !crate::routine::device_rules::same_model(device_name, BUILT_IN_GPUS[1]) {
            return out;
        }
        for (v, text) in BUILT_IN_H200 {
            let plans = parse(v, text, &format!("built-in nvidia-h200/{v}.json"))
                .expect("built-in plans parse");
            match v {
                "cfft3d" => out.single = plans,
                "zfft3d" => out.double = plans,
                "scfft3d" => out.real_single = Some(plans),
                _ => unreachable!("the H200's variants are listed above"),
            }
        }
        out.origin =
            "built-in plans for the NVIDIA H200 (kernels/fft/plans/nvidia-h200/, dzfft3d the H100's)"
                .to_string();
        out
    }

    /// Plans from `DIR/VARIANT.json` (`cfft3d`, `zfft3d`, `scfft3d`,
    /// `dzfft3d`); a missing file leaves that variant with the built-in
    /// plans ([`FftPlans::bundled`]'s).
    pub fn load_dir(dir: &Path) -> Result<FftPlans> {
        FftPlans::load_dir_over(dir, FftPlans::bundled())
    }

    /// As [`FftPlans::load_dir`], a missing file leaving that variant with
    /// `base`'s plans (the built-in ones of the GPU at hand).
    pub fn load_dir_over(dir: &Path, base: FftPlans) -> Result<FftPlans> {
        let mut out = base;
        for p in [Precision::Single, Precision::Double] {
            if let Some(plans) = read_file(dir, variant_of(p))? {
                match p {
                    Precision::Single => out.single = plans,
                    Precision::Double => out.double = plans,
                }
            }
            if let Some(plans) = read_file(dir, real_variant_of(p))? {
                match p {
                    Precision::Single => out.real_single = Some(plans),
                    Precision::Double => out.real_double = Some(plans),
                }
            }
        }
        out.origin = format!("plans in {}", dir.display());
        Ok(out)
    }

    pub fn origin(&self) -> &str {
        &self.origin
    }

    fn of(&self, p: Precision) -> &Plans {
        match p {
            Precision::Single => &self.single,
            Precision::Double => &self.double,
        }
    }

    fn of_real(&self, p: Precision) -> Option<&Plans> {
        match p {
            Precision::Single => self.real_single.as_ref(),
            Precision::Double => self.real_double.as_ref(),
        }
    }

    /// The configuration for `p` and where it came from (`tuned`,
    /// `complex` for a real transform served by its shape's complex plan,
    /// or `default`).
    pub fn config(&self, p: &FftProblem) -> (FftConfig, &'static str) {
        let keys = [key_of(p), shape_key(p)];
        let own = if p.real {
            self.of_real(p.precision).and_then(|x| pick(x, &keys))
        } else {
            pick(self.of(p.precision), &keys)
        };
        let (chosen, origin) = match own {
            Some(c) => (Some(c), "tuned"),
            None if p.real => (pick(self.of(p.precision), &keys), "complex"),
            None => (None, "default"),
        };
        match chosen {
            Some(c) => (
                FftConfig::from_config(c).expect("checked when the plans were read"),
                origin,
            ),
            None => (FftConfig::default(), "default"),
        }
    }

    /// The shapes with a tuned plan of one transform.
    pub fn shapes(&self, p: Precision) -> Vec<[u32; 3]> {
        self.of(p)
            .plans
            .iter()
            .filter(|plan| plan.key.int("batch").is_none())
            .filter_map(|plan| {
                Some([
                    plan.key.int("nx")? as u32,
                    plan.key.int("ny")? as u32,
                    plan.key.int("nz")? as u32,
                ])
            })
            .collect()
    }
}

/// The plans of `variant` in `dir/VARIANT.json`; `None` when the file is
/// missing.
fn read_file(dir: &Path, variant: &str) -> Result<Option<Plans>> {
    let path = dir.join(format!("{variant}.json"));
    if !path.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|source| LibError::Io {
        path: path.clone(),
        source,
    })?;
    parse(variant, &text, &path.display().to_string()).map(Some)
}

/// The plans of `variant` in `dir`, or none when the file is missing.
pub fn read_dir_plans(dir: &Path, variant: &str) -> Result<Plans> {
    Ok(read_file(dir, variant)?.unwrap_or_else(|| Plans {
        name: variant.to_string(),
        plans: Vec::new(),
    }))
}

/// Adds (or replaces) the plan of `p` in `dir/VARIANT.json`, written
/// through a temporary file so that an interrupted write loses nothing.
pub fn save(
    dir: &Path,
    p: &FftProblem,
    config: &FftConfig,
    time_s: f64,
) -> Result<std::path::PathBuf> {
    let variant = p.variant();
    let mut plans = read_dir_plans(dir, variant)?;
    let key = key_of(p);
    plans.plans.retain(|x| x.key != key);
    plans.plans.push(hone_tuner::Plan {
        key,
        config: config.to_config(),
        time_s,
    });
    plans.plans.sort_by(|a, b| a.key.cmp(&b.key));
    let io = |path: &Path, source| LibError::Io {
        path: path.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let path = dir.join(format!("{variant}.json"));
    let tmp = dir.join(format!(".{variant}.json.tmp"));
    std::fs::write(&tmp, plans.to_json() + "\n").map_err(|e| io(&tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| io(&path, e))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_h200_gets_its_own_plans_and_the_h100_s_where_it_has_none() {
        let h100 = FftPlans::bundled_for(crate::routine::device_rules::BUILT_IN_GPU);
        let other = FftPlans::bundled_for("NVIDIA A100-SXM4-80GB");
        let h200 = FftPlans::bundled_for(" NVIDIA H200 ");
        let p = FftProblem::cube(Precision::Single, 256);
        assert_eq!(h100.config(&p), other.config(&p));
        assert_eq!(h100.config(&p), FftPlans::bundled().config(&p));
        let (c, origin) = h200.config(&p);
        assert_eq!(origin, "tuned");
        assert!(
            c.skew,
            "the H200's 256^3 plan skews its rows: {}",
            c.label()
        );
        assert_ne!(c, h100.config(&p).0);
        assert!(h200.origin().contains("nvidia-h200"));
        // Double-precision real transforms keep the H100's plans there.
        let dz = FftProblem {
            real: true,
            ..FftProblem::cube(Precision::Double, 256)
        };
        assert_eq!(h200.config(&dz), h100.config(&dz));
        let sc = FftProblem { real: true, ..p };
        assert_ne!(h200.config(&sc), h100.config(&sc));
        let sorted = |mut v: Vec<[u32; 3]>| {
            v.sort();
            v
        };
        assert_eq!(
            sorted(h200.shapes(Precision::Double)),
            sorted(h100.shapes(Precision::Double))
        );
    }

    #[test]
    fn built_in_plans_parse_and_unknown_shapes_get_the_default() {
        let plans = FftPlans::bundled();
        let p = FftProblem::cube(Precision::Single, 7 * 11);
        assert_eq!(plans.config(&p), (FftConfig::default(), "default"));
        assert_eq!(key_of(&p).to_string(), "nx=77,ny=77,nz=77");
        // Real transforms: their own plan, else the complex plan of the
        // shape, else the default.
        let real = |n| FftProblem {
            real: true,
            ..FftProblem::cube(Precision::Double, n)
        };
        assert_eq!(plans.config(&real(256)).1, "tuned");
        assert_ne!(
            plans.config(&real(256)).0,
            plans.config(&FftProblem::cube(Precision::Double, 256)).0
        );
        assert_eq!(plans.config(&real(243 * 2)).1, "default");
        let complex_only = FftProblem {
            real: true,
            ..FftProblem::cube(Precision::Single, 243)
        };
        assert_eq!(plans.config(&complex_only).1, "complex");
    }

    #[test]
    fn saved_plans_are_read_back_and_replace_older_ones() {
        let dir = std::env::temp_dir().join(format!("hone-fft-plans-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let p = FftProblem::cube(Precision::Double, 96);
        let mut c = FftConfig::uniform(8, 4, 2, 32);
        save(&dir, &p, &c, 1e-3).unwrap();
        c.pad = 0;
        save(&dir, &p, &c, 2e-3).unwrap();
        save(&dir, &FftProblem::cube(Precision::Double, 64), &c, 1e-4).unwrap();
        let plans = FftPlans::load_dir(&dir).unwrap();
        assert_eq!(plans.config(&p), (c, "tuned"));
        assert_eq!(plans.shapes(Precision::Double).len(), 2);
        // The other precision keeps the built-in plans.
        assert_eq!(
            plans.shapes(Precision::Single),
            FftPlans::bundled().shapes(Precision::Single)
        );
        // Over an H200's built-in plans, it keeps the H200's.
        let h200 = FftPlans::bundled_for("NVIDIA H200");
        let over = FftPlans::load_dir_over(&dir, h200.clone()).unwrap();
        assert_eq!(over.config(&p), (c, "tuned"));
        let s256 = FftProblem::cube(Precision::Single, 256);
        assert_eq!(over.config(&s256), h200.config(&s256));
        assert_ne!(over.config(&s256), plans.config(&s256));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_batch_is_planned_on_its_own_and_otherwise_runs_its_shapes_plan() {
        let dir = std::env::temp_dir().join(format!("hone-fft-batch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let one = FftProblem::cube(Precision::Double, 96);
        let eight = FftProblem { batch: 8, ..one };
        assert_eq!(key_of(&eight).to_string(), "nx=96,ny=96,nz=96,batch=8");
        assert_eq!(key_of(&one).to_string(), "nx=96,ny=96,nz=96");
        let single = FftConfig::uniform(8, 4, 2, 32);
        save(&dir, &one, &single, 1e-3).unwrap();
        // without a plan of its own, a batch runs its shape's
        let plans = FftPlans::load_dir(&dir).unwrap();
        assert_eq!(plans.config(&eight), (single, "tuned"));
        // planning the batch keeps the single transform's plan
        let batched = FftConfig::uniform(16, 8, 4, 16);
        save(&dir, &eight, &batched, 5e-3).unwrap();
        let plans = FftPlans::load_dir(&dir).unwrap();
        assert_eq!(plans.config(&eight), (batched, "tuned"));
        assert_eq!(plans.config(&one), (single, "tuned"));
        assert_eq!(plans.config(&FftProblem { batch: 2, ..one }).0, single);
        assert_eq!(plans.shapes(Precision::Double), vec![[96, 96, 96]]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn plans_with_bad_configurations_are_refused() {
        let text = r#"{"name":"cfft3d","plans":[{"key":"nx=8,ny=8,nz=8",
            "config":{"RX":99},"time_s":1e-5}]}"#;
        let e = parse("cfft3d", text, "x.json").unwrap_err().to_string();
        assert!(e.contains("RX=99"), "{e}");
        let e = parse("zfft3d", text, "x.json").unwrap_err().to_string();
        assert!(e.contains("expected `zfft3d`"), "{e}");
    }
}
