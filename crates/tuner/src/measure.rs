//! Measurements and the evaluation backend trait.

use crate::config::Config;
use crate::db::DeviceInfo;
use crate::key::ProblemKey;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Timing statistics of one (configuration, size) measurement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Median of the repeated runs, seconds.
    pub median_s: f64,
    /// Lower and upper quartiles, seconds (the interquartile range is the spread).
    pub q1_s: f64,
    pub q3_s: f64,
    pub min_s: f64,
    pub max_s: f64,
    /// Number of timed runs.
    pub samples: u32,
    /// The individual run times when the backend kept them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub times_s: Vec<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gflops: Option<f64>,
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    // Linear interpolation between order statistics (type 7, as numpy's default).
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

impl Timing {
    /// Statistics of a set of run times; `None` when there are none or any is not
    /// a positive finite number.
    pub fn from_samples(times_s: &[f64]) -> Option<Timing> {
        if times_s.is_empty() || times_s.iter().any(|t| !t.is_finite() || *t <= 0.0) {
            return None;
        }
        let mut s = times_s.to_vec();
        s.sort_by(f64::total_cmp);
        Some(Timing {
            median_s: quantile(&s, 0.5),
            q1_s: quantile(&s, 0.25),
            q3_s: quantile(&s, 0.75),
            min_s: s[0],
            max_s: s[s.len() - 1],
            samples: s.len() as u32,
            times_s: times_s.to_vec(),
            gbps: None,
            gflops: None,
        })
    }

    /// A timing known only by its median (e.g. imported from elsewhere).
    pub fn single(median_s: f64) -> Timing {
        Timing {
            median_s,
            q1_s: median_s,
            q3_s: median_s,
            min_s: median_s,
            max_s: median_s,
            samples: 1,
            times_s: Vec::new(),
            gbps: None,
            gflops: None,
        }
    }

    /// Sets throughput figures from the work done by one run.
    pub fn with_work(mut self, bytes: Option<f64>, flops: Option<f64>) -> Timing {
        self.gbps = bytes.map(|b| b / self.median_s / 1e9);
        self.gflops = flops.map(|f| f / self.median_s / 1e9);
        self
    }

    /// Interquartile range relative to the median.
    pub fn relative_spread(&self) -> f64 {
        (self.q3_s - self.q1_s) / self.median_s
    }
}

/// Why a configuration produced no usable timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvalidKind {
    /// The kernel did not compile.
    Compile,
    /// Launch failure, memory fault, resources exhausted.
    Runtime,
    /// The kernel did not finish in time.
    Timeout,
    /// The result differed from the reference.
    WrongAnswer,
    /// A constraint known only at run time was violated.
    Constraint,
    /// No data for this point (a replay of a recording that lacks it).
    Missing,
}

impl InvalidKind {
    pub const ALL: [InvalidKind; 6] = [
        InvalidKind::Compile,
        InvalidKind::Runtime,
        InvalidKind::Timeout,
        InvalidKind::WrongAnswer,
        InvalidKind::Constraint,
        InvalidKind::Missing,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            InvalidKind::Compile => "compile",
            InvalidKind::Runtime => "runtime",
            InvalidKind::Timeout => "timeout",
            InvalidKind::WrongAnswer => "wrong_answer",
            InvalidKind::Constraint => "constraint",
            InvalidKind::Missing => "missing",
        }
    }

    pub fn parse(s: &str) -> Option<InvalidKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl fmt::Display for InvalidKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a variant gave no timing, typed where the failure happens so that
/// no one has to recover the kind from the message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invalid {
    pub kind: InvalidKind,
    pub reason: String,
}

impl Invalid {
    pub fn new(kind: InvalidKind, reason: impl Into<String>) -> Invalid {
        Invalid {
            kind,
            reason: reason.into(),
        }
    }

    pub fn compile(reason: impl Into<String>) -> Invalid {
        Invalid::new(InvalidKind::Compile, reason)
    }

    pub fn runtime(reason: impl Into<String>) -> Invalid {
        Invalid::new(InvalidKind::Runtime, reason)
    }

    pub fn constraint(reason: impl Into<String>) -> Invalid {
        Invalid::new(InvalidKind::Constraint, reason)
    }

    pub fn wrong_answer(reason: impl Into<String>) -> Invalid {
        Invalid::new(InvalidKind::WrongAnswer, reason)
    }

    pub fn timeout(reason: impl Into<String>) -> Invalid {
        Invalid::new(InvalidKind::Timeout, reason)
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl From<Invalid> for Measurement {
    fn from(i: Invalid) -> Measurement {
        Measurement::Invalid {
            kind: i.kind,
            reason: i.reason,
        }
    }
}

/// The outcome of evaluating one configuration at one problem size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Measurement {
    Ok(Timing),
    Invalid { kind: InvalidKind, reason: String },
}

impl Measurement {
    pub fn invalid(kind: InvalidKind, reason: impl Into<String>) -> Measurement {
        Measurement::Invalid {
            kind,
            reason: reason.into(),
        }
    }

    pub fn timing(&self) -> Option<&Timing> {
        match self {
            Measurement::Ok(t) => Some(t),
            Measurement::Invalid { .. } => None,
        }
    }

    /// The median time, for valid measurements.
    pub fn time_s(&self) -> Option<f64> {
        self.timing().map(|t| t.median_s)
    }

    pub fn is_ok(&self) -> bool {
        matches!(self, Measurement::Ok(_))
    }

    /// `"ok"` or the invalidity kind.
    pub fn status(&self) -> &'static str {
        match self {
            Measurement::Ok(_) => "ok",
            Measurement::Invalid { kind, .. } => kind.as_str(),
        }
    }
}

/// Why an evaluator stopped the run. The point in hand is not recorded:
/// what was measured before stays stored, and the job resumes from there.
#[derive(Debug, thiserror::Error)]
pub enum Stop {
    /// The caller's budget of new measurements is spent.
    #[error("stopped after {0} new measurement(s)")]
    Limit(usize),
    /// The backend can measure nothing more (the device is gone, the tuning
    /// database cannot be written).
    #[error("{0}")]
    Failed(Box<dyn std::error::Error + Send + Sync>),
}

impl Stop {
    pub fn failed(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Stop {
        Stop::Failed(e.into())
    }
}

/// When a task's remaining problems are not worth measuring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopAt {
    /// Every problem is measured.
    Never,
    /// After the first invalid measurement (an objective over all sizes is
    /// then undefined anyway).
    Invalid,
    /// After a failure that no size can change (a compile error).
    SizeIndependent,
}

/// One configuration to measure on several problems, in order, on one
/// device: the unit a backend with several devices hands out.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub config: Config,
    pub keys: Vec<ProblemKey>,
    pub stop_at: StopAt,
}

impl Task {
    pub fn new(config: Config, keys: Vec<ProblemKey>, stop_at: StopAt) -> Task {
        Task {
            config,
            keys,
            stop_at,
        }
    }

    /// Whether the problems after one that gave `m` are skipped.
    pub fn stops_after(&self, m: &Measurement) -> bool {
        match self.stop_at {
            StopAt::Never => false,
            StopAt::Invalid => !m.is_ok(),
            StopAt::SizeIndependent => matches!(
                m,
                Measurement::Invalid {
                    kind: InvalidKind::Compile,
                    ..
                }
            ),
        }
    }
}

/// The device a measurement was taken on, as a backend with several devices
/// reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct OnDevice {
    /// The device's ordinal on its machine.
    pub ordinal: u32,
    pub info: DeviceInfo,
}

/// One measurement of a batch of tasks, as it is taken.
#[derive(Debug)]
pub struct Taken<'a> {
    /// Position of the task in the batch.
    pub task: usize,
    /// Position of the problem in the task's keys.
    pub step: usize,
    pub key: &'a ProblemKey,
    pub measurement: &'a Measurement,
    /// `None` from a backend of one device.
    pub device: Option<&'a OnDevice>,
}

/// Receives each measurement of a batch; `Err` asks the backend to stop
/// handing out work (what is in flight is still delivered).
pub type Sink<'s> = dyn FnMut(Taken<'_>) -> Result<(), Stop> + 's;

/// A backend that measures a configuration on a problem: the GPU runtime,
/// a replay of a recorded run, or a synthetic model. A configuration that
/// cannot run is an `Ok` invalid measurement; `Err` ends the run.
pub trait Evaluator {
    fn evaluate(&mut self, config: &Config, key: &ProblemKey) -> Result<Measurement, Stop>;

    /// Measures independent tasks, handing each measurement to `sink` as it
    /// is taken. A backend of several devices measures tasks at once, in any
    /// order; this one measures them one after another.
    fn evaluate_tasks(&mut self, tasks: &[Task], sink: &mut Sink<'_>) -> Result<(), Stop> {
        evaluate_one_by_one(self, tasks, sink)
    }
}

/// [`Evaluator::evaluate_tasks`] one measurement after another through
/// `eval.evaluate`: the default, and what a backend that overrides it falls
/// back on when it has one device.
pub fn evaluate_one_by_one<E: Evaluator + ?Sized>(
    eval: &mut E,
    tasks: &[Task],
    sink: &mut Sink<'_>,
) -> Result<(), Stop> {
    for (i, task) in tasks.iter().enumerate() {
        for (step, key) in task.keys.iter().enumerate() {
            let m = eval.evaluate(&task.config, key)?;
            sink(Taken {
                task: i,
                step,
                key,
                measurement: &m,
                device: None,
            })?;
            if task.stops_after(&m) {
                break;
            }
        }
    }
    Ok(())
}

impl<E: Evaluator + ?Sized> Evaluator for &mut E {
    fn evaluate(&mut self, config: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
        (**self).evaluate(config, key)
    }

    fn evaluate_tasks(&mut self, tasks: &[Task], sink: &mut Sink<'_>) -> Result<(), Stop> {
        (**self).evaluate_tasks(tasks, sink)
    }
}

impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    fn evaluate(&mut self, config: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
        (**self).evaluate(config, key)
    }

    fn evaluate_tasks(&mut self, tasks: &[Task], sink: &mut Sink<'_>) -> Result<(), Stop> {
        (**self).evaluate_tasks(tasks, sink)
    }
}

/// Measures `tasks` and returns each task's measurements in key order, up
/// to where the task stopped.
pub fn run_tasks(eval: &mut dyn Evaluator, tasks: &[Task]) -> Result<Vec<Vec<Measurement>>, Stop> {
    let mut got: Vec<Vec<Option<Measurement>>> =
        tasks.iter().map(|t| vec![None; t.keys.len()]).collect();
    eval.evaluate_tasks(tasks, &mut |t| {
        got[t.task][t.step] = Some(t.measurement.clone());
        Ok(())
    })?;
    Ok(got
        .into_iter()
        .map(|steps| steps.into_iter().map_while(|m| m).collect())
        .collect())
}

/// Wraps a closure of the problem size (a key `n=N`, as one-size models
/// take) as an evaluator.
pub struct FnEvaluator<F>(pub F);

impl<F: FnMut(&Config, u64) -> Measurement> Evaluator for FnEvaluator<F> {
    fn evaluate(&mut self, config: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
        Ok(match key.single_size() {
            Some(n) => (self.0)(config, n),
            None => not_one_size(key),
        })
    }
}

/// What a one-size backend answers for a key it cannot take.
pub fn not_one_size(key: &ProblemKey) -> Measurement {
    Measurement::invalid(
        InvalidKind::Constraint,
        format!("problem `{key}` is not one size"),
    )
}

/// Counts the calls that reach an inner evaluator.
pub struct Counting<E> {
    pub inner: E,
    pub calls: usize,
}

impl<E> Counting<E> {
    pub fn new(inner: E) -> Self {
        Counting { inner, calls: 0 }
    }
}

impl<E: Evaluator> Evaluator for Counting<E> {
    fn evaluate(&mut self, config: &Config, key: &ProblemKey) -> Result<Measurement, Stop> {
        self.calls += 1;
        self.inner.evaluate(config, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_of_samples() {
        let t = Timing::from_samples(&[5.0, 1.0, 3.0, 2.0, 4.0]).unwrap();
        assert_eq!(t.median_s, 3.0);
        assert_eq!((t.q1_s, t.q3_s), (2.0, 4.0));
        assert_eq!((t.min_s, t.max_s, t.samples), (1.0, 5.0, 5));
        assert!((t.relative_spread() - 2.0 / 3.0).abs() < 1e-12);
        let even = Timing::from_samples(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(even.median_s, 2.5);
        assert!(Timing::from_samples(&[]).is_none());
        assert!(Timing::from_samples(&[1.0, f64::NAN]).is_none());
        let w = Timing::single(2e-3).with_work(Some(4e9), Some(1e9));
        assert!((w.gbps.unwrap() - 2000.0).abs() < 1e-9);
        assert!((w.gflops.unwrap() - 500.0).abs() < 1e-9);
    }

    #[test]
    fn measurement_json_and_kinds() {
        let m = Measurement::invalid(InvalidKind::WrongAnswer, "max error 3e-2");
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.contains("\"status\":\"invalid\""), "{text}");
        assert_eq!(serde_json::from_str::<Measurement>(&text).unwrap(), m);
        let ok = Measurement::Ok(Timing::single(1e-3));
        assert_eq!(
            serde_json::from_str::<Measurement>(&serde_json::to_string(&ok).unwrap()).unwrap(),
            ok
        );
        for k in InvalidKind::ALL {
            assert_eq!(InvalidKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(m.status(), "wrong_answer");
        assert_eq!(ok.time_s(), Some(1e-3));
    }

    #[test]
    fn wrappers_forward_calls() {
        let mut f = Counting::new(FnEvaluator(|_: &Config, n: u64| {
            Measurement::Ok(Timing::single(n as f64))
        }));
        let c = Config::new(vec![]);
        assert_eq!(
            f.evaluate(&c, &ProblemKey::n(7)).unwrap().time_s(),
            Some(7.0)
        );
        let mut boxed: Box<dyn Evaluator> = Box::new(&mut f);
        assert_eq!(
            boxed.evaluate(&c, &ProblemKey::n(9)).unwrap().time_s(),
            Some(9.0)
        );
        let two: ProblemKey = "m=2,n=2".parse().unwrap();
        assert_eq!(boxed.evaluate(&c, &two).unwrap().status(), "constraint");
        drop(boxed);
        assert_eq!(f.calls, 3);
    }
}
