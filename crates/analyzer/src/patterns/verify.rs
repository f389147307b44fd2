//! Verification of a rewrite: the original and the rewritten kernel run in
//! the emulator on the same inputs (relaid for the rewrite where it changes
//! the data layout) and must leave every buffer with the same contents.

use hone_emulator::{Buffer, Options, Report};
use hone_ir::{Module, Scalar, Type};
use serde::Serialize;

use super::layout::Layout;
use crate::LaunchSpec;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verification {
    pub verified: bool,
    /// Inputs both kernels ran on and agreed on.
    pub inputs: u32,
    /// Random inputs skipped because the original kernel faulted on them.
    pub skipped: u32,
    pub message: String,
}

/// Relays the buffers that `layouts` name (by buffer index).
pub fn relay(buffers: &[Buffer], layouts: &[(usize, Layout)]) -> Vec<Buffer> {
    buffers
        .iter()
        .enumerate()
        .map(|(i, b)| match layouts.iter().find(|(k, _)| *k == i) {
            Some((_, l)) => l.apply(b),
            None => b.clone(),
        })
        .collect()
}

/// A small deterministic generator (splitmix64): verification inputs must be
/// the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// `b` refilled with random values: floats in [-1, 1), integers in [0, 64)
/// (small, since integer buffers often hold indices).
pub fn randomized(b: &Buffer, seed: u64) -> Buffer {
    let scalar = match &b.elem {
        Type::Scalar(s) | Type::Vector(s, _) => *s,
        _ => Scalar::U8,
    };
    let mut rng = Rng(seed ^ 0xA076_1D64_78BD_642F);
    let size = scalar.size() as usize;
    let mut data = Vec::with_capacity(b.data.len());
    for _ in 0..b.data.len() / size {
        let r = rng.next();
        let unit = (r >> 11) as f64 / (1u64 << 53) as f64;
        match scalar {
            Scalar::F32 => data.extend(((unit * 2.0 - 1.0) as f32).to_le_bytes()),
            Scalar::F64 => data.extend((unit * 2.0 - 1.0).to_le_bytes()),
            Scalar::Bool => data.push((r & 1) as u8),
            _ => data.extend(&(r % 64).to_le_bytes()[..size]),
        }
    }
    Buffer {
        name: b.name.clone(),
        elem: b.elem.clone(),
        data,
    }
}

fn run(module: &Module, spec: &LaunchSpec, buffers: &mut [Buffer]) -> Result<Report, String> {
    let opts = Options {
        detect_races: true,
        warn_uninitialized_shared: false,
        ..Options::default()
    };
    let mut symbols = spec.launch.symbols(module).map_err(|e| e.to_string())?;
    hone_emulator::run_with_symbols(
        module,
        &spec.kernel,
        &spec.launch.config,
        &spec.launch.args,
        buffers,
        &mut symbols,
        &opts,
        None,
    )
    .map_err(|e| e.to_string())
}

fn first_fault(r: &Report) -> Option<String> {
    if let Some(f) = r.faults.first() {
        return Some(f.message.clone());
    }
    (!r.completed).then(|| "the launch did not complete".to_string())
}

/// Compares the original's buffers with the rewrite's (read through the layouts).
fn compare(orig: &[Buffer], new: &[Buffer], layouts: &[(usize, Layout)]) -> Result<(), String> {
    for (i, (a, b)) in orig.iter().zip(new).enumerate() {
        let size = a.elem_size();
        let layout = layouts.iter().find(|(k, _)| *k == i).map(|(_, l)| *l);
        for j in 0..a.len() {
            let at = layout.map_or(j as u64, |l| l.map(j as u64)) as usize;
            let x = &a.data[j * size..(j + 1) * size];
            let y = b.data.get(at * size..(at + 1) * size);
            if y != Some(x) {
                let show = |bytes: Option<&[u8]>| match bytes {
                    Some(d) => {
                        let one = Buffer {
                            name: String::new(),
                            elem: a.elem.clone(),
                            data: d.to_vec(),
                        };
                        format!("{:?}", one.to_f64_vec())
                    }
                    None => "nothing".to_string(),
                };
                return Err(format!(
                    "`{}` differs at element {j}: the original leaves {}, the rewrite {}",
                    a.name,
                    show(Some(x)),
                    show(y)
                ));
            }
        }
    }
    Ok(())
}

/// Runs `spec`'s kernel and `rewritten` on the launch's inputs and on
/// `random_trials` random fillings of them.
pub fn verify(
    spec: &LaunchSpec,
    rewritten: &Module,
    layouts: &[(usize, Layout)],
    random_trials: u32,
) -> Verification {
    let mut inputs = 0;
    let mut skipped = 0;
    let fail = |inputs, skipped, message: String| Verification {
        verified: false,
        inputs,
        skipped,
        message,
    };
    for trial in 0..=random_trials {
        let start: Vec<Buffer> = if trial == 0 {
            spec.launch.buffers.clone()
        } else {
            spec.launch
                .buffers
                .iter()
                .map(|b| randomized(b, u64::from(trial)))
                .collect()
        };
        let mut orig = start.clone();
        let base = match run(&spec.module, spec, &mut orig) {
            Ok(r) => r,
            Err(e) => {
                return fail(
                    inputs,
                    skipped,
                    format!("the original kernel cannot run: {e}"),
                )
            }
        };
        if let Some(f) = first_fault(&base) {
            if trial == 0 {
                return fail(inputs, skipped, format!("the original kernel faults: {f}"));
            }
            skipped += 1;
            continue;
        }
        let mut new = relay(&start, layouts);
        let report = match run(rewritten, spec, &mut new) {
            Ok(r) => r,
            Err(e) => {
                return fail(
                    inputs,
                    skipped,
                    format!("the rewritten kernel cannot run: {e}"),
                )
            }
        };
        let which = if trial == 0 {
            "the launch's inputs".to_string()
        } else {
            format!("random input {trial}")
        };
        if let Some(f) = first_fault(&report) {
            return fail(
                inputs,
                skipped,
                format!("on {which} the rewritten kernel faults: {f}"),
            );
        }
        if report.races.len() > base.races.len() {
            let r = &report.races[0];
            return fail(
                inputs,
                skipped,
                format!(
                    "on {which} the rewritten kernel races on `{}` (byte {})",
                    r.array, r.offset
                ),
            );
        }
        if let Err(e) = compare(&orig, &new, layouts) {
            return fail(inputs, skipped, format!("on {which}: {e}"));
        }
        inputs += 1;
    }
    Verification {
        verified: true,
        inputs,
        skipped,
        message: format!(
            "same outputs on {inputs} input{}{}",
            if inputs == 1 { "" } else { "s" },
            if skipped > 0 {
                format!(" ({skipped} random input(s) skipped: the original faults on them)")
            } else {
                String::new()
            }
        ),
    }
}
