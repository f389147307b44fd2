//! Exact-key plans: the best configuration per problem, for routines whose
//! problems form no one-dimensional family worth interpolating over (an
//! FFT's `nx,ny,nz,precision,batch`), where an interval [`Rule`] over a size
//! axis has nothing to stand on.
//!
//! [`Rule`]: crate::rule::Rule

use crate::config::Config;
use crate::db::{DbError, TuningDb};
use crate::key::ProblemKey;
use crate::measure::{run_tasks, Evaluator, Measurement, Stop, StopAt, Task};
use crate::rule::RuleError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The configuration that measured fastest on one problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub key: ProblemKey,
    pub config: Config,
    /// Its median time, seconds.
    pub time_s: f64,
}

/// One plan per problem, sorted by key.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Plans {
    pub name: String,
    pub plans: Vec<Plan>,
}

impl Plans {
    /// The fastest valid configuration per key; keys with no valid
    /// measurement get no plan.
    pub fn from_measurements(
        name: &str,
        measurements: impl IntoIterator<Item = (ProblemKey, Config, Measurement)>,
    ) -> Plans {
        let mut best: BTreeMap<ProblemKey, (Config, f64)> = BTreeMap::new();
        for (key, config, m) in measurements {
            let Some(t) = m.time_s() else { continue };
            let better = best.get(&key).is_none_or(|(_, b)| t < *b);
            if better {
                best.insert(key, (config, t));
            }
        }
        Plans {
            name: name.to_string(),
            plans: best
                .into_iter()
                .map(|(key, (config, time_s))| Plan {
                    key,
                    config,
                    time_s,
                })
                .collect(),
        }
    }

    /// The plans of a job's stored measurements (every problem it measured).
    pub fn from_job(db: &TuningDb, job_id: i64, name: &str) -> Result<Plans, DbError> {
        Ok(Plans::from_measurements(
            name,
            db.measurements(job_id)?
                .into_iter()
                .map(|m| (m.problem, m.config, m.measurement)),
        ))
    }

    /// Measures every configuration on every key and keeps the fastest.
    pub fn measure(
        name: &str,
        configs: &[Config],
        keys: &[ProblemKey],
        eval: &mut dyn Evaluator,
    ) -> Result<Plans, Stop> {
        let tasks: Vec<Task> = configs
            .iter()
            .map(|c| Task::new(c.clone(), keys.to_vec(), StopAt::Never))
            .collect();
        let measured = run_tasks(eval, &tasks)?;
        let mut all = Vec::with_capacity(configs.len() * keys.len());
        for (c, ms) in configs.iter().zip(measured) {
            for (key, m) in keys.iter().zip(ms) {
                all.push((key.clone(), c.clone(), m));
            }
        }
        Ok(Plans::from_measurements(name, all))
    }

    pub fn get(&self, key: &ProblemKey) -> Option<&Plan> {
        self.plans
            .binary_search_by(|p| p.key.cmp(key))
            .ok()
            .map(|i| &self.plans[i])
    }

    /// The configuration planned for exactly `key`.
    pub fn select(&self, key: &ProblemKey) -> Option<&Config> {
        self.get(key).map(|p| &p.config)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json(text: &str, origin: &str) -> Result<Plans, RuleError> {
        let mut plans: Plans = serde_json::from_str(text).map_err(|e| RuleError::Format {
            path: origin.to_string(),
            message: e.to_string(),
        })?;
        plans.plans.sort_by(|a, b| a.key.cmp(&b.key));
        if let Some(w) = plans.plans.windows(2).find(|w| w[0].key == w[1].key) {
            return Err(RuleError::Format {
                path: origin.to_string(),
                message: format!("two plans for `{}`", w[0].key),
            });
        }
        Ok(plans)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::{InvalidKind, Timing};

    /// A stand-in FFT: configuration `R=r` is fastest where r divides nx.
    struct Fft;

    impl Evaluator for Fft {
        fn evaluate(&mut self, c: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
            let r = c.get_int("R").unwrap();
            let nx = key.int("nx").unwrap();
            if r == 0 {
                return Ok(Measurement::invalid(InvalidKind::Compile, "R=0"));
            }
            let t = if nx % r == 0 { 1.0 / r as f64 } else { 2.0 };
            Ok(Measurement::Ok(Timing::single(t)))
        }
    }

    #[test]
    fn each_key_gets_its_fastest_configuration() {
        let configs: Vec<Config> = [0, 2, 3, 5]
            .iter()
            .map(|r| Config::parse_key(&format!("R={r}")).unwrap())
            .collect();
        let keys: Vec<ProblemKey> = ["nx=64,precision=s", "nx=81,precision=s", "nx=7,precision=d"]
            .iter()
            .map(|k| k.parse().unwrap())
            .collect();
        let plans = Plans::measure("fft", &configs, &keys, &mut Fft).unwrap();
        let pick = |k: &str| plans.select(&k.parse().unwrap()).map(Config::key);
        assert_eq!(pick("nx=64,precision=s").as_deref(), Some("R=2"));
        assert_eq!(pick("nx=81,precision=s").as_deref(), Some("R=3"));
        // Nothing divides 7: every valid configuration ties, the first wins.
        assert_eq!(pick("nx=7,precision=d").as_deref(), Some("R=2"));
        // Exact keys only: no interpolation to a neighbour.
        assert_eq!(pick("nx=65,precision=s"), None);
        // The same plans from a database that stored the measurements.
        let db = TuningDb::open_in_memory().unwrap();
        let dev = db
            .upsert_device(&crate::db::DeviceInfo::synthetic("t", Default::default()))
            .unwrap();
        let ker = db.upsert_kernel("fft", "h").unwrap();
        let (job, _) = db.open_job("fft", ker, dev, (0, 1), "{}").unwrap();
        for key in &keys {
            for c in &configs {
                let cid = db.config_id(ker, c).unwrap();
                let m = Fft.evaluate(c, key).unwrap();
                db.record(job, cid, key, 0, &m).unwrap();
            }
        }
        assert_eq!(Plans::from_job(&db, job, "fft").unwrap(), plans);
        let back = Plans::from_json(&plans.to_json(), "mem").unwrap();
        assert_eq!(back, plans);
        let mut twice = plans.clone();
        twice.plans.push(plans.plans[0].clone());
        let err = Plans::from_json(&twice.to_json(), "p.json").unwrap_err();
        assert!(err.to_string().contains("two plans"), "{err}");
    }
}
