//! Search spaces: named parameters with value lists, constraints over parameters
//! and device properties, and a backtracking solver that lists the valid
//! configurations without ever forming the cartesian product.

use crate::config::{Config, ParamValue};
use crate::expr::{Expr, ExprError, Operand, Program, Type};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

/// Device properties that constraints may name (`smem_per_sm`, `warp_size`, ...).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DeviceProps(pub BTreeMap<String, i64>);

impl DeviceProps {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(mut self, name: &str, value: i64) -> Self {
        self.0.insert(name.to_string(), value);
        self
    }

    pub fn set(&mut self, name: &str, value: i64) {
        self.0.insert(name.to_string(), value);
    }

    pub fn get(&self, name: &str) -> Option<i64> {
        self.0.get(name).copied()
    }

    /// Properties of a Tesla K20 (compute capability 3.5), the paper's Kepler card;
    /// handy for examples and tests that need a realistic device without one.
    pub fn tesla_k20() -> Self {
        DeviceProps::new()
            .with("smem_per_block", 48 * 1024)
            .with("smem_per_sm", 48 * 1024)
            .with("regs_per_sm", 65536)
            .with("regs_per_block", 65536)
            .with("max_threads_per_block", 1024)
            .with("max_threads_per_sm", 2048)
            .with("max_blocks_per_sm", 16)
            .with("sm_count", 13)
            .with("warp_size", 32)
            .with("unified_l1_smem_per_sm", 64 * 1024)
            .with("cc_major", 3)
            .with("cc_minor", 5)
    }
}

/// A tuning parameter and the values it may take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub values: Vec<ParamValue>,
}

impl Param {
    pub fn new(name: &str, values: impl IntoIterator<Item = impl Into<ParamValue>>) -> Param {
        Param {
            name: name.to_string(),
            values: values.into_iter().map(Into::into).collect(),
        }
    }

    /// Integer values `start, start+step, ..., <= end`.
    pub fn range(name: &str, start: i64, end: i64, step: i64) -> Param {
        let step = step.max(1);
        let mut values = Vec::new();
        let mut v = start;
        while v <= end {
            values.push(ParamValue::Int(v));
            v += step;
        }
        Param {
            name: name.to_string(),
            values,
        }
    }

    fn ty(&self) -> Type {
        if matches!(self.values.first(), Some(ParamValue::Str(_))) {
            Type::Str
        } else {
            Type::Int
        }
    }
}

/// The declarative part of a space, as written in a job file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceSpec {
    pub params: Vec<Param>,
    /// Named derived values (`threads = BX * BY`) that constraints may use.
    #[serde(default)]
    pub derived: Vec<(String, String)>,
    #[serde(default)]
    pub constraints: Vec<String>,
}

impl SpaceSpec {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn param(mut self, p: Param) -> Self {
        self.params.push(p);
        self
    }

    pub fn derive(mut self, name: &str, expr: &str) -> Self {
        self.derived.push((name.to_string(), expr.to_string()));
        self
    }

    pub fn constraint(mut self, c: &str) -> Self {
        self.constraints.push(c.to_string());
        self
    }

    /// Size of the cartesian product (saturating).
    pub fn product_size(&self) -> u64 {
        self.params
            .iter()
            .fold(1u64, |acc, p| acc.saturating_mul(p.values.len() as u64))
    }
}

/// Why a space could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpaceError {
    #[error("parameter name `{0}` is not an identifier (letters, digits, `_`, not starting with a digit)")]
    BadName(String),
    #[error("parameter `{0}` is declared twice")]
    Duplicate(String),
    #[error("parameter `{0}` has no values")]
    NoValues(String),
    #[error("parameter `{0}` has more than 65535 values")]
    TooManyValues(String),
    #[error("parameter `{0}` mixes integer and string values")]
    MixedTypes(String),
    #[error("parameter `{param}` value `{value}`: string values may not contain `,` or `=`, be empty, or read as an integer")]
    BadStringValue { param: String, value: String },
    #[error("parameter `{param}` lists value `{value}` twice")]
    DuplicateValue { param: String, value: String },
    #[error("derived value `{name}` = `{text}`: {error}")]
    Derived {
        name: String,
        text: String,
        error: ExprError,
    },
    #[error("constraint {index} `{text}`: {error}")]
    Constraint {
        index: usize,
        text: String,
        error: ExprError,
    },
    #[error("{0}")]
    Shard(String),
    #[error("{0}")]
    Inconsistent(String),
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[derive(Debug, Clone)]
struct Check {
    program: Program,
    /// For derived values, the slot that receives the result.
    target: Option<usize>,
}

/// A compiled space: constraints parsed, names resolved, ready to enumerate.
#[derive(Debug, Clone)]
pub struct Space {
    spec: SpaceSpec,
    device: DeviceProps,
    /// Each parameter's values as integers (strings interned).
    slot_values: Vec<Vec<i64>>,
    /// Checks run right after parameter `d` is bound, in order.
    checks_at: Vec<Vec<Check>>,
    /// Constraints that mention no parameter; false means an empty space.
    const_ok: bool,
    names: Arc<[String]>,
    derived_exprs: Vec<(String, Expr)>,
    constraint_exprs: Vec<Expr>,
}

/// Counters from one enumeration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Partial or full assignments visited.
    pub nodes: u64,
    /// Constraint and derived-value evaluations.
    pub checks: u64,
    /// Evaluations that failed (division by zero, overflow): treated as "violated".
    pub eval_errors: u64,
}

impl Space {
    /// Parses and type-checks the constraints against the parameters and `device`.
    pub fn new(spec: SpaceSpec, device: DeviceProps) -> Result<Space, SpaceError> {
        let mut interned: Vec<String> = Vec::new();
        let mut intern = |s: &str| -> i64 {
            // Interned ids are negative and far from ordinary integers; they only meet
            // other strings in `==`/`!=`, so their magnitude never matters.
            match interned.iter().position(|x| x == s) {
                Some(i) => -(i as i64) - 1_000_000_007,
                None => {
                    interned.push(s.to_string());
                    -(interned.len() as i64 - 1) - 1_000_000_007
                }
            }
        };
        let mut slot_of: HashMap<String, (usize, Type)> = HashMap::new();
        let mut slot_values = Vec::new();
        for (i, p) in spec.params.iter().enumerate() {
            if !is_ident(&p.name) {
                return Err(SpaceError::BadName(p.name.clone()));
            }
            if slot_of.contains_key(&p.name) {
                return Err(SpaceError::Duplicate(p.name.clone()));
            }
            if p.values.is_empty() {
                return Err(SpaceError::NoValues(p.name.clone()));
            }
            if p.values.len() > u16::MAX as usize {
                return Err(SpaceError::TooManyValues(p.name.clone()));
            }
            let ty = p.ty();
            let mut ints = Vec::with_capacity(p.values.len());
            for v in &p.values {
                match (ty, v) {
                    (Type::Int, ParamValue::Int(x)) => ints.push(*x),
                    (Type::Str, ParamValue::Str(s)) => {
                        if s.is_empty()
                            || s.contains(',')
                            || s.contains('=')
                            || s.trim().parse::<i64>().is_ok()
                        {
                            return Err(SpaceError::BadStringValue {
                                param: p.name.clone(),
                                value: s.clone(),
                            });
                        }
                        ints.push(intern(s));
                    }
                    _ => return Err(SpaceError::MixedTypes(p.name.clone())),
                }
            }
            let mut sorted = ints.clone();
            sorted.sort_unstable();
            if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                let dup = p
                    .values
                    .iter()
                    .zip(&ints)
                    .find(|(_, x)| **x == w[0])
                    .map(|(v, _)| v.to_string())
                    .unwrap_or_default();
                return Err(SpaceError::DuplicateValue {
                    param: p.name.clone(),
                    value: dup,
                });
            }
            slot_of.insert(p.name.clone(), (i, ty));
            slot_values.push(ints);
        }
        let nparams = spec.params.len();
        // The level of a slot: the parameter after which its value is known.
        let mut level_of_slot: Vec<Option<usize>> = (0..nparams).map(Some).collect();
        let mut checks_at: Vec<Vec<Check>> = vec![Vec::new(); nparams];
        let mut derived_consts: HashMap<String, i64> = HashMap::new();
        let mut const_ok = true;

        let mut derived_exprs = Vec::new();
        let mut constraint_exprs = Vec::new();
        for (name, text) in &spec.derived {
            let err = |error: ExprError| SpaceError::Derived {
                name: name.clone(),
                text: text.clone(),
                error,
            };
            if !is_ident(name) || slot_of.contains_key(name) || device.get(name).is_some() {
                return Err(err(ExprError {
                    offset: 0,
                    message: format!(
                        "`{name}` is not a fresh identifier (it names a parameter or device property, or is malformed)"
                    ),
                }));
            }
            let expr = Expr::parse(text).map_err(err)?;
            let ty = expr
                .check_types(&|n| type_of(n, &slot_of, &device, &derived_consts))
                .map_err(err)?;
            if ty != Type::Int {
                return Err(err(ExprError {
                    offset: 0,
                    message: "a derived value must be an integer".into(),
                }));
            }
            let program = expr
                .compile(
                    &|n| operand(n, &slot_of, &device, &derived_consts),
                    &mut intern,
                )
                .map_err(err)?;
            derived_exprs.push((name.clone(), expr));
            match program.max_slot() {
                None => {
                    // Depends on device properties only: fold it to a constant now.
                    let v = program.run(&[], &mut Vec::new()).map_err(|e| {
                        err(ExprError {
                            offset: 0,
                            message: e.to_string(),
                        })
                    })?;
                    derived_consts.insert(name.clone(), v);
                }
                Some(max_slot) => {
                    let level = level_of_slot[max_slot].unwrap_or(0);
                    let slot = level_of_slot.len();
                    level_of_slot.push(Some(level));
                    slot_of.insert(name.clone(), (slot, Type::Int));
                    checks_at[level].push(Check {
                        program,
                        target: Some(slot),
                    });
                }
            }
        }

        for (ci, text) in spec.constraints.iter().enumerate() {
            let err = |error: ExprError| SpaceError::Constraint {
                index: ci + 1,
                text: text.clone(),
                error,
            };
            let expr = Expr::parse(text).map_err(err)?;
            let ty = expr
                .check_types(&|n| type_of(n, &slot_of, &device, &derived_consts))
                .map_err(|mut e| {
                    if e.message.starts_with("unknown name") {
                        e.message = format!(
                            "{} (parameters: {}; device properties: {})",
                            e.message,
                            spec.params
                                .iter()
                                .map(|p| p.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", "),
                            device.0.keys().cloned().collect::<Vec<_>>().join(", ")
                        );
                    }
                    err(e)
                })?;
            if ty != Type::Int {
                return Err(err(ExprError {
                    offset: 0,
                    message: "a constraint must be a truth value, not a string".into(),
                }));
            }
            let program = expr
                .compile(
                    &|n| operand(n, &slot_of, &device, &derived_consts),
                    &mut intern,
                )
                .map_err(err)?;
            constraint_exprs.push(expr);
            match program.max_slot() {
                None => {
                    let ok = matches!(program.run(&[], &mut Vec::new()), Ok(v) if v != 0);
                    const_ok &= ok;
                }
                Some(max_slot) => {
                    let level = level_of_slot[max_slot].unwrap_or(0);
                    checks_at[level].push(Check {
                        program,
                        target: None,
                    });
                }
            }
        }
        let names: Arc<[String]> = spec.params.iter().map(|p| p.name.clone()).collect();
        Ok(Space {
            spec,
            device,
            slot_values,
            checks_at,
            const_ok,
            names,
            derived_exprs,
            constraint_exprs,
        })
    }

    pub fn spec(&self) -> &SpaceSpec {
        &self.spec
    }

    pub fn device(&self) -> &DeviceProps {
        &self.device
    }

    pub fn params(&self) -> &[Param] {
        &self.spec.params
    }

    pub fn param_names(&self) -> &[String] {
        &self.names
    }

    /// Lists every valid configuration by backtracking over the parameters in
    /// order, checking each constraint as soon as the last parameter it
    /// mentions is bound.
    pub fn enumerate(&self) -> ValidSpace {
        self.enumerate_with_stats().0
    }

    pub fn enumerate_with_stats(&self) -> (ValidSpace, SolveStats) {
        let n = self.spec.params.len();
        let mut stats = SolveStats::default();
        let mut flat: Vec<u16> = Vec::new();
        if n > 0 && self.const_ok {
            let nslots = n + self
                .checks_at
                .iter()
                .flatten()
                .filter(|c| c.target.is_some())
                .count();
            let mut slots = vec![0i64; nslots];
            let mut stack = Vec::with_capacity(16);
            let mut idx = vec![0usize; n];
            let mut d = 0usize;
            loop {
                if idx[d] < self.slot_values[d].len() {
                    slots[d] = self.slot_values[d][idx[d]];
                    stats.nodes += 1;
                    let mut ok = true;
                    for check in &self.checks_at[d] {
                        stats.checks += 1;
                        match check.program.run(&slots, &mut stack) {
                            Ok(v) => match check.target {
                                Some(t) => slots[t] = v,
                                None => {
                                    if v == 0 {
                                        ok = false;
                                        break;
                                    }
                                }
                            },
                            Err(_) => {
                                stats.eval_errors += 1;
                                ok = false;
                                break;
                            }
                        }
                    }
                    if ok && d + 1 == n {
                        flat.extend(idx.iter().map(|&i| i as u16));
                        idx[d] += 1;
                    } else if ok {
                        d += 1;
                        idx[d] = 0;
                    } else {
                        idx[d] += 1;
                    }
                } else {
                    if d == 0 {
                        break;
                    }
                    d -= 1;
                    idx[d] += 1;
                }
            }
        }
        (
            ValidSpace {
                params: Arc::new(self.spec.params.clone()),
                names: self.names.clone(),
                flat,
                index: OnceLock::new(),
            },
            stats,
        )
    }

    /// Whether `config` satisfies every constraint, judged by walking the
    /// expression trees one configuration at a time: the slow reference that the
    /// solver must agree with.
    pub fn satisfies(&self, config: &Config) -> bool {
        use crate::expr::Value;
        let mut derived: HashMap<&str, i64> = HashMap::new();
        for (name, expr) in &self.derived_exprs {
            let v = expr.eval(&|n| {
                lookup(n, config, &self.device).or_else(|| derived.get(n).map(|v| Value::Int(*v)))
            });
            match v {
                Ok(Value::Int(v)) => {
                    derived.insert(name, v);
                }
                _ => return false,
            }
        }
        self.constraint_exprs.iter().all(|e| {
            let v = e.eval(&|n| {
                lookup(n, config, &self.device).or_else(|| derived.get(n).map(|v| Value::Int(*v)))
            });
            matches!(v, Ok(Value::Int(x)) if x != 0)
        })
    }
}

fn lookup<'a>(n: &str, config: &'a Config, device: &DeviceProps) -> Option<crate::expr::Value<'a>> {
    use crate::expr::Value;
    match config.get(n) {
        Some(ParamValue::Int(v)) => Some(Value::Int(*v)),
        Some(ParamValue::Str(s)) => Some(Value::Str(s)),
        None => device.get(n).map(Value::Int),
    }
}

fn type_of(
    n: &str,
    slot_of: &HashMap<String, (usize, Type)>,
    device: &DeviceProps,
    derived_consts: &HashMap<String, i64>,
) -> Option<Type> {
    if let Some((_, t)) = slot_of.get(n) {
        return Some(*t);
    }
    if device.get(n).is_some() || derived_consts.contains_key(n) {
        return Some(Type::Int);
    }
    None
}

fn operand(
    n: &str,
    slot_of: &HashMap<String, (usize, Type)>,
    device: &DeviceProps,
    derived_consts: &HashMap<String, i64>,
) -> Option<Operand> {
    if let Some((s, _)) = slot_of.get(n) {
        return Some(Operand::Slot(*s));
    }
    device
        .get(n)
        .or_else(|| derived_consts.get(n).copied())
        .map(Operand::Const)
}

/// The valid configurations of a space, stored compactly as value indices.
#[derive(Debug)]
pub struct ValidSpace {
    params: Arc<Vec<Param>>,
    names: Arc<[String]>,
    flat: Vec<u16>,
    index: OnceLock<HashMap<String, usize>>,
}

impl Clone for ValidSpace {
    fn clone(&self) -> Self {
        ValidSpace {
            params: self.params.clone(),
            names: self.names.clone(),
            flat: self.flat.clone(),
            index: OnceLock::new(),
        }
    }
}

impl ValidSpace {
    /// A space holding exactly `configs` (e.g. read back from a recording). All
    /// must have the same parameter names in the same order.
    pub fn from_configs(configs: &[Config]) -> Result<ValidSpace, SpaceError> {
        let names: Vec<String> = configs
            .first()
            .map(|c| c.entries().iter().map(|(n, _)| n.clone()).collect())
            .unwrap_or_default();
        let mut params: Vec<Param> = names
            .iter()
            .map(|n| Param {
                name: n.clone(),
                values: Vec::new(),
            })
            .collect();
        let mut flat = Vec::with_capacity(configs.len() * names.len());
        for c in configs {
            if c.len() != names.len() || c.entries().iter().zip(&names).any(|((a, _), b)| a != b) {
                return Err(SpaceError::Inconsistent(format!(
                    "configuration `{}` does not have the parameters {}",
                    c.key(),
                    names.join(", ")
                )));
            }
            for (p, (_, v)) in params.iter_mut().zip(c.entries()) {
                let i = match p.values.iter().position(|x| x == v) {
                    Some(i) => i,
                    None => {
                        p.values.push(v.clone());
                        p.values.len() - 1
                    }
                };
                if i > u16::MAX as usize {
                    return Err(SpaceError::TooManyValues(p.name.clone()));
                }
                flat.push(i as u16);
            }
        }
        // Keep each parameter's values sorted so that ordinal encodings are meaningful.
        for (pi, p) in params.iter_mut().enumerate() {
            let mut order: Vec<usize> = (0..p.values.len()).collect();
            order.sort_by(|&a, &b| p.values[a].cmp(&p.values[b]));
            let mut rank = vec![0u16; order.len()];
            for (r, &o) in order.iter().enumerate() {
                rank[o] = r as u16;
            }
            p.values = order.iter().map(|&o| p.values[o].clone()).collect();
            let stride = names.len();
            for row in flat.chunks_mut(stride) {
                row[pi] = rank[row[pi] as usize];
            }
        }
        Ok(ValidSpace {
            params: Arc::new(params),
            names: names.into(),
            flat,
            index: OnceLock::new(),
        })
    }

    pub fn len(&self) -> usize {
        if self.names.is_empty() {
            0
        } else {
            self.flat.len() / self.names.len()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn params(&self) -> &[Param] {
        &self.params
    }

    pub fn param_names(&self) -> &[String] {
        &self.names
    }

    /// The value indices of configuration `i` (one per parameter).
    pub fn indices(&self, i: usize) -> &[u16] {
        let n = self.names.len();
        &self.flat[i * n..(i + 1) * n]
    }

    pub fn config(&self, i: usize) -> Config {
        Config::new(
            self.indices(i)
                .iter()
                .zip(self.params.iter())
                .map(|(&vi, p)| (p.name.clone(), p.values[vi as usize].clone()))
                .collect(),
        )
    }

    pub fn key(&self, i: usize) -> String {
        self.config(i).key()
    }

    pub fn configs(&self) -> impl Iterator<Item = Config> + '_ {
        (0..self.len()).map(|i| self.config(i))
    }

    /// The position of the configuration with this key, if it is valid.
    pub fn position(&self, key: &str) -> Option<usize> {
        self.index
            .get_or_init(|| (0..self.len()).map(|i| (self.key(i), i)).collect())
            .get(key)
            .copied()
    }

    /// The deterministic slice `i` of `n`: positions `p` with `p % n == i`.
    pub fn shard(&self, i: usize, n: usize) -> Result<Vec<usize>, SpaceError> {
        if n == 0 || i >= n {
            return Err(SpaceError::Shard(format!(
                "shard {i}/{n} is out of range (need 0 <= i < n)"
            )));
        }
        Ok((i..self.len()).step_by(n).collect())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The paper's SYMV space (Table 2) with a shared-memory constraint in the
    /// spirit of eq. (3): each block keeps a `BLOCK_SIZE x UX` tile of doubles plus
    /// the `UX^2` reduction area, and `MULTIPLICITY` blocks must fit in the SM's
    /// 64 KiB of unified L1/shared memory. 7,280 of the 16,000 combinations are
    /// valid, close to the 7,276 the paper found on its K20.
    pub(crate) fn symv_spec() -> SpaceSpec {
        SpaceSpec::new()
            .param(Param::range("BLOCK_SIZE", 32, 256, 32))
            .param(Param::range("UX", 8, 32, 1))
            .param(Param::range("MULTIPLICITY", 1, 8, 1))
            .param(Param::range("MX", 0, 9, 1))
            .constraint("BLOCK_SIZE % warp_size == 0")
            .constraint(
                "MULTIPLICITY * 8 * (UX + max(BLOCK_SIZE * UX, UX * UX)) <= unified_l1_smem_per_sm",
            )
            .constraint("MULTIPLICITY * BLOCK_SIZE <= max_threads_per_sm")
    }

    fn brute_force(space: &Space) -> Vec<Vec<usize>> {
        let params = space.params();
        let lens: Vec<usize> = params.iter().map(|p| p.values.len()).collect();
        let total: usize = lens.iter().product();
        let mut out = Vec::new();
        for mut flat in 0..total {
            let mut idx = vec![0; lens.len()];
            for d in (0..lens.len()).rev() {
                idx[d] = flat % lens[d];
                flat /= lens[d];
            }
            let config = Config::new(
                params
                    .iter()
                    .zip(&idx)
                    .map(|(p, &i)| (p.name.clone(), p.values[i].clone()))
                    .collect(),
            );
            if space.satisfies(&config) {
                out.push(idx);
            }
        }
        out
    }

    #[test]
    fn symv_space_matches_brute_force_and_prunes() {
        let space = Space::new(symv_spec(), DeviceProps::tesla_k20()).unwrap();
        assert_eq!(space.spec().product_size(), 16_000);
        let (valid, stats) = space.enumerate_with_stats();
        let brute = brute_force(&space);
        let got: Vec<Vec<usize>> = (0..valid.len())
            .map(|i| valid.indices(i).iter().map(|&x| x as usize).collect())
            .collect();
        assert_eq!(got, brute);
        assert_eq!(valid.len(), 7_280);
        // Pruning: fewer nodes than the product (partial assignments are cut early).
        assert!(stats.nodes < 16_000 + 1_600 + 200 + 8, "{stats:?}");
        // Keys are stable and look up positions.
        let k = valid.key(17);
        assert!(k.starts_with("BLOCK_SIZE=32,UX="), "{k}");
        assert_eq!(valid.position(&k), Some(17));
        assert_eq!(Config::parse_key(&k).unwrap(), valid.config(17));
    }

    #[test]
    fn large_space_builds_without_the_product() {
        // 2,048,000 combinations; a constraint on the first two parameters
        // prunes most subtrees long before the leaves.
        let spec = SpaceSpec::new()
            .param(Param::range("BX", 1, 64, 1))
            .param(Param::range("BY", 1, 64, 1))
            .param(Param::range("TX", 1, 10, 1))
            .param(Param::range("TY", 1, 10, 1))
            .param(Param::new("LAYOUT", ["NN", "TN", "NT", "TT"]))
            .param(Param::range("UNROLL", 1, 5, 1))
            .derive("threads", "BX * BY")
            .constraint("threads <= max_threads_per_block && threads % warp_size == 0")
            .constraint("TX * TY <= 16")
            .constraint("LAYOUT != \"TT\" || UNROLL <= 2");
        assert_eq!(spec.product_size(), 64 * 64 * 100 * 4 * 5);
        let space = Space::new(spec, DeviceProps::tesla_k20()).unwrap();
        let (valid, stats) = space.enumerate_with_stats();
        // Independent count: pairs (BX,BY) with BX*BY <= 1024 and a multiple of 32,
        // times pairs (TX,TY) with TX*TY <= 16, times the 4*5 - 3 LAYOUT/UNROLL pairs.
        let bxy = (1..=64i64)
            .flat_map(|a| (1..=64i64).map(move |b| a * b))
            .filter(|t| *t <= 1024 && t % 32 == 0)
            .count();
        let txy = (1..=10i64)
            .flat_map(|a| (1..=10i64).map(move |b| a * b))
            .filter(|t| *t <= 16)
            .count();
        assert_eq!(valid.len(), bxy * txy * 17);
        assert!(stats.nodes < 4_000_000, "{stats:?}");
        let c = valid.config(valid.len() - 1);
        assert_eq!(c.get("LAYOUT").and_then(|v| v.as_str()), Some("TT"));
    }

    #[test]
    fn strings_derived_and_device_only_constraints() {
        let spec = SpaceSpec::new()
            .param(Param::new("ALGO", ["atomic", "lu"]))
            .param(Param::range("B", 32, 128, 32))
            .derive("smem", "B * 8")
            .constraint("ALGO == \"atomic\" || B == 64")
            .constraint("smem <= smem_per_block");
        let valid = Space::new(spec.clone(), DeviceProps::tesla_k20())
            .unwrap()
            .enumerate();
        let keys: Vec<String> = valid.configs().map(|c| c.key()).collect();
        assert_eq!(
            keys,
            [
                "ALGO=atomic,B=32",
                "ALGO=atomic,B=64",
                "ALGO=atomic,B=96",
                "ALGO=atomic,B=128",
                "ALGO=lu,B=64"
            ]
        );
        // A constraint on the device alone empties the space when false.
        let none = Space::new(
            spec.clone().constraint("cc_major >= 7"),
            DeviceProps::tesla_k20(),
        )
        .unwrap()
        .enumerate();
        assert!(none.is_empty());
        // Division by zero for some values rejects only those values.
        let spec = SpaceSpec::new()
            .param(Param::range("D", 0, 4, 1))
            .constraint("12 % D == 0");
        let (valid, stats) = Space::new(spec, DeviceProps::new())
            .unwrap()
            .enumerate_with_stats();
        assert_eq!(valid.len(), 4);
        assert_eq!(stats.eval_errors, 1);
    }

    #[test]
    fn bad_specs_are_reported_clearly() {
        let base = || SpaceSpec::new().param(Param::range("A", 1, 4, 1));
        let err = Space::new(base().constraint("A * B > 2"), DeviceProps::new()).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("constraint 1") && msg.contains("unknown name `B`"),
            "{msg}"
        );
        let err = Space::new(base().constraint("A >"), DeviceProps::new()).unwrap_err();
        assert!(err.to_string().contains("column 4"), "{err}");
        let err = Space::new(base().param(Param::range("A", 1, 2, 1)), DeviceProps::new());
        assert_eq!(err.unwrap_err(), SpaceError::Duplicate("A".into()));
        let err = Space::new(
            SpaceSpec::new().param(Param::new("L", ["a,b"])),
            DeviceProps::new(),
        );
        assert!(matches!(err, Err(SpaceError::BadStringValue { .. })));
        let err = Space::new(
            SpaceSpec::new().param(Param::new("1X", [1i64])),
            DeviceProps::new(),
        );
        assert!(matches!(err, Err(SpaceError::BadName(_))));
        let err = Space::new(
            SpaceSpec::new().param(Param::new("X", Vec::<i64>::new())),
            DeviceProps::new(),
        );
        assert!(matches!(err, Err(SpaceError::NoValues(_))));
        let err = Space::new(
            SpaceSpec::new().param(Param::new("X", [1i64, 2, 1])),
            DeviceProps::new(),
        );
        assert!(matches!(err, Err(SpaceError::DuplicateValue { .. })));
        let err = Space::new(
            SpaceSpec::new()
                .param(Param::new("L", ["x", "y"]))
                .constraint("L * 2 > 1"),
            DeviceProps::new(),
        );
        assert!(err.unwrap_err().to_string().contains("needs integers"));
    }

    #[test]
    fn shards_partition_the_space() {
        let valid = Space::new(symv_spec(), DeviceProps::tesla_k20())
            .unwrap()
            .enumerate();
        let mut all: Vec<usize> = (0..3).flat_map(|i| valid.shard(i, 3).unwrap()).collect();
        all.sort_unstable();
        assert_eq!(all, (0..valid.len()).collect::<Vec<_>>());
        assert!(valid.shard(3, 3).is_err());
        let configs: Vec<Config> = valid
            .shard(1, 3)
            .unwrap()
            .iter()
            .map(|&i| valid.config(i))
            .collect();
        let back = ValidSpace::from_configs(&configs).unwrap();
        assert_eq!(back.len(), configs.len());
        for (i, c) in configs.iter().enumerate() {
            assert_eq!(back.position(&c.key()), Some(i));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
        #[test]
        fn solver_equals_brute_force(la in 1usize..7, lb in 1usize..7, lc in 1usize..5, k in 1i64..40, m in 1i64..5) {
            let spec = SpaceSpec::new()
                .param(Param::range("A", 0, la as i64 - 1, 1))
                .param(Param::range("B", 1, lb as i64, 1))
                .param(Param::range("C", -2, lc as i64 - 3, 1))
                .constraint(&format!("A * B + C <= {k}"))
                .constraint(&format!("(A + C) % {m} != 1 || B > 3"))
                .constraint("A < 5 || !(B == 2)");
            let space = Space::new(spec, DeviceProps::new()).unwrap();
            let valid = space.enumerate();
            let got: Vec<Vec<usize>> = (0..valid.len())
                .map(|i| valid.indices(i).iter().map(|&x| x as usize).collect())
                .collect();
            proptest::prop_assert_eq!(got, brute_force(&space));
        }
    }
}
