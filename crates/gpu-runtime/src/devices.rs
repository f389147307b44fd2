//! Tuning on several GPUs at once: one evaluator per device (a lane, each
//! with its own supervised worker process), fed from one queue of tasks.
//! A lane takes the next task when it finishes one, so fast and slow devices
//! and variants even out without a static split.
//!
//! A lane whose machinery fails (its worker cannot start, its device is
//! gone) gives its task back to the queue; one that fails
//! [`DevicePool::retire_after`] times in a row is retired. A worker that dies
//! or hangs on a variant normally makes that variant invalid, but a device
//! whose worker dies on every variant would record good variants as broken.
//! So, while other lanes are alive, a lane's tasks that cost a worker restart
//! are held back: they are delivered once the lane measures a variant
//! cleanly (they were the variants' own failures), or once another lane's
//! worker dies on the same task too; a lane that restarts on `retire_after`
//! tasks in a row is retired and its held tasks go back to the queue for the
//! others, as do the held tasks left when the queue runs dry. The other lanes
//! go on; the batch fails only when no lane is left.

use std::collections::{HashMap, VecDeque};
use std::sync::mpsc;

use hone_tuner::{
    DeviceInfo, Evaluator, Measurement, OnDevice, ProblemKey, Sink, Stop, Taken, Task,
};

use crate::error::{GpuError, Result};

/// An evaluator of one device, usable as a lane of a [`DevicePool`].
pub trait Lane: Evaluator + Send {
    /// Worker processes replaced so far after faults, hangs or deaths.
    fn restarts(&self) -> u32;
}

/// Which devices a run uses: every one the driver sees, or ordinals (the
/// same ordinal twice runs two workers on that device).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceSelection {
    All,
    Ordinals(Vec<u32>),
}

impl DeviceSelection {
    /// `all`, or ordinals separated by commas (`0,1`, `0,0`).
    pub fn parse(text: &str) -> std::result::Result<DeviceSelection, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("all") {
            return Ok(DeviceSelection::All);
        }
        let ordinals = text
            .split(',')
            .map(|p| {
                p.trim().parse::<u32>().map_err(|_| {
                    format!(
                        "--devices `{text}`: `{}` is not a device ordinal; give `all` or ordinals such as 0,1",
                        p.trim()
                    )
                })
            })
            .collect::<std::result::Result<Vec<u32>, String>>()?;
        Ok(DeviceSelection::Ordinals(ordinals))
    }

    /// The ordinals, asking the driver how many devices there are for `all`.
    pub fn ordinals(&self) -> Result<Vec<u32>> {
        match self {
            DeviceSelection::All => Ok((0..crate::device::device_count()?).collect()),
            DeviceSelection::Ordinals(o) => Ok(o.clone()),
        }
    }
}

/// The devices in groups of one model each (name and clocks), in the order
/// of their first member.
pub fn group_by_model(devices: &[OnDevice]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, d) in devices.iter().enumerate() {
        match groups
            .iter_mut()
            .find(|g| devices[g[0]].info.model() == d.info.model())
        {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// The error of a run on devices of several models that must give one rule.
pub fn mixed_devices_error(devices: &[OnDevice]) -> GpuError {
    let groups = group_by_model(devices);
    let listed: Vec<String> = groups
        .iter()
        .map(|g| {
            let ordinals: Vec<String> = g.iter().map(|&i| devices[i].ordinal.to_string()).collect();
            format!("GPU {} {}", ordinals.join(", "), devices[g[0]].info.model())
        })
        .collect();
    GpuError::Worker(format!(
        "the devices differ: {}; a rule is fitted from identical devices only (same name and clocks). Choose identical GPUs with --devices, or give --per-device-rules for one rule per device model",
        listed.join("; ")
    ))
}

/// Lanes in pools of one device model each: one pool when every device is
/// alike; several, one per model, when `per_device_rules`; otherwise devices
/// of several models are an error ([`mixed_devices_error`]).
pub fn pools_by_model<L: Lane>(
    lanes: Vec<(L, OnDevice)>,
    per_device_rules: bool,
) -> Result<Vec<DevicePool<L>>> {
    let devices: Vec<OnDevice> = lanes.iter().map(|(_, on)| on.clone()).collect();
    let groups = group_by_model(&devices);
    if groups.len() > 1 && !per_device_rules {
        return Err(mixed_devices_error(&devices));
    }
    let mut slots: Vec<Option<(L, OnDevice)>> = lanes.into_iter().map(Some).collect();
    Ok(groups
        .into_iter()
        .map(|g| DevicePool::new(g.into_iter().filter_map(|i| slots[i].take()).collect()))
        .collect())
}

/// What one lane did.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneReport {
    pub ordinal: u32,
    pub device: DeviceInfo,
    /// Tasks it finished and measurements it delivered.
    pub tasks: usize,
    pub measurements: usize,
    pub restarts: u32,
    /// Why it was retired, if it was.
    pub retired: Option<String>,
}

struct LaneState {
    on: OnDevice,
    tasks: usize,
    measurements: usize,
    failures_in_a_row: u32,
    /// Tasks in a row that cost a worker restart (across batches).
    suspects_in_a_row: u32,
    /// Finished tasks that cost a worker restart, not yet delivered.
    held: Vec<(usize, Vec<Measurement>)>,
    retired: Option<String>,
}

/// Lanes of several devices (or several workers on one) behind one
/// [`Evaluator`].
pub struct DevicePool<L: Lane> {
    lanes: Vec<L>,
    states: Vec<LaneState>,
    /// Failures, or tasks with worker restarts, in a row that retire a lane.
    pub retire_after: u32,
}

/// A lane's answer for one task.
struct Finished {
    lane: usize,
    task: usize,
    measured: Vec<Measurement>,
    /// The machinery failed before the task was done.
    failure: Option<String>,
    restarted: bool,
}

impl<L: Lane> DevicePool<L> {
    /// A pool of `lanes`, each with the device it measures on.
    pub fn new(lanes: Vec<(L, OnDevice)>) -> Self {
        let (lanes, states) = lanes
            .into_iter()
            .map(|(lane, on)| {
                (
                    lane,
                    LaneState {
                        on,
                        tasks: 0,
                        measurements: 0,
                        failures_in_a_row: 0,
                        suspects_in_a_row: 0,
                        held: Vec::new(),
                        retired: None,
                    },
                )
            })
            .unzip();
        DevicePool {
            lanes,
            states,
            retire_after: 3,
        }
    }

    pub fn lanes(&self) -> &[L] {
        &self.lanes
    }

    pub fn lanes_mut(&mut self) -> &mut [L] {
        &mut self.lanes
    }

    /// The device of the first lane: the one a job on the pool is filed under.
    pub fn device(&self) -> Option<&OnDevice> {
        self.states.first().map(|s| &s.on)
    }

    pub fn reports(&self) -> Vec<LaneReport> {
        self.lanes
            .iter()
            .zip(&self.states)
            .map(|(l, s)| LaneReport {
                ordinal: s.on.ordinal,
                device: s.on.info.clone(),
                tasks: s.tasks,
                measurements: s.measurements,
                restarts: l.restarts(),
                retired: s.retired.clone(),
            })
            .collect()
    }

    fn active(&self) -> impl Iterator<Item = usize> + '_ {
        self.states
            .iter()
            .enumerate()
            .filter(|(_, s)| s.retired.is_none())
            .map(|(i, _)| i)
    }
}

/// Measures one task on one lane.
fn measure<L: Lane>(lane: &mut L, task: &Task) -> (Vec<Measurement>, Option<String>, bool) {
    let before = lane.restarts();
    let mut measured = Vec::new();
    let mut failure = None;
    for key in &task.keys {
        match lane.evaluate(&task.config, key) {
            Ok(m) => {
                let stop = task.stops_after(&m);
                measured.push(m);
                if stop {
                    break;
                }
            }
            Err(e) => {
                failure = Some(e.to_string());
                break;
            }
        }
    }
    (measured, failure, lane.restarts() > before)
}

/// Hands measurements to the sink, keeping its first error (later ones are
/// stored all the same: what was measured is not thrown away).
struct Delivery<'a, 's> {
    sink: &'a mut Sink<'s>,
    error: Option<Stop>,
}

impl Delivery<'_, '_> {
    fn deliver(&mut self, tasks: &[Task], state: &mut LaneState, task: usize, ms: &[Measurement]) {
        state.tasks += 1;
        state.measurements += ms.len();
        let keys: &[ProblemKey] = &tasks[task].keys;
        for (step, m) in ms.iter().enumerate() {
            let r = (self.sink)(Taken {
                task,
                step,
                key: &keys[step],
                measurement: m,
                device: Some(&state.on),
            });
            if let Err(e) = r {
                self.error.get_or_insert(e);
            }
        }
    }
}

impl<L: Lane> Evaluator for DevicePool<L> {
    fn evaluate(
        &mut self,
        config: &hone_tuner::Config,
        key: &ProblemKey,
    ) -> std::result::Result<Measurement, Stop> {
        let task = Task::new(config.clone(), vec![key.clone()], hone_tuner::StopAt::Never);
        let mut measured = hone_tuner::run_tasks(self, &[task])?;
        measured
            .pop()
            .and_then(|mut m| m.pop())
            .ok_or_else(|| Stop::failed("no device measured the point"))
    }

    fn evaluate_tasks(
        &mut self,
        tasks: &[Task],
        sink: &mut Sink<'_>,
    ) -> std::result::Result<(), Stop> {
        let retire_after = self.retire_after.max(1);
        let mut queue: VecDeque<usize> = (0..tasks.len()).collect();
        let mut out = Delivery { sink, error: None };
        let (done_tx, done_rx) = mpsc::channel::<Finished>();
        let states = &mut self.states;
        std::thread::scope(|scope| {
            let mut senders: Vec<Option<mpsc::Sender<usize>>> = Vec::new();
            for (i, lane) in self.lanes.iter_mut().enumerate() {
                if states[i].retired.is_some() {
                    senders.push(None);
                    continue;
                }
                let (tx, rx) = mpsc::channel::<usize>();
                let done = done_tx.clone();
                scope.spawn(move || {
                    for task in rx {
                        let (measured, failure, restarted) = measure(lane, &tasks[task]);
                        let finished = Finished {
                            lane: i,
                            task,
                            measured,
                            failure,
                            restarted,
                        };
                        if done.send(finished).is_err() {
                            break;
                        }
                    }
                });
                senders.push(Some(tx));
            }
            drop(done_tx);
            let mut idle: Vec<usize> = (0..senders.len())
                .filter(|&i| senders[i].is_some())
                .collect();
            let mut in_flight = 0usize;
            // The lane whose worker died on a task that went back to the queue.
            let mut suspected_by: HashMap<usize, usize> = HashMap::new();
            loop {
                // Hand work to every idle lane while there is some, a task
                // to another lane than the one that suspected it.
                let mut waiting = Vec::new();
                while out.error.is_none() && !queue.is_empty() && !idle.is_empty() {
                    let lane = idle.remove(0);
                    let alone = states
                        .iter()
                        .enumerate()
                        .all(|(j, s)| j == lane || s.retired.is_some());
                    let Some(pos) = queue
                        .iter()
                        .position(|t| alone || suspected_by.get(t) != Some(&lane))
                    else {
                        waiting.push(lane);
                        continue;
                    };
                    let task = queue.remove(pos).expect("a position in the queue");
                    match senders[lane].as_ref().map(|s| s.send(task)) {
                        Some(Ok(())) => in_flight += 1,
                        _ => queue.push_front(task),
                    }
                }
                idle.extend(waiting);
                if in_flight == 0 {
                    // The queue is dry: held tasks go to other lanes to be
                    // confirmed, unless their lane is the only one left.
                    let mut requeued = false;
                    for lane in 0..states.len() {
                        let others = states
                            .iter()
                            .enumerate()
                            .any(|(j, s)| j != lane && s.retired.is_none());
                        if states[lane].retired.is_some() || !others || out.error.is_some() {
                            continue;
                        }
                        for (task, _) in std::mem::take(&mut states[lane].held) {
                            suspected_by.insert(task, lane);
                            queue.push_back(task);
                            requeued = true;
                        }
                    }
                    if requeued {
                        continue;
                    }
                    break;
                }
                let Ok(f) = done_rx.recv() else { break };
                in_flight -= 1;
                let others_alive = states
                    .iter()
                    .enumerate()
                    .any(|(j, s)| j != f.lane && s.retired.is_none());
                let first_suspect = suspected_by.get(&f.task).copied();
                let state = &mut states[f.lane];
                let mut retire = None;
                if let Some(why) = f.failure {
                    // Measured again, whole, so that no step is lost.
                    queue.push_front(f.task);
                    state.failures_in_a_row += 1;
                    if state.failures_in_a_row >= retire_after {
                        retire = Some(format!(
                            "failed {} time(s) in a row; last: {why}",
                            state.failures_in_a_row
                        ));
                    }
                } else if !f.restarted || !others_alive {
                    state.failures_in_a_row = 0;
                    if !f.restarted {
                        // A clean task: the held ones were the variants' own failures.
                        state.suspects_in_a_row = 0;
                        for (task, ms) in std::mem::take(&mut state.held) {
                            out.deliver(tasks, state, task, &ms);
                        }
                    }
                    out.deliver(tasks, state, f.task, &f.measured);
                } else if first_suspect.is_some_and(|l| l != f.lane) {
                    // Two workers died on it: the variant's own failure.
                    state.failures_in_a_row = 0;
                    out.deliver(tasks, state, f.task, &f.measured);
                    if let Some(l) = first_suspect {
                        let first = &mut states[l];
                        first.suspects_in_a_row = first.suspects_in_a_row.saturating_sub(1);
                    }
                } else {
                    state.failures_in_a_row = 0;
                    state.held.push((f.task, f.measured));
                    state.suspects_in_a_row += 1;
                    if state.suspects_in_a_row >= retire_after {
                        retire = Some(format!(
                            "its worker faulted, died or hung on {} variant(s) in a row",
                            state.suspects_in_a_row
                        ));
                    }
                }
                let state = &mut states[f.lane];
                match retire {
                    Some(why) => {
                        for (task, _) in std::mem::take(&mut state.held).into_iter().rev() {
                            suspected_by.insert(task, f.lane);
                            queue.push_front(task);
                        }
                        state.retired = Some(why);
                        senders[f.lane] = None;
                    }
                    None => idle.push(f.lane),
                }
            }
            // Held measurements of lanes still alive stand: no other lane
            // contradicted them.
            for state in states.iter_mut().filter(|s| s.retired.is_none()) {
                for (task, ms) in std::mem::take(&mut state.held) {
                    out.deliver(tasks, state, task, &ms);
                }
            }
            drop(senders);
        });
        if let Some(e) = out.error {
            return Err(e);
        }
        if !queue.is_empty() {
            let why: Vec<String> = self
                .states
                .iter()
                .map(|s| {
                    format!(
                        "GPU {} ({}): {}",
                        s.on.ordinal,
                        s.on.info.name,
                        s.retired.as_deref().unwrap_or("idle")
                    )
                })
                .collect();
            return Err(Stop::failed(format!(
                "every device was retired with {} task(s) left: {}",
                queue.len(),
                why.join("; ")
            )));
        }
        Ok(())
    }
}

impl<L: Lane> DevicePool<L> {
    /// Lanes not retired.
    pub fn active_lanes(&self) -> usize {
        self.active().count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections_parse_and_say_what_is_wrong() {
        assert_eq!(DeviceSelection::parse("all").unwrap(), DeviceSelection::All);
        assert_eq!(
            DeviceSelection::parse(" 0, 1 ").unwrap(),
            DeviceSelection::Ordinals(vec![0, 1])
        );
        assert_eq!(
            DeviceSelection::parse("0,0").unwrap().ordinals().unwrap(),
            vec![0, 0]
        );
        let err = DeviceSelection::parse("0,x").unwrap_err();
        assert!(err.contains("`x`") && err.contains("--devices"), "{err}");
        assert!(DeviceSelection::parse("").is_err());
    }

    /// A lane whose machinery fails (`Err`) on every request, or measures
    /// every point at its `n` seconds.
    struct Fake {
        failing: bool,
        calls: usize,
        /// Failures of all failing lanes so far; a working lane with a gate
        /// measures only once `GATE` failures are in (at most 10 s), so a
        /// test sees the failing lane take its tasks however threads run.
        gate: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
    }

    const GATE: usize = 3;

    impl Evaluator for Fake {
        fn evaluate(
            &mut self,
            _: &hone_tuner::Config,
            key: &ProblemKey,
        ) -> std::result::Result<Measurement, Stop> {
            self.calls += 1;
            let failures =
                |g: &std::sync::atomic::AtomicUsize| g.load(std::sync::atomic::Ordering::SeqCst);
            if self.failing {
                if let Some(g) = &self.gate {
                    g.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                return Err(Stop::failed("the device fell off the bus"));
            }
            if let Some(g) = &self.gate {
                let began = std::time::Instant::now();
                while failures(g) < GATE && began.elapsed() < std::time::Duration::from_secs(10) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
            let n = key.single_size().unwrap_or(1) as f64;
            Ok(Measurement::Ok(hone_tuner::Timing::single(n)))
        }
    }

    impl Lane for Fake {
        fn restarts(&self) -> u32 {
            0
        }
    }

    fn fake(ordinal: u32, failing: bool) -> (Fake, OnDevice) {
        let props = crate::DeviceProps::simulated(ordinal, "Fake", 1000);
        let on = OnDevice {
            ordinal,
            info: crate::tuning::device_info(&props),
        };
        (
            Fake {
                failing,
                calls: 0,
                gate: None,
            },
            on,
        )
    }

    fn gated(
        lane: (Fake, OnDevice),
        gate: &std::sync::Arc<std::sync::atomic::AtomicUsize>,
    ) -> (Fake, OnDevice) {
        let (mut fake, on) = lane;
        fake.gate = Some(gate.clone());
        (fake, on)
    }

    fn tasks(count: usize) -> Vec<Task> {
        (0..count)
            .map(|i| {
                let config = hone_tuner::Config::parse_key(&format!("X={i}")).unwrap();
                let keys = vec![ProblemKey::n(1), ProblemKey::n(2)];
                Task::new(config, keys, hone_tuner::StopAt::Never)
            })
            .collect()
    }

    #[test]
    fn a_failing_device_is_retired_and_its_tasks_measured_elsewhere() {
        let gate = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut pool = DevicePool::new(vec![
            gated(fake(0, true), &gate),
            gated(fake(1, false), &gate),
        ]);
        let measured = hone_tuner::run_tasks(&mut pool, &tasks(10)).unwrap();
        assert!(measured.iter().all(|ms| ms.len() == 2));
        let r = pool.reports();
        assert!(r[0]
            .retired
            .as_deref()
            .unwrap()
            .contains("fell off the bus"));
        assert_eq!(r[0].measurements, 0);
        assert_eq!((r[1].tasks, r[1].measurements), (10, 20));
        assert_eq!(pool.lanes()[0].calls, 3, "retired after three failures");
        assert_eq!(pool.active_lanes(), 1);
        // A retired lane stays out of later batches.
        hone_tuner::run_tasks(&mut pool, &tasks(2)).unwrap();
        assert_eq!(pool.lanes()[0].calls, 3);
    }

    #[test]
    fn with_every_device_retired_the_batch_stops_and_says_why() {
        let mut pool = DevicePool::new(vec![fake(0, true), fake(3, true)]);
        let err = hone_tuner::run_tasks(&mut pool, &tasks(4))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("every device was retired with 4 task(s) left")
                && err.contains("GPU 0 (Fake)")
                && err.contains("GPU 3 (Fake)"),
            "{err}"
        );
    }

    #[test]
    fn a_sink_error_stops_handing_out_work_but_keeps_what_was_measured() {
        let mut pool = DevicePool::new(vec![fake(0, false), fake(1, false)]);
        let mut seen = 0;
        let err = pool.evaluate_tasks(&tasks(50), &mut |_t| {
            seen += 1;
            if seen >= 3 {
                Err(Stop::Limit(3))
            } else {
                Ok(())
            }
        });
        assert!(matches!(err, Err(Stop::Limit(3))));
        // Tasks in flight when the limit came were delivered; no new ones began.
        assert!((3..=8).contains(&seen), "{seen}");
    }

    #[test]
    fn mixed_devices_make_one_pool_per_model_only_when_asked() {
        let lanes = || {
            let (a, mut on_a) = fake(0, false);
            let (b, mut on_b) = fake(1, false);
            let (c, on_c) = fake(2, false);
            on_a.info.name = "H100".into();
            on_b.info.name = "A100".into();
            on_b.info.clock_mhz = Some(1410.0);
            on_a.info.clock_mhz = Some(1000.0);
            let mut on_c = on_c;
            on_c.info.name = "H100".into();
            vec![(a, on_a), (b, on_b), (c, on_c)]
        };
        let err = pools_by_model(lanes(), false).err().unwrap().to_string();
        assert!(err.contains("the devices differ"), "{err}");
        let pools = pools_by_model(lanes(), true).unwrap();
        let ordinals: Vec<Vec<u32>> = pools
            .iter()
            .map(|p| p.reports().iter().map(|r| r.ordinal).collect())
            .collect();
        assert_eq!(ordinals, vec![vec![0, 2], vec![1]]);
        assert_eq!(pools[1].device().unwrap().info.name, "A100");
        // Alike devices: one pool, whatever the flag.
        let alike = vec![fake(0, false), fake(1, false)];
        assert_eq!(pools_by_model(alike, false).unwrap().len(), 1);
    }

    #[test]
    fn devices_group_by_name_and_clocks() {
        let on = |ordinal: u32, name: &str, mhz: u32| OnDevice {
            ordinal,
            info: crate::tuning::device_info(&crate::DeviceProps::simulated(ordinal, name, mhz)),
        };
        let devices = [
            on(0, "H100", 1980),
            on(1, "A100", 1410),
            on(2, "H100", 1980),
            on(3, "H100", 1755),
        ];
        assert_eq!(group_by_model(&devices), vec![vec![0, 2], vec![1], vec![3]]);
        let err = mixed_devices_error(&devices).to_string();
        assert!(
            err.contains("GPU 0, 2 H100 (SM 1980 MHz")
                && err.contains("GPU 1 A100")
                && err.contains("--per-device-rules"),
            "{err}"
        );
    }
}
