//! SYMV: y = alpha A x + beta y for a symmetric n x n matrix A stored as one
//! triangle, column-major with a leading dimension.
//!
//! The layers:
//! - [`order`]: the MX load orders (permutations of the UX column loads);
//! - [`space`]: each algorithm's parameters, value lists and constraints
//!   ([`symv_template`]), and the compile-time defines of a configuration;
//! - [`geometry`]: the tiling and launch geometry, mirrored from the kernels;
//! - [`reference`](mod@reference): the hash-generated test matrix, the CPU reference and the
//!   error measure;
//! - [`traffic`]: the byte counts behind every GB/s figure;
//! - [`device`]: compiling, launching, checking and timing on a GPU
//!   ([`run_symv`]);
//! - [`cublas`]: the vendor baselines (`cublas?symv`, `cublas?gemv`);
//! - [`bench`](mod@bench): the head-to-head benchmark and its reports;
//! - [`plot`]: its GB/s-against-N charts;
//! - [`routine`]: SYMV as a routine of the shared library layer
//!   ([`crate::routine`]);
//! - [`library`]: the library call ([`Symv`]) with the tuner's selection
//!   rules ([`SymvRules`]).

pub mod bench;
pub mod cublas;
pub mod device;
pub mod geometry;
pub mod library;
pub mod order;
pub mod plot;
pub mod reference;
pub mod routine;
pub mod space;
pub mod traffic;
pub mod tuning;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use crate::precision::Precision;
pub use device::{run_symv, CheckReport, RunOptions, SymvOutcome, SymvRunner};
pub use library::{Selection, Symv, SymvRules};
pub use space::{symv_template, DeviceLimits, ParamSpace, SymvTemplate};

/// A configuration: parameter name to integer value, as templates take it.
pub use hone_gpu::Config;

/// Which triangle of A is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Uplo {
    Lower,
    Upper,
}

impl Uplo {
    pub const ALL: [Uplo; 2] = [Uplo::Lower, Uplo::Upper];

    /// The `UPLO` define of the kernels and the fill kernel's argument.
    pub fn define(self) -> i64 {
        match self {
            Uplo::Lower => 0,
            Uplo::Upper => 1,
        }
    }

    /// Whether element (i, j) is stored.
    pub fn stores(self, i: usize, j: usize) -> bool {
        match self {
            Uplo::Lower => i >= j,
            Uplo::Upper => i <= j,
        }
    }

    pub fn letter(self) -> char {
        match self {
            Uplo::Lower => 'L',
            Uplo::Upper => 'U',
        }
    }
}

impl fmt::Display for Uplo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Uplo::Lower => "lower",
            Uplo::Upper => "upper",
        })
    }
}

impl FromStr for Uplo {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "l" | "lower" => Ok(Uplo::Lower),
            "u" | "upper" => Ok(Uplo::Upper),
            _ => Err(format!(
                "unknown storage `{s}` (expected lower/L or upper/U)"
            )),
        }
    }
}

/// The two algorithms of the paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Section 2.1: every stored element read once, row and column sums
    /// combined in y with atomics (or mutexes).
    Atomic,
    /// Section 2.2: (L + D) x + L^T x as two triangular products, one launch,
    /// no atomics; for small n.
    LowerUpper,
}

impl Algorithm {
    pub const ALL: [Algorithm; 2] = [Algorithm::Atomic, Algorithm::LowerUpper];

    pub fn short_name(self) -> &'static str {
        match self {
            Algorithm::Atomic => "atomic",
            Algorithm::LowerUpper => "lu",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short_name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "atomic" => Ok(Algorithm::Atomic),
            "lu" | "l+u" | "lower_upper" => Ok(Algorithm::LowerUpper),
            _ => Err(format!("unknown algorithm `{s}` (expected atomic or lu)")),
        }
    }
}

/// One kernel variant: the template it comes from and its parameter values.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SymvKernel {
    pub precision: Precision,
    pub uplo: Uplo,
    pub algorithm: Algorithm,
    pub config: Config,
}

impl SymvKernel {
    pub fn new(precision: Precision, uplo: Uplo, algorithm: Algorithm, config: Config) -> Self {
        SymvKernel {
            precision,
            uplo,
            algorithm,
            config,
        }
    }

    /// `atomic BLOCK_SIZE=128 UX=16 ...`, parameters in name order.
    pub fn label(&self) -> String {
        let params = self
            .config
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ");
        format!("{} {params}", self.algorithm)
    }
}

/// Builds a [`Config`] from `(name, value)` pairs.
pub fn config<'a>(pairs: impl IntoIterator<Item = (&'a str, i64)>) -> Config {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// Everything that can go wrong outside a kernel variant's own failure.
#[derive(Debug, thiserror::Error)]
pub enum SymvError {
    #[error(transparent)]
    Gpu(#[from] hone_gpu::GpuError),
    /// A configuration that does not fit its template.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// A problem the kernels do not handle (size, leading dimension).
    #[error("invalid problem: {0}")]
    Problem(String),
    #[error("cuBLAS: {0}")]
    Cublas(String),
    #[error("{path}: {source}")]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

impl From<crate::vendor::cublas::VendorError> for SymvError {
    fn from(e: crate::vendor::cublas::VendorError) -> SymvError {
        SymvError::Cublas(e.0)
    }
}

impl SymvError {
    /// Whether the error means there is no usable GPU (so a benchmark should
    /// stop quietly).
    pub fn is_no_device(&self) -> bool {
        matches!(self, SymvError::Gpu(hone_gpu::GpuError::NoDevice(_)))
    }
}

pub type Result<T, E = SymvError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for p in Precision::ALL {
            assert_eq!(p.to_string().parse::<Precision>().unwrap(), p);
        }
        for u in Uplo::ALL {
            assert_eq!(u.to_string().parse::<Uplo>().unwrap(), u);
            assert_eq!(u.letter().to_string().parse::<Uplo>().unwrap(), u);
        }
        for a in Algorithm::ALL {
            assert_eq!(a.to_string().parse::<Algorithm>().unwrap(), a);
        }
        assert!("quad".parse::<Precision>().is_err());
        assert!("diagonal".parse::<Uplo>().is_err());
    }

    #[test]
    fn storage_predicate_is_the_triangle_with_the_diagonal() {
        assert!(Uplo::Lower.stores(3, 1) && Uplo::Lower.stores(2, 2));
        assert!(!Uplo::Lower.stores(1, 3));
        assert!(Uplo::Upper.stores(1, 3) && Uplo::Upper.stores(2, 2));
        assert!(!Uplo::Upper.stores(3, 1));
    }

    #[test]
    fn kernel_label_lists_parameters_in_name_order() {
        let k = SymvKernel::new(
            Precision::Double,
            Uplo::Lower,
            Algorithm::LowerUpper,
            config([("NB", 8), ("BLOCK_SIZE", 64)]),
        );
        assert_eq!(k.label(), "lu BLOCK_SIZE=64 NB=8");
    }
}
