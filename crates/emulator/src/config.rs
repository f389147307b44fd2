//! Launch configuration, kernel arguments and emulator options.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::progress::Progress;

/// Grid and block shape of one launch, as in `kernel<<<grid, block, shared>>>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Size of the dynamic (`extern __shared__`) region in bytes.
    pub dynamic_shared_bytes: u64,
}

impl LaunchConfig {
    pub fn new(grid: [u32; 3], block: [u32; 3]) -> LaunchConfig {
        LaunchConfig {
            grid,
            block,
            dynamic_shared_bytes: 0,
        }
    }
    /// A 1-D launch.
    pub fn linear(blocks: u32, threads: u32) -> LaunchConfig {
        LaunchConfig::new([blocks, 1, 1], [threads, 1, 1])
    }
    pub fn with_dynamic_shared(mut self, bytes: u64) -> LaunchConfig {
        self.dynamic_shared_bytes = bytes;
        self
    }
    pub fn threads_per_block(&self) -> u64 {
        self.block.iter().map(|&d| d as u64).product()
    }
    pub fn block_count(&self) -> u64 {
        self.grid.iter().map(|&d| d as u64).product()
    }
}

/// One kernel argument, matched against the kernel's parameters in order:
/// pointer parameters take a `Buffer` (or `Int(0)`, a null pointer), scalar
/// parameters an `Int` or, for floating-point ones, a `Float`, and a struct
/// passed by value a `Buffer` holding exactly one of it (its bytes are the value).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum KernelArg {
    Int(i64),
    Float(f64),
    /// Index into the `buffers` slice given to [`crate::run`].
    Buffer(usize),
    /// A pointer `bytes` into a buffer, as host code passes `p + k`
    /// (pointer parameters only).
    BufferAt {
        buffer: usize,
        bytes: u64,
    },
}

/// Knobs of the emulator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Do not report a race whose writes all store the value already there
    /// (or, for two writes, the same value): redundant halo computations of
    /// temporal blocking rely on this.
    pub tolerate_same_value_races: bool,
    /// Run blocks on several cores. Results (buffers, reports) are identical
    /// to a sequential run: launches with a trace sink or atomics run
    /// sequentially, and a launch whose blocks turn out to share data goes on
    /// sequentially from the first block that depends on another.
    pub parallel: bool,
    /// Watchdog: the most bytecode instructions one warp may execute before
    /// the launch is stopped with a `StepLimit` fault.
    pub max_thread_steps: u64,
    pub detect_races: bool,
    /// Warn on reads of shared memory that no thread of the block has written.
    pub warn_uninitialized_shared: bool,
    /// Distinct races kept in the report (each with its count); more are counted
    /// in `Stats::races_dropped`.
    pub max_races: usize,
    pub limits: Limits,
    /// The order threads run in; a second run in another order shows which
    /// results depend on it.
    pub schedule: Schedule,
    /// With `detect_races`: after a launch that raced, used atomics or read
    /// `clock()`, run it again from the same inputs under
    /// [`Schedule::reversed`] (and [`Schedule::other_clock`] when it reads
    /// the clock) and report the values that changed
    /// (`Report::order_dependent`). On the GPU those values depend on how the
    /// hardware happens to schedule the threads.
    pub check_order: bool,
    /// Where the launch counts its blocks and instructions as it runs, for a
    /// caller that shows progress.
    #[serde(skip)]
    pub progress: Progress,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tolerate_same_value_races: false,
            parallel: true,
            max_thread_steps: 1 << 28,
            detect_races: true,
            warn_uninitialized_shared: true,
            max_races: 1000,
            limits: Limits::default(),
            schedule: Schedule::default(),
            check_order: true,
            progress: Progress::default(),
        }
    }
}

/// The order in which the emulator runs what the GPU may run in any order,
/// and the rate of its clock. The default runs blocks in linear order, the
/// warps of a block in order between barriers, and the lanes of one memory
/// instruction in lane order; `clock()` counts the warp's instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// Blocks from the last to the first, warps from the last to the first,
    /// and the lanes of a store or atomic from the highest to the lowest.
    pub reversed: bool,
    /// `clock()` ticks per warp instruction.
    pub clock_rate: u64,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            reversed: false,
            clock_rate: 1,
        }
    }
}

impl Schedule {
    /// The other order, with the same clock.
    pub fn reversed() -> Schedule {
        Schedule {
            reversed: true,
            ..Schedule::default()
        }
    }

    /// The same order, with a clock of another rate.
    pub fn other_clock() -> Schedule {
        Schedule {
            clock_rate: 7,
            ..Schedule::default()
        }
    }
}

/// What one launch may use, so that a kernel or launch file written by
/// anyone stops with a fault or a setup error naming the limit instead of
/// running without end or exhausting the machine's memory. Each limit has a
/// command-line flag of the same name on every command that emulates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Warp instructions the whole launch may execute (`--max-steps`);
    /// past it the launch stops with a `LaunchStepLimit` fault. Counted per
    /// block and summed in block order, so the limit is reached at the same
    /// place in parallel and sequential runs.
    pub max_steps: u64,
    /// Bytes the launch may hold (`--max-memory`): its buffers and
    /// file-scope variables, and a block's shared and local memory.
    pub max_memory: u64,
    /// Wall-clock time the launch may run (`--time-limit`); `None` for no
    /// limit. The one limit whose outcome depends on the machine.
    pub time_limit: Option<Duration>,
    /// Deepest device-function call chain before a `StackOverflow` fault
    /// (`--max-call-depth`, at most 2047).
    pub max_call_depth: u32,
}

/// Local memory one thread may use, as on the GPU (512 KiB).
pub const LOCAL_LIMIT: u64 = 512 * 1024;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: DEFAULT_MAX_STEPS,
            max_memory: DEFAULT_MAX_MEMORY,
            time_limit: Some(DEFAULT_TIME_LIMIT),
            max_call_depth: 256,
        }
    }
}

/// Default of [`Limits::max_steps`]: 2^32 warp instructions, minutes of
/// emulation, far past any launch the emulator is useful for.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 32;
/// Default of [`Limits::max_memory`]: 4 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;
/// Default of [`Limits::time_limit`]: ten minutes.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(600);
