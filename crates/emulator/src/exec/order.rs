//! Which results of a launch depend on the order its threads run in: the
//! launch again from the same inputs under another schedule, compared with
//! the first run value by value.

use hone_ir::{FuncId, Module};

use super::run_program;
use crate::buffer::Buffer;
use crate::compile::Program;
use crate::config::{KernelArg, LaunchConfig, Options, Schedule};
use crate::progress::Progress;
use crate::report::{OrderCause, OrderDependence, Report, SetupError, Warning, WarningKind};

/// Differing elements listed per buffer; past this many ranges only the count grows.
const MAX_RANGES: usize = 32;

/// The buffers' contents before the launch, kept when an order check may follow.
pub(super) fn inputs(buffers: &[Buffer], opts: &Options) -> Option<Vec<Vec<u8>>> {
    if !(opts.detect_races && opts.check_order) {
        return None;
    }
    // The copy must fit the launch's memory limit beside the buffers.
    let bytes: u64 = buffers.iter().map(|b| b.data.len() as u64).sum();
    (bytes.saturating_mul(2) <= opts.limits.max_memory)
        .then(|| buffers.iter().map(|b| b.data.clone()).collect())
}

/// Whether anything in the launch can make its results depend on the order:
/// without races, atomics and clock reads, every order gives the same buffers.
pub(super) fn needed(prog: &Program, report: &Report) -> bool {
    report.completed && (!report.races.is_empty() || prog.uses_atomics || prog.reads_clock)
}

/// Runs the launch again from `inputs` in the reverse order and, when the
/// kernel reads the clock, with a clock of another rate, and records in
/// `report` the values of `buffers` (the first run's results) that changed.
#[allow(clippy::too_many_arguments)]
pub(super) fn check(
    module: &Module,
    prog: &Program,
    cfg: &LaunchConfig,
    args: &[KernelArg],
    buffers: &[Buffer],
    inputs: Vec<Vec<u8>>,
    symbols_at: usize,
    opts: &Options,
    report: &mut Report,
) -> Result<(), SetupError> {
    let mut runs = vec![(OrderCause::ThreadOrder, Schedule::reversed())];
    if prog.reads_clock {
        runs.push((OrderCause::Clock, Schedule::other_clock()));
    }
    let other_opts = |schedule| Options {
        detect_races: false,
        warn_uninitialized_shared: false,
        check_order: false,
        schedule,
        progress: Progress::default(),
        ..opts.clone()
    };
    for (cause, schedule) in runs {
        let mut again: Vec<Buffer> = buffers
            .iter()
            .zip(&inputs)
            .map(|(b, data)| Buffer {
                name: b.name.clone(),
                elem: b.elem.clone(),
                data: data.clone(),
            })
            .collect();
        let other = run_program(
            module,
            prog,
            cfg,
            args,
            &mut again,
            symbols_at,
            &other_opts(schedule),
            None,
        )?;
        if !other.completed {
            let f = module.func(FuncId(prog.kernel));
            let why = other
                .faults
                .first()
                .map(|f| f.message.as_str())
                .unwrap_or("it did not complete");
            report.warnings.push(Warning {
                kind: WarningKind::OrderCheckStopped,
                span: f.span,
                site: u32::MAX,
                block: [0; 3],
                thread: [0; 3],
                message: format!(
                    "{}: the launch run again {} stopped, so its results depend on the order: {why}",
                    module.location(f.span),
                    cause.describe()
                ),
            });
            continue;
        }
        for (first, second) in buffers.iter().zip(&again) {
            if let Some(d) = compare(first, second, cause) {
                report.order_dependent.push(d);
            }
        }
    }
    Ok(())
}

/// The elements of `first` that `second` holds otherwise, if any.
fn compare(first: &Buffer, second: &Buffer, cause: OrderCause) -> Option<OrderDependence> {
    let size = first.elem_size();
    let mut ranges: Vec<[u64; 2]> = Vec::new();
    let mut elements = 0u64;
    let pairs = first.data.chunks(size).zip(second.data.chunks(size));
    for (i, (a, b)) in pairs.enumerate() {
        if a == b {
            continue;
        }
        elements += 1;
        let i = i as u64;
        let full = ranges.len() >= MAX_RANGES;
        match ranges.last_mut() {
            Some(r) if r[1] == i => r[1] = i + 1,
            _ if !full => ranges.push([i, i + 1]),
            _ => {}
        }
    }
    (elements > 0).then(|| OrderDependence {
        buffer: first.name.clone(),
        cause,
        elements,
        ranges,
    })
}
