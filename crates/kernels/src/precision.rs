//! The element types the routines come in.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    Single,
    Double,
}

impl Precision {
    pub const ALL: [Precision; 2] = [Precision::Double, Precision::Single];

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Precision::Single => 4,
            Precision::Double => 8,
        }
    }

    /// The `PREC` define of the kernels.
    pub fn define(self) -> i64 {
        match self {
            Precision::Single => 0,
            Precision::Double => 1,
        }
    }

    /// Unit roundoff, 2^-24 or 2^-53.
    pub fn unit_roundoff(self) -> f64 {
        match self {
            Precision::Single => f64::powi(2.0, -24),
            Precision::Double => f64::powi(2.0, -53),
        }
    }

    /// The BLAS prefix: `s` or `d`.
    pub fn blas_prefix(self) -> &'static str {
        match self {
            Precision::Single => "s",
            Precision::Double => "d",
        }
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Precision::Single => "single",
            Precision::Double => "double",
        })
    }
}

impl FromStr for Precision {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "s" | "single" | "f32" | "float" => Ok(Precision::Single),
            "d" | "double" | "f64" => Ok(Precision::Double),
            _ => Err(format!(
                "unknown precision `{s}` (expected single/s/f32 or double/d/f64)"
            )),
        }
    }
}
