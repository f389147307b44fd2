//! What a launch reports: faults, races, warnings and statistics.

use hone_ir::{AddressSpace, Span};
use serde::Serialize;
use thiserror::Error;

/// Result of one launch. `completed` is false when a fault stopped it; the
/// buffers then hold whatever was written up to the fault.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    pub completed: bool,
    pub faults: Vec<Fault>,
    pub races: Vec<Race>,
    pub warnings: Vec<Warning>,
    pub stats: Stats,
    /// Values that came out otherwise when the launch ran again in another
    /// order (`Options::check_order`): on the GPU they depend on scheduling.
    pub order_dependent: Vec<OrderDependence>,
    /// What the threads wrote with `printf`, blocks in order and the lanes
    /// of a warp in lane order (the GPU interleaves warps as it schedules them).
    pub printed: String,
}

/// The elements of one buffer (or file-scope variable) that another order
/// of the threads, or another clock, changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderDependence {
    pub buffer: String,
    pub cause: OrderCause,
    /// How many elements changed.
    pub elements: u64,
    /// The changed elements as half-open index ranges `[start, end)`; the
    /// first ranges only, when they cover fewer than `elements`.
    pub ranges: Vec<[u64; 2]>,
}

/// What the second run changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum OrderCause {
    /// Blocks, warps and the lanes of each store and atomic ran in reverse
    /// order: the values depend on which thread gets there first (atomics
    /// whose result depends on their order, races).
    ThreadOrder,
    /// `clock()` counted at another rate: the values are (derived from) times.
    Clock,
}

impl OrderCause {
    /// How the second run differed, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            OrderCause::ThreadOrder => "with blocks, warps and lanes in reverse order",
            OrderCause::Clock => "with clock() counting at another rate",
        }
    }
}

impl OrderDependence {
    /// "`buf`: 3 elements (2, 7..9) change with ...".
    pub fn describe(&self) -> String {
        let mut shown: Vec<String> = self
            .ranges
            .iter()
            .map(|r| {
                if r[1] == r[0] + 1 {
                    r[0].to_string()
                } else {
                    format!("{}..{}", r[0], r[1] - 1)
                }
            })
            .collect();
        let covered: u64 = self.ranges.iter().map(|r| r[1] - r[0]).sum();
        if covered < self.elements {
            shown.push("...".into());
        }
        format!(
            "`{}`: {} element{} ({}) change {}",
            self.buffer,
            self.elements,
            if self.elements == 1 { "" } else { "s" },
            shown.join(", "),
            self.cause.describe()
        )
    }
}

impl Report {
    /// Completed with no faults and no races.
    pub fn is_clean(&self) -> bool {
        self.completed && self.faults.is_empty() && self.races.is_empty()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    pub blocks: u64,
    pub threads: u64,
    /// Bytecode instructions executed, counted once per warp.
    pub warp_instructions: u64,
    /// Bytecode instructions executed, counted once per active thread.
    pub thread_operations: u64,
    pub seconds: f64,
    pub operations_per_second: f64,
    /// Race detections beyond `Options::max_races` distinct races.
    pub races_dropped: u64,
    /// Whether blocks ran on several cores.
    pub ran_parallel: bool,
    /// `printf` calls whose text did not fit the output's 1 MiB.
    pub printf_dropped: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fault {
    pub kind: FaultKind,
    pub span: Span,
    pub block: [u32; 3],
    pub thread: [u32; 3],
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum FaultKind {
    /// `offset` is the byte offset from the start of `array`; `index` the
    /// element index in units of the accessed type.
    OutOfBounds {
        array: String,
        space: AddressSpace,
        index: i64,
        offset: i64,
        length: u64,
    },
    /// Threads of a block reached different barriers, or some exited or sat
    /// in a divergent branch while others waited at `__syncthreads()`.
    BarrierDivergence,
    NullOrInvalidPointer {
        address: u64,
    },
    MisalignedAccess {
        array: String,
        offset: i64,
        align: u32,
    },
    /// Integer division or remainder by zero.
    DivisionByZero,
    /// A warp ran past `Options::max_thread_steps`.
    StepLimit {
        steps: u64,
    },
    /// Device-function calls nested past `Limits::max_call_depth`.
    StackOverflow {
        depth: u32,
    },
    /// The launch ran past `Limits::max_steps` warp instructions.
    LaunchStepLimit {
        steps: u64,
        limit: u64,
    },
    /// The launch ran past `Limits::time_limit`.
    TimeLimit {
        seconds: f64,
    },
    /// A call chain's local variables grew past the local memory a thread
    /// may use (`LOCAL_LIMIT`, or less where `Limits::max_memory` leaves less).
    LocalMemoryLimit {
        bytes: u64,
        limit: u64,
    },
    /// A thread executed `__trap()` (a failed `assert` lowers to it).
    Trap,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum AccessKind {
    Load,
    Store,
    Atomic,
}

/// One side of a race.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RaceAccess {
    pub span: Span,
    pub block: [u32; 3],
    pub thread: [u32; 3],
    pub kind: AccessKind,
}

/// Two accesses to the same bytes by different threads with no barrier
/// between them, at least one a write, not both atomic. One `Race` per pair of
/// source sites and array; `count` says how many times the pair was seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Race {
    pub space: AddressSpace,
    pub array: String,
    /// Byte offset from the start of `array` of the first detection.
    pub offset: u64,
    /// Byte address (global: device-like address; shared: offset in the block's space).
    pub address: u64,
    pub first: RaceAccess,
    pub second: RaceAccess,
    pub count: u64,
}

impl Race {
    /// One line naming both accesses with their source locations.
    pub fn describe(&self, module: &hone_ir::Module) -> String {
        let side = |a: &RaceAccess| {
            let kind = match a.kind {
                AccessKind::Load => "load",
                AccessKind::Store => "store",
                AccessKind::Atomic => "atomic",
            };
            format!(
                "{kind} at {} (block {:?}, thread {:?})",
                module.location(a.span),
                a.block,
                a.thread
            )
        };
        let space = match self.space {
            AddressSpace::Global => "global",
            AddressSpace::Shared => "shared",
            AddressSpace::Local => "local",
            AddressSpace::Constant => "constant",
        };
        format!(
            "race on {space} `{}` at byte {}: {} and {}{}",
            self.array,
            self.offset,
            side(&self.first),
            side(&self.second),
            if self.count > 1 {
                format!(" ({} times)", self.count)
            } else {
                String::new()
            }
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Warning {
    pub kind: WarningKind,
    pub span: Span,
    /// The instruction that warned (each warns at most once per launch).
    pub site: u32,
    pub block: [u32; 3],
    pub thread: [u32; 3],
    pub message: String,
}

/// What a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum WarningKind {
    /// A read of shared memory no thread of the block has written.
    UninitializedShared,
    /// A shuffle read a lane that does not take part in it: CUDA leaves
    /// the value undefined.
    UndefinedShuffle,
    /// The order check's second run stopped (a fault or a limit), so the
    /// launch's outcome depends on the order.
    OrderCheckStopped,
}

/// Problems found before any thread runs.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize)]
pub enum SetupError {
    #[error("no kernel named `{0}` in the module")]
    UnknownKernel(String),
    #[error("`{name}` is a __device__ function, not a __global__ kernel")]
    NotAKernel { name: String },
    #[error("kernel `{kernel}` takes {expected} arguments, {got} given")]
    ArgCount {
        kernel: String,
        expected: usize,
        got: usize,
    },
    #[error("argument for parameter `{param}`: expected {expected}, got {got}")]
    ArgType {
        param: String,
        expected: String,
        got: String,
    },
    #[error("block of {threads} threads exceeds the limit of 1024")]
    BlockTooLarge { threads: u64 },
    #[error("launch dimension is zero or too large: grid {grid:?}, block {block:?}")]
    BadDimensions { grid: [u32; 3], block: [u32; 3] },
    #[error("{bytes} bytes of shared memory per block exceed the limit of {limit}")]
    SharedTooLarge { bytes: u64, limit: u64 },
    #[error("{bytes} bytes of local memory per thread exceed the limit of {limit}")]
    LocalTooLarge { bytes: u64, limit: u64 },
    #[error("the launch needs {bytes} bytes ({what}), more than the memory limit of {limit} bytes (raise it with --max-memory)")]
    MemoryLimit {
        bytes: u64,
        limit: u64,
        what: String,
    },
    #[error("{location}: {message}")]
    Unsupported { location: String, message: String },
    #[error("kernel `{kernel}` synchronizes its grid, so all its blocks must be resident at once, as a cooperative launch requires: {blocks} blocks of {threads} threads with {shared} bytes of shared memory each, but an H100's {sms} SMs hold at most {max} such blocks")]
    CooperativeTooLarge {
        kernel: String,
        blocks: u64,
        threads: u64,
        shared: u64,
        sms: u64,
        max: u64,
    },
}
