//! Math functions that return a second result through a pointer (`frexp`,
//! `modf`, `sincos`), written in the CUDA subset hone reads. A translation
//! unit that calls one gets its definition appended under a name of its own
//! (`hone_frexpf`), and calls are bound to it: the emulator, the analyzer
//! and the printer then see an ordinary device function, and the printed
//! code compiles as it is (CUDA's own `frexpf` cannot be redefined).

use hone_ir::Scalar;

struct Entry {
    /// The CUDA spelling of the single-precision function.
    float: &'static str,
    /// The CUDA spelling of the double-precision one (also the overload
    /// set, which picks float for a float argument).
    double: &'static str,
    float_def: &'static str,
    double_def: &'static str,
}

// frexp: the GPU's results, zero exponent for zeros, infinities and NaN.
const ENTRIES: &[Entry] = &[
    Entry {
        float: "frexpf",
        double: "frexp",
        float_def: "__device__ float hone_frexpf(float x, int *e) {
    unsigned int b = __float_as_uint(x);
    unsigned int ex = (b >> 23) & 255u;
    if (ex == 255u || (b & 0x7fffffffu) == 0u) {
        *e = 0;
        return x + x;
    }
    int scale = 0;
    if (ex == 0u) {
        b = __float_as_uint(x * 33554432.0f);
        ex = (b >> 23) & 255u;
        scale = 25;
    }
    *e = (int)ex - 126 - scale;
    return __uint_as_float((b & 0x807fffffu) | 0x3f000000u);
}
",
        double_def: "__device__ double hone_frexp(double x, int *e) {
    long long b = __double_as_longlong(x);
    long long ex = (b >> 52) & 2047ll;
    if (ex == 2047ll || (b & 0x7fffffffffffffffll) == 0ll) {
        *e = 0;
        return x + x;
    }
    int scale = 0;
    if (ex == 0ll) {
        b = __double_as_longlong(x * 18014398509481984.0);
        ex = (b >> 52) & 2047ll;
        scale = 54;
    }
    *e = (int)ex - 1022 - scale;
    return __longlong_as_double((b & (long long)0x800fffffffffffffull) | 0x3fe0000000000000ll);
}
",
    },
    Entry {
        float: "modff",
        double: "modf",
        float_def: "__device__ float hone_modff(float x, float *ip) {
    float t = truncf(x);
    *ip = t;
    return copysignf(fabsf(x) > 3.40282347e38f ? 0.0f : x - t, x);
}
",
        double_def: "__device__ double hone_modf(double x, double *ip) {
    double t = trunc(x);
    *ip = t;
    return copysign(fabs(x) > 1.7976931348623157e308 ? 0.0 : x - t, x);
}
",
    },
    Entry {
        float: "sincosf",
        double: "sincos",
        float_def: "__device__ void hone_sincosf(float x, float *s, float *c) {
    *s = sinf(x);
    *c = cosf(x);
}
",
        double_def: "__device__ void hone_sincos(double x, double *s, double *c) {
    *s = sin(x);
    *c = cos(x);
}
",
    },
];

/// The definitions `text` needs appended: those of the functions it calls
/// and does not define itself.
pub(crate) fn needed(text: &str) -> String {
    let mut out = String::new();
    for e in ENTRIES {
        let (f, d) = (calls(text, e.float), calls(text, e.double));
        if f || d {
            // `frexp(float, ...)` is the float one: both may be needed.
            out.push_str(e.float_def);
        }
        if d {
            out.push_str(e.double_def);
        }
    }
    out
}

/// The appended function a call of `name` means, given the type of its
/// first argument; `None` when `name` is not one of these.
pub(crate) fn callee(name: &str, first: Option<Scalar>) -> Option<&'static str> {
    let e = ENTRIES
        .iter()
        .find(|e| e.float == name || e.double == name)?;
    let float = name == e.float || first == Some(Scalar::F32);
    let hone = |def: &'static str| {
        let start = def.find("hone_").unwrap_or(0);
        let end = def[start..].find('(').map_or(def.len(), |i| start + i);
        &def[start..end]
    };
    Some(if float {
        hone(e.float_def)
    } else {
        hone(e.double_def)
    })
}

/// Whether `text` has `name` as an identifier followed by `(`.
fn calls(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].trim_start().chars().next();
        !before.is_some_and(ident) && after == Some('(')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_is_called_is_appended() {
        assert_eq!(needed("float y = sinf(x);"), "");
        assert!(needed("y = frexpf (x, &e);").contains("hone_frexpf"));
        assert!(!needed("y = hone_frexpf(x, &e);").contains("hone_frexpf"));
        let both = needed("y = frexp(d, &e);");
        assert!(both.contains("hone_frexpf") && both.contains("hone_frexp("));
        assert_eq!(callee("frexp", Some(Scalar::F32)), Some("hone_frexpf"));
        assert_eq!(callee("frexp", Some(Scalar::F64)), Some("hone_frexp"));
        assert_eq!(callee("sincosf", Some(Scalar::F64)), Some("hone_sincosf"));
        assert_eq!(callee("sinf", Some(Scalar::F32)), None);
    }
}
