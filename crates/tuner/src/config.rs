//! Parameter values and configurations (one value per parameter).

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One value of a tuning parameter.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    Int(i64),
    Str(String),
}

impl ParamValue {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            ParamValue::Int(v) => Some(*v),
            ParamValue::Str(_) => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            ParamValue::Str(s) => Some(s),
            ParamValue::Int(_) => None,
        }
    }

    /// Reads a value written by [`fmt::Display`]: integers where the text is one.
    pub fn parse(text: &str) -> ParamValue {
        match text.trim().parse::<i64>() {
            Ok(v) => ParamValue::Int(v),
            Err(_) => ParamValue::Str(text.to_string()),
        }
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Str(s) => f.write_str(s),
        }
    }
}

impl From<i64> for ParamValue {
    fn from(v: i64) -> Self {
        ParamValue::Int(v)
    }
}

impl From<&str> for ParamValue {
    fn from(v: &str) -> Self {
        ParamValue::Str(v.to_string())
    }
}

impl From<String> for ParamValue {
    fn from(v: String) -> Self {
        ParamValue::Str(v)
    }
}

/// Errors reading a configuration key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad configuration key `{key}`: {reason}")]
pub struct KeyError {
    pub key: String,
    pub reason: String,
}

/// A configuration: one value for each parameter, in the space's parameter order.
///
/// Its key (`BLOCK_SIZE=64,UX=12,...`) is its stable identity in databases,
/// recordings and rules; it serialises as a JSON object in parameter order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Config {
    entries: Vec<(String, ParamValue)>,
}

impl Config {
    pub fn new(entries: Vec<(String, ParamValue)>) -> Config {
        Config { entries }
    }

    pub fn entries(&self) -> &[(String, ParamValue)] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    pub fn get_int(&self, name: &str) -> Option<i64> {
        self.get(name).and_then(ParamValue::as_int)
    }

    /// The stable key `NAME=value,NAME=value` in parameter order.
    pub fn key(&self) -> String {
        let mut s = String::new();
        for (i, (n, v)) in self.entries.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(n);
            s.push('=');
            s.push_str(&v.to_string());
        }
        s
    }

    /// Reads a key written by [`Config::key`].
    pub fn parse_key(key: &str) -> Result<Config, KeyError> {
        let mut entries = Vec::new();
        if key.is_empty() {
            return Ok(Config { entries });
        }
        for part in key.split(',') {
            let (name, value) = part.split_once('=').ok_or_else(|| KeyError {
                key: key.to_string(),
                reason: format!("`{part}` is not NAME=value"),
            })?;
            if name.is_empty() {
                return Err(KeyError {
                    key: key.to_string(),
                    reason: format!("`{part}` has an empty name"),
                });
            }
            entries.push((name.to_string(), ParamValue::parse(value)));
        }
        Ok(Config { entries })
    }

    /// The configuration as a JSON object (parameter order kept in the text).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

impl Serialize for Config {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Config {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Config, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Config;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object mapping parameter names to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Config, A::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, ParamValue>()? {
                    entries.push((k, v));
                }
                Ok(Config { entries })
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_round_trip_and_order() {
        let c = Config::new(vec![
            ("BLOCK_SIZE".into(), 64.into()),
            ("UX".into(), 12.into()),
            ("LAYOUT".into(), "TN".into()),
        ]);
        assert_eq!(c.key(), "BLOCK_SIZE=64,UX=12,LAYOUT=TN");
        assert_eq!(Config::parse_key(&c.key()).unwrap(), c);
        assert_eq!(c.get_int("UX"), Some(12));
        assert_eq!(c.get("LAYOUT").and_then(|v| v.as_str()), Some("TN"));
        assert!(Config::parse_key("A=1,B").is_err());
        assert!(Config::parse_key("=3").is_err());
    }

    #[test]
    fn json_keeps_parameter_order() {
        let c = Config::new(vec![("Z".into(), 1.into()), ("A".into(), "x".into())]);
        let text = c.to_json();
        assert_eq!(text, r#"{"Z":1,"A":"x"}"#);
        let back: Config = serde_json::from_str(&text).unwrap();
        assert_eq!(back, c);
    }
}
