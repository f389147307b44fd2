//! The CUDA source of one pass of a plan.
//!
//! A pass reads the data once from global memory and writes it once. Inside,
//! a *sweep* transforms lines of one length with a Stockham sequence of
//! stages (radix r, span Ns: butterfly j reads x[j + q N/r], twiddles by
//! exp(+-2 pi i q (j mod Ns) / (Ns r)) and writes
//! y[(j / Ns) Ns r + j mod Ns + q Ns]). The first stage reads global memory straight into registers
//! and the last writes global memory from registers, so a two-stage sweep
//! touches shared memory once. Between stages each thread reads all its
//! butterflies' inputs, the block synchronises, and it writes them back in
//! place: one buffer, no ping-pong.
//!
//! Two kinds of pass:
//! - a *line pass* transforms the lines along one axis; a block takes `T`
//!   lines that lie side by side in memory (consecutive lines of the
//!   contiguous axis, or consecutive elements of the inner axes for a
//!   strided one), so its loads are coalesced either way;
//! - a *plane pass* transforms axes 0 and 1 of one plane in one block,
//!   the plane held in shared memory;
//! - a *real pass* is the line pass along X of a real transform: a line of
//!   `2m` real values is read as `m` complex ones and transformed, and the
//!   `m + 1` outputs of the real transform are made from the line in shared
//!   memory (the inverse does the same backwards, before its sweep).

use std::fmt::Write as _;

use super::exact::{self, Dd};
use super::radix::{Emitter, COMPLEX_HELPERS};
use super::{Direction, Twiddle};
use crate::precision::Precision;

/// The elements a row of `n` grows by when it skips one after every 16.
///
/// A thread's first stage writes its butterfly's outputs `r` elements
/// apart, so with lanes walking one row the writes of 16 lanes fall on
/// `32 / r` banks of 8-byte elements or fewer; skipping one element every
/// 16 spreads them over all banks, and consecutive elements stay
/// conflict-free.
pub fn skew_extra(n: u32, skew: bool) -> u32 {
    if skew {
        n.div_ceil(16)
    } else {
        0
    }
}

/// The entry point of every pass kernel.
pub const ENTRY: &str = "fft_pass";

/// Where a sweep reads or writes: `{n}` in the address stands for the
/// element's position on the line.
#[derive(Debug, Clone)]
pub enum Access {
    /// `base[address]`, only where `live` holds (lines past the end of the
    /// data are computed on zeros and not written).
    Global {
        address: String,
        live: Option<String>,
    },
    Shared {
        address: String,
    },
}

impl Access {
    fn at(&self, n: &str) -> String {
        match self {
            Access::Global { address, .. } | Access::Shared { address } => {
                address.replace("{n}", &format!("({n})"))
            }
        }
    }

    fn shared(&self) -> bool {
        matches!(self, Access::Shared { .. })
    }
}

/// One sweep: lines of length `n` in `radices` stages, `threads` threads
/// per line; `p` is the thread's index on its line.
#[derive(Debug, Clone)]
pub struct Sweep {
    pub n: u32,
    pub radices: Vec<u32>,
    pub threads: u32,
    pub src: Access,
    pub dst: Access,
    /// Where the stages between the first and the last keep the lines.
    pub scratch: Access,
    /// What separates the first stage's reads from its writes when both
    /// are in shared memory: the block's barrier, or the cluster's when the
    /// first stage reads other blocks' memory and writes over its own.
    pub first_barrier: &'static str,
    /// Where this sweep's twiddles start in the pass's table.
    pub table_offset: usize,
}

const BLOCK_BARRIER: &str = "__syncthreads();";
const CLUSTER_BARRIER: &str = "__cluster_barrier_arrive(); __cluster_barrier_wait();";

/// A line's element `n` in shared memory, row by row (`SROW` is defined
/// by the kernel around the sweep).
fn shared_rows() -> Access {
    Access::Shared {
        address: "sm[SROW({n})]".into(),
    }
}

/// The twiddles of a sweep's stages as a table, forward direction:
/// stage s (span Ns > 1, radix r) holds exp(-2 pi i q k / (Ns r)) at
/// k (r - 1) + q - 1; with powers, only q = 1, at k; with corrected
/// powers, w = exp(-2 pi i k / (Ns r)) at 2 k, rounded from its
/// double-double value (to double, then by the upload to `precision`), and
/// its relative rounding error in `precision`, (w - fl(w)) / fl(w), at
/// 2 k + 1.
pub fn twiddle_table(radices: &[u32], twiddle: Twiddle, precision: Precision) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut ns = 1u64;
    for &r in radices {
        if ns > 1 {
            let qs = if twiddle.powers() { 2 } else { r as u64 };
            for k in 0..ns {
                for q in 1..qs {
                    let (re, im) = exact::twiddle(q * k, ns * r as u64);
                    out.push((re.hi, im.hi));
                    if twiddle == Twiddle::CorrectedPowers {
                        out.push(rounding_correction(re, im, precision));
                    }
                }
            }
        }
        ns *= r as u64;
    }
    out
}

/// c with w = fl(w) (1 + c), w = re + i im to double-double accuracy and fl
/// rounding to `precision`.
fn rounding_correction(re: Dd, im: Dd, precision: Precision) -> (f64, f64) {
    let round = |x: f64| match precision {
        Precision::Single => x as f32 as f64,
        Precision::Double => x,
    };
    let (fx, fy) = (round(re.hi), round(im.hi));
    let (dx, dy) = ((re.hi - fx) + re.lo, (im.hi - fy) + im.lo);
    // (dx + i dy) / (fx + i fy).
    let m = fx * fx + fy * fy;
    ((dx * fx + dy * fy) / m, (dy * fx - dx * fy) / m)
}

impl Sweep {
    /// The number of table entries the sweep's twiddles take (the same in
    /// every precision).
    pub fn table_len(&self, twiddle: Twiddle) -> usize {
        twiddle_table(&self.radices, twiddle, Precision::Double).len()
    }

    fn emit(&self, code: &mut String, direction: Direction, twiddle: Twiddle, indent: &str) {
        let n = self.n;
        let p_count = self.threads;
        let mut ns = 1u32;
        let mut table = self.table_offset;
        let last = self.radices.len() - 1;
        for (s, &r) in self.radices.iter().enumerate() {
            let nr = n / r;
            let b_count = nr.div_ceil(p_count);
            let guard = b_count * p_count != nr;
            let src = if s == 0 {
                self.src.clone()
            } else {
                self.scratch.clone()
            };
            let dst = if s == last {
                self.dst.clone()
            } else {
                self.scratch.clone()
            };
            let i = indent;
            let _ = writeln!(code, "{i}{{ // stage {s}: radix {r}, span {ns}");
            let _ = writeln!(code, "{i}  cplx v[{b_count}][{r}];");
            let _ = writeln!(code, "{i}  #pragma unroll");
            let _ = writeln!(code, "{i}  for (int b = 0; b < {b_count}; ++b) {{");
            let _ = writeln!(code, "{i}    const int j = p + b * {p_count};");
            if guard {
                let _ = writeln!(code, "{i}    if (j < {nr}) {{");
            } else {
                let _ = writeln!(code, "{i}    {{");
            }
            let _ = writeln!(code, "{i}      const int k = j % {ns};");
            let _ = writeln!(code, "{i}      (void)k;");
            for q in 0..r {
                let at = src.at(&format!("j + {}", q * nr));
                let load = match &src {
                    Access::Global {
                        live: Some(live), ..
                    } => format!("({live}) ? {at} : mk(0, 0)"),
                    _ => at,
                };
                let _ = writeln!(code, "{i}      v[b][{q}] = {load};");
            }
            if ns > 1 {
                if twiddle.powers() {
                    // The first twiddle's load, the product forming each
                    // next power, a power as the butterfly applies it
                    // (`{q}` its exponent), and table entries per butterfly.
                    let (first, product, applied, entries) = match twiddle {
                        Twiddle::WidePowers => (
                            format!(
                                "const double2 w1 = twiddle_wide(tw, {table} + k);\n\
                                 {i}      double2 wq = w1;"
                            ),
                            "dcmul",
                            "mk((real)wq.x, (real)wq.y)",
                            1,
                        ),
                        Twiddle::CorrectedPowers => (
                            format!(
                                "const cplx w1 = twiddle_table(tw, {table} + 2 * k);\n\
                                 {i}      const cplx c1 = twiddle_table(tw, {table} + 2 * k + 1);\n\
                                 {i}      cplx wq = w1;"
                            ),
                            "cmul",
                            "corrected(wq, c1, {q})",
                            2,
                        ),
                        _ => (
                            format!(
                                "const cplx w1 = twiddle_table(tw, {table} + k);\n\
                                 {i}      cplx wq = w1;"
                            ),
                            "cmul",
                            "wq",
                            1,
                        ),
                    };
                    let _ = writeln!(code, "{i}      {first}");
                    for q in 1..r {
                        if q > 1 {
                            let _ = writeln!(code, "{i}      wq = {product}(wq, w1);");
                        }
                        let w = applied.replace("{q}", &q.to_string());
                        let _ = writeln!(code, "{i}      v[b][{q}] = cmul(v[b][{q}], {w});");
                    }
                    table += entries * ns as usize;
                } else {
                    for q in 1..r {
                        let w = if twiddle == Twiddle::Computed {
                            format!("twiddle_computed({q} * k, {})", ns * r)
                        } else {
                            format!("twiddle_table(tw, {table} + k * {} + {})", r - 1, q - 1)
                        };
                        let _ = writeln!(code, "{i}      v[b][{q}] = cmul(v[b][{q}], {w});");
                    }
                    table += (ns * (r - 1)) as usize;
                }
            }
            let mut e = Emitter::new(direction.sign(), &format!("{i}      "));
            let names: Vec<String> = (0..r).map(|q| format!("v[b][{q}]")).collect();
            let outs = e.dft(&names);
            code.push_str(&e.code);
            for (q, o) in outs.iter().enumerate() {
                if *o != names[q] {
                    let _ = writeln!(code, "{i}      v[b][{q}] = {o};");
                }
            }
            let _ = writeln!(code, "{i}    }}");
            let _ = writeln!(code, "{i}  }}");
            if src.shared() && dst.shared() {
                let barrier = if s == 0 {
                    self.first_barrier
                } else {
                    BLOCK_BARRIER
                };
                let _ = writeln!(code, "{i}  {barrier}");
            }
            let _ = writeln!(code, "{i}  #pragma unroll");
            let _ = writeln!(code, "{i}  for (int b = 0; b < {b_count}; ++b) {{");
            let _ = writeln!(code, "{i}    const int j = p + b * {p_count};");
            let cond = match (&dst, guard) {
                (
                    Access::Global {
                        live: Some(live), ..
                    },
                    true,
                ) => format!("j < {nr} && ({live})"),
                (
                    Access::Global {
                        live: Some(live), ..
                    },
                    false,
                ) => live.clone(),
                (_, true) => format!("j < {nr}"),
                (_, false) => "true".into(),
            };
            let _ = writeln!(code, "{i}    if ({cond}) {{");
            let _ = writeln!(
                code,
                "{i}      const int o = (j / {ns}) * {} + j % {ns};",
                ns * r
            );
            for q in 0..r {
                let at = dst.at(&format!("o + {}", q * ns));
                let _ = writeln!(code, "{i}      {at} = v[b][{q}];");
            }
            let _ = writeln!(code, "{i}    }}");
            let _ = writeln!(code, "{i}  }}");
            if dst.shared() {
                let _ = writeln!(code, "{i}  __syncthreads();");
            }
            let _ = writeln!(code, "{i}}}");
            ns *= r;
        }
    }
}

/// The preamble every pass shares: element types, complex helpers,
/// twiddles.
fn preamble(precision: Precision, direction: Direction) -> String {
    let (real, cplx, sincospi) = match precision {
        Precision::Single => ("float", "float2", "sincospif"),
        Precision::Double => ("double", "double2", "sincospi"),
    };
    let sign = direction.sign();
    format!(
        "typedef {real} real;\ntypedef {cplx} cplx;\n{COMPLEX_HELPERS}\n\
         // exp(sign 2 pi i e / m), computed.\n\
         __device__ __forceinline__ cplx twiddle_computed(int e, int m) {{\n\
         \x20 real s, c;\n\
         \x20 {sincospi}((real)(2 * e) / (real)m, &s, &c);\n\
         \x20 return mk(c, {sign} * s);\n\
         }}\n\
         // The table holds the forward twiddles; the inverse conjugates them.\n\
         __device__ __forceinline__ cplx twiddle_table(const cplx* __restrict__ tw, int i) {{\n\
         \x20 const cplx w = __ldg(&tw[i]);\n\
         \x20 return mk(w.x, {sign_neg} * w.y);\n\
         }}\n\
         // A table of double-precision twiddles, whatever the transform's.\n\
         __device__ __forceinline__ double2 twiddle_wide(const double2* __restrict__ tw, int i) {{\n\
         \x20 double2 w = __ldg(&tw[i]);\n\
         \x20 w.y = {sign_neg} * w.y;\n\
         \x20 return w;\n\
         }}\n\
         // p (1 + q c): a power p of a rounded twiddle, corrected to first\n\
         // order by the twiddle's relative rounding c.\n\
         __device__ __forceinline__ cplx corrected(cplx p, cplx c, int q) {{\n\
         \x20 const cplx t = cmul(p, c);\n\
         \x20 return mk(fma((real)q, t.x, p.x), fma((real)q, t.y, p.y));\n\
         }}\n\
         __device__ __forceinline__ double2 dcmul(double2 a, double2 w) {{\n\
         \x20 double2 c;\n\
         \x20 c.x = fma(a.x, w.x, -a.y * w.y);\n\
         \x20 c.y = fma(a.x, w.y, a.y * w.x);\n\
         \x20 return c;\n\
         }}\n",
        sign_neg = -sign
    )
}

/// A pass over the lines of one axis. Element `n` of line `(o, i)` is at
/// `o n_len stride + n stride + i`, `i < stride`, `o < outer`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LinePass {
    pub n: u32,
    pub radices: Vec<u32>,
    pub stride: u64,
    pub outer: u64,
    /// Lines per block.
    pub lines: u32,
    /// Threads per line.
    pub threads: u32,
    /// Padding of each line's row in shared memory, in elements.
    pub pad: u32,
    /// Rows of a contiguous line pass skip one element after every 16
    /// ([`skew_extra`]).
    pub skew: bool,
    /// A strided pass's layout in shared memory: 0 a row per line, 1 the
    /// lines interleaved, 2 interleaved with positions swapped in pairs
    /// (the plan's `Ia`).
    pub interleave: u32,
}

impl LinePass {
    /// The elements a line's row takes in shared memory.
    pub fn row(&self) -> u32 {
        self.n + self.pad + skew_extra(self.n, self.skew)
    }
}

/// A pass over axes 0 and 1 of `planes` planes of `n0 x n1` elements, one
/// plane per cluster of `cluster` blocks (1: one block). Each block of a
/// cluster holds `n1 / cluster` rows of the plane in its shared memory and
/// transforms them along X; after a cluster barrier it transforms
/// `n0 / cluster` columns along Y, reading and writing the rows where they
/// are, in the blocks' distributed shared memory.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlanePass {
    pub n0: u32,
    pub n1: u32,
    pub radices0: Vec<u32>,
    pub radices1: Vec<u32>,
    pub planes: u64,
    /// Threads per block; a multiple of both a block's rows and columns.
    pub threads: u32,
    pub pad: u32,
    /// The rows skip one element after every 16 ([`skew_extra`]).
    pub skew: bool,
    pub cluster: u32,
    /// `__launch_bounds__`'s minimum blocks per SM (0: none).
    pub min_blocks: u32,
}

impl PlanePass {
    /// Rows of the plane per block.
    pub fn rows(&self) -> u32 {
        self.n1 / self.cluster
    }

    /// Columns of the plane per block in the Y sweep.
    pub fn columns(&self) -> u32 {
        self.n0 / self.cluster
    }

    /// The elements a row takes in shared memory.
    pub fn row(&self) -> u32 {
        self.n0 + self.pad + skew_extra(self.n0, self.skew)
    }
}

/// The X pass of a real transform: `outer` lines of `2 m` real values
/// (read as `m` complex ones, a line after another) and of `m + 1` complex
/// values of the spectrum. Forward, a block transforms `lines` lines of `m`
/// and then splits each into the real transform's outputs:
/// `X[k] = E[k] + W^k O[k]` with `E = (Z[k] + conj Z[m-k]) / 2`,
/// `O = (Z[k] - conj Z[m-k]) / 2i` and `W = exp(-2 pi i / 2m)`. Inverse, it
/// first forms `Z[k] = (X[k] + conj X[m-k]) + i W^-k (X[k] - conj X[m-k])`
/// and transforms that, whose outputs are the real values two by two.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RealPass {
    /// Complex elements of a line: half the real length.
    pub m: u32,
    pub radices: Vec<u32>,
    pub outer: u64,
    pub lines: u32,
    pub threads: u32,
    pub pad: u32,
    /// The rows skip one element after every 16 ([`skew_extra`]).
    pub skew: bool,
}

impl RealPass {
    /// The elements a line's row takes in shared memory: the spectrum's
    /// `m + 1`, padding and skew.
    pub fn row(&self) -> u32 {
        self.m + 1 + self.pad + skew_extra(self.m + 1, self.skew)
    }
}

/// Either kind, with what every pass has.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PassShape {
    Line(LinePass),
    Plane(PlanePass),
    Real(RealPass),
}

/// One kernel of a plan, ready to generate.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PassKernel {
    pub precision: Precision,
    pub direction: Direction,
    pub twiddle: Twiddle,
    pub shape: PassShape,
}

impl PassKernel {
    /// Threads per block.
    pub fn block(&self) -> u32 {
        match &self.shape {
            PassShape::Line(l) => l.lines * l.threads,
            PassShape::Plane(p) => p.threads,
            PassShape::Real(r) => r.lines * r.threads,
        }
    }

    /// Blocks in the grid.
    pub fn grid(&self) -> u64 {
        match &self.shape {
            PassShape::Line(l) if l.stride == 1 => l.outer.div_ceil(l.lines as u64),
            PassShape::Line(l) => l.outer * l.stride.div_ceil(l.lines as u64),
            PassShape::Plane(p) => p.planes * p.cluster as u64,
            PassShape::Real(r) => r.outer.div_ceil(r.lines as u64),
        }
    }

    /// Blocks per cluster (1: no cluster).
    pub fn cluster(&self) -> u32 {
        match &self.shape {
            PassShape::Plane(p) => p.cluster,
            PassShape::Line(_) | PassShape::Real(_) => 1,
        }
    }

    /// Dynamic shared memory in bytes (0 when no stage uses it).
    pub fn shared_bytes(&self) -> u64 {
        let elem = 2 * self.precision.size() as u64;
        match &self.shape {
            PassShape::Line(l) if l.radices.len() < 2 => 0,
            PassShape::Line(l) => l.lines as u64 * l.row() as u64 * elem,
            // The line is split (or formed) in shared memory.
            PassShape::Real(r) => r.lines as u64 * r.row() as u64 * elem,
            PassShape::Plane(p) => {
                let rows = p.rows() as u64 * p.row() as u64;
                let columns = if p.cluster > 1 {
                    p.columns() as u64 * (p.n1 + p.pad) as u64
                } else {
                    0
                };
                rows.max(columns) * elem
            }
        }
    }

    fn sweeps(&self) -> Vec<Sweep> {
        match &self.shape {
            PassShape::Line(l) => {
                let live = if l.stride == 1 {
                    (l.outer % l.lines as u64 != 0).then(|| format!("line0 + t < {}ULL", l.outer))
                } else {
                    (l.stride % l.lines as u64 != 0).then(|| format!("i0 + t < {}ULL", l.stride))
                };
                let address = if l.stride == 1 {
                    "{buf}[base + {n}]".to_string()
                } else {
                    format!("{{buf}}[base + (long long){{n}} * {}LL]", l.stride)
                };
                vec![Sweep {
                    n: l.n,
                    radices: l.radices.clone(),
                    threads: l.threads,
                    src: Access::Global {
                        address: address.replace("{buf}", "in"),
                        live: live.clone(),
                    },
                    dst: Access::Global {
                        address: address.replace("{buf}", "out"),
                        live,
                    },
                    scratch: shared_rows(),
                    first_barrier: BLOCK_BARRIER,
                    table_offset: 0,
                }]
            }
            PassShape::Real(r) => {
                let live =
                    (r.outer % r.lines as u64 != 0).then(|| format!("line0 + t < {}ULL", r.outer));
                let global = |buf: &str| Access::Global {
                    address: format!("{buf}[base + {{n}}]"),
                    live: live.clone(),
                };
                let (src, dst) = match self.direction {
                    Direction::Forward => (global("in"), shared_rows()),
                    Direction::Inverse => (shared_rows(), global("out")),
                };
                vec![Sweep {
                    n: r.m,
                    radices: r.radices.clone(),
                    threads: r.threads,
                    src,
                    dst,
                    scratch: shared_rows(),
                    first_barrier: BLOCK_BARRIER,
                    table_offset: 0,
                }]
            }
            PassShape::Plane(p) => {
                let a = Sweep {
                    n: p.n0,
                    radices: p.radices0.clone(),
                    threads: p.threads / p.rows(),
                    src: Access::Global {
                        address: format!(
                            "in[base + (long long)(rank * {} + t) * {} + {{n}}]",
                            p.rows(),
                            p.n0
                        ),
                        live: None,
                    },
                    dst: Access::Shared {
                        address: format!("sm[t * {} + SKEW({{n}})]", p.row()),
                    },
                    scratch: shared_rows(),
                    first_barrier: BLOCK_BARRIER,
                    table_offset: 0,
                };
                let b = Sweep {
                    n: p.n1,
                    radices: p.radices1.clone(),
                    threads: p.threads / p.columns(),
                    src: Access::Shared {
                        address: "COL({n})".to_string(),
                    },
                    dst: Access::Global {
                        address: format!("out[base + (long long){{n}} * {} + x]", p.n0),
                        live: None,
                    },
                    // In a cluster the first stage reads every block's rows,
                    // and once the whole cluster has read, each block keeps
                    // its own columns in its own memory, column by column.
                    scratch: Access::Shared {
                        address: if p.cluster > 1 {
                            format!("sm[t * {} + {{n}}]", p.n1 + p.pad)
                        } else {
                            "COL({n})".to_string()
                        },
                    },
                    first_barrier: if p.cluster > 1 {
                        CLUSTER_BARRIER
                    } else {
                        BLOCK_BARRIER
                    },
                    table_offset: a.table_len(self.twiddle),
                };
                vec![a, b]
            }
        }
    }

    /// The forward twiddles of every sweep, in the order the kernel reads
    /// them (uploaded as the kernel's table unless they are computed).
    pub fn table(&self) -> Vec<(f64, f64)> {
        self.sweeps()
            .iter()
            .flat_map(|s| twiddle_table(&s.radices, self.twiddle, self.precision))
            .collect()
    }

    /// The precision the table is uploaded in: double for wide powers,
    /// otherwise the transform's.
    pub fn table_precision(&self) -> Precision {
        if self.twiddle == Twiddle::WidePowers {
            Precision::Double
        } else {
            self.precision
        }
    }

    /// The kernel's CUDA source; its entry is [`ENTRY`]`(in, out, tw)`.
    pub fn source(&self) -> String {
        let mut code = preamble(self.precision, self.direction);
        if let PassShape::Real(r) = &self.shape {
            // Z[k] = (a + conj b) + i W^-k (a - conj b), a = X[k], b = X[m - k].
            let _ = writeln!(
                code,
                "__device__ __forceinline__ cplx c2r_pair(cplx a, cplx b, int k) {{\n  \
                 const cplx d = mk(a.x - b.x, a.y + b.y);\n  \
                 const cplx wd = cmul(twiddle_computed(k, {}), d);\n  \
                 return mk(a.x + b.x - wd.y, a.y - b.y + wd.x);\n}}",
                2 * r.m
            );
        }
        let block = self.block();
        let bounds = match &self.shape {
            PassShape::Plane(p) if p.min_blocks > 0 => format!("{block}, {}", p.min_blocks),
            _ => block.to_string(),
        };
        let cluster = match self.cluster() {
            1 => String::new(),
            c => format!(" __cluster_dims__({c}, 1, 1)"),
        };
        let tw_type = match self.table_precision() {
            Precision::Double => "double2",
            Precision::Single => "float2",
        };
        let _ = writeln!(
            code,
            "extern \"C\" __global__ void __launch_bounds__({bounds}){cluster} {ENTRY}(\
             const cplx* __restrict__ in, cplx* __restrict__ out, const {tw_type}* __restrict__ tw) {{"
        );
        let skew = match &self.shape {
            PassShape::Line(l) => l.skew,
            PassShape::Plane(p) => p.skew,
            PassShape::Real(r) => r.skew,
        };
        code.push_str(if skew {
            "#define SKEW(n) ((n) + ((n) >> 4))\n"
        } else {
            "#define SKEW(n) (n)\n"
        });
        code.push_str("  extern __shared__ cplx sm[];\n  (void)tw; (void)sm;\n");
        code.push_str("  const int tid = threadIdx.x;\n");
        let sweeps = self.sweeps();
        match &self.shape {
            PassShape::Line(l) => {
                let rowlen = l.row();
                if l.stride == 1 {
                    let _ = writeln!(
                        code,
                        "  const int p = tid % {tp};\n  const int t = tid / {tp};\n  \
                         const unsigned long long line0 = (unsigned long long)blockIdx.x * {lines};\n  \
                         (void)line0;\n  \
                         const long long base = (long long)(line0 + t) * {n};",
                        tp = l.threads,
                        lines = l.lines,
                        n = l.n
                    );
                } else {
                    let chunks = l.stride.div_ceil(l.lines as u64);
                    let _ = writeln!(
                        code,
                        "  const int t = tid % {lines};\n  const int p = tid / {lines};\n  \
                         const unsigned long long o = blockIdx.x / {chunks}ULL;\n  \
                         const unsigned long long i0 = (blockIdx.x % {chunks}ULL) * {lines};\n  \
                         (void)i0;\n  \
                         const long long base = (long long)o * {span}LL + (long long)(i0 + t);",
                        lines = l.lines,
                        span = l.n as u64 * l.stride
                    );
                }
                let srow = match l.interleave {
                    0 => format!("(t * {rowlen} + SKEW(n))"),
                    1 => format!("((n) * {} + t)", l.lines),
                    _ => format!("((((n) & ~1) | (__popc(n) & 1)) * {} + t)", l.lines),
                };
                let _ = writeln!(code, "#define SROW(n) {srow}");
                sweeps[0].emit(&mut code, self.direction, self.twiddle, "  ");
                code.push_str("#undef SROW\n");
            }
            PassShape::Real(r) => self.real_body(r, &sweeps[0], &mut code),
            PassShape::Plane(p) => {
                let c = p.cluster;
                let rank = if c > 1 {
                    "__clusterRelativeBlockRank()"
                } else {
                    "0"
                };
                let _ = writeln!(
                    code,
                    "  const int rank = {rank};\n  (void)rank;\n  \
                     const long long base = (long long)(blockIdx.x / {c}) * {};",
                    p.n0 as u64 * p.n1 as u64
                );
                let row = p.row();
                let rows = p.rows();
                // Sweep A: this block's rows (axis 0), p fastest.
                let _ = writeln!(
                    code,
                    "  {{\n    const int p = tid % {tp};\n    const int t = tid / {tp};\n\
                     #define SROW(n) (t * {row} + SKEW(n))",
                    tp = p.threads / rows
                );
                sweeps[0].emit(&mut code, self.direction, self.twiddle, "    ");
                code.push_str("#undef SROW\n  }\n");
                if c > 1 {
                    // Every block's rows are transformed before any column is read.
                    code.push_str("  __cluster_barrier_arrive();\n  __cluster_barrier_wait();\n");
                }
                // Sweep B: this block's columns (axis 1), t fastest; element
                // n of a column is in the block holding row n.
                let col = if c > 1 {
                    format!(
                        "(((cplx*)__cluster_map_shared_rank((void*)sm, (n) / {rows}))\
                         [((n) % {rows}) * {row} + SKEW(x)])"
                    )
                } else {
                    format!("sm[(n) * {row} + SKEW(x)]")
                };
                let _ = writeln!(
                    code,
                    "  {{\n    const int t = tid % {cols};\n    const int p = tid / {cols};\n    \
                     const int x = rank * {cols} + t;\n\
                     #define COL(n) {col}",
                    cols = p.columns()
                );
                sweeps[1].emit(&mut code, self.direction, self.twiddle, "    ");
                code.push_str("#undef COL\n  }\n");
                if c > 1 && p.radices1.len() == 1 {
                    // No block leaves while another may still read its rows.
                    code.push_str("  __cluster_barrier_arrive();\n  __cluster_barrier_wait();\n");
                }
            }
        }
        code.push_str("}\n");
        code
    }

    /// The body of a real pass: the sweep of the lines of `m`, and the split
    /// into (forward) or the forming from (inverse) the spectrum's `m + 1`
    /// elements a line.
    fn real_body(&self, r: &RealPass, sweep: &Sweep, code: &mut String) {
        let m = r.m;
        let real_len = 2 * m;
        let _ = writeln!(
            code,
            "  const int p = tid % {tp};\n  const int t = tid / {tp};\n  \
             const unsigned long long line0 = (unsigned long long)blockIdx.x * {lines};\n  \
             const bool live = line0 + t < {outer}ULL;\n  (void)live;\n  \
             const long long base = (long long)(line0 + t) * {m};\n  \
             const long long sbase = (long long)(line0 + t) * {m1};\n  (void)sbase;",
            tp = r.threads,
            lines = r.lines,
            outer = r.outer,
            m1 = m + 1
        );
        let _ = writeln!(code, "#define SROW(n) (t * {} + SKEW(n))", r.row());
        // A line of one complex element has no stage: it is its own transform.
        let copy = |code: &mut String, from: &str, to: &str| {
            let _ = writeln!(
                code,
                "  for (int j = p; j < 1; j += {}) {{ if (live) {to} = {from}; }}\n  __syncthreads();",
                r.threads
            );
        };
        match self.direction {
            Direction::Forward => {
                if r.radices.is_empty() {
                    copy(code, "in[base + j]", "sm[SROW(j)]");
                } else {
                    sweep.emit(code, self.direction, self.twiddle, "  ");
                }
                let _ = writeln!(
                    code,
                    "  if (live) {{\n    for (int k = p; k <= {m}; k += {tp}) {{\n      \
                     const cplx a = sm[SROW(k % {m})];\n      \
                     const cplx b = sm[SROW(({m} - k) % {m})];\n      \
                     const cplx e = mk((real)0.5 * (a.x + b.x), (real)0.5 * (a.y - b.y));\n      \
                     const cplx o = mk((real)0.5 * (a.y + b.y), (real)-0.5 * (a.x - b.x));\n      \
                     const cplx w = twiddle_computed(k, {real_len});\n      \
                     const cplx wo = cmul(w, o);\n      \
                     out[sbase + k] = mk(e.x + wo.x, e.y + wo.y);\n    }}\n  }}",
                    tp = r.threads
                );
            }
            Direction::Inverse => {
                // The line's m + 1 elements come to shared memory in one
                // coalesced read; each thread then forms the pair k, m - k
                // from the same two elements, in place.
                let _ = writeln!(
                    code,
                    "  if (live) {{\n    for (int k = p; k <= {m}; k += {tp}) sm[SROW(k)] = in[sbase + k];\n  }}\n  \
                     __syncthreads();\n  \
                     for (int k = p; 2 * k <= {m}; k += {tp}) {{\n    \
                     const cplx a = sm[SROW(k)];\n    \
                     const cplx b = sm[SROW({m} - k)];\n    \
                     sm[SROW(k)] = c2r_pair(a, b, k);\n    \
                     if (k > 0 && 2 * k < {m}) sm[SROW({m} - k)] = c2r_pair(b, a, {m} - k);\n  }}\n  \
                     __syncthreads();",
                    tp = r.threads
                );
                if r.radices.is_empty() {
                    copy(code, "sm[SROW(j)]", "out[base + j]");
                } else {
                    sweep.emit(code, self.direction, self.twiddle, "  ");
                }
            }
        }
        code.push_str("#undef SROW\n");
    }
}
