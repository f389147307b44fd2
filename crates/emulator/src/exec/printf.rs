//! Device `printf`: C's formatting of one thread's arguments, and the
//! launch's output buffer, bounded as the GPU's is.

use hone_ir::Scalar;
use sprintf::parser::ConversionSpecifier;
use sprintf::Printf;

/// The bytes of output one launch keeps, as CUDA's default printf FIFO
/// (`cudaLimitPrintfFifoSize`, 1 MiB); calls past it are dropped and counted.
pub(crate) const OUTPUT_LIMIT: usize = 1 << 20;

/// What the threads of a launch (or of one block) printed.
#[derive(Debug, Default)]
pub(crate) struct Printed {
    pub text: String,
    /// Calls whose text did not fit.
    pub dropped: u64,
}

impl Printed {
    pub fn push(&mut self, s: &str) {
        if self.text.len() + s.len() > OUTPUT_LIMIT {
            self.dropped += 1;
        } else {
            self.text.push_str(s);
        }
    }

    /// Appends what a later block printed.
    pub fn absorb(&mut self, later: Printed) {
        if self.text.is_empty() && self.dropped == 0 {
            *self = later;
            return;
        }
        self.push(&later.text);
        self.dropped += later.dropped;
    }
}

/// One argument as the thread passed it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg<'a> {
    /// Canonical register bits of a value of this scalar type (pointers
    /// are `U64`).
    Bits(u64, Scalar),
    Str(&'a str),
}

/// The argument as the conversion that consumes it reads it: `%u` and `%x`
/// read the bits unsigned, `%d` signed, `%f` a double (C leaves a mismatch
/// undefined; this is what the GPU's formatter does with the bits it got).
enum Value<'a> {
    Signed(i64),
    Unsigned(u64),
    Float(f64),
    Char(u8),
    Str(&'a str),
}

impl Printf for Value<'_> {
    fn format(&self, spec: &ConversionSpecifier) -> sprintf::Result<String> {
        match *self {
            // `i64::MIN` has no positive counterpart the formatter could negate.
            Value::Signed(v) if v == i64::MIN => Ok(format!("-{}", v.unsigned_abs())),
            Value::Signed(v) => v.format(spec),
            Value::Unsigned(v) => v.format(spec),
            Value::Float(v) => v.format(spec),
            Value::Char(c) => c.format(spec),
            Value::Str(s) => s.format(spec),
        }
    }

    fn as_int(&self) -> Option<i32> {
        match *self {
            Value::Signed(v) => i32::try_from(v).ok(),
            Value::Unsigned(v) => i32::try_from(v).ok(),
            _ => None,
        }
    }
}

fn as_value(arg: Arg<'_>, conversion: char) -> Value<'_> {
    let (bits, s) = match arg {
        Arg::Str(s) => return Value::Str(s),
        Arg::Bits(bits, s) => (bits, s),
    };
    let float = match s {
        Scalar::F32 => Some(f32::from_bits(bits as u32) as f64),
        Scalar::F64 => Some(f64::from_bits(bits)),
        _ => None,
    };
    let width = s.size().min(8) * 8;
    let unsigned = if width >= 64 {
        bits
    } else {
        bits & ((1u64 << width) - 1)
    };
    let signed = if width >= 64 {
        bits as i64
    } else {
        ((unsigned << (64 - width)) as i64) >> (64 - width)
    };
    match conversion {
        'd' | 'i' => Value::Signed(float.map_or(signed, |f| f as i64)),
        'u' | 'x' | 'X' | 'o' | 'p' => Value::Unsigned(float.map_or(unsigned, |f| f as u64)),
        'c' => Value::Char(unsigned as u8),
        's' => Value::Str("(string)"),
        _ => Value::Float(float.unwrap_or(signed as f64)),
    }
}

/// The conversion letters of `format` in order, one per argument they
/// consume (a `*` width or precision consumes an `int` first).
fn conversions(format: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        while let Some(&d) = chars.peek() {
            match d {
                '*' => {
                    out.push('d');
                    chars.next();
                }
                '-' | '+' | ' ' | '#' | '0'..='9' | '.' | 'h' | 'l' | 'j' | 'z' | 't' | 'L' => {
                    chars.next();
                }
                _ => break,
            }
        }
        match chars.next() {
            Some('%') | None => {}
            Some(conv) => out.push(conv),
        }
    }
    out
}

/// The text one thread's `printf` writes. A format the arguments do not
/// match is written as it is, with a note of what is wrong.
pub(crate) fn format(format: &str, args: &[Arg<'_>]) -> String {
    let convs = conversions(format);
    let values: Vec<Value> = args
        .iter()
        .enumerate()
        .map(|(k, &a)| as_value(a, convs.get(k).copied().unwrap_or('d')))
        .collect();
    // The formatter knows `p` only as `x`: C prints pointers with `0x`.
    let text = format.replace("%p", "%#lx");
    let refs: Vec<&dyn Printf> = values.iter().map(|v| v as &dyn Printf).collect();
    match sprintf::vsprintf(&text, &refs) {
        Ok(s) => s,
        Err(e) => format!("{format} [printf: {e}]\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, args: &[Arg]) -> String {
        format(fmt, args)
    }

    #[test]
    fn formats_as_c() {
        let i = |v: i32| Arg::Bits(v as i64 as u64, Scalar::I32);
        let d = |v: f64| Arg::Bits(v.to_bits(), Scalar::F64);
        assert_eq!(f("%d %i\n", &[i(-3), i(7)]), "-3 7\n");
        assert_eq!(f("%u", &[i(-1)]), "4294967295");
        assert_eq!(
            f("%5.2f|%-4d|%04x", &[d(1.23456), i(42), i(255)]),
            " 1.23|42  |00ff"
        );
        assert_eq!(
            f("%e %g", &[d(12345.678), d(0.0001)]),
            "1.234568e+04 0.0001"
        );
        assert_eq!(f("%*d", &[i(5), i(1)]), "    1");
        assert_eq!(f("%c%s", &[i(65), Arg::Str("bc")]), "Abc");
        assert_eq!(f("100%%", &[]), "100%");
        assert_eq!(
            f("%lld", &[Arg::Bits(i64::MIN as u64, Scalar::I64)]),
            "-9223372036854775808"
        );
        assert_eq!(f("%p", &[Arg::Bits(0x1000, Scalar::U64)]), "0x1000");
        assert!(f("%d %d", &[i(1)]).contains("[printf:"));
    }

    #[test]
    fn output_is_bounded() {
        let mut p = Printed::default();
        let line = "x".repeat(1000);
        for _ in 0..2000 {
            p.push(&line);
        }
        assert!(p.text.len() <= OUTPUT_LIMIT);
        assert_eq!(p.dropped, 2000 - (OUTPUT_LIMIT / 1000) as u64);
    }
}
