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

    /// Values as the device holds them: little-endian f64, or f32 rounded.
    pub fn to_bytes(self, v: &[f64]) -> Vec<u8> {
        match self {
            Precision::Double => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Precision::Single => v.iter().flat_map(|x| (*x as f32).to_le_bytes()).collect(),
        }
    }

    /// Device bytes back to values.
    pub fn from_bytes(self, b: &[u8]) -> Vec<f64> {
        match self {
            Precision::Double => b
                .chunks_exact(8)
                .map(|c| f64::from_le_bytes(c.try_into().expect("8-byte chunk")))
                .collect(),
            Precision::Single => b
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4-byte chunk")) as f64)
                .collect(),
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
