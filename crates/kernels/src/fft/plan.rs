//! A problem and a configuration to the passes that run it.
//!
//! The parameters (every one an integer, as the tuner stores them); `a` is
//! the axis, X (contiguous), Y or Z:
//!
//! | name | meaning |
//! |---|---|
//! | `Ra` | the largest radix of a stage on axis a (the radix sequence, largest first): 4, 8, 16 |
//! | `Ea` | elements per thread and line on axis a (threads per line = length / Ea) |
//! | `La` | lines per block of axis a's line pass |
//! | `Ia` | a strided pass's lines in shared memory: 0 a row per line; 1 interleaved (element n of line t at n La + t), so the lanes that take neighbouring lines touch neighbouring words; 2 interleaved with each pair of positions swapped when their index has an odd bit count (power-of-two strides of a stage land in both halves of a wavefront; even lengths); 0 when absent |
//! | `PAD` | padding of each line in shared memory, elements (bank conflicts) |
//! | `SK` | rows walked by the lanes of a warp (X's line pass, a real transform's X pass, the plane pass's rows) skip one element after every 16 (bank conflicts of the first stage's writes); 0 when absent |
//! | `TW` | twiddles computed (0), read from a table (1), or the first of each butterfly read and the others its powers (2), or the same with the first twiddle and its powers in double precision (3: a single-precision transform at the table's accuracy), or with each power corrected by the first twiddle's rounding in the transform's precision, stored beside it (4) |
//! | `PLANE` | axes X and Y in one pass when a plane fits one block (0: never) |
//! | `PT` | threads per block of a plane pass (rounded to a multiple of both lengths) |
//! | `CL` | blocks per cluster of a plane pass: 0 the fewest of 1, 2, 4 or 8 that hold a plane; otherwise any size up to 8 that splits the plane's rows and columns evenly |
//! | `MB` | blocks of a plane pass to fit one SM at once (0: no register limit asked) |
//!
//! The passes: a plane pass over X and Y then a line pass over Z when
//! `PLANE` allows and a plane fits; otherwise a line pass per axis. Axes of
//! length 1 make no pass. Each pass reads only its own axis's parameters
//! (the plane pass reads `RX` and `RY`), so passes are tuned one at a time.

use hone_tuner::{Config, ParamValue};

use super::codegen::{skew_extra, LinePass, PassKernel, PassShape, PlanePass, RealPass};
use super::radix::radices;
use super::{FftProblem, Twiddle};

/// The largest cluster a plane pass uses (the portable limit).
pub const MAX_CLUSTER: u32 = 8;

/// The axes' names in parameter names.
pub const AXES: [&str; 3] = ["X", "Y", "Z"];

/// What the device allows a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockLimits {
    pub threads: u32,
    pub shared_bytes: u64,
}

impl BlockLimits {
    /// An H100's: 1024 threads, 227 KiB of shared memory.
    pub fn h100() -> BlockLimits {
        BlockLimits {
            threads: 1024,
            shared_bytes: 232_448,
        }
    }

    pub fn from_props(p: &hone_gpu::DeviceProps) -> BlockLimits {
        BlockLimits {
            threads: p.max_threads_per_block,
            shared_bytes: p.shared_mem_per_block_optin as u64,
        }
    }
}

/// The parameters of one axis's line pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AxisParams {
    /// The largest radix of a stage.
    pub rmax: u32,
    /// Elements per thread and line.
    pub ept: u32,
    /// Lines per block.
    pub lines: u32,
    /// How a strided pass lays its lines out in shared memory (`Ia`).
    pub interleave: u32,
}

/// The tuned parameters of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FftConfig {
    pub axes: [AxisParams; 3],
    pub pad: u32,
    /// Rows that lanes walk skip an element after every 16.
    pub skew: bool,
    pub twiddle: Twiddle,
    pub plane: bool,
    pub plane_threads: u32,
    /// Blocks per cluster of the plane pass; 0: the fewest that hold a
    /// plane.
    pub cluster: u32,
    /// Blocks of the plane pass that should fit an SM at once (the
    /// compiler limits registers to allow it); 0: no limit asked.
    pub min_blocks: u32,
}

impl Default for FftConfig {
    /// What serves a shape with no tuned plan.
    fn default() -> FftConfig {
        let strided = AxisParams {
            rmax: 16,
            ept: 16,
            lines: 16,
            interleave: 0,
        };
        FftConfig {
            axes: [
                AxisParams {
                    lines: 4,
                    ..strided
                },
                strided,
                strided,
            ],
            pad: 1,
            skew: false,
            twiddle: Twiddle::Table,
            plane: true,
            plane_threads: 512,
            cluster: 0,
            min_blocks: 0,
        }
    }
}

impl FftConfig {
    /// The parameters of a tuner configuration; missing ones take the
    /// defaults, unknown names and values out of range are errors.
    pub fn from_config(c: &Config) -> Result<FftConfig, String> {
        let mut f = FftConfig::default();
        for (name, value) in c.entries() {
            let v = value
                .as_int()
                .ok_or_else(|| format!("{name}={value}: an integer is expected"))?;
            let small = |lo: i64, hi: i64| -> Result<u32, String> {
                if (lo..=hi).contains(&v) {
                    Ok(v as u32)
                } else {
                    Err(format!("{name}={v}: out of range {lo}..={hi}"))
                }
            };
            let axis = |n: &str| AXES.iter().position(|a| *a == n);
            match name.as_str() {
                "PAD" => f.pad = small(0, 64)?,
                "SK" => f.skew = small(0, 1)? == 1,
                "TW" => {
                    f.twiddle = Twiddle::from_code(small(0, 4)?).expect("in range");
                }
                "PLANE" => f.plane = small(0, 1)? == 1,
                "PT" => f.plane_threads = small(32, 1024)?,
                "CL" => f.cluster = small(0, MAX_CLUSTER as i64)?,
                "MB" => f.min_blocks = small(0, 32)?,
                n if n.len() == 2 && axis(&n[1..]).is_some() => {
                    let a = &mut f.axes[axis(&n[1..]).expect("checked")];
                    match &n[..1] {
                        "R" => a.rmax = small(2, 16)?,
                        "E" => a.ept = small(1, 256)?,
                        "L" => a.lines = small(1, 1024)?,
                        "I" => a.interleave = small(0, 2)?,
                        _ => return Err(format!("unknown FFT parameter `{name}`")),
                    }
                }
                _ => return Err(format!("unknown FFT parameter `{name}`")),
            }
        }
        Ok(f)
    }

    /// As a tuner configuration.
    pub fn to_config(&self) -> Config {
        let v = |x: u32| ParamValue::Int(x as i64);
        let mut entries = Vec::new();
        for (name, a) in AXES.iter().zip(&self.axes) {
            entries.push((format!("R{name}"), v(a.rmax)));
            entries.push((format!("E{name}"), v(a.ept)));
            entries.push((format!("L{name}"), v(a.lines)));
            // Absent means 0, so the plans made before it keep their keys.
            if a.interleave > 0 {
                entries.push((format!("I{name}"), v(a.interleave)));
            }
        }
        entries.push(("PAD".into(), v(self.pad)));
        // Absent means 0, so the plans made before it keep their keys.
        if self.skew {
            entries.push(("SK".into(), v(1)));
        }
        entries.push(("TW".into(), v(self.twiddle.code())));
        entries.push(("PLANE".into(), v(self.plane as u32)));
        entries.push(("PT".into(), v(self.plane_threads)));
        entries.push(("CL".into(), v(self.cluster)));
        entries.push(("MB".into(), v(self.min_blocks)));
        Config::new(entries)
    }

    /// The same radix and elements per thread on every axis, `xlines`
    /// lines per block on X and `lines` on Y and Z; the rest as default.
    pub fn uniform(rmax: u32, ept: u32, xlines: u32, lines: u32) -> FftConfig {
        let a = |lines| AxisParams {
            rmax,
            ept,
            lines,
            interleave: 0,
        };
        FftConfig {
            axes: [a(xlines), a(lines), a(lines)],
            ..FftConfig::default()
        }
    }

    /// `RX=16 EX=16 ...`.
    pub fn label(&self) -> String {
        self.to_config().key().replace(',', " ")
    }
}

/// The passes of `p` under `c`, or why `c` cannot run it on a device with
/// `limits`.
pub fn passes(
    p: &FftProblem,
    c: &FftConfig,
    limits: &BlockLimits,
) -> Result<Vec<PassKernel>, String> {
    p.validate()?;
    if p.real {
        return real_passes(p, c, limits);
    }
    let mut out = Vec::new();
    let mut first_axis = 0;
    if let Some(plane) = plane_pass(p, c, limits)? {
        out.push(kernel(p, c, PassShape::Plane(plane)));
        first_axis = 2;
    }
    for axis in first_axis..3 {
        if let Some(line) = line_pass(p, axis, c, limits)? {
            out.push(kernel(p, c, PassShape::Line(line)));
        }
    }
    Ok(out)
}

/// One of the caller's buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Input,
    Output,
}

/// What pass `i` of the `count` passes of `p` reads and writes. The first
/// reads the input and writes the output, the rest run in place on the
/// output; a complex-to-real transform runs its complex passes in place on
/// its input (which it overwrites, as cuFFT's does) and its real pass
/// last, from the input into the output.
pub fn pass_sides(p: &FftProblem, i: usize, count: usize) -> (Side, Side) {
    match (p.real, p.direction) {
        (true, super::Direction::Inverse) if i + 1 < count => (Side::Input, Side::Input),
        (true, super::Direction::Inverse) => (Side::Input, Side::Output),
        _ if i == 0 => (Side::Input, Side::Output),
        _ => (Side::Output, Side::Output),
    }
}

fn kernel(p: &FftProblem, c: &FftConfig, shape: PassShape) -> PassKernel {
    PassKernel {
        precision: p.precision,
        direction: p.direction,
        twiddle: c.twiddle,
        shape,
    }
}

/// The line pass along `axis` of the problem's complex data (none for an
/// axis of length 1).
fn line_pass(
    p: &FftProblem,
    axis: usize,
    c: &FftConfig,
    limits: &BlockLimits,
) -> Result<Option<LinePass>, String> {
    let elem = 2 * p.precision.size() as u64;
    let lengths = p.complex_lengths();
    let n = lengths[axis];
    if n == 1 {
        return Ok(None);
    }
    let stride: u64 = lengths[..axis].iter().map(|&v| v as u64).product();
    let outer = p.elements() / (n as u64 * stride);
    let ap = &c.axes[axis];
    let rs = radices(n, ap.rmax).ok_or_else(|| format!("{n} is not 7-smooth"))?;
    let threads = threads_per_line(n, &rs, ap.ept);
    // Lines beyond the data only waste threads.
    let span = if stride == 1 { outer } else { stride };
    let uses_shared = rs.len() > 1;
    // Lanes walk a row only on the contiguous axis; they cross lines only
    // on the others.
    let skew = c.skew && stride == 1;
    let interleave = match ap.interleave {
        _ if stride == 1 => 0,
        // Swapping pairs needs every pair whole.
        2 if n % 2 == 1 => 1,
        i => i,
    };
    // Interleaved lines are padded by their layout, not by PAD.
    let pad_asked = if interleave > 0 { 0 } else { c.pad };
    let pad = pad_asked + skew_extra(n, skew);
    let lines = lines_per_block(ap.lines, span, threads, n, pad, elem, uses_shared, limits);
    check_line(n, threads, pad, elem, uses_shared, limits)?;
    Ok(Some(LinePass {
        n,
        radices: rs,
        stride,
        outer,
        lines,
        threads,
        pad: pad_asked,
        skew,
        interleave,
    }))
}

/// Threads per line of `n` in `rs` stages at about `ept` elements a thread:
/// no more than the widest stage has butterflies.
fn threads_per_line(n: u32, rs: &[u32], ept: u32) -> u32 {
    let widest = rs.iter().map(|&r| n / r).max().unwrap_or(1);
    n.div_ceil(ept.max(1)).clamp(1, widest)
}

/// The lines a block takes: as asked, at most the lines there are, halved
/// until the block's threads and shared rows fit.
#[allow(clippy::too_many_arguments)]
fn lines_per_block(
    asked: u32,
    span: u64,
    threads: u32,
    n: u32,
    pad: u32,
    elem: u64,
    uses_shared: bool,
    limits: &BlockLimits,
) -> u32 {
    let mut lines = asked.max(1).min(span.min(1024) as u32).max(1);
    while lines > 1
        && (lines * threads > limits.threads
            || (uses_shared && lines as u64 * (n + pad) as u64 * elem > limits.shared_bytes))
    {
        lines /= 2;
    }
    lines
}

fn check_line(
    n: u32,
    threads: u32,
    pad: u32,
    elem: u64,
    uses_shared: bool,
    limits: &BlockLimits,
) -> Result<(), String> {
    if threads > limits.threads {
        return Err(format!(
            "{threads} threads per line of {n} exceed the block limit"
        ));
    }
    if uses_shared && (n + pad) as u64 * elem > limits.shared_bytes {
        return Err(format!(
            "a line of {n} does not fit shared memory ({} bytes)",
            limits.shared_bytes
        ));
    }
    Ok(())
}

/// The passes of a real transform: the real pass along X (reading `nx`
/// reals a line as `nx / 2` complex numbers), and line passes along Y and
/// Z over the spectrum's `nx / 2 + 1` columns. Forward, X comes first and
/// the others run in place on the output; inverse, Y and Z run in place on
/// the input and X last, into the output.
fn real_passes(
    p: &FftProblem,
    c: &FftConfig,
    limits: &BlockLimits,
) -> Result<Vec<PassKernel>, String> {
    let elem = 2 * p.precision.size() as u64;
    let m = p.n[0] / 2;
    let ap = &c.axes[0];
    let rs = radices(m, ap.rmax).ok_or_else(|| format!("{m} is not 7-smooth"))?;
    let threads = threads_per_line(m, &rs, ap.ept);
    let outer = p.real_values() / p.n[0] as u64;
    // A line's row in shared memory holds the spectrum's m + 1 elements:
    // one more than the line, as one more element of padding.
    let pad = c.pad + 1 + skew_extra(m + 1, c.skew);
    let lines = lines_per_block(ap.lines, outer, threads, m, pad, elem, true, limits);
    check_line(m, threads, pad, elem, true, limits)?;
    let x = kernel(
        p,
        c,
        PassShape::Real(RealPass {
            m,
            radices: rs,
            outer,
            lines,
            threads,
            pad: c.pad,
            skew: c.skew,
        }),
    );
    let mut others = Vec::new();
    for axis in 1..3 {
        if let Some(line) = line_pass(p, axis, c, limits)? {
            others.push(kernel(p, c, PassShape::Line(line)));
        }
    }
    Ok(match p.direction {
        super::Direction::Forward => std::iter::once(x).chain(others).collect(),
        super::Direction::Inverse => others.into_iter().chain(std::iter::once(x)).collect(),
    })
}

/// The plane pass over x and y, when `c` asks for one and it fits: in one
/// block, or split over a cluster of blocks (`CL`; by default the fewest
/// that hold the plane).
fn plane_pass(
    p: &FftProblem,
    c: &FftConfig,
    limits: &BlockLimits,
) -> Result<Option<PlanePass>, String> {
    let [n0, n1, _] = p.n;
    if !c.plane || n0 == 1 || n1 == 1 {
        return Ok(None);
    }
    let elem = 2 * p.precision.size() as u64;
    // Left to the plan, a power of two (as plans have always read `CL=0`);
    // named, any size up to the portable limit whose blocks take equal
    // shares of rows and columns (3 for 243, 5 for 250).
    let clusters: Vec<u32> = match c.cluster {
        0 => vec![1, 2, 4, 8],
        k => vec![k],
    };
    let Some((cluster, step)) = clusters.into_iter().find_map(|k| {
        if n0 % k != 0 || n1 % k != 0 {
            return None;
        }
        let (rows, cols) = (n1 / k, n0 / k);
        // A cluster's blocks keep their columns where their rows were.
        let row = (n0 + c.pad + skew_extra(n0, c.skew)) as u64;
        let held = if k > 1 {
            (rows as u64 * row).max(cols as u64 * (n1 + c.pad) as u64)
        } else {
            rows as u64 * row
        };
        let fits = held * elem <= limits.shared_bytes;
        let step = lcm(rows, cols);
        (fits && step <= limits.threads).then_some((k, step))
    }) else {
        return Ok(None);
    };
    let mut threads = c.plane_threads.div_ceil(step).max(1) * step;
    while threads > limits.threads {
        threads -= step;
    }
    let (Some(radices0), Some(radices1)) =
        (radices(n0, c.axes[0].rmax), radices(n1, c.axes[1].rmax))
    else {
        return Err(format!("{n0} or {n1} is not 7-smooth"));
    };
    let planes = p.elements() / (n0 as u64 * n1 as u64);
    Ok(Some(PlanePass {
        n0,
        n1,
        radices0,
        radices1,
        planes,
        threads,
        pad: c.pad,
        skew: c.skew,
        cluster,
        min_blocks: c.min_blocks,
    }))
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: u32, b: u32) -> u32 {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fft::Direction;
    use crate::precision::Precision;

    #[test]
    fn configurations_round_trip_and_reject_nonsense() {
        let c = FftConfig::default();
        assert_eq!(FftConfig::from_config(&c.to_config()).unwrap(), c);
        let bad = Config::parse_key("RY=99").unwrap();
        assert!(FftConfig::from_config(&bad)
            .unwrap_err()
            .contains("out of range"));
        for name in ["WARP", "QX", "RW"] {
            let bad = Config::parse_key(&format!("{name}=1")).unwrap();
            assert!(FftConfig::from_config(&bad)
                .unwrap_err()
                .contains("unknown"));
        }
        let ok = Config::parse_key("RZ=8,LX=2,EY=4").unwrap();
        let f = FftConfig::from_config(&ok).unwrap();
        assert_eq!((f.axes[2].rmax, f.axes[0].lines, f.axes[1].ept), (8, 2, 4));
    }

    #[test]
    fn planes_fuse_x_and_y_when_they_fit() {
        let l = BlockLimits::h100();
        let c = FftConfig::default();
        let small = FftProblem::cube(Precision::Single, 64);
        let ps = passes(&small, &c, &l).unwrap();
        assert_eq!(ps.len(), 2);
        assert!(matches!(ps[0].shape, PassShape::Plane(_)));
        // A 256^2 plane of single complex numbers is 512 KiB: a cluster of 4
        // holds it; 512^2 needs 2 MiB, more than 8 blocks hold.
        let big = FftProblem::cube(Precision::Single, 256);
        let ps = passes(&big, &c, &l).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].cluster(), 4);
        assert_eq!(ps[0].grid(), 256 * 4);
        let no_cluster = FftConfig { cluster: 1, ..c };
        assert_eq!(passes(&big, &no_cluster, &l).unwrap().len(), 3);
        let huge = FftProblem::cube(Precision::Single, 512);
        let ps = passes(&huge, &c, &l).unwrap();
        assert_eq!(ps.len(), 3);
        for k in &ps {
            assert!(k.block() <= 1024);
            assert!(k.shared_bytes() <= l.shared_bytes);
        }
        let flat = FftProblem {
            n: [240, 1, 1],
            direction: Direction::Inverse,
            ..small
        };
        assert_eq!(passes(&flat, &c, &l).unwrap().len(), 1);
    }

    #[test]
    fn interleaved_lines_change_only_strided_passes() {
        let l = BlockLimits::h100();
        let p = FftProblem::cube(Precision::Single, 243);
        let c = FftConfig {
            plane: false,
            ..FftConfig::uniform(16, 8, 2, 8)
        };
        assert!(!c.to_config().key().contains("IY"), "old keys stay");
        let mut il = c;
        for a in &mut il.axes {
            a.interleave = 2;
        }
        assert_eq!(FftConfig::from_config(&il.to_config()).unwrap(), il);
        let plain = passes(&p, &c, &l).unwrap();
        let ks = passes(&p, &il, &l).unwrap();
        // X is contiguous: unchanged.
        assert_eq!(plain[0], ks[0]);
        for (a, b) in plain[1..].iter().zip(&ks[1..]) {
            let (PassShape::Line(a), PassShape::Line(b)) = (&a.shape, &b.shape) else {
                panic!("line passes expected");
            };
            // An odd length cannot swap pairs: plain interleaving, no PAD.
            assert_eq!((a.interleave, b.interleave, a.pad, b.pad), (0, 1, 1, 0));
        }
        assert!(ks[1].source().contains("#define SROW(n) ((n) * 8 + t)"));
        assert_eq!(ks[1].shared_bytes(), 8 * 243 * 8);
        // Powers of each butterfly's first twiddle: one entry per butterfly
        // of a stage after the first (243 = 9 9 3: spans 9 and 81).
        let pw = FftConfig {
            twiddle: Twiddle::Powers,
            ..il
        };
        assert!(pw.to_config().key().contains("TW=2"));
        assert_eq!(FftConfig::from_config(&pw.to_config()).unwrap(), pw);
        assert_eq!(passes(&p, &pw, &l).unwrap()[1].table().len(), 9 + 81);
        // The wide powers: the same entries, uploaded in double precision.
        let wide = FftConfig {
            twiddle: Twiddle::WidePowers,
            ..il
        };
        assert!(wide.to_config().key().contains("TW=3"));
        assert_eq!(FftConfig::from_config(&wide.to_config()).unwrap(), wide);
        let wk = &passes(&p, &wide, &l).unwrap()[1];
        assert_eq!(wk.table(), passes(&p, &pw, &l).unwrap()[1].table());
        assert_eq!(wk.table_precision(), Precision::Double);
        assert!(wk.source().contains("const double2* __restrict__ tw"));
        // The corrected powers: each butterfly's twiddle and its correction.
        let corrected = FftConfig {
            twiddle: Twiddle::CorrectedPowers,
            ..il
        };
        assert!(corrected.to_config().key().contains("TW=4"));
        assert_eq!(
            FftConfig::from_config(&corrected.to_config()).unwrap(),
            corrected
        );
        let ck = passes(&p, &corrected, &l).unwrap()[1].table();
        assert_eq!(ck.len(), 2 * (9 + 81));
        let w = ck[2 * 9 + 2 * 5];
        let c = ck[2 * 9 + 2 * 5 + 1];
        let (fx, fy) = (w.0 as f32 as f64, w.1 as f32 as f64);
        // fl(w) (1 + c) is w to double precision's rounding.
        let back = (fx + fx * c.0 - fy * c.1, fy + fx * c.1 + fy * c.0);
        assert!((back.0 - w.0).abs() < 1e-15 && (back.1 - w.1).abs() < 1e-15);
        assert!(c.0.abs() + c.1.abs() > 0.0);
        assert_eq!(ks[1].table().len(), 9 * 8 + 81 * 2);
        let even = FftProblem::cube(Precision::Single, 64);
        assert!(passes(&even, &il, &l).unwrap()[2]
            .source()
            .contains("__popc(n) & 1"));
    }

    #[test]
    fn odd_planes_split_over_clusters_of_their_factors() {
        let l = BlockLimits::h100();
        let c = FftConfig::default();
        let named = |cluster| FftConfig { cluster, ..c };
        // 243^2 single complex numbers are 472 KB: 3 blocks of 81 rows. A
        // cluster left to the plan is a power of two, as it always was.
        let p = FftProblem::cube(Precision::Single, 243);
        assert_eq!(passes(&p, &c, &l).unwrap().len(), 3);
        let ps = passes(&p, &named(3), &l).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].cluster(), 3);
        assert!(matches!(&ps[0].shape, PassShape::Plane(pp) if pp.rows() == 81));
        assert!(ps[0].shared_bytes() <= l.shared_bytes);
        // 250^2 double complex numbers: 5 blocks of 50 rows.
        let q = FftProblem::cube(Precision::Double, 250);
        assert_eq!(passes(&q, &named(5), &l).unwrap()[0].cluster(), 5);
        // 3 blocks cannot hold 243^2 double complex numbers.
        let d = FftProblem::cube(Precision::Double, 243);
        assert_eq!(passes(&d, &named(3), &l).unwrap().len(), 3);
        // A cluster that does not divide the plane gives no plane pass.
        assert_eq!(passes(&p, &named(4), &l).unwrap().len(), 3);
    }

    #[test]
    fn skew_grows_the_rows_lanes_walk_and_no_others() {
        let l = BlockLimits::h100();
        let p = FftProblem::cube(Precision::Double, 240);
        let c = FftConfig {
            plane: false,
            pad: 1,
            ..FftConfig::uniform(16, 16, 2, 4)
        };
        let skewed = FftConfig { skew: true, ..c };
        assert_eq!(FftConfig::from_config(&skewed.to_config()).unwrap(), skewed);
        assert!(!c.to_config().key().contains("SK"), "old keys stay");
        let plain = passes(&p, &c, &l).unwrap();
        let sk = passes(&p, &skewed, &l).unwrap();
        // X: 2 rows of 240 + 1 + 15 double complex numbers.
        assert_eq!(plain[0].shared_bytes(), 2 * 241 * 16);
        assert_eq!(sk[0].shared_bytes(), 2 * 256 * 16);
        assert!(sk[0]
            .source()
            .contains("#define SKEW(n) ((n) + ((n) >> 4))"));
        // Y and Z: lanes take different lines, nothing changes.
        assert_eq!(plain[1..], sk[1..]);
        assert!(sk[1].source().contains("#define SKEW(n) (n)"));
        // A plane pass's rows, and a real transform's X pass (m + 1 = 121).
        let plane = FftConfig {
            plane: true,
            ..skewed
        };
        let q = FftProblem::cube(Precision::Single, 64);
        let k = &passes(&q, &plane, &l).unwrap()[0];
        assert!(matches!(&k.shape, PassShape::Plane(pp) if pp.row() == 64 + 1 + 4));
        let r = FftProblem { real: true, ..p };
        let k = &passes(&r, &skewed, &l).unwrap()[0];
        assert!(matches!(&k.shape, PassShape::Real(rp) if rp.row() == 121 + 1 + 8));
    }
}
