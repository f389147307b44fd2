//! A problem as the library layer sees it: the variant whose rule serves it,
//! its named dimensions, and its position on that rule's size axis.

use serde::{Deserialize, Serialize};

use super::{LibError, Result};

/// One problem of a routine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The rule that serves it: `dsymv_lower`.
    pub variant: String,
    /// Named dimensions in the routine's order: `n=4096 lda=4096`.
    pub dims: Vec<(String, u64)>,
    /// The position on the variant's size axis (the rule's intervals run
    /// along it): `n` for SYMV.
    pub size: u64,
}

impl Problem {
    pub fn new(variant: impl Into<String>, dims: Vec<(&str, u64)>, size: u64) -> Problem {
        Problem {
            variant: variant.into(),
            dims: dims.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            size,
        }
    }

    /// The value of dimension `name`.
    pub fn dim(&self, name: &str) -> Option<u64> {
        self.dims.iter().find(|(k, _)| k == name).map(|(_, v)| *v)
    }

    /// `n=4096 lda=4096`.
    pub fn key(&self) -> String {
        self.dims
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.variant, self.key())
    }
}

/// Splits `n=4096 precision=d` into pairs; a word without `=` is an error
/// naming it. Later words override earlier ones of the same key.
pub fn parse_words<S: AsRef<str>>(words: &[S]) -> Result<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    for w in words {
        let w = w.as_ref();
        let (k, v) = w
            .split_once('=')
            .filter(|(k, v)| !k.is_empty() && !v.is_empty())
            .ok_or_else(|| LibError::Usage(format!("`{w}` is not KEY=VALUE")))?;
        let k = k.to_ascii_lowercase();
        out.retain(|(old, _)| *old != k);
        out.push((k, v.to_string()));
    }
    Ok(out)
}

/// The value of `key` in `words` parsed as a size in 1..=`max`, or `default`.
pub fn size_word(words: &[(String, String)], key: &str, max: u64) -> Result<Option<u64>> {
    let Some((_, v)) = words.iter().find(|(k, _)| k == key) else {
        return Ok(None);
    };
    let n: u64 = v
        .parse()
        .map_err(|_| LibError::Usage(format!("{key}={v}: not a whole number")))?;
    if n == 0 || n > max {
        return Err(LibError::Usage(format!(
            "{key}={n} is out of range (1 to {max})"
        )));
    }
    Ok(Some(n))
}

/// Fails naming the first word whose key is not in `known`.
pub fn reject_unknown(words: &[(String, String)], known: &[&str]) -> Result<()> {
    match words.iter().find(|(k, _)| !known.contains(&k.as_str())) {
        Some((k, _)) => Err(LibError::Usage(format!(
            "unknown key `{k}` (expected one of: {})",
            known.join(", ")
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_parse_and_later_ones_win() {
        let w = parse_words(&["n=10", "Precision=s", "n=12"]).unwrap();
        assert_eq!(
            w,
            vec![
                ("precision".to_string(), "s".to_string()),
                ("n".to_string(), "12".to_string())
            ]
        );
        assert!(parse_words(&["n"]).unwrap_err().to_string().contains("`n`"));
        assert!(parse_words(&["=3"]).is_err());
    }

    #[test]
    fn sizes_are_checked() {
        let w = parse_words(&["n=0", "m=7", "k=x"]).unwrap();
        assert!(size_word(&w, "n", 10)
            .unwrap_err()
            .to_string()
            .contains("out of range"));
        assert_eq!(size_word(&w, "m", 10).unwrap(), Some(7));
        assert!(size_word(&w, "k", 10).is_err());
        assert_eq!(size_word(&w, "z", 10).unwrap(), None);
        assert!(reject_unknown(&w, &["n", "m"])
            .unwrap_err()
            .to_string()
            .contains("`k`"));
    }

    #[test]
    fn key_lists_dimensions_in_order() {
        let p = Problem::new("dsymv_lower", vec![("n", 100), ("lda", 128)], 100);
        assert_eq!(p.key(), "n=100 lda=128");
        assert_eq!(p.dim("lda"), Some(128));
        assert_eq!(p.to_string(), "dsymv_lower n=100 lda=128");
    }
}
