//! Problem keys: what a measurement was taken on, as named dimensions
//! (`n=4096`, `m=4096,n=4096,k=4096,layout=NN`), and the one-dimensional
//! families along which d-splines and interval rules are fitted.
//!
//! A key's text form is stable (dimension order as declared, integers in
//! decimal): it is what the tuning database, recordings and JSON store.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The value of one dimension of a problem key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyValue {
    Int(i64),
    /// A short word (a layout, a precision): letters, digits, `_`, `-`, `.`.
    Text(String),
}

impl fmt::Display for KeyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyValue::Int(v) => write!(f, "{v}"),
            KeyValue::Text(s) => f.write_str(s),
        }
    }
}

fn is_word(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

impl FromStr for KeyValue {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<KeyValue, KeyError> {
        if let Ok(v) = s.parse::<i64>() {
            return Ok(KeyValue::Int(v));
        }
        if is_word(s) {
            Ok(KeyValue::Text(s.to_string()))
        } else {
            Err(KeyError(format!("`{s}` is neither an integer nor a word")))
        }
    }
}

/// A malformed key or family.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);

/// Splits `a=1,b=x` into its (name, value text) pairs, checking the names.
fn pairs(text: &str) -> Result<Vec<(String, &str)>, KeyError> {
    let mut out: Vec<(String, &str)> = Vec::new();
    for part in text.split(',') {
        let (name, value) = part
            .split_once('=')
            .ok_or_else(|| KeyError(format!("`{part}` in `{text}`: expected NAME=VALUE")))?;
        let (name, value) = (name.trim(), value.trim());
        if !is_word(name) || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(KeyError(format!(
                "`{name}` in `{text}` is not a dimension name"
            )));
        }
        if out.iter().any(|(n, _)| n == name) {
            return Err(KeyError(format!("`{name}` appears twice in `{text}`")));
        }
        out.push((name.to_string(), value));
    }
    Ok(out)
}

/// A problem: named dimensions in a declared order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProblemKey(Vec<(String, KeyValue)>);

impl ProblemKey {
    /// A key from its dimensions; names must be distinct.
    pub fn new(dims: Vec<(String, KeyValue)>) -> Result<ProblemKey, KeyError> {
        let key = ProblemKey(dims);
        key.to_string().parse()
    }

    /// The single-dimension key `n=N` of problems described by one size
    /// (SYMV, the templates), and of recordings made before keys existed.
    pub fn n(size: u64) -> ProblemKey {
        ProblemKey(vec![("n".into(), KeyValue::Int(size as i64))])
    }

    pub fn dims(&self) -> &[(String, KeyValue)] {
        &self.0
    }

    pub fn get(&self, name: &str) -> Option<&KeyValue> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// An integer dimension.
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Some(KeyValue::Int(v)) => Some(*v),
            _ => None,
        }
    }

    /// The problem size of a key with one non-negative integer dimension
    /// (`n=4096`), whatever its name: what one-size backends take.
    pub fn single_size(&self) -> Option<u64> {
        match self.0.as_slice() {
            [(_, KeyValue::Int(v))] => u64::try_from(*v).ok(),
            _ => None,
        }
    }
}

impl fmt::Display for ProblemKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{name}={value}")?;
        }
        Ok(())
    }
}

impl FromStr for ProblemKey {
    type Err = KeyError;

    fn from_str(text: &str) -> Result<ProblemKey, KeyError> {
        let dims = pairs(text)?
            .into_iter()
            .map(|(name, value)| Ok((name, value.parse()?)))
            .collect::<Result<Vec<_>, KeyError>>()?;
        Ok(ProblemKey(dims))
    }
}

/// Keys and families travel as their text form.
macro_rules! serde_as_text {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                String::deserialize(d)?
                    .parse()
                    .map_err(serde::de::Error::custom)
            }
        }
    };
}

serde_as_text!(ProblemKey);
serde_as_text!(Family);

/// How one dimension of a family's keys follows the size axis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FamilyDim {
    /// Equal to the size (`*` in the text form).
    Size,
    Fixed(KeyValue),
}

/// A one-dimensional family of problems: each dimension either follows the
/// size axis or is fixed (`n=*` for SYMV, `m=*,n=*,k=*,layout=NN` for
/// square GEMM). The d-splines and interval rules work over the size; the
/// evaluator sees the key each size stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Family(Vec<(String, FamilyDim)>);

impl Default for Family {
    /// `n=*`: one size named `n`, the family of SYMV and of every job and
    /// rule written before families were declared.
    fn default() -> Self {
        Family(vec![("n".into(), FamilyDim::Size)])
    }
}

impl Family {
    pub fn dims(&self) -> &[(String, FamilyDim)] {
        &self.0
    }

    pub fn is_default(&self) -> bool {
        *self == Family::default()
    }

    /// The key at `size`.
    pub fn key(&self, size: u64) -> ProblemKey {
        ProblemKey(
            self.0
                .iter()
                .map(|(name, d)| {
                    let v = match d {
                        FamilyDim::Size => KeyValue::Int(size as i64),
                        FamilyDim::Fixed(v) => v.clone(),
                    };
                    (name.clone(), v)
                })
                .collect(),
        )
    }

    /// The keys at `sizes`.
    pub fn keys(&self, sizes: &[u64]) -> Vec<ProblemKey> {
        sizes.iter().map(|&s| self.key(s)).collect()
    }

    /// The size `key` stands at, when it belongs to the family: the same
    /// dimensions in the same order, the fixed ones equal, the others one
    /// non-negative integer.
    pub fn size_of(&self, key: &ProblemKey) -> Option<u64> {
        if key.0.len() != self.0.len() {
            return None;
        }
        let mut size = None;
        for ((name, d), (kname, v)) in self.0.iter().zip(&key.0) {
            if name != kname {
                return None;
            }
            match (d, v) {
                (FamilyDim::Fixed(f), v) if f == v => {}
                (FamilyDim::Size, KeyValue::Int(v)) if *v >= 0 => match size {
                    None => size = Some(*v as u64),
                    Some(s) if s == *v as u64 => {}
                    Some(_) => return None,
                },
                _ => return None,
            }
        }
        size
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, d)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            match d {
                FamilyDim::Size => write!(f, "{name}=*")?,
                FamilyDim::Fixed(v) => write!(f, "{name}={v}")?,
            }
        }
        Ok(())
    }
}

impl FromStr for Family {
    type Err = KeyError;

    fn from_str(text: &str) -> Result<Family, KeyError> {
        let dims = pairs(text)?
            .into_iter()
            .map(|(name, value)| {
                let d = if value == "*" {
                    FamilyDim::Size
                } else {
                    FamilyDim::Fixed(value.parse()?)
                };
                Ok((name, d))
            })
            .collect::<Result<Vec<_>, KeyError>>()?;
        if !dims.iter().any(|(_, d)| *d == FamilyDim::Size) {
            return Err(KeyError(format!(
                "family `{text}` has no dimension that follows the size (`NAME=*`)"
            )));
        }
        Ok(Family(dims))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_through_text_in_declared_order() {
        let k: ProblemKey = "m=4096,n=2048,k=64,layout=NN".parse().unwrap();
        assert_eq!(k.to_string(), "m=4096,n=2048,k=64,layout=NN");
        assert_eq!(k.int("n"), Some(2048));
        assert_eq!(k.get("layout"), Some(&KeyValue::Text("NN".into())));
        assert_eq!(k.single_size(), None);
        assert_eq!(ProblemKey::n(77).to_string(), "n=77");
        assert_eq!(ProblemKey::n(77).single_size(), Some(77));
        let json = serde_json::to_string(&k).unwrap();
        assert_eq!(json, "\"m=4096,n=2048,k=64,layout=NN\"");
        assert_eq!(serde_json::from_str::<ProblemKey>(&json).unwrap(), k);
        for bad in ["", "n", "n=1,n=2", "n=a b", "4x=1"] {
            assert!(bad.parse::<ProblemKey>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_family_maps_sizes_to_keys_and_back() {
        let gemm: Family = "m=*,n=*,k=*,layout=NT".parse().unwrap();
        let k = gemm.key(512);
        assert_eq!(k.to_string(), "m=512,n=512,k=512,layout=NT");
        assert_eq!(gemm.size_of(&k), Some(512));
        for other in [
            "m=512,n=512,k=256,layout=NT",
            "m=512,n=512,k=512,layout=NN",
            "n=512,m=512,k=512,layout=NT",
            "n=512",
        ] {
            assert_eq!(gemm.size_of(&other.parse().unwrap()), None, "{other}");
        }
        let symv = Family::default();
        assert_eq!(symv.to_string(), "n=*");
        assert_eq!(symv.key(4096), ProblemKey::n(4096));
        assert_eq!(symv.size_of(&ProblemKey::n(4096)), Some(4096));
        assert!("layout=NN".parse::<Family>().is_err());
        assert_eq!("n=*".parse::<Family>().unwrap(), symv);
    }
}
