//! The 3-D FFT: complex-to-complex forward and inverse (unnormalised, as
//! cuFFT), single and double precision, in place or out of place, batched,
//! on lengths that are products of 2, 3, 5 and 7; and the real transforms,
//! real-to-complex (forward) and complex-to-real (inverse), out of place.
//!
//! Data are interleaved complex numbers, `x` the contiguous axis: element
//! `(x, y, z)` of transform `b` is at `((b nz + z) ny + y) nx + x`. A real
//! transform's spectrum keeps the `nx / 2 + 1` non-redundant elements of
//! each line along x, as cuFFT's does: element `(x, y, z)` is at
//! `((b nz + z) ny + y) (nx / 2 + 1) + x`.
//!
//! - [`radix`]: lengths split into stages, the butterflies' code;
//! - [`codegen`]: the CUDA source of one pass (a line pass along one axis,
//!   or a plane pass over axes 0 and 1 of a plane held in shared memory);
//! - [`plan`]: a problem and a configuration (the tuned parameters) to the
//!   passes that run it;
//! - [`reference`]: the CPU oracle (`rustfft`), random inputs, the error
//!   measure and its bound;
//! - [`device`]: compiling, checking and timing plans, cuFFT on the same
//!   buffers;
//! - [`exact`]: twiddle factors in double-double arithmetic;
//! - [`tune`]: planning by measurement, one pass at a time;
//! - [`plans`]: the tuned plans per shape that the library call uses;
//! - [`routine`]: the FFT in the library layer (`hone run fft`, `hone bench
//!   fft`).

pub mod codegen;
pub mod cufft;
pub mod device;
pub mod exact;
pub mod plan;
pub mod plans;
pub mod radix;
pub mod reference;
pub mod routine;
pub mod tune;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::precision::Precision;

/// The direction of a transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// exp(-2 pi i jk/n).
    Forward,
    /// exp(+2 pi i jk/n), unnormalised.
    Inverse,
}

impl Direction {
    pub fn sign(self) -> i32 {
        match self {
            Direction::Forward => -1,
            Direction::Inverse => 1,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Forward => "forward",
            Direction::Inverse => "inverse",
        })
    }
}

impl std::str::FromStr for Direction {
    type Err = String;
    fn from_str(s: &str) -> Result<Direction, String> {
        match s.to_ascii_lowercase().as_str() {
            "forward" | "fwd" | "f" | "-1" => Ok(Direction::Forward),
            "inverse" | "inv" | "backward" | "i" | "1" | "+1" => Ok(Direction::Inverse),
            _ => Err(format!(
                "unknown direction `{s}` (expected forward or inverse)"
            )),
        }
    }
}

/// How a kernel gets its twiddle factors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Twiddle {
    /// `sincospi` in the kernel.
    Computed,
    /// A table computed on the host in double precision, read through the
    /// read-only cache.
    Table,
    /// A butterfly's first twiddle from the table, the others its powers
    /// by complex products: one load instead of r - 1, for an error that
    /// grows with the power (at most 15 products).
    Powers,
    /// As `Powers`, with the first twiddle stored and its powers formed in
    /// double precision, each rounded to the transform's: one 16-byte load
    /// per butterfly at the table's accuracy in single precision (the
    /// single-precision first twiddle's rounding, multiplied by the power,
    /// is what makes `Powers` less accurate). In double precision the same
    /// arithmetic as `Powers`.
    WidePowers,
    /// As `Powers`, with the first twiddle's rounding error stored beside
    /// it as a relative correction c (w = fl(w) (1 + c), measured against
    /// the twiddle in double-double arithmetic), so that each power P_q is
    /// corrected to first order, P_q (1 + q c), in the transform's
    /// precision: two entries per butterfly and a few more products, no
    /// arithmetic wider than the transform's.
    CorrectedPowers,
}

impl Twiddle {
    /// Every mode, in the order of its `TW` value.
    const ALL: [Twiddle; 5] = [
        Twiddle::Computed,
        Twiddle::Table,
        Twiddle::Powers,
        Twiddle::WidePowers,
        Twiddle::CorrectedPowers,
    ];

    /// The `TW` value of a plan that names this mode.
    pub fn code(self) -> u32 {
        Twiddle::ALL
            .iter()
            .position(|&t| t == self)
            .expect("every mode is listed") as u32
    }

    /// The mode a plan's `TW` value names.
    pub fn from_code(code: u32) -> Option<Twiddle> {
        Twiddle::ALL.get(code as usize).copied()
    }

    /// Whether a butterfly reads its first twiddle and forms the rest.
    pub fn powers(self) -> bool {
        matches!(
            self,
            Twiddle::Powers | Twiddle::WidePowers | Twiddle::CorrectedPowers
        )
    }

    /// Whether the variant does better than `Powers` only in single
    /// precision (planning skips it in double).
    pub fn single_only(self) -> bool {
        self == Twiddle::WidePowers
    }
}

/// The largest length per axis: a line must fit one block's shared memory
/// in double precision.
pub const MAX_LEN: u32 = 4096;

/// One 3-D transform (or a batch of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FftProblem {
    pub precision: Precision,
    /// Lengths along x (contiguous), y and z.
    pub n: [u32; 3],
    pub batch: u32,
    pub direction: Direction,
    pub in_place: bool,
    /// A real transform: forward takes `nx` real values per line to the
    /// `nx / 2 + 1` complex ones of the spectrum, inverse takes them back
    /// (and, as cuFFT's, overwrites its input).
    #[serde(default)]
    pub real: bool,
}

impl FftProblem {
    /// A forward, out-of-place cube.
    pub fn cube(precision: Precision, n: u32) -> FftProblem {
        FftProblem {
            precision,
            n: [n, n, n],
            batch: 1,
            direction: Direction::Forward,
            in_place: false,
            real: false,
        }
    }

    /// The lengths of the complex data: the problem's, or for a real
    /// transform its spectrum's (`nx / 2 + 1` along x).
    pub fn complex_lengths(&self) -> [u32; 3] {
        if self.real {
            [self.n[0] / 2 + 1, self.n[1], self.n[2]]
        } else {
            self.n
        }
    }

    /// Complex elements of the whole batch (of the spectrum, for a real
    /// transform).
    pub fn elements(&self) -> u64 {
        self.complex_lengths()
            .iter()
            .map(|&v| v as u64)
            .product::<u64>()
            * self.batch as u64
    }

    /// Bytes of the complex data of the whole batch.
    pub fn bytes(&self) -> u64 {
        self.elements() * 2 * self.precision.size() as u64
    }

    /// Real values of the whole batch of a real transform.
    pub fn real_values(&self) -> u64 {
        self.points() * self.batch as u64
    }

    /// Bytes of the input and of the output.
    pub fn io_bytes(&self) -> (u64, u64) {
        let complex = self.bytes();
        if !self.real {
            return (complex, complex);
        }
        let real = self.real_values() * self.precision.size() as u64;
        match self.direction {
            Direction::Forward => (real, complex),
            Direction::Inverse => (complex, real),
        }
    }

    /// One read of the input and one write of the output: the traffic of a
    /// transform that touches its data once.
    pub fn traffic_bytes(&self) -> u64 {
        let (i, o) = self.io_bytes();
        i + o
    }

    /// Complex elements of one transform.
    pub fn points(&self) -> u64 {
        self.n.iter().map(|&v| v as u64).product()
    }

    /// The conventional flop count, 5 N log2 N per complex transform and
    /// half of it per real one.
    pub fn flops(&self) -> f64 {
        let n = self.points() as f64;
        let per = if self.real { 2.5 } else { 5.0 };
        per * n * n.log2() * self.batch as f64
    }

    /// Whether hone can run it: lengths 7-smooth and at most [`MAX_LEN`],
    /// a batch of at least one, sizes addressable with 63-bit offsets.
    pub fn validate(&self) -> Result<(), String> {
        for (axis, &len) in ["nx", "ny", "nz"].iter().zip(&self.n) {
            if len == 0 || len > MAX_LEN {
                return Err(format!("{axis}={len}: lengths run from 1 to {MAX_LEN}"));
            }
            if !radix::smooth(len as u64) {
                return Err(format!(
                    "{axis}={len} is not a product of 2, 3, 5 and 7 (hone's kernels take those \
                     radices; pad the data to a nearby such length)"
                ));
            }
        }
        if self.real {
            if !self.n[0].is_multiple_of(2) {
                return Err(format!(
                    "nx={}: a real transform takes an even length along x (it runs as a \
                     complex transform of nx / 2)",
                    self.n[0]
                ));
            }
            if self.in_place {
                return Err(
                    "real transforms run out of place (give separate real and complex buffers)"
                        .to_string(),
                );
            }
        }
        if self.batch == 0 {
            return Err("batch must be at least 1".to_string());
        }
        if self.bytes() > (1u64 << 40) {
            return Err(format!("{self}: more than 1 TiB of data"));
        }
        Ok(())
    }

    /// The routine variant: `cfft3d` (single) or `zfft3d` (double), and
    /// for real transforms `scfft3d` or `dzfft3d`.
    pub fn variant(&self) -> &'static str {
        if self.real {
            real_variant_of(self.precision)
        } else {
            variant_of(self.precision)
        }
    }
}

/// The complex transform's variant name of a precision.
pub fn variant_of(p: Precision) -> &'static str {
    match p {
        Precision::Single => "cfft3d",
        Precision::Double => "zfft3d",
    }
}

/// The real transforms' variant name of a precision.
pub fn real_variant_of(p: Precision) -> &'static str {
    match p {
        Precision::Single => "scfft3d",
        Precision::Double => "dzfft3d",
    }
}

/// The precision of a variant name, and whether it is a real transform.
pub fn kind_of(variant: &str) -> Option<(Precision, bool)> {
    match variant {
        "cfft3d" => Some((Precision::Single, false)),
        "zfft3d" => Some((Precision::Double, false)),
        "scfft3d" => Some((Precision::Single, true)),
        "dzfft3d" => Some((Precision::Double, true)),
        _ => None,
    }
}

/// The precision of a variant name.
pub fn precision_of(variant: &str) -> Option<Precision> {
    kind_of(variant).map(|k| k.0)
}

impl fmt::Display for FftProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}x{}x{}",
            self.variant(),
            self.n[0],
            self.n[1],
            self.n[2]
        )?;
        if self.batch > 1 {
            write!(f, " batch {}", self.batch)?;
        }
        let direction = match (self.real, self.direction) {
            (false, d) => d.to_string(),
            (true, Direction::Forward) => "real-to-complex".to_string(),
            (true, Direction::Inverse) => "complex-to-real".to_string(),
        };
        write!(
            f,
            " {} {}",
            direction,
            if self.in_place {
                "in place"
            } else {
                "out of place"
            }
        )
    }
}
