//! The CPU half of one case: the generated source through hone's front end,
//! the printed IR parsed again and compared, the emulator's run; and the
//! bit-for-bit comparison of two sets of output buffers.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options};
use hone_frontend::{parse_source, FrontendOptions, Severity};
use hone_ir::Module;
use serde::Serialize;

use crate::ast::{GenType, ACC_SLOTS, INPUT_TYPES, LOCALS};
use crate::gen::Case;
use hone_ir::Arith;

/// Where a case stopped, when it did not get as far as a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    FrontEnd,
    RoundTrip,
    Emulator,
    Compile,
    Gpu,
    Mismatch,
}

#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    pub stage: Stage,
    pub message: String,
}

impl Failure {
    fn new(stage: Stage, message: impl Into<String>) -> Failure {
        Failure {
            stage,
            message: message.into(),
        }
    }
}

/// The file name a case's source goes by in diagnostics.
pub fn file_name(case: &Case) -> String {
    format!("{}.cu", case.kernel.name)
}

/// Lowers the case's source and holds the printer to its contract on it
/// (`hone_frontend::round_trip`).
pub fn front_end(case: &Case) -> Result<Module, Failure> {
    let file = file_name(case);
    let source = case.kernel.render(false);
    let parsed = parse_source(&file, &source, &FrontendOptions::default())
        .map_err(|e| Failure::new(Stage::FrontEnd, e.to_string()))?;
    let errors: Vec<String> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    if !errors.is_empty() {
        return Err(Failure::new(Stage::FrontEnd, errors.join("\n")));
    }
    parsed
        .kernel(&case.kernel.name, &file)
        .map_err(|e| Failure::new(Stage::FrontEnd, e.to_string()))?;
    hone_frontend::round_trip(&file, &parsed, &FrontendOptions::default())
        .map_err(|e| Failure::new(Stage::RoundTrip, e.to_string()))?;
    Ok(parsed.module)
}

/// The launch's buffers before the run, in parameter order.
pub fn buffers(case: &Case) -> Vec<Buffer> {
    let n = case.kernel.threads() * LOCALS;
    let i = &case.inputs;
    let mut out = vec![
        Buffer::from_i32("in_i", &i.i32s),
        Buffer::from_u64("in_q", &i.u64s),
        Buffer::from_f32("in_f", &i.f32s),
        Buffer::from_f64("in_d", &i.f64s),
    ];
    debug_assert_eq!(INPUT_TYPES.len(), 4);
    for t in Arith::ALL {
        out.push(Buffer::zeros(
            &format!("out_{}", t.tag()),
            hone_ir::Type::Scalar(scalar(t)),
            n,
        ));
    }
    out.push(Buffer::from_u32("acc_u", &i.acc_u));
    out.push(Buffer::from_u64("acc_q", &i.acc_q));
    debug_assert_eq!(i.acc_u.len(), ACC_SLOTS);
    out
}

/// The first buffer the kernel writes; those before it are only read.
pub const FIRST_OUTPUT: usize = INPUT_TYPES.len();

pub fn scalar(t: Arith) -> hone_ir::Scalar {
    match t {
        Arith::I32 => hone_ir::Scalar::I32,
        Arith::U32 => hone_ir::Scalar::U32,
        Arith::I64 => hone_ir::Scalar::I64,
        Arith::U64 => hone_ir::Scalar::U64,
        Arith::F32 => hone_ir::Scalar::F32,
        Arith::F64 => hone_ir::Scalar::F64,
    }
}

pub fn args(count: usize) -> Vec<KernelArg> {
    (0..count).map(KernelArg::Buffer).collect()
}

pub fn config(case: &Case) -> LaunchConfig {
    LaunchConfig::linear(case.kernel.grid, case.kernel.block)
}

/// The emulator's buffers after the launch; a fault, race or warning is a
/// failure (the generated kernels have none).
pub fn emulate(case: &Case, module: &Module) -> Result<Vec<Buffer>, Failure> {
    let mut bufs = buffers(case);
    let opts = Options {
        parallel: false,
        max_thread_steps: 1 << 22,
        ..Options::default()
    };
    let report = hone_emulator::run(
        module,
        &case.kernel.name,
        &config(case),
        &args(bufs.len()),
        &mut bufs,
        &opts,
        None,
    )
    .map_err(|e| Failure::new(Stage::Emulator, e.to_string()))?;
    if let Some(f) = report.faults.first() {
        return Err(Failure::new(
            Stage::Emulator,
            format!("fault at {}: {}", module.location(f.span), f.message),
        ));
    }
    if let Some(r) = report.races.first() {
        return Err(Failure::new(
            Stage::Emulator,
            format!("race on `{}` at {}", r.array, module.location(r.first.span)),
        ));
    }
    if let Some(w) = report.warnings.first() {
        return Err(Failure::new(
            Stage::Emulator,
            format!("warning at {}: {}", module.location(w.span), w.message),
        ));
    }
    if !report.completed {
        return Err(Failure::new(Stage::Emulator, "the launch did not complete"));
    }
    Ok(bufs)
}

/// The first element where two runs' outputs differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    pub buffer: String,
    pub index: usize,
    /// The thread that wrote it, for the per-thread outputs.
    pub thread: Option<usize>,
    pub emulator: String,
    pub gpu: String,
    /// How many elements differ in all.
    pub count: usize,
}

/// Compares the written buffers bit for bit, except that every NaN equals
/// every other (payloads and signs of NaNs are not specified).
pub fn compare(emulated: &[Buffer], gpu: &[Buffer]) -> Option<Difference> {
    let mut first: Option<Difference> = None;
    let mut count = 0;
    for (e, g) in emulated.iter().zip(gpu).skip(FIRST_OUTPUT) {
        let size = e.elem_size();
        let per_thread = e.name.starts_with("out_");
        for (i, (a, b)) in e.data.chunks(size).zip(g.data.chunks(size)).enumerate() {
            if same(e.component(), a, b) {
                continue;
            }
            count += 1;
            if first.is_none() {
                first = Some(Difference {
                    buffer: e.name.clone(),
                    index: i,
                    thread: per_thread.then_some(i / LOCALS),
                    emulator: show(e.component(), a),
                    gpu: show(e.component(), b),
                    count: 0,
                });
            }
        }
    }
    first.map(|d| Difference { count, ..d })
}

fn same(s: hone_ir::Scalar, a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    match s {
        hone_ir::Scalar::F32 => {
            f32::from_le_bytes(a.try_into().unwrap_or_default()).is_nan()
                && f32::from_le_bytes(b.try_into().unwrap_or_default()).is_nan()
        }
        hone_ir::Scalar::F64 => {
            f64::from_le_bytes(a.try_into().unwrap_or_default()).is_nan()
                && f64::from_le_bytes(b.try_into().unwrap_or_default()).is_nan()
        }
        _ => false,
    }
}

fn show(s: hone_ir::Scalar, bytes: &[u8]) -> String {
    let mut raw = [0u8; 8];
    raw[..bytes.len()].copy_from_slice(bytes);
    let bits = u64::from_le_bytes(raw);
    match s {
        hone_ir::Scalar::F32 => {
            format!("{:e} ({:#010x})", f32::from_bits(bits as u32), bits as u32)
        }
        hone_ir::Scalar::F64 => format!("{:e} ({bits:#018x})", f64::from_bits(bits)),
        hone_ir::Scalar::I32 => format!("{}", bits as u32 as i32),
        hone_ir::Scalar::I64 => format!("{}", bits as i64),
        _ => format!("{bits}"),
    }
}
