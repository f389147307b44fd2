//! Integer constant expressions of `#if` and `#elif`, computed in
//! `intmax_t`/`uintmax_t` as C specifies. The tokens arrive macro-expanded,
//! with `defined` already replaced; identifiers left over are 0.

use super::token::{Kind, Token};

#[derive(Debug)]
pub(crate) struct ExprError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// A value of type `intmax_t` (bits reinterpreted) or `uintmax_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Val {
    bits: u64,
    unsigned: bool,
}

impl Val {
    fn signed(v: i64) -> Val {
        Val {
            bits: v as u64,
            unsigned: false,
        }
    }

    fn truth(b: bool) -> Val {
        Val::signed(i64::from(b))
    }

    fn is_true(self) -> bool {
        self.bits != 0
    }

    fn as_i64(self) -> i64 {
        self.bits as i64
    }
}

/// Nesting of parentheses and unary operators, each level a recursion.
const MAX_DEPTH: u32 = 256;

/// Evaluates `toks`; `at` places errors when there is no token to blame.
pub(crate) fn evaluate(toks: &[Token], at: (u32, u32)) -> Result<bool, ExprError> {
    let mut p = Parser {
        toks,
        i: 0,
        depth: 0,
        at,
    };
    let v = p.comma(true)?;
    if let Some(t) = p.peek() {
        let message = if t.is_punct(")") {
            "missing '(' in expression".to_string()
        } else if matches!(t.kind, Kind::Number | Kind::Ident | Kind::Char) || t.is_punct("(") {
            format!("missing binary operator before token \"{}\"", t.text)
        } else {
            format!(
                "token \"{}\" is not valid in preprocessor expressions",
                t.text
            )
        };
        return Err(p.error_at(t, message));
    }
    Ok(v.is_true())
}

struct Parser<'a> {
    toks: &'a [Token],
    i: usize,
    depth: u32,
    at: (u32, u32),
}

fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.i)
    }

    fn error_at(&self, t: &Token, message: impl Into<String>) -> ExprError {
        ExprError {
            line: t.line,
            col: t.col,
            message: message.into(),
        }
    }

    /// An error about what is missing at the current position.
    fn error_here(&self, message: impl Into<String>) -> ExprError {
        match self.peek().or_else(|| self.toks.last()) {
            Some(t) => self.error_at(t, message),
            None => ExprError {
                line: self.at.0,
                col: self.at.1,
                message: message.into(),
            },
        }
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.peek().is_some_and(|t| t.is_punct(p)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// `ev` is false in the operands that `&&`, `||` and `?:` do not
    /// evaluate: division by zero is only an error where it happens.
    fn comma(&mut self, ev: bool) -> Result<Val, ExprError> {
        let mut v = self.conditional(ev)?;
        while self.eat(",") {
            v = self.conditional(ev)?;
        }
        Ok(v)
    }

    fn conditional(&mut self, ev: bool) -> Result<Val, ExprError> {
        let c = self.binary(1, ev)?;
        if !self.eat("?") {
            return Ok(c);
        }
        self.enter()?;
        let a = self.comma(ev && c.is_true())?;
        if !self.eat(":") {
            return Err(self.error_here("'?' without following ':'"));
        }
        let b = self.conditional(ev && !c.is_true())?;
        self.depth -= 1;
        let bits = if c.is_true() { a.bits } else { b.bits };
        Ok(Val {
            bits,
            unsigned: a.unsigned || b.unsigned,
        })
    }

    fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error_here(format!("expression nested more than {MAX_DEPTH} deep")));
        }
        Ok(())
    }

    fn binary(&mut self, min: u8, ev: bool) -> Result<Val, ExprError> {
        let mut lhs = self.unary(ev)?;
        loop {
            let Some(op) = self.peek().filter(|t| t.kind == Kind::Punct) else {
                return Ok(lhs);
            };
            let Some(prec) = precedence(&op.text).filter(|&p| p >= min) else {
                return Ok(lhs);
            };
            self.i += 1;
            let rhs_ev = match &*op.text {
                "&&" => ev && lhs.is_true(),
                "||" => ev && !lhs.is_true(),
                _ => ev,
            };
            if self.peek().is_none() {
                return Err(
                    self.error_at(op, format!("operator '{}' has no right operand", op.text))
                );
            }
            let rhs = self.binary(prec + 1, rhs_ev)?;
            lhs = apply(&op.text, lhs, rhs, ev).map_err(|m| self.error_at(op, m))?;
        }
    }

    fn unary(&mut self, ev: bool) -> Result<Val, ExprError> {
        let Some(t) = self.peek() else {
            return Err(match self.toks.last() {
                Some(prev) => {
                    self.error_at(prev, format!("expected a value after \"{}\"", prev.text))
                }
                None => self.error_here("expected a value"),
            });
        };
        self.i += 1;
        match t.kind {
            Kind::Number => parse_number(&t.text).map_err(|m| self.error_at(t, m)),
            Kind::Char => parse_char(&t.text).map_err(|m| self.error_at(t, m)),
            Kind::Ident => Ok(Val::truth(&*t.text == "true")),
            Kind::Punct if matches!(&*t.text, "+" | "-" | "~" | "!" | "(") => {
                self.enter()?;
                let v = if &*t.text == "(" {
                    let v = self.comma(ev)?;
                    if !self.eat(")") {
                        return Err(self.error_at(t, "missing ')' in expression"));
                    }
                    v
                } else {
                    if self.peek().is_none() {
                        return Err(
                            self.error_at(t, format!("operator '{}' has no operand", t.text))
                        );
                    }
                    let v = self.unary(ev)?;
                    match &*t.text {
                        "+" => v,
                        "-" => Val {
                            bits: v.bits.wrapping_neg(),
                            unsigned: v.unsigned,
                        },
                        "~" => Val {
                            bits: !v.bits,
                            unsigned: v.unsigned,
                        },
                        _ => Val::truth(!v.is_true()),
                    }
                };
                self.depth -= 1;
                Ok(v)
            }
            Kind::Punct if precedence(&t.text).is_some() || matches!(&*t.text, "?" | ":" | ",") => {
                Err(self.error_at(t, format!("operator '{}' has no left operand", t.text)))
            }
            Kind::Str => Err(self.error_at(
                t,
                format!("token {} is not valid in preprocessor expressions", t.text),
            )),
            _ => Err(self.error_at(
                t,
                format!(
                    "token \"{}\" is not valid in preprocessor expressions",
                    t.text
                ),
            )),
        }
    }
}

fn apply(op: &str, a: Val, b: Val, ev: bool) -> Result<Val, String> {
    let unsigned = a.unsigned || b.unsigned;
    let arith = |bits: u64| Val { bits, unsigned };
    Ok(match op {
        "*" => arith(a.bits.wrapping_mul(b.bits)),
        "/" | "%" => {
            if b.bits == 0 {
                if ev {
                    return Err("division by zero in #if".into());
                }
                return Ok(arith(0));
            }
            let bits = match (op, unsigned) {
                ("/", true) => a.bits / b.bits,
                ("%", true) => a.bits % b.bits,
                ("/", false) => a.as_i64().wrapping_div(b.as_i64()) as u64,
                _ => a.as_i64().wrapping_rem(b.as_i64()) as u64,
            };
            arith(bits)
        }
        "+" => arith(a.bits.wrapping_add(b.bits)),
        "-" => arith(a.bits.wrapping_sub(b.bits)),
        "<<" | ">>" => shift(a, b, op == "<<"),
        "<" | ">" | "<=" | ">=" => {
            let ord = if unsigned {
                a.bits.cmp(&b.bits)
            } else {
                a.as_i64().cmp(&b.as_i64())
            };
            Val::truth(match op {
                "<" => ord.is_lt(),
                ">" => ord.is_gt(),
                "<=" => ord.is_le(),
                _ => ord.is_ge(),
            })
        }
        "==" => Val::truth(a.bits == b.bits),
        "!=" => Val::truth(a.bits != b.bits),
        "&" => arith(a.bits & b.bits),
        "^" => arith(a.bits ^ b.bits),
        "|" => arith(a.bits | b.bits),
        "&&" => Val::truth(a.is_true() && b.is_true()),
        _ => Val::truth(a.is_true() || b.is_true()),
    })
}

/// Shifts keep the left operand's type; a negative count shifts the other
/// way and a count past the width leaves 0 (or -1), as GCC does.
fn shift(a: Val, b: Val, left: bool) -> Val {
    let count: i128 = if b.unsigned {
        i128::from(b.bits)
    } else {
        i128::from(b.as_i64())
    };
    let (left, count) = if count < 0 {
        (!left, -count)
    } else {
        (left, count)
    };
    let bits = if left {
        if count >= 64 {
            0
        } else {
            a.bits << count
        }
    } else if a.unsigned {
        if count >= 64 {
            0
        } else {
            a.bits >> count
        }
    } else {
        (a.as_i64() >> count.min(63)) as u64
    };
    Val {
        bits,
        unsigned: a.unsigned,
    }
}

fn parse_number(text: &str) -> Result<Val, String> {
    let s: String = text
        .chars()
        .filter(|&c| c != '\'')
        .collect::<String>()
        .to_ascii_lowercase();
    let (radix, start) = if s.starts_with("0x") {
        (16, 2)
    } else if s.starts_with("0b") {
        (2, 2)
    } else if s.starts_with('0') {
        (8, 0)
    } else {
        (10, 0)
    };
    // Octal constants are scanned as decimal so that `08` is a bad digit.
    let scan_radix = if radix == 8 { 10 } else { radix };
    let end = s[start..]
        .find(|c: char| !c.is_digit(scan_radix))
        .map_or(s.len(), |k| k + start);
    let (digits, suffix) = (&s[start..end], &s[end..]);
    let is_float = suffix.starts_with('.')
        || (radix == 10 && suffix.starts_with('e'))
        || (radix == 8 && suffix.starts_with('e'))
        || (radix == 16 && suffix.contains(['.', 'p']));
    if is_float {
        return Err(format!(
            "floating constant \"{text}\" in preprocessor expression"
        ));
    }
    if !matches!(
        suffix,
        "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu" | "z" | "uz" | "zu"
    ) {
        let original = text.get(text.len() - suffix.len()..).unwrap_or(suffix);
        return Err(format!("invalid suffix \"{original}\" on integer constant"));
    }
    if digits.is_empty() {
        return Err(format!("invalid integer constant \"{text}\""));
    }
    let mut value: u128 = 0;
    for c in digits.chars() {
        let d = c.to_digit(scan_radix).unwrap_or(0);
        if d >= radix {
            return Err(format!("invalid digit \"{c}\" in octal constant"));
        }
        value = value * u128::from(radix) + u128::from(d);
        if value > u128::from(u64::MAX) {
            return Err(format!(
                "integer constant \"{text}\" is too large for its type"
            ));
        }
    }
    Ok(Val {
        bits: value as u64,
        unsigned: suffix.contains('u') || value > i64::MAX as u128,
    })
}

/// Value of a character constant, for a target whose plain `char` is signed
/// and 8 bits wide and whose `wchar_t` is a 32-bit `int`.
fn parse_char(text: &str) -> Result<Val, String> {
    let quote = text
        .find('\'')
        .ok_or_else(|| format!("invalid character constant {text}"))?;
    let prefix = &text[..quote];
    let inner = text[quote + 1..]
        .strip_suffix('\'')
        .ok_or_else(|| format!("missing terminating ' character in {text}"))?;
    let wide = matches!(prefix, "L" | "u" | "U");
    let mut units: Vec<u32> = Vec::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            if wide {
                units.push(c as u32);
            } else {
                let mut buf = [0u8; 4];
                units.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            continue;
        }
        let Some(e) = chars.next() else {
            return Err(format!("invalid escape sequence in {text}"));
        };
        let v = match e {
            'n' => 10,
            't' => 9,
            'v' => 11,
            'b' => 8,
            'r' => 13,
            'f' => 12,
            'a' => 7,
            'e' | 'E' => 27,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                v
            }
            'x' | 'u' | 'U' => {
                let max = match e {
                    'u' => 4,
                    'U' => 8,
                    _ => usize::MAX,
                };
                let mut v: u32 = 0;
                let mut n = 0;
                while n < max {
                    let Some(d) = chars.peek().and_then(|d| d.to_digit(16)) else {
                        break;
                    };
                    v = v
                        .checked_mul(16)
                        .map(|v| v + d)
                        .ok_or_else(|| format!("escape sequence out of range in {text}"))?;
                    chars.next();
                    n += 1;
                }
                if n == 0 || (e != 'x' && n != max) {
                    return Err(format!("invalid escape sequence in {text}"));
                }
                v
            }
            other => other as u32,
        };
        units.push(v);
    }
    let Some(&last) = units.last() else {
        return Err("empty character constant".into());
    };
    let v = match prefix {
        "" if units.len() == 1 => i64::from(last as u8 as i8),
        "" => {
            // Multi-character constants pack bytes into an int, as GCC does.
            let packed = units.iter().fold(0u32, |acc, &u| (acc << 8) | (u & 0xff));
            i64::from(packed as i32)
        }
        "u8" => i64::from(last as u8),
        "u" => i64::from(last as u16),
        "U" => i64::from(last),
        _ => i64::from(last as i32),
    };
    Ok(Val::signed(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocess::lexer::lex;

    fn eval(src: &str) -> Result<bool, String> {
        let lexed = lex(src).unwrap();
        let toks = lexed
            .lines
            .first()
            .map(|l| l.toks.clone())
            .unwrap_or_default();
        evaluate(&toks, (1, 1)).map_err(|e| e.message)
    }

    #[test]
    fn arithmetic_and_precedence() {
        assert_eq!(eval("1 + 2 * 3 == 7"), Ok(true));
        assert_eq!(eval("(1 + 2) * 3 == 9"), Ok(true));
        assert_eq!(eval("10 / 3 == 3 && 10 % 3 == 1"), Ok(true));
        assert_eq!(eval("-7 / 2 == -3 && -7 % 2 == -1"), Ok(true));
        assert_eq!(eval("1 << 4 == 16 && 256 >> 4 == 16"), Ok(true));
        assert_eq!(
            eval("(6 & 3) == 2 && (6 | 3) == 7 && (6 ^ 3) == 5"),
            Ok(true)
        );
        assert_eq!(eval("~0 == -1 && !0 == 1 && !5 == 0"), Ok(true));
        assert_eq!(eval("1 ? 2 : 3"), Ok(true));
        assert_eq!(eval("0 ? 2 : 0"), Ok(false));
        assert_eq!(eval("(1, 0)"), Ok(false));
        assert_eq!(eval("1 - 1 - 1 == -1"), Ok(true), "left associative");
    }

    #[test]
    fn unsigned_arithmetic() {
        assert_eq!(eval("-1 < 0"), Ok(true));
        assert_eq!(eval("-1 < 0u"), Ok(false), "-1 converts to UINTMAX_MAX");
        assert_eq!(eval("0xFFFFFFFFFFFFFFFF == -1"), Ok(true));
        assert_eq!(
            eval("0xFFFFFFFFFFFFFFFF > 0"),
            Ok(true),
            "too large for intmax: unsigned"
        );
        assert_eq!(eval("(0u - 1) >> 63 == 1"), Ok(true));
        assert_eq!(
            eval("(-1 >> 63) == -1"),
            Ok(true),
            "arithmetic shift of signed"
        );
    }

    #[test]
    fn literals() {
        assert_eq!(
            eval("0x10 == 16 && 010 == 8 && 0b101 == 5 && 1'000 == 1000"),
            Ok(true)
        );
        assert_eq!(eval("10UL == 10 && 10ll == 10 && 7LLU == 7"), Ok(true));
        assert_eq!(
            eval("'A' == 65 && '\\n' == 10 && '\\x41' == 65 && '\\101' == 65"),
            Ok(true)
        );
        assert_eq!(
            eval("'\\xff' == -1 && u8'\\xff' == 255 && L'A' == 65"),
            Ok(true)
        );
        assert_eq!(eval("'ab' == 24930"), Ok(true));
        assert_eq!(
            eval("1.5").unwrap_err(),
            "floating constant \"1.5\" in preprocessor expression"
        );
        assert_eq!(
            eval("08").unwrap_err(),
            "invalid digit \"8\" in octal constant"
        );
        assert_eq!(
            eval("12abc").unwrap_err(),
            "invalid suffix \"abc\" on integer constant"
        );
        assert_eq!(eval("''").unwrap_err(), "empty character constant");
        assert_eq!(
            eval("99999999999999999999").unwrap_err(),
            "integer constant \"99999999999999999999\" is too large for its type"
        );
    }

    #[test]
    fn short_circuit_hides_division_by_zero() {
        assert_eq!(eval("0 && 1 / 0"), Ok(false));
        assert_eq!(eval("1 || 1 % 0"), Ok(true));
        assert_eq!(eval("1 ? 1 : 1 / 0"), Ok(true));
        assert_eq!(eval("1 / 0").unwrap_err(), "division by zero in #if");
    }

    #[test]
    fn identifiers_are_zero_and_true_is_one() {
        assert_eq!(eval("UNKNOWN"), Ok(false));
        assert_eq!(eval("true && !false"), Ok(true));
    }

    #[test]
    fn syntax_errors() {
        assert_eq!(eval("(1 + 2").unwrap_err(), "missing ')' in expression");
        assert_eq!(eval("1 + 2)").unwrap_err(), "missing '(' in expression");
        assert_eq!(
            eval("1 2").unwrap_err(),
            "missing binary operator before token \"2\""
        );
        assert_eq!(
            eval("1 +").unwrap_err(),
            "operator '+' has no right operand"
        );
        assert_eq!(
            eval("1 +* 2").unwrap_err(),
            "operator '*' has no left operand"
        );
        assert_eq!(eval("1 ? 2").unwrap_err(), "'?' without following ':'");
        assert_eq!(
            eval("x = 1").unwrap_err(),
            "token \"=\" is not valid in preprocessor expressions"
        );
        assert_eq!(
            eval("\"s\"").unwrap_err(),
            "token \"s\" is not valid in preprocessor expressions"
        );
        let deep = format!("{}1{}", "(".repeat(1000), ")".repeat(1000));
        assert!(eval(&deep).unwrap_err().contains("nested more than"));
    }
}
