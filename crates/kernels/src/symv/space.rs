//! Parameter spaces of the SYMV kernels: each parameter's values, the
//! constraints a configuration must meet (as expression strings over the
//! parameters and the device's limits, in the syntax both hone's GPU runtime
//! and its tuner read), the kernel source, and the `-D` defines of a
//! configuration.
//!
//! The atomic kernel keeps the paper's four parameters with the paper's
//! values (BLOCK_SIZE, UX, MULTIPLICITY, MX: 16,000 combinations) and adds
//! six for Hopper: VEC (16-byte loads), STEPS and NP (the tile shape, which
//! sets how many atomics each element costs), SYNC (native atomics or the
//! paper's mutexes), LDHINT (cache policy of the matrix loads) and SCHED
//! (static or claimed tiles).
//!
//! Equation (3) of the paper keeps the shared memory of MULTIPLICITY blocks
//! within a Fermi/Kepler SM. Restated for the device at hand: the host gives
//! each block `smem_per_sm / MULTIPLICITY - smem_reserved_per_block` bytes of
//! dynamic shared memory so that no more than MULTIPLICITY blocks fit on an
//! SM, and that share must hold what the kernel uses, `ELEM * (2 * NP * UX *
//! BLOCK_SIZE / 32 + SYNC * UX * NP)` bytes (each warp's column sums of every
//! sub-panel of a tile, twice for alternate tiles, and the column sums that
//! wait for their mutex). On sm_90 (228 KiB per SM, 1 KiB reserved per block)
//! it binds only for wide tiles with many blocks per SM; the other binding
//! limit there is registers, so a second constraint asks the arrays a thread
//! keeps in registers to fit in the share of the register file that
//! `__launch_bounds__(BLOCK_SIZE, MULTIPLICITY)` leaves each thread.

use std::collections::BTreeMap;

use hone_gpu::{DeviceProps, IntExpr};

use super::order::{load_order, loads_define, MX_COUNT};
use super::{Algorithm, Config, Precision, Result, SymvError, Uplo};

const COMMON_SOURCE: &str = include_str!("../../../../kernels/symv/symv_common.cuh");
const ATOMIC_SOURCE: &str = include_str!("../../../../kernels/symv/symv_atomic.cu");
const LU_SOURCE: &str = include_str!("../../../../kernels/symv/symv_lu.cu");
const UTIL_SOURCE: &str = include_str!("../../../../kernels/symv/symv_util.cu");

/// The tuning jobs of the four routines and the sources they name, laid
/// out as in `kernels/symv/` (jobs in `tune/`), for `hone retune symv`.
pub fn retune_files() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "tune/dsymv_lower.toml",
            include_str!("../../../../kernels/symv/tune/dsymv_lower.toml"),
        ),
        (
            "tune/dsymv_upper.toml",
            include_str!("../../../../kernels/symv/tune/dsymv_upper.toml"),
        ),
        (
            "tune/ssymv_lower.toml",
            include_str!("../../../../kernels/symv/tune/ssymv_lower.toml"),
        ),
        (
            "tune/ssymv_upper.toml",
            include_str!("../../../../kernels/symv/tune/ssymv_upper.toml"),
        ),
        ("symv_common.cuh", COMMON_SOURCE),
        ("symv_atomic.cu", ATOMIC_SOURCE),
        ("symv_lu.cu", LU_SOURCE),
        ("symv_util.cu", UTIL_SOURCE),
    ]
}

/// One parameter and its candidate values.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ParamSpace {
    pub name: String,
    pub values: Vec<i64>,
}

impl ParamSpace {
    fn new(name: &str, values: impl IntoIterator<Item = i64>) -> Self {
        ParamSpace {
            name: name.to_string(),
            values: values.into_iter().collect(),
        }
    }
}

/// The device limits that constraints and launch geometry use. Constraint
/// strings name them as the fields are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DeviceLimits {
    pub sm_count: i64,
    pub smem_per_sm: i64,
    pub smem_per_block: i64,
    pub smem_per_block_optin: i64,
    /// Shared memory the system keeps per resident block (1 KiB since sm_80).
    pub smem_reserved_per_block: i64,
    pub regs_per_sm: i64,
    pub max_threads_per_sm: i64,
    pub max_blocks_per_sm: i64,
}

impl DeviceLimits {
    /// The names constraint expressions may use, with their values.
    pub fn named(&self) -> [(&'static str, i64); 8] {
        [
            ("sm_count", self.sm_count),
            ("smem_per_sm", self.smem_per_sm),
            ("smem_per_block", self.smem_per_block),
            ("smem_per_block_optin", self.smem_per_block_optin),
            ("smem_reserved_per_block", self.smem_reserved_per_block),
            ("regs_per_sm", self.regs_per_sm),
            ("max_threads_per_sm", self.max_threads_per_sm),
            ("max_blocks_per_sm", self.max_blocks_per_sm),
        ]
    }

    pub fn get(&self, name: &str) -> Option<i64> {
        self.named()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    /// The limits of an opened device, by the names its constraint
    /// properties carry ([`DeviceProps::constraint_props`]).
    pub fn from_props(props: &DeviceProps) -> Self {
        Self::from_named(&props.constraint_props())
            .expect("the runtime names every limit SYMV uses")
    }

    /// The limits from named properties; `None` when one is missing.
    pub fn from_named(props: &hone_tuner::DeviceProps) -> Option<Self> {
        let get = |name: &str| props.get(name);
        Some(DeviceLimits {
            sm_count: get("sm_count")?,
            smem_per_sm: get("smem_per_sm")?,
            smem_per_block: get("smem_per_block")?,
            smem_per_block_optin: get("smem_per_block_optin")?,
            smem_reserved_per_block: get("smem_reserved_per_block")?,
            regs_per_sm: get("regs_per_sm")?,
            max_threads_per_sm: get("max_threads_per_sm")?,
            max_blocks_per_sm: get("max_blocks_per_sm")?,
        })
    }

    /// An H100 SXM (sm_90), for planning and tests without a device.
    pub fn h100_sxm() -> Self {
        DeviceLimits {
            sm_count: 132,
            smem_per_sm: 233_472,
            smem_per_block: 49_152,
            smem_per_block_optin: 232_448,
            smem_reserved_per_block: 1024,
            regs_per_sm: 65_536,
            max_threads_per_sm: 2048,
            max_blocks_per_sm: 32,
        }
    }
}

/// A tunable SYMV kernel: where its source comes from, its parameters, and
/// the constraints over them.
#[derive(Debug, Clone, PartialEq)]
pub struct SymvTemplate {
    pub precision: Precision,
    pub uplo: Uplo,
    pub algorithm: Algorithm,
    /// The `extern "C"` kernel to launch.
    pub entry: &'static str,
    /// The complete CUDA C source (the common header included).
    pub source: String,
    pub params: Vec<ParamSpace>,
    /// Expressions over the parameters and [`DeviceLimits`] names that a
    /// valid configuration makes non-zero.
    pub constraints: Vec<String>,
}

/// The template of `algorithm` for `precision` and `uplo`.
pub fn symv_template(precision: Precision, uplo: Uplo, algorithm: Algorithm) -> SymvTemplate {
    let elem = precision.size() as i64;
    let (entry, body, file, params, constraints) = match algorithm {
        Algorithm::Atomic => {
            let vec: Vec<i64> = match precision {
                Precision::Double => vec![1, 2],
                Precision::Single => vec![1, 2, 4],
            };
            let params = vec![
                ParamSpace::new("BLOCK_SIZE", (1..=8).map(|k| 32 * k)),
                ParamSpace::new("UX", 8..=32),
                ParamSpace::new("MULTIPLICITY", 1..=8),
                ParamSpace::new("MX", 0..MX_COUNT),
                ParamSpace::new("VEC", vec),
                ParamSpace::new("STEPS", [1, 2, 4, 8]),
                ParamSpace::new("NP", [1, 2, 4, 8, 16, 32]),
                ParamSpace::new("SYNC", [0, 1]),
                ParamSpace::new("LDHINT", [0, 1]),
                ParamSpace::new("SCHED", [0, 1]),
            ];
            let constraints = vec![
                // Equation (3), restated: shared memory of MULTIPLICITY blocks.
                format!(
                    "MULTIPLICITY * ({elem} * (2 * NP * UX * (BLOCK_SIZE / 32) + SYNC * UX * NP) \
                     + smem_reserved_per_block) <= smem_per_sm"
                ),
                "BLOCK_SIZE * MULTIPLICITY <= max_threads_per_sm".to_string(),
                "MULTIPLICITY <= max_blocks_per_sm".to_string(),
                format!("VEC * {elem} <= 16"),
                // Registers: the matrix slice a, x of the columns, the column
                // sums, x of the rows and the row sums, plus 16 for addresses
                // and loop state, within what __launch_bounds__ leaves.
                format!(
                    "{} * (UX * VEC + 2 * UX + 2 * STEPS * VEC) + 16 \
                     <= min(255, regs_per_sm / (BLOCK_SIZE * MULTIPLICITY))",
                    elem / 4
                ),
            ];
            (
                "symv_atomic",
                ATOMIC_SOURCE,
                "symv_atomic.cu",
                params,
                constraints,
            )
        }
        Algorithm::LowerUpper => {
            let params = vec![
                ParamSpace::new("BLOCK_SIZE", (1..=8).map(|k| 32 * k)),
                ParamSpace::new("NB", [4, 8, 16, 32]),
            ];
            let constraints = vec![
                "BLOCK_SIZE % NB == 0".to_string(),
                format!("{elem} * (BLOCK_SIZE + BLOCK_SIZE / 32 * NB) <= smem_per_block"),
            ];
            ("symv_lu", LU_SOURCE, "symv_lu.cu", params, constraints)
        }
    };
    SymvTemplate {
        precision,
        uplo,
        algorithm,
        entry,
        source: assemble(file, body),
        params,
        constraints,
    }
}

/// The source of the fill and scale kernels.
pub fn util_source() -> String {
    assemble("symv_util.cu", UTIL_SOURCE)
}

/// The common header, the helper kernels (so every module can scale y
/// itself), then the kernel file, each with `#line` markers so that compiler
/// messages name the right file and line.
fn assemble(file: &str, body: &str) -> String {
    let mut s = format!("#line 1 \"symv_common.cuh\"\n{COMMON_SOURCE}\n");
    if file != "symv_util.cu" {
        s.push_str(&format!("#line 1 \"symv_util.cu\"\n{UTIL_SOURCE}\n"));
    }
    s.push_str(&format!("#line 1 \"{file}\"\n{body}"));
    s
}

impl SymvTemplate {
    pub fn param(&self, name: &str) -> Option<&ParamSpace> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The number of combinations before constraints.
    pub fn raw_size(&self) -> u64 {
        self.params.iter().map(|p| p.values.len() as u64).product()
    }

    /// Checks that `config` sets exactly this template's parameters, each to
    /// one of its values.
    pub fn validate(&self, config: &Config) -> Result<()> {
        for p in &self.params {
            match config.get(&p.name) {
                None => {
                    return Err(SymvError::Config(format!(
                        "{} is missing (the {} kernel takes {})",
                        p.name,
                        self.algorithm,
                        self.param_names().join(", ")
                    )))
                }
                Some(v) if !p.values.contains(v) => {
                    return Err(SymvError::Config(format!(
                        "{}={v} is not among its values {:?}",
                        p.name, p.values
                    )))
                }
                Some(_) => {}
            }
        }
        if let Some(extra) = config.keys().find(|k| self.param(k).is_none()) {
            return Err(SymvError::Config(format!(
                "{extra} is not a parameter of the {} kernel (it takes {})",
                self.algorithm,
                self.param_names().join(", ")
            )));
        }
        Ok(())
    }

    fn param_names(&self) -> Vec<&str> {
        self.params.iter().map(|p| p.name.as_str()).collect()
    }

    /// The constraints that `config` violates on `limits` (empty when valid).
    pub fn violations(&self, config: &Config, limits: &DeviceLimits) -> Result<Vec<String>> {
        let mut out = Vec::new();
        for c in &self.constraints {
            let expr = IntExpr::parse(c)
                .map_err(|e| SymvError::Config(format!("constraint `{c}`: {e}")))?;
            let env = |name: &str| config.get(name).copied().or_else(|| limits.get(name));
            let value = expr
                .eval(&env)
                .map_err(|e| SymvError::Config(format!("constraint `{c}`: {e}")))?;
            if value == 0 {
                out.push(c.clone());
            }
        }
        Ok(out)
    }

    /// Whether `config` is a valid configuration on `limits`.
    pub fn is_valid(&self, config: &Config, limits: &DeviceLimits) -> Result<bool> {
        self.validate(config)?;
        Ok(self.violations(config, limits)?.is_empty())
    }

    /// Every combination of parameter values, in odometer order (the last
    /// parameter fastest).
    pub fn configs(&self) -> impl Iterator<Item = Config> + '_ {
        let sizes: Vec<usize> = self.params.iter().map(|p| p.values.len()).collect();
        let total = self.raw_size();
        (0..total).map(move |mut index| {
            let mut config = Config::new();
            for (p, &len) in self.params.iter().zip(&sizes).rev() {
                let k = (index % len as u64) as usize;
                index /= len as u64;
                config.insert(p.name.clone(), p.values[k]);
            }
            config
        })
    }

    /// The `-D` defines that compile `config` (which must be valid for this
    /// template). `vector_atomics` says whether the compiler has float2 and
    /// float4 atomicAdd.
    pub fn defines(
        &self,
        config: &Config,
        vector_atomics: bool,
    ) -> Result<BTreeMap<String, String>> {
        self.validate(config)?;
        let mut d: BTreeMap<String, String> = config
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect();
        d.insert("PREC".into(), self.precision.define().to_string());
        d.insert("UPLO".into(), self.uplo.define().to_string());
        if self.algorithm == Algorithm::Atomic {
            let ux = config["UX"] as usize;
            let order = load_order(config["MX"], ux)?;
            d.insert("MX_LOADS".into(), loads_define(&order));
            d.insert("VATOM".into(), i64::from(vector_atomics).to_string());
        }
        Ok(d)
    }

    /// Dynamic shared memory the kernel itself needs, in bytes.
    pub fn shared_need(&self, config: &Config) -> i64 {
        match self.algorithm {
            Algorithm::Atomic => {
                let warps = config["BLOCK_SIZE"] / 32;
                let (ux, np) = (config["UX"], config["NP"]);
                self.precision.size() as i64 * (2 * np * ux * warps + config["SYNC"] * ux * np)
            }
            Algorithm::LowerUpper => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files `hone retune symv` writes are four jobs, one per routine,
    /// whose template and sources are among them, and each job is the
    /// routine's own (its library kernel names the variant).
    #[test]
    fn retune_files_make_four_complete_jobs() {
        let dir = std::env::temp_dir().join(format!("hone-symv-retune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (rel, text) in retune_files() {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
        }
        let variants = crate::symv::library::variants();
        assert_eq!(variants.len(), 4);
        for v in &variants {
            let job = dir.join("tune").join(format!("{v}.toml"));
            let spec = hone_tuner::JobSpec::load(&job).unwrap();
            assert_eq!(&spec.name, v);
            assert_eq!(spec.kernel.library.as_deref(), Some(v.as_str()));
            for f in spec.kernel.template.iter().chain(&spec.kernel.sources) {
                assert!(dir.join("tune").join(f).is_file(), "{v}: {}", f.display());
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    use crate::symv::config;

    fn atomic_config(pairs: &[(&str, i64)]) -> Config {
        let mut c = config([
            ("BLOCK_SIZE", 128),
            ("UX", 16),
            ("MULTIPLICITY", 2),
            ("MX", 0),
            ("VEC", 2),
            ("STEPS", 2),
            ("NP", 8),
            ("SYNC", 0),
            ("LDHINT", 1),
            ("SCHED", 0),
        ]);
        for (k, v) in pairs {
            c.insert(k.to_string(), *v);
        }
        c
    }

    #[test]
    fn limits_read_back_from_their_names() {
        let h100 = DeviceLimits::h100_sxm();
        let mut named = hone_tuner::DeviceProps::new();
        for (k, v) in h100.named() {
            named.set(k, v);
        }
        assert_eq!(DeviceLimits::from_named(&named), Some(h100));
        named.0.remove("regs_per_sm");
        assert_eq!(DeviceLimits::from_named(&named), None);
    }

    #[test]
    fn atomic_space_keeps_the_paper_s_four_parameters_and_values() {
        let t = symv_template(Precision::Double, Uplo::Lower, Algorithm::Atomic);
        let values = |n: &str| t.param(n).unwrap().values.clone();
        assert_eq!(
            values("BLOCK_SIZE"),
            vec![32, 64, 96, 128, 160, 192, 224, 256]
        );
        assert_eq!(values("UX"), (8..=32).collect::<Vec<_>>());
        assert_eq!(values("MULTIPLICITY"), (1..=8).collect::<Vec<_>>());
        assert_eq!(values("MX"), (0..10).collect::<Vec<_>>());
        let paper: u64 = ["BLOCK_SIZE", "UX", "MULTIPLICITY", "MX"]
            .iter()
            .map(|n| values(n).len() as u64)
            .product();
        assert_eq!(paper, 16_000);
        assert_eq!(values("VEC"), vec![1, 2]);
        let single = symv_template(Precision::Single, Uplo::Lower, Algorithm::Atomic);
        assert_eq!(single.param("VEC").unwrap().values, vec![1, 2, 4]);
    }

    #[test]
    fn every_constraint_parses_and_names_only_known_variables() {
        let limits = DeviceLimits::h100_sxm();
        for p in Precision::ALL {
            for a in Algorithm::ALL {
                let t = symv_template(p, Uplo::Lower, a);
                for c in &t.constraints {
                    let e = IntExpr::parse(c).unwrap_or_else(|e| panic!("{c}: {e}"));
                    for v in e.variables() {
                        assert!(
                            t.param(&v).is_some() || limits.get(&v).is_some(),
                            "{c} names {v}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn shared_memory_constraint_binds_where_equation_3_says() {
        let t = symv_template(Precision::Double, Uplo::Lower, Algorithm::Atomic);
        // An sm_90 SM with registers to spare, so that only shared memory
        // can bind: 256 threads, UX = 32, NP = 32 and the mutex buffers need
        // 8 * (2 * 32 * 32 * 8 + 32 * 32) = 139,264 bytes a block: one block
        // fits in 228 KiB, two do not.
        let h100 = DeviceLimits {
            regs_per_sm: 1 << 30,
            ..DeviceLimits::h100_sxm()
        };
        let with = |m: i64| {
            atomic_config(&[
                ("BLOCK_SIZE", 256),
                ("UX", 32),
                ("MULTIPLICITY", m),
                ("SYNC", 1),
                ("NP", 32),
                ("VEC", 1),
                ("STEPS", 1),
            ])
        };
        assert_eq!(t.shared_need(&with(1)), 8 * (2 * 32 * 32 * 8 + 32 * 32));
        assert!(t.violations(&with(1), &h100).unwrap().is_empty());
        let v = t.violations(&with(2), &h100).unwrap();
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(v[0].starts_with("MULTIPLICITY * ("), "{v:?}");
        // On a 48 KiB SM with no reservation, as on Fermi, the paper's
        // UX = 16, 128 threads, NP = 8 tile needs 8,192 bytes: five blocks
        // (40,960) fit, six (49,152) just do, seven do not.
        let mut fermi = h100;
        fermi.smem_per_sm = 48 * 1024;
        fermi.smem_reserved_per_block = 0;
        fermi.regs_per_sm = 1 << 30;
        let small = |m: i64| atomic_config(&[("MULTIPLICITY", m), ("VEC", 1), ("STEPS", 1)]);
        assert_eq!(t.shared_need(&small(1)), 8192);
        assert!(t.violations(&small(6), &fermi).unwrap().is_empty());
        assert_eq!(t.violations(&small(7), &fermi).unwrap().len(), 1);
    }

    #[test]
    fn register_constraint_rejects_what_launch_bounds_cannot_hold() {
        let t = symv_template(Precision::Double, Uplo::Lower, Algorithm::Atomic);
        let h100 = DeviceLimits::h100_sxm();
        // 2 * (16 * 2 + 32 + 8) + 16 = 160 registers: fits 2 x 128 threads
        // (256 each), not 8 x 128 (64 each).
        assert!(t.is_valid(&atomic_config(&[]), &h100).unwrap());
        let crowded = atomic_config(&[("MULTIPLICITY", 8)]);
        let v = t.violations(&crowded, &h100).unwrap();
        assert_eq!(v.len(), 1);
        assert!(v[0].contains("regs_per_sm"), "{v:?}");
        // 16-byte loads at most.
        let single = symv_template(Precision::Single, Uplo::Lower, Algorithm::Atomic);
        assert!(single
            .is_valid(&atomic_config(&[("VEC", 4)]), &h100)
            .unwrap());
        let err = t.validate(&atomic_config(&[("VEC", 4)])).unwrap_err();
        assert!(err.to_string().contains("VEC=4"), "{err}");
    }

    #[test]
    fn configs_enumerate_the_whole_product_once() {
        let t = symv_template(Precision::Single, Uplo::Upper, Algorithm::LowerUpper);
        let all: Vec<Config> = t.configs().collect();
        assert_eq!(all.len() as u64, t.raw_size());
        assert_eq!(all.len(), 8 * 4);
        let unique: std::collections::BTreeSet<_> = all.iter().collect();
        assert_eq!(unique.len(), all.len());
        let limits = DeviceLimits::h100_sxm();
        assert!(all.iter().all(|c| t.is_valid(c, &limits).unwrap()));
    }

    #[test]
    fn validate_names_the_missing_or_foreign_parameter() {
        let t = symv_template(Precision::Double, Uplo::Lower, Algorithm::LowerUpper);
        let err = t.validate(&config([("BLOCK_SIZE", 64)])).unwrap_err();
        assert!(err.to_string().contains("NB is missing"), "{err}");
        let err = t
            .validate(&config([("BLOCK_SIZE", 64), ("NB", 8), ("UX", 8)]))
            .unwrap_err();
        assert!(err.to_string().contains("UX is not a parameter"), "{err}");
        let err = t
            .validate(&config([("BLOCK_SIZE", 65), ("NB", 8)]))
            .unwrap_err();
        assert!(err.to_string().contains("BLOCK_SIZE=65"), "{err}");
    }

    #[test]
    fn defines_carry_precision_storage_and_the_generated_load_order() {
        let t = symv_template(Precision::Single, Uplo::Upper, Algorithm::Atomic);
        let d = t
            .defines(&atomic_config(&[("UX", 8), ("MX", 1)]), true)
            .unwrap();
        assert_eq!(d["PREC"], "0");
        assert_eq!(d["UPLO"], "1");
        assert_eq!(d["MX_LOADS"], "L(0)L(2)L(4)L(6)L(1)L(3)L(5)L(7)");
        assert_eq!(d["VATOM"], "1");
        assert_eq!(d["BLOCK_SIZE"], "128");
        let lu = symv_template(Precision::Double, Uplo::Lower, Algorithm::LowerUpper);
        let d = lu
            .defines(&config([("BLOCK_SIZE", 64), ("NB", 8)]), true)
            .unwrap();
        assert_eq!(d.len(), 4);
        assert!(!d.contains_key("MX_LOADS"));
    }

    #[test]
    fn sources_hold_the_entry_points_and_the_common_header() {
        for a in Algorithm::ALL {
            let t = symv_template(Precision::Double, Uplo::Lower, a);
            assert!(t.source.contains("WARP_REDUCE_SCATTER(v, P, LP, lane)"));
            assert!(
                t.source.contains(&format!("{}(const int n", t.entry)),
                "{a}"
            );
            assert!(t.source.contains("symv_scale("), "{a}");
        }
        let util = util_source();
        assert!(util.contains("symv_fill(") && util.contains("symv_scale("));
    }

    #[test]
    fn limits_of_an_sm_90_device_follow_its_properties() {
        let props = crate::routine::test_props("H100");
        assert_eq!(DeviceLimits::from_props(&props), DeviceLimits::h100_sxm());
    }
}
