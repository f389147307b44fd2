//! GEMM: C = alpha op(A) op(B) + beta C, column-major, op in {N, T}, with
//! BLAS semantics (any M, N, K >= 1 and leading dimensions; beta = 0 never
//! reads C).
//!
//! Three routines, each with a rule per layout (`dgemm_nn`, ..., `sgemm_tt`):
//! - `sgemm`: FP32 with FP32 FMA (CUDA cores);
//! - `dgemm`: FP64 on the FP64 tensor cores (`mma.sync` f64);
//! - `sgemm_3xtf32`: FP32 inputs and outputs computed on the TF32 tensor
//!   cores with the 3xTF32 split (a = big + small, three products), which
//!   keeps FP32 accuracy; a name of its own so that no caller gets it by
//!   accident;
//! - `ddgemm` and `ddgemm_split`: double-double (about 106 bits) on the FP64
//!   CUDA cores, interleaved (hi, lo) pairs or split hi and lo planes
//!   ([`dd`]).
//!
//! The layers:
//! - [`reference`](mod@reference): random operands, the CPU reference (the
//!   `matrixmultiply` crate) and the element-wise error bound;
//! - [`template`]: the CUDA templates, their parameters, constraints and
//!   launch geometry;
//! - [`device`]: compiling, checking and timing on a GPU ([`GemmRunner`]),
//!   and the library call on the caller's buffers;
//! - [`cublas`]: the vendor baseline (`cublas?gemm`);
//! - [`routine`]: GEMM as a routine of the library layer.

pub mod cublas;
pub mod dd;
pub mod dd_report;
pub mod device;
pub mod emulated;
pub mod fp64;
pub mod library;
pub mod ozaki;
pub mod ozaki_fit;
pub mod ozaki_report;
pub mod reference;
pub mod routine;
pub mod template;
pub mod transfer;
pub mod tuning;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use crate::precision::Precision;
pub use device::GemmRunner;
pub use library::{Gemm, GemmRules};

/// The multiple (in elements) that the tuned and benchmarked problems
/// round their leading dimensions up to.
pub const LD_MULTIPLE: usize = 32;

/// A configuration: parameter name to value.
pub type Config = std::collections::BTreeMap<String, i64>;

/// op(X): X itself or its transpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Op {
    N,
    T,
}

impl Op {
    pub fn letter(self) -> char {
        match self {
            Op::N => 'N',
            Op::T => 'T',
        }
    }

    /// The `TRANS_A` / `TRANS_B` define.
    pub fn define(self) -> i64 {
        match self {
            Op::N => 0,
            Op::T => 1,
        }
    }
}

/// The layouts of op(A) and op(B), `NN` ... `TT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Layout {
    pub a: Op,
    pub b: Op,
}

impl Layout {
    pub const ALL: [Layout; 4] = [
        Layout { a: Op::N, b: Op::N },
        Layout { a: Op::N, b: Op::T },
        Layout { a: Op::T, b: Op::N },
        Layout { a: Op::T, b: Op::T },
    ];
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.a.letter(), self.b.letter())
    }
}

impl FromStr for Layout {
    type Err = String;

    fn from_str(s: &str) -> Result<Layout, String> {
        Layout::ALL
            .into_iter()
            .find(|l| l.to_string().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown layout `{s}` (expected NN, NT, TN or TT)"))
    }
}

/// The three GEMM routines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flavor {
    Sgemm,
    Dgemm,
    Sgemm3xTf32,
    Ddgemm,
    DdgemmSplit,
}

impl Flavor {
    pub const ALL: [Flavor; 5] = [
        Flavor::Sgemm,
        Flavor::Dgemm,
        Flavor::Sgemm3xTf32,
        Flavor::Ddgemm,
        Flavor::DdgemmSplit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Flavor::Sgemm => "sgemm",
            Flavor::Dgemm => "dgemm",
            Flavor::Sgemm3xTf32 => "sgemm_3xtf32",
            Flavor::Ddgemm => "ddgemm",
            Flavor::DdgemmSplit => "ddgemm_split",
        }
    }

    /// The precision of one stored double (a double-double element is two).
    pub fn precision(self) -> Precision {
        match self {
            Flavor::Dgemm | Flavor::Ddgemm | Flavor::DdgemmSplit => Precision::Double,
            Flavor::Sgemm | Flavor::Sgemm3xTf32 => Precision::Single,
        }
    }

    /// Whether elements are double-double.
    pub fn is_dd(self) -> bool {
        matches!(self, Flavor::Ddgemm | Flavor::DdgemmSplit)
    }

    /// Stored words per element: 2 for double-double, else 1.
    pub fn words(self) -> usize {
        if self.is_dd() {
            2
        } else {
            1
        }
    }

    /// Bytes per element.
    pub fn element_bytes(self) -> usize {
        self.precision().size() * self.words()
    }

    /// The rule's name for a layout: `dgemm_nn`.
    pub fn variant(self, layout: Layout) -> String {
        format!(
            "{}_{}",
            self.name(),
            layout.to_string().to_ascii_lowercase()
        )
    }

    /// The flavor and layout of a rule's name.
    pub fn parse_variant(name: &str) -> Option<(Flavor, Layout)> {
        Flavor::ALL
            .into_iter()
            .flat_map(|f| Layout::ALL.map(|l| (f, l)))
            .find(|&(f, l)| f.variant(l) == name)
    }

    /// Every rule name, flavors in order, layouts NN to TT.
    pub fn all_variants() -> Vec<String> {
        Flavor::ALL
            .into_iter()
            .flat_map(|f| Layout::ALL.map(move |l| f.variant(l)))
            .collect()
    }
}

impl fmt::Display for Flavor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Flavor {
    type Err = String;

    fn from_str(s: &str) -> Result<Flavor, String> {
        Flavor::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!(
                    "unknown GEMM `{s}` (expected sgemm, dgemm, sgemm_3xtf32, ddgemm or ddgemm_split)"
                )
            })
    }
}

/// One GEMM problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GemmProblem {
    pub flavor: Flavor,
    pub layout: Layout,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub lda: usize,
    pub ldb: usize,
    pub ldc: usize,
}

impl GemmProblem {
    /// The problem with the smallest leading dimensions.
    pub fn packed(flavor: Flavor, layout: Layout, m: usize, n: usize, k: usize) -> GemmProblem {
        let (rows_a, _) = GemmProblem::stored_shape(layout.a, m, k);
        let (rows_b, _) = GemmProblem::stored_shape(layout.b, k, n);
        GemmProblem {
            flavor,
            layout,
            m,
            n,
            k,
            lda: rows_a,
            ldb: rows_b,
            ldc: m,
        }
    }

    /// The problem with leading dimensions rounded up to a multiple of
    /// `multiple` elements, as a tuned library keeps its matrices (the rules
    /// are fitted on these; other leading dimensions take the element-load
    /// kernels).
    pub fn padded(
        flavor: Flavor,
        layout: Layout,
        m: usize,
        n: usize,
        k: usize,
        multiple: usize,
    ) -> GemmProblem {
        let p = GemmProblem::packed(flavor, layout, m, n, k);
        let up = |x: usize| x.div_ceil(multiple.max(1)) * multiple.max(1);
        GemmProblem {
            lda: up(p.lda),
            ldb: up(p.ldb),
            ldc: up(p.ldc),
            ..p
        }
    }

    /// (rows, columns) of the stored matrix whose op is `rows_op x cols_op`.
    pub fn stored_shape(op: Op, rows_op: usize, cols_op: usize) -> (usize, usize) {
        match op {
            Op::N => (rows_op, cols_op),
            Op::T => (cols_op, rows_op),
        }
    }

    /// Elements of the stored A, B and C (with their leading dimensions).
    pub fn elements(&self) -> (usize, usize, usize) {
        let (_, ca) = GemmProblem::stored_shape(self.layout.a, self.m, self.k);
        let (_, cb) = GemmProblem::stored_shape(self.layout.b, self.k, self.n);
        (self.lda * ca, self.ldb * cb, self.ldc * self.n)
    }

    /// 2 M N K.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// Checks the sizes against BLAS's rules and the kernels' 32-bit indices.
    pub fn validate(&self) -> Result<(), String> {
        let (ra, _) = GemmProblem::stored_shape(self.layout.a, self.m, self.k);
        let (rb, _) = GemmProblem::stored_shape(self.layout.b, self.k, self.n);
        for (name, v) in [("m", self.m), ("n", self.n), ("k", self.k)] {
            if v == 0 || v > i32::MAX as usize {
                return Err(format!("{name} = {v} is out of range (1 to {})", i32::MAX));
            }
        }
        for (name, ld, rows) in [
            ("lda", self.lda, ra),
            ("ldb", self.ldb, rb),
            ("ldc", self.ldc, self.m),
        ] {
            if ld < rows || ld > i32::MAX as usize {
                return Err(format!(
                    "{name} = {ld} must be at least {rows} (the stored rows) and at most {}",
                    i32::MAX
                ));
            }
        }
        let (ea, eb, ec) = self.elements();
        if [ea, eb, ec].iter().any(|&e| e > i32::MAX as usize) {
            return Err(format!(
                "{self}: a matrix of more than 2^31 - 1 elements (the kernels index with 32 bits)"
            ));
        }
        Ok(())
    }
}

impl fmt::Display for GemmProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} m={} n={} k={} lda={} ldb={} ldc={}",
            self.flavor, self.layout, self.m, self.n, self.k, self.lda, self.ldb, self.ldc
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_name_flavor_and_layout() {
        let all = Flavor::all_variants();
        assert_eq!(all.len(), 20);
        assert_eq!(all[0], "sgemm_nn");
        for v in &all {
            let (f, l) = Flavor::parse_variant(v).unwrap();
            assert_eq!(&f.variant(l), v);
        }
        assert_eq!(
            Flavor::parse_variant("sgemm_3xtf32_tn"),
            Some((Flavor::Sgemm3xTf32, Layout { a: Op::T, b: Op::N }))
        );
        assert!(Flavor::parse_variant("zgemm_nn").is_none());
        assert_eq!(
            Flavor::parse_variant("ddgemm_split_tn"),
            Some((Flavor::DdgemmSplit, Layout { a: Op::T, b: Op::N }))
        );
        assert_eq!(Flavor::Ddgemm.element_bytes(), 16);
        assert_eq!("tn".parse::<Layout>().unwrap().to_string(), "TN");
        assert!("nx".parse::<Layout>().is_err());
        assert_eq!("DGEMM".parse::<Flavor>().unwrap(), Flavor::Dgemm);
    }

    #[test]
    fn packed_problems_have_the_stored_rows_as_leading_dimensions() {
        let t = Layout { a: Op::T, b: Op::N };
        let p = GemmProblem::packed(Flavor::Dgemm, t, 10, 20, 30);
        // A^T is 10 x 30, so A is stored 30 x 10.
        assert_eq!((p.lda, p.ldb, p.ldc), (30, 30, 10));
        assert_eq!(p.elements(), (300, 600, 200));
        assert_eq!(p.flops(), 12000.0);
        assert!(p.validate().is_ok());
        let q = GemmProblem::padded(Flavor::Dgemm, t, 10, 20, 30, 32);
        assert_eq!((q.lda, q.ldb, q.ldc), (32, 32, 32));
        let mut bad = p;
        bad.lda = 29;
        assert!(bad
            .validate()
            .unwrap_err()
            .contains("lda = 29 must be at least 30"));
        bad = p;
        bad.k = 0;
        assert!(bad.validate().unwrap_err().contains("k = 0"));
        let huge = GemmProblem::packed(Flavor::Sgemm, t, 65536, 65536, 65536);
        assert!(huge.validate().unwrap_err().contains("2^31"));
    }
}
