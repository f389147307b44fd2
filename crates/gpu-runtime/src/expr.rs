//! Integer expressions over the problem size and template parameters, as
//! written in kernel template files: `cdiv(N, BLOCK_SIZE * VEC)`, `8 * N`,
//! `BLOCK_SIZE * ELEMS_PER_THREAD <= 8192`. The language is the tuner's
//! ([`hone_tuner::expr`]), so that a template's constraints and a job's read
//! alike; this type keeps the source text and takes integer variables only.

use std::collections::BTreeSet;
use std::fmt;

use hone_tuner::expr::{EvalError, Expr, Value};
use serde::{Deserialize, Serialize};

/// A parsed expression that remembers its source text.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct IntExpr {
    source: String,
    expr: Expr,
}

impl PartialEq for IntExpr {
    fn eq(&self, other: &IntExpr) -> bool {
        self.source == other.source
    }
}

impl Eq for IntExpr {}

/// A parse or evaluation error; `column` is 1-based where known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub message: String,
    pub column: Option<usize>,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "column {c}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ExprError {}

impl IntExpr {
    pub fn parse(source: &str) -> Result<IntExpr, ExprError> {
        let expr = Expr::parse(source).map_err(|e| ExprError {
            message: e.message,
            column: Some(e.offset + 1),
        })?;
        Ok(IntExpr {
            source: source.to_string(),
            expr,
        })
    }

    /// A constant expression.
    pub fn constant(value: i64) -> IntExpr {
        IntExpr::parse(&value.to_string()).expect("an integer literal parses")
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Every variable the expression names.
    pub fn variables(&self) -> BTreeSet<String> {
        self.expr.names().into_iter().map(str::to_string).collect()
    }

    /// Evaluates with variables looked up in `env`.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<i64>) -> Result<i64, ExprError> {
        let fail = |message: String| ExprError {
            message: format!("{message} in `{}`", self.source),
            column: None,
        };
        match self.expr.eval(&|name| env(name).map(Value::Int)) {
            Ok(Value::Int(v)) => Ok(v),
            Ok(Value::Str(s)) => Err(fail(format!("string \"{s}\" where an integer is needed"))),
            Err(EvalError::UnknownName(n)) => Err(fail(format!("unknown variable `{n}`"))),
            Err(e) => Err(fail(e.to_string())),
        }
    }
}

impl TryFrom<String> for IntExpr {
    type Error = ExprError;
    fn try_from(s: String) -> Result<Self, ExprError> {
        IntExpr::parse(&s)
    }
}

impl From<IntExpr> for String {
    fn from(e: IntExpr) -> String {
        e.source
    }
}

impl fmt::Display for IntExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn eval_with(src: &str, vars: &[(&str, i64)]) -> Result<i64, ExprError> {
        let e = IntExpr::parse(src)?;
        e.eval(&|name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| *v))
    }

    #[test]
    fn precedence_follows_c() {
        assert_eq!(eval_with("1 + 2 * 3", &[]).unwrap(), 7);
        assert_eq!(eval_with("(1 + 2) * 3", &[]).unwrap(), 9);
        assert_eq!(eval_with("1 << 2 + 1", &[]).unwrap(), 8);
        assert_eq!(eval_with("10 - 4 - 3", &[]).unwrap(), 3);
        assert_eq!(eval_with("2 * 3 < 7 && 1 == 1", &[]).unwrap(), 1);
        assert_eq!(eval_with("0 || 5 > 6", &[]).unwrap(), 0);
        assert_eq!(eval_with("-3 * -2", &[]).unwrap(), 6);
        assert_eq!(eval_with("!0 + !7", &[]).unwrap(), 1);
    }

    #[test]
    fn grid_of_vcopy_covers_every_element() {
        let vars = [("N", 1_000_003), ("BLOCK_SIZE", 256), ("VEC", 4)];
        let grid = eval_with("cdiv(N, BLOCK_SIZE * VEC)", &vars).unwrap();
        assert!(grid * 256 * 4 >= 1_000_003);
        assert!((grid - 1) * 256 * 4 < 1_000_003);
        assert_eq!(eval_with("align(N, 1024)", &vars).unwrap() % 1024, 0);
        assert_eq!(eval_with("max(1, min(N, 7), 3)", &vars).unwrap(), 7);
        assert_eq!(eval_with("log2(1 << 20)", &[]).unwrap(), 20);
        assert_eq!(eval_with("0x10 + 1_000", &[]).unwrap(), 1016);
    }

    #[test]
    fn variables_are_listed() {
        let e = IntExpr::parse("cdiv(N, BLOCK_SIZE) + VEC * 0").unwrap();
        let vars: Vec<String> = e.variables().into_iter().collect();
        assert_eq!(vars, vec!["BLOCK_SIZE", "N", "VEC"]);
    }

    #[test]
    fn errors_name_the_problem_and_column() {
        let err = IntExpr::parse("N + * 2").unwrap_err();
        assert_eq!(err.column, Some(5));
        assert!(err.message.contains('*'));
        let err = IntExpr::parse("foo(N)").unwrap_err();
        assert!(err.message.contains("unknown function `foo`"));
        let err = IntExpr::parse("cdiv(N)").unwrap_err();
        assert!(err.message.contains("takes 2"));
        let err = IntExpr::parse("N = 3").unwrap_err();
        assert!(err.message.contains("=="));
        let err = IntExpr::parse("1 < N < 3").unwrap_err();
        assert!(err.message.contains("chain"));
        let err = IntExpr::parse("(N + 1").unwrap_err();
        assert!(err.message.contains("`)`"));
        let err = IntExpr::parse("N $ 2").unwrap_err();
        assert_eq!(err.column, Some(3));
    }

    #[test]
    fn evaluation_errors_are_reported_not_panics() {
        assert!(eval_with("N / 0", &[("N", 3)])
            .unwrap_err()
            .message
            .contains("division by zero"));
        assert!(eval_with("M + 1", &[])
            .unwrap_err()
            .message
            .contains("unknown variable `M`"));
        assert!(eval_with("9223372036854775807 + 1", &[])
            .unwrap_err()
            .message
            .contains("overflow"));
        assert!(eval_with("1 << 64", &[]).is_err());
        assert!(eval_with("1 << 62 << 2", &[]).is_err());
        assert!(eval_with("cdiv(4, 0)", &[]).is_err());
        assert!(eval_with("log2(0)", &[]).is_err());
    }

    #[test]
    fn short_circuit_skips_the_right_side() {
        assert_eq!(eval_with("0 && 1 / 0", &[]).unwrap(), 0);
        assert_eq!(eval_with("1 || 1 / 0", &[]).unwrap(), 1);
    }

    #[test]
    fn serde_keeps_the_source_text() {
        let e: IntExpr = serde_json::from_str("\"cdiv(N, 4)\"").unwrap();
        assert_eq!(serde_json::to_string(&e).unwrap(), "\"cdiv(N, 4)\"");
        assert!(serde_json::from_str::<IntExpr>("\"cdiv(N,\"").is_err());
    }

    proptest! {
        #[test]
        fn cdiv_is_the_ceiling_of_the_quotient(a in -1_000_000i64..1_000_000, b in 1i64..10_000) {
            let q = eval_with("cdiv(a, b)", &[("a", a), ("b", b)]).unwrap();
            prop_assert!(q * b >= a);
            prop_assert!((q - 1) * b < a);
        }

        #[test]
        fn arithmetic_matches_rust(a in -1000i64..1000, b in 1i64..1000, c in -1000i64..1000) {
            let got = eval_with("a * b + c % b - (a - c) / b", &[("a", a), ("b", b), ("c", c)]).unwrap();
            prop_assert_eq!(got, a * b + c % b - (a - c) / b);
        }
    }
}
