//! Numeric and character literals, typed as C++ types them.

use hone_ir::Scalar;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Literal {
    Int(u64, Scalar),
    Float(f64, Scalar),
}

pub(crate) fn parse_number(raw: &str) -> Result<Literal, String> {
    let text: String = raw.chars().filter(|&c| c != '\'').collect();
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = if is_hex {
        lower.contains('p') || lower.contains('.')
    } else {
        lower.contains('.') || lower.contains('e')
    };
    if is_float {
        parse_float(&lower, is_hex)
    } else {
        parse_int(&lower)
    }
}

fn parse_float(lower: &str, is_hex: bool) -> Result<Literal, String> {
    let (body, ty) = if let Some(b) = lower.strip_suffix('f') {
        (b, Scalar::F32)
    } else if let Some(b) = lower.strip_suffix('l') {
        // `long double` has no device representation; nvcc treats it as double.
        (b, Scalar::F64)
    } else {
        (lower, Scalar::F64)
    };
    let value = if is_hex {
        parse_hex_float(&body[2..])
            .ok_or_else(|| format!("malformed hexadecimal float literal `{lower}`"))?
    } else {
        body.parse::<f64>()
            .map_err(|_| format!("malformed floating literal `{lower}`"))?
    };
    let value = if ty == Scalar::F32 {
        value as f32 as f64
    } else {
        value
    };
    Ok(Literal::Float(value, ty))
}

fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = match s.find('p') {
        Some(i) => (&s[..i], s[i + 1..].parse::<i32>().ok()?),
        None => (s, 0),
    };
    let (int_part, frac_part) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let mut v = 0f64;
    for c in int_part.chars() {
        v = v * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in frac_part.chars() {
        v += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    Some(v * 2f64.powi(exp))
}

fn parse_int(lower: &str) -> Result<Literal, String> {
    let digits_end = lower
        .char_indices()
        .rev()
        .find(|&(_, c)| c != 'u' && c != 'l' && c != 'z')
        .map(|(i, c)| i + c.len_utf8())
        .unwrap_or(0);
    let (body, suffix) = lower.split_at(digits_end);
    let unsigned = suffix.contains('u');
    let longs = suffix.matches('l').count();
    if longs > 2 || suffix.matches('u').count() > 1 || suffix.contains('z') {
        return Err(format!("unsupported integer literal suffix `{suffix}`"));
    }
    let (radix, digits, decimal) = if let Some(d) = body.strip_prefix("0x") {
        (16, d, false)
    } else if let Some(d) = body.strip_prefix("0b") {
        (2, d, false)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..], false)
    } else {
        (10, body, true)
    };
    if digits.is_empty() {
        return Err(format!("malformed integer literal `{lower}`"));
    }
    let value = u64::from_str_radix(digits, radix).map_err(|_| {
        format!("integer literal `{lower}` is malformed or does not fit in 64 bits")
    })?;
    use Scalar::*;
    let candidates: &[Scalar] = match (decimal, unsigned, longs > 0) {
        (true, false, false) => &[I32, I64],
        (true, false, true) => &[I64],
        (false, false, false) => &[I32, U32, I64, U64],
        (false, false, true) => &[I64, U64],
        (_, true, false) => &[U32, U64],
        (_, true, true) => &[U64],
    };
    candidates
        .iter()
        .find(|s| fits(value, **s))
        .map(|s| Literal::Int(value, *s))
        .ok_or_else(|| format!("integer literal `{lower}` does not fit in any signed type"))
}

fn fits(v: u64, s: Scalar) -> bool {
    match s {
        Scalar::I32 => v <= i32::MAX as u64,
        Scalar::U32 => v <= u32::MAX as u64,
        Scalar::I64 => v <= i64::MAX as u64,
        _ => true,
    }
}

/// Value of a character literal's body (between the quotes).
pub(crate) fn parse_char(body: &str) -> Result<u64, String> {
    let mut chars = body.chars();
    let value = match chars.next() {
        None => return Err("empty character literal".into()),
        Some('\\') => {
            let rest: String = chars.collect();
            return escape_value(&rest)
                .ok_or_else(|| format!("unsupported escape sequence `\\{rest}`"));
        }
        Some(c) => c as u64,
    };
    if chars.next().is_some() || value > 0x7f {
        return Err(format!("unsupported character literal `'{body}'`"));
    }
    Ok(value)
}

/// The characters of a string literal as written in the source (quotes
/// included, no prefix); an escape gives the character of its byte value.
pub(crate) fn parse_string(raw: &str) -> Result<String, String> {
    let body = raw
        .strip_prefix('"')
        .and_then(|b| b.strip_suffix('"'))
        .ok_or_else(|| {
            format!("unsupported string literal `{raw}` (only plain \"...\" strings)")
        })?;
    // Escapes name bytes, so the text is built as bytes: `\303\277` is the
    // two bytes of `ÿ`, not two characters. Bytes that are not UTF-8 become
    // U+FFFD, which prints back as its own three escaped bytes.
    let mut out: Vec<u8> = Vec::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let Some(first) = chars.next() else {
            return Err("a string literal ends in a backslash".into());
        };
        let mut esc = String::from(first);
        if first == 'x' {
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_hexdigit()) {
                esc.push(d);
                chars.next();
            }
        } else if first.is_digit(8) {
            while esc.len() < 3 {
                match chars.peek() {
                    Some(&d) if d.is_digit(8) => {
                        esc.push(d);
                        chars.next();
                    }
                    _ => break,
                }
            }
        }
        let v = escape_value(&esc)
            .ok_or_else(|| format!("unsupported escape sequence `\\{esc}` in a string literal"))?;
        out.push(v as u8);
    }
    Ok(String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

fn escape_value(rest: &str) -> Option<u64> {
    let mut chars = rest.chars();
    let first = chars.next()?;
    let tail = chars.as_str();
    let simple = match first {
        'n' => Some(10),
        't' => Some(9),
        'r' => Some(13),
        'a' => Some(7),
        'b' => Some(8),
        'f' => Some(12),
        'v' => Some(11),
        '\\' | '\'' | '"' | '?' => Some(first as u64),
        _ => None,
    };
    if let Some(v) = simple {
        return tail.is_empty().then_some(v);
    }
    let v = if first == 'x' {
        u64::from_str_radix(tail, 16).ok()?
    } else if first.is_digit(8) && rest.len() <= 3 {
        u64::from_str_radix(rest, 8).ok()?
    } else {
        return None;
    };
    // A char holds 8 bits; larger values are implementation-defined in C++.
    (v <= 0xff).then_some(v as u8 as i8 as i64 as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literal_types_follow_c() {
        assert_eq!(parse_number("1"), Ok(Literal::Int(1, Scalar::I32)));
        assert_eq!(
            parse_number("3000000000"),
            Ok(Literal::Int(3_000_000_000, Scalar::I64))
        );
        assert_eq!(
            parse_number("0xFFFFFFFF"),
            Ok(Literal::Int(0xFFFF_FFFF, Scalar::U32))
        );
        assert_eq!(parse_number("0x10ULL"), Ok(Literal::Int(16, Scalar::U64)));
        assert_eq!(parse_number("10u"), Ok(Literal::Int(10, Scalar::U32)));
        assert_eq!(parse_number("10lu"), Ok(Literal::Int(10, Scalar::U64)));
        assert_eq!(parse_number("010"), Ok(Literal::Int(8, Scalar::I32)));
        assert_eq!(parse_number("0"), Ok(Literal::Int(0, Scalar::I32)));
        assert_eq!(parse_number("0b101"), Ok(Literal::Int(5, Scalar::I32)));
        assert_eq!(parse_number("1'000"), Ok(Literal::Int(1000, Scalar::I32)));
        assert_eq!(parse_number("10LL"), Ok(Literal::Int(10, Scalar::I64)));
        assert!(parse_number("99999999999999999999").is_err());
        assert!(parse_number("18446744073709551615").is_err());
        assert_eq!(
            parse_number("18446744073709551615u"),
            Ok(Literal::Int(u64::MAX, Scalar::U64))
        );
        assert!(parse_number("09").is_err());
    }

    #[test]
    fn float_literal_types_follow_c() {
        assert_eq!(parse_number("1.0f"), Ok(Literal::Float(1.0, Scalar::F32)));
        assert_eq!(parse_number("1.0"), Ok(Literal::Float(1.0, Scalar::F64)));
        assert_eq!(parse_number(".5f"), Ok(Literal::Float(0.5, Scalar::F32)));
        assert_eq!(parse_number("1e-3"), Ok(Literal::Float(1e-3, Scalar::F64)));
        assert_eq!(parse_number("2."), Ok(Literal::Float(2.0, Scalar::F64)));
        assert_eq!(
            parse_number("1E3F"),
            Ok(Literal::Float(1000.0, Scalar::F32))
        );
        assert_eq!(parse_number("0x1p3"), Ok(Literal::Float(8.0, Scalar::F64)));
        assert_eq!(
            parse_number("0x1.8p1f"),
            Ok(Literal::Float(3.0, Scalar::F32))
        );
        assert_eq!(
            parse_number("0.1f"),
            Ok(Literal::Float(0.1f32 as f64, Scalar::F32))
        );
    }

    #[test]
    fn string_literals() {
        assert_eq!(parse_string(r#""a=%d\n""#), Ok("a=%d\n".to_string()));
        assert_eq!(parse_string(r#""\x41\101\"\\""#), Ok("AA\"\\".to_string()));
        assert_eq!(parse_string(r#""\0""#), Ok("\0".to_string()));
        // Escapes are bytes: two of them may make one character, and bytes
        // that are not UTF-8 become U+FFFD, whose bytes read back as itself.
        assert_eq!(parse_string(r#""\303\277x""#), Ok("ÿx".to_string()));
        assert_eq!(parse_string(r#""\xc3\xbf""#), Ok("ÿ".to_string()));
        assert_eq!(parse_string(r#""%\367d""#), Ok("%\u{fffd}d".to_string()));
        assert_eq!(
            parse_string(r#""%\357\277\275d""#),
            Ok("%\u{fffd}d".to_string())
        );
        assert!(parse_string(r#"u8"x""#).is_err());
        assert!(parse_string(r#""\q""#).is_err());
    }

    #[test]
    fn char_literals() {
        assert_eq!(parse_char("a"), Ok(97));
        assert_eq!(parse_char("\\n"), Ok(10));
        assert_eq!(parse_char("\\0"), Ok(0));
        assert_eq!(parse_char("\\x41"), Ok(65));
        assert_eq!(parse_char("\\'"), Ok(39));
        assert_eq!(parse_char("\\xff"), Ok(u64::MAX));
        assert!(parse_char("ab").is_err());
        assert!(parse_char("").is_err());
    }
}
