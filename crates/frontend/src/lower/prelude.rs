//! Math functions that return a second result through a pointer (`frexp`,
//! `modf`, `sincos`), the classification functions C++ overloads (`isnan`,
//! `isinf`, `isfinite`, `signbit`), and CUDA's integer intrinsics that are
//! plain computations (`__sad`, `__byte_perm`,
//! `__funnelshift_l`, ...) or a block's vote
//! (`__syncthreads_count`), written in the CUDA subset hone reads. A translation
//! unit that calls one gets its definition appended under a name of its own
//! (`hone_frexpf`), and calls are bound to it: the emulator, the analyzer
//! and the printer then see an ordinary device function, and the printed
//! code compiles as it is (CUDA's own `frexpf` cannot be redefined).

use std::collections::HashSet;

use hone_ir::Scalar;
use tree_sitter::Node;

use crate::syntax;

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
    Entry {
        float: "isnan",
        double: "isnan",
        float_def: "__device__ int hone_isnanf(float x) {
    return x != x;
}
",
        double_def: "__device__ int hone_isnan(double x) {
    return x != x;
}
",
    },
    Entry {
        float: "isinf",
        double: "isinf",
        float_def: "__device__ int hone_isinff(float x) {
    return fabsf(x) == __int_as_float(0x7f800000);
}
",
        double_def: "__device__ int hone_isinf(double x) {
    return fabs(x) == __longlong_as_double(0x7ff0000000000000ll);
}
",
    },
    Entry {
        float: "isfinite",
        double: "isfinite",
        float_def: "__device__ int hone_isfinitef(float x) {
    return fabsf(x) <= 3.40282347e38f;
}
",
        double_def: "__device__ int hone_isfinite(double x) {
    return fabs(x) <= 1.7976931348623157e308;
}
",
    },
    Entry {
        float: "signbit",
        double: "signbit",
        float_def: "__device__ int hone_signbitf(float x) {
    return (int)(__float_as_uint(x) >> 31);
}
",
        double_def: "__device__ int hone_signbit(double x) {
    return (int)((unsigned long long)__double_as_longlong(x) >> 63);
}
",
    },
    Entry {
        float: "__sad",
        double: "__sad",
        float_def: "__device__ unsigned int hone_sad(int x, int y, unsigned int z) {
    return (unsigned int)(x > y ? (long long)x - y : (long long)y - x) + z;
}
",
        double_def: "",
    },
    Entry {
        float: "__usad",
        double: "__usad",
        float_def: "__device__ unsigned int hone_usad(unsigned int x, unsigned int y, unsigned int z) {
    return (x > y ? x - y : y - x) + z;
}
",
        double_def: "",
    },
    Entry {
        float: "__hadd",
        double: "__hadd",
        float_def: "__device__ int hone_hadd(int x, int y) {
    return (int)(((long long)x + y) >> 1);
}
",
        double_def: "",
    },
    Entry {
        float: "__rhadd",
        double: "__rhadd",
        float_def: "__device__ int hone_rhadd(int x, int y) {
    return (int)(((long long)x + y + 1) >> 1);
}
",
        double_def: "",
    },
    Entry {
        float: "__uhadd",
        double: "__uhadd",
        float_def: "__device__ unsigned int hone_uhadd(unsigned int x, unsigned int y) {
    return (unsigned int)(((unsigned long long)x + y) >> 1);
}
",
        double_def: "",
    },
    Entry {
        float: "__urhadd",
        double: "__urhadd",
        float_def: "__device__ unsigned int hone_urhadd(unsigned int x, unsigned int y) {
    return (unsigned int)(((unsigned long long)x + y + 1) >> 1);
}
",
        double_def: "",
    },
    Entry {
        float: "__byte_perm",
        double: "__byte_perm",
        float_def: "__device__ unsigned int hone_byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned int r = 0;
    for (int k = 0; k < 4; k++) {
        unsigned int sel = (s >> (4 * k)) & 7u;
        r |= (unsigned int)((v >> (8 * sel)) & 255ull) << (8 * k);
    }
    return r;
}
",
        double_def: "",
    },
    // PTX's bit-field and logic instructions, for inline assembly
    // (`lower/asm.rs`).
    Entry {
        float: "hone_ptx_bfe_u32",
        double: "hone_ptx_bfe_u32",
        float_def: "__device__ unsigned int hone_ptx_bfe_u32(unsigned int a, unsigned int pos, unsigned int len) {
    pos = pos & 255u;
    len = len & 255u;
    if (len == 0u || pos >= 32u) {
        return 0u;
    }
    unsigned int v = a >> pos;
    return len >= 32u ? v : v & ((1u << len) - 1u);
}
",
        double_def: "",
    },
    Entry {
        float: "hone_ptx_bfe_s32",
        double: "hone_ptx_bfe_s32",
        float_def: "__device__ int hone_ptx_bfe_s32(int a, unsigned int pos, unsigned int len) {
    pos = pos & 255u;
    len = len & 255u;
    if (len == 0u) {
        return 0;
    }
    unsigned int top = pos + len - 1u > 31u ? 31u : pos + len - 1u;
    unsigned int sign = ((unsigned int)a >> top) & 1u;
    unsigned int r = 0u;
    for (unsigned int i = 0u; i < 32u; i++) {
        unsigned int bit = i < len && pos + i < 32u ? ((unsigned int)a >> (pos + i)) & 1u : sign;
        r = r | (bit << i);
    }
    return (int)r;
}
",
        double_def: "",
    },
    Entry {
        float: "hone_ptx_bfi_b32",
        double: "hone_ptx_bfi_b32",
        float_def: "__device__ unsigned int hone_ptx_bfi_b32(unsigned int f, unsigned int b, unsigned int pos, unsigned int len) {
    pos = pos & 255u;
    len = len & 255u;
    unsigned int r = b;
    for (unsigned int i = 0u; i < len && pos + i < 32u; i++) {
        r = (r & ~(1u << (pos + i))) | (((f >> i) & 1u) << (pos + i));
    }
    return r;
}
",
        double_def: "",
    },
    // `prmt.b32` in its default mode: a selector's fourth bit replicates
    // the selected byte's sign bit.
    Entry {
        float: "hone_ptx_prmt",
        double: "hone_ptx_prmt",
        float_def: "__device__ unsigned int hone_ptx_prmt(unsigned int x, unsigned int y, unsigned int s) {
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned int r = 0u;
    for (unsigned int k = 0u; k < 4u; k++) {
        unsigned int sel = (s >> (4u * k)) & 15u;
        unsigned int b = (unsigned int)((v >> (8u * (sel & 7u))) & 255ull);
        if ((sel & 8u) != 0u) {
            b = (b & 128u) != 0u ? 255u : 0u;
        }
        r = r | (b << (8u * k));
    }
    return r;
}
",
        double_def: "",
    },
    Entry {
        float: "hone_ptx_lop3",
        double: "hone_ptx_lop3",
        float_def: "__device__ unsigned int hone_ptx_lop3(unsigned int a, unsigned int b, unsigned int c, unsigned int lut) {
    unsigned int r = 0u;
    for (unsigned int k = 0u; k < 8u; k++) {
        if (((lut >> k) & 1u) != 0u) {
            r = r | (((k & 4u) != 0u ? a : ~a) & ((k & 2u) != 0u ? b : ~b) & ((k & 1u) != 0u ? c : ~c));
        }
    }
    return r;
}
",
        double_def: "",
    },
    Entry {
        float: "__funnelshift_l",
        double: "__funnelshift_l",
        float_def: "__device__ unsigned int hone_funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)((v << (shift & 31u)) >> 32);
}
",
        double_def: "",
    },
    Entry {
        float: "__funnelshift_lc",
        double: "__funnelshift_lc",
        float_def: "__device__ unsigned int hone_funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)((v << (shift < 32u ? shift : 32u)) >> 32);
}
",
        double_def: "",
    },
    Entry {
        float: "__funnelshift_r",
        double: "__funnelshift_r",
        float_def: "__device__ unsigned int hone_funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)(v >> (shift & 31u));
}
",
        double_def: "",
    },
    Entry {
        float: "__funnelshift_rc",
        double: "__funnelshift_rc",
        float_def: "__device__ unsigned int hone_funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)(v >> (shift < 32u ? shift : 32u));
}
",
        double_def: "",
    },
    Entry {
        float: "__nanosleep",
        double: "__nanosleep",
        float_def: "__device__ void hone_nanosleep(unsigned int ns) {
}
",
        double_def: "",
    },
    Entry {
        float: "__syncthreads_count",
        double: "__syncthreads_count",
        float_def: "__device__ int hone_syncthreads_count(int pred) {
    __shared__ int hone_votes;
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        hone_votes = 0;
    }
    __syncthreads();
    if (pred) {
        atomicAdd(&hone_votes, 1);
    }
    __syncthreads();
    int c = hone_votes;
    __syncthreads();
    return c;
}
",
        double_def: "",
    },
    Entry {
        float: "__syncthreads_or",
        double: "__syncthreads_or",
        float_def: "__device__ int hone_syncthreads_or(int pred) {
    return hone_syncthreads_count(pred) != 0;
}
",
        double_def: "",
    },
    Entry {
        float: "__syncthreads_and",
        double: "__syncthreads_and",
        float_def: "__device__ int hone_syncthreads_and(int pred) {
    return hone_syncthreads_count(!pred) == 0;
}
",
        double_def: "",
    },
    Entry {
        float: "__frcp_rn",
        double: "__frcp_rn",
        float_def: "__device__ float hone_frcp_rn(float x) {
    return 1.0f / x;
}
",
        double_def: "",
    },
    Entry {
        float: "__drcp_rn",
        double: "__drcp_rn",
        float_def: "__device__ double hone_drcp_rn(double x) {
    return 1.0 / x;
}
",
        double_def: "",
    },
    Entry {
        float: "__vabsdiffu4",
        double: "__vabsdiffu4",
        float_def: "__device__ unsigned int hone_vabsdiffu4(unsigned int a, unsigned int b) {
    unsigned int r = 0u;
    for (int k = 0; k < 4; k++) {
        unsigned int x = (a >> (8 * k)) & 255u;
        unsigned int y = (b >> (8 * k)) & 255u;
        r |= (x > y ? x - y : y - x) << (8 * k);
    }
    return r;
}
",
        double_def: "",
    },
    Entry {
        float: "__vsadu4",
        double: "__vsadu4",
        float_def: "__device__ unsigned int hone_vsadu4(unsigned int a, unsigned int b) {
    unsigned int r = 0u;
    for (int k = 0; k < 4; k++) {
        unsigned int x = (a >> (8 * k)) & 255u;
        unsigned int y = (b >> (8 * k)) & 255u;
        r += x > y ? x - y : y - x;
    }
    return r;
}
",
        double_def: "",
    },
];

/// CUDA's fast-math spellings of these functions.
const FAST: &[&str] = &["__sincosf"];

/// The definitions a translation unit needs appended: those of the
/// functions called in `root` (the tree of `src`), which it does not define.
pub(crate) fn needed(root: Node, src: &str) -> String {
    let mut called = HashSet::new();
    let mut defined = HashSet::new();
    syntax::walk(root, |n| {
        match n.kind() {
            "call_expression" => {
                if let Some(f) = n.child_by_field_name("function") {
                    match f.kind() {
                        "identifier" => {
                            called.insert(syntax::text(f, src));
                        }
                        // `std::isnan`
                        "qualified_identifier" => {
                            let t = syntax::text(f, src);
                            called.insert(t.rsplit("::").next().unwrap_or(t).trim());
                        }
                        _ => {}
                    }
                }
            }
            "function_declarator" => {
                if let Some(d) = n.child_by_field_name("declarator") {
                    defined.insert(syntax::text(d, src));
                }
            }
            _ => {}
        }
        true
    });
    let calls = |name: &str| {
        let fast = format!("__{name}");
        (called.contains(name) && !defined.contains(name))
            || (FAST.contains(&fast.as_str()) && called.contains(fast.as_str()))
            // `__syncthreads_or` and `__syncthreads_and` count the votes
            // (their entries come after the counting one).
            || (name == "__syncthreads_count"
                && ["__syncthreads_or", "__syncthreads_and"]
                    .iter()
                    .any(|v| called.contains(v) && !defined.contains(v)))
    };
    let mut out = String::new();
    for e in ENTRIES {
        let (f, d) = (calls(e.float), calls(e.double));
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
    // The fast intrinsic is the function itself to the emulator, as `__sinf` is `sinf`.
    let name = match name.strip_prefix("__") {
        Some(plain) if FAST.contains(&name) => plain,
        _ => name,
    };
    let e = ENTRIES
        .iter()
        .find(|e| e.float == name || e.double == name)?;
    // One spelling for both (`isnan`): the argument's type picks.
    let float = first == Some(Scalar::F32) || (name == e.float && name != e.double);
    let hone = |def: &'static str| {
        let start = def.find("hone_").unwrap_or(0);
        let end = def[start..].find('(').map_or(def.len(), |i| start + i);
        &def[start..end]
    };
    Some(if float || e.double_def.is_empty() {
        hone(e.float_def)
    } else {
        hone(e.double_def)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_is_called_is_appended() {
        let needed = |src: &str| {
            let tree = syntax::parse(src).expect("a tree");
            needed(tree.root_node(), src)
        };
        assert_eq!(
            needed("__device__ float f(float x) { return sinf(x); }"),
            ""
        );
        let f =
            needed("// frexp(x)\n__device__ float f(float x, int *e) { return frexpf (x, e); }");
        assert!(
            f.contains("hone_frexpf") && !f.contains("hone_frexp("),
            "{f}"
        );
        let own = "__device__ float frexpf(float x, int *e) { *e = 0; return x; }\n\
                   __device__ float f(float x, int *e) { return frexpf(x, e); }";
        assert_eq!(needed(own), "");
        let both = needed("__device__ double f(double d, int *e) { return frexp(d, e); }");
        assert!(
            both.contains("hone_frexpf") && both.contains("hone_frexp("),
            "{both}"
        );
        assert_eq!(callee("frexp", Some(Scalar::F32)), Some("hone_frexpf"));
        assert_eq!(callee("frexp", Some(Scalar::F64)), Some("hone_frexp"));
        assert_eq!(callee("sincosf", Some(Scalar::F64)), Some("hone_sincosf"));
        assert_eq!(callee("__sincosf", Some(Scalar::F32)), Some("hone_sincosf"));
        assert_eq!(callee("sinf", Some(Scalar::F32)), None);
        assert_eq!(callee("isnan", Some(Scalar::F32)), Some("hone_isnanf"));
        assert_eq!(callee("isnan", Some(Scalar::F64)), Some("hone_isnan"));
        assert_eq!(callee("isinf", Some(Scalar::I32)), Some("hone_isinf"));
        let or = needed("__global__ void k(int *o) { o[0] = __syncthreads_or(1); }");
        assert!(
            or.find("hone_syncthreads_count(").unwrap() < or.find("hone_syncthreads_or(").unwrap(),
            "{or}"
        );
    }
}
