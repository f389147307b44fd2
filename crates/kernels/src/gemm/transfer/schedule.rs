//! The order in which a host-to-host GEMM moves and computes its blocks, as
//! a plan that the pipeline enqueues, a CPU test replays, and a timeline
//! model predicts.
//!
//! Column panels alone (A up whole, then B and C panel by panel) leave the
//! GPU idle while A goes up: at N = 12288 that is 22 ms on a 55 GB/s link,
//! against a product of 68 ms on an H200 (100 ms on an H100). Above the
//! crossover a plan therefore starts with a
//! *head*: the first `head` columns of A and rows of B go up in slices, and
//! each slice is applied to the whole of C as a rank update while the next
//! one crosses the link. The rest of A follows, then the column panels of
//! the rest of B, each finished with one product and sent back, so C comes
//! home panel by panel as before. The head is sized so that its updates
//! last as long as the rest of A takes to go up ([`Schedule::choose`]).
//!
//! A rank update of small depth runs below the kernel's full rate, and the
//! GPU waits for the first slice: slices that double in depth keep the
//! wait short and the later updates deep. Each update computes about
//! n B / (elem F) times as long as its slice takes to go up (2 above
//! twice the crossover), so the next, twice as deep, is on the device
//! before the GPU needs it.

use std::ops::Range;

/// Which host matrix a copy moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matrix {
    A,
    B,
    C,
}

/// One enqueued operation on N x N column-major matrices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The block `rows` x `cols` of a matrix goes up (one 2-D copy).
    Upload {
        matrix: Matrix,
        rows: Range<usize>,
        cols: Range<usize>,
    },
    /// C[:, cols] = alpha A[:, ks] B[ks, cols] + beta' C[:, cols], where
    /// beta' is the caller's beta for the first product into these columns
    /// (`first`; C is not read when beta = 0) and 1 for later ones.
    Gemm {
        ks: Range<usize>,
        cols: Range<usize>,
        first: bool,
    },
    /// C[:, cols] comes back.
    Download { cols: Range<usize> },
}

/// The shape of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Schedule {
    /// Columns of A (rows of B) applied to the whole of C first, as rank
    /// updates; 0 for column panels alone.
    pub head: usize,
    /// Rank updates the head is split into.
    pub head_steps: usize,
    /// Each slice of the head twice as deep as the one before (else equal).
    pub doubling: bool,
    /// Column panels of the rest.
    pub panels: usize,
}

impl std::fmt::Display for Schedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.head == 0 {
            write!(f, "{} panels", self.panels)
        } else {
            write!(
                f,
                "head {} in {} {}updates, {} panels",
                self.head,
                self.head_steps,
                if self.doubling { "doubling " } else { "" },
                self.panels
            )
        }
    }
}

/// `r` cut into `parts` ranges, each twice as long as the one before (the
/// last takes what rounding leaves; none empty).
fn doubling(r: Range<usize>, parts: usize) -> Vec<Range<usize>> {
    let len = r.end - r.start;
    let parts = parts.clamp(1, 30);
    let unit = len as f64 / ((1u64 << parts) - 1) as f64;
    let mut out = Vec::new();
    let mut at = r.start;
    for j in 0..parts {
        let end = if j + 1 == parts {
            r.end
        } else {
            (r.start + (unit * ((1u64 << (j + 1)) - 1) as f64).round() as usize).min(r.end)
        };
        if end > at {
            out.push(at..end);
            at = end;
        }
    }
    out
}

/// Depth boundaries of a large plan fall on multiples of this many
/// elements: a slice of B starting elsewhere is not aligned for the
/// kernels' vector loads, and the library call falls back to element loads
/// (measured on an H200 at N = 8192: 40 ms with slices of 1365 columns
/// against 32 ms with slices of 1024).
pub const DEPTH_ALIGN: usize = 128;

/// The depth alignment of an N x N x N plan: small problems keep exact
/// splits.
fn alignment(n: usize) -> usize {
    if n >= 16 * DEPTH_ALIGN {
        DEPTH_ALIGN
    } else {
        1
    }
}

/// `ranges`' boundaries rounded to multiples of `g` (the first start and the
/// last end kept), empty ranges dropped.
fn aligned(ranges: Vec<Range<usize>>, g: usize) -> Vec<Range<usize>> {
    let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else {
        return ranges;
    };
    let (lo, hi) = (first.start, last.end);
    let round = |x: usize| {
        if x == lo || x == hi {
            x
        } else {
            ((x + g / 2) / g * g).clamp(lo, hi)
        }
    };
    ranges
        .iter()
        .map(|r| round(r.start)..round(r.end))
        .filter(|r| r.end > r.start)
        .collect()
}

/// `r` cut into `parts` ranges as equal as possible (none empty).
fn split(r: Range<usize>, parts: usize) -> Vec<Range<usize>> {
    let len = r.end - r.start;
    let parts = parts.clamp(1, len.max(1));
    (0..parts)
        .map(|j| r.start + j * len / parts..r.start + (j + 1) * len / parts)
        .filter(|q| q.end > q.start)
        .collect()
}

impl Schedule {
    /// Column panels alone, the plan below the crossover.
    pub fn panels(panels: usize) -> Schedule {
        Schedule {
            head: 0,
            head_steps: 1,
            doubling: false,
            panels,
        }
    }

    /// A head of `head` columns in `head_steps` updates, equal or doubling,
    /// then `panels` column panels.
    pub fn with_head(head: usize, head_steps: usize, doubling: bool, panels: usize) -> Schedule {
        Schedule {
            head,
            head_steps,
            doubling,
            panels,
        }
    }

    /// The steps of an N x N x N product. A head needs C not to be read
    /// (beta = 0): with beta != 0 all of C would have to go up before the
    /// first update, so the plan keeps to column panels.
    pub fn plan(&self, n: usize, reads_c: bool) -> Vec<Step> {
        self.plan_aligned(n, reads_c, alignment(n))
    }

    /// The schedule as [`Schedule::plan`] runs it on an N x N x N product:
    /// the head rounded to the depth alignment (none where C is read), its
    /// updates and the panels as many as the plan makes.
    pub fn as_run(&self, n: usize, reads_c: bool) -> Schedule {
        let slices = self.head_slices(n, reads_c, alignment(n));
        Schedule {
            head: slices.last().map_or(0, |r| r.end),
            head_steps: slices.len().max(1),
            doubling: self.doubling && slices.len() > 1,
            panels: split(0..n, self.panels).len(),
        }
    }

    /// The depth ranges of the head's rank updates.
    fn head_slices(&self, n: usize, reads_c: bool, g: usize) -> Vec<Range<usize>> {
        let head = if reads_c {
            0
        } else {
            ((self.head.min(n) + g / 2) / g * g).min(n)
        };
        aligned(
            if self.doubling {
                doubling(0..head, self.head_steps)
            } else {
                split(0..head, self.head_steps)
            },
            g,
        )
    }

    /// [`Schedule::plan`] with depth boundaries on multiples of `g`.
    fn plan_aligned(&self, n: usize, reads_c: bool, g: usize) -> Vec<Step> {
        let slices = self.head_slices(n, reads_c, g);
        let head = slices.last().map_or(0, |r| r.end);
        let mut steps = Vec::new();
        for (i, ks) in slices.into_iter().enumerate() {
            steps.push(Step::Upload {
                matrix: Matrix::A,
                rows: 0..n,
                cols: ks.clone(),
            });
            steps.push(Step::Upload {
                matrix: Matrix::B,
                rows: ks.clone(),
                cols: 0..n,
            });
            steps.push(Step::Gemm {
                ks,
                cols: 0..n,
                first: i == 0,
            });
        }
        let panels = split(0..n, self.panels);
        if head == n {
            steps.extend(panels.into_iter().map(|cols| Step::Download { cols }));
            return steps;
        }
        // The rest of A in as many pieces, so the link never waits on one
        // large copy to be enqueued behind.
        for cols in split(head..n, self.panels) {
            steps.push(Step::Upload {
                matrix: Matrix::A,
                rows: 0..n,
                cols,
            });
        }
        for cols in panels {
            steps.push(Step::Upload {
                matrix: Matrix::B,
                rows: head..n,
                cols: cols.clone(),
            });
            if reads_c {
                steps.push(Step::Upload {
                    matrix: Matrix::C,
                    rows: 0..n,
                    cols: cols.clone(),
                });
            }
            steps.push(Step::Gemm {
                ks: head..n,
                cols: cols.clone(),
                first: head == 0,
            });
            steps.push(Step::Download { cols });
        }
        steps
    }

    /// The plan with the shortest predicted time for an N x N x N product
    /// at `rates`, among column panels (4 to 32, of at least 512 columns)
    /// and heads of every sixteenth of N in 1 to 16 equal or doubling slices
    /// of at least 256 columns (below which the rates were not measured).
    pub fn choose(n: usize, rates: &Rates, reads_c: bool) -> Schedule {
        let mut best = (Schedule::panels(4), f64::INFINITY);
        let mut consider = |s: Schedule| {
            let t = predict(&s.plan(n, reads_c), n, rates).total;
            if t < best.1 {
                best = (s, t);
            }
        };
        for panels in [4, 8, 16, 32] {
            if n / panels < 512 && panels > 4 {
                continue;
            }
            consider(Schedule::panels(panels));
            if reads_c {
                continue;
            }
            for sixteenths in 1..16 {
                let head = n * sixteenths / 16;
                for head_steps in [1, 2, 3, 4, 5, 6, 8, 16] {
                    for doubling in [false, true] {
                        let first = if doubling {
                            head / ((1 << head_steps) - 1)
                        } else {
                            head / head_steps
                        };
                        if first < 256 || (doubling && head_steps == 1) {
                            continue;
                        }
                        consider(Schedule {
                            head,
                            head_steps,
                            doubling,
                            panels,
                        });
                    }
                }
            }
        }
        best.0
    }
}

/// What the timeline model charges, as measured on the device: copies of
/// whole columns each way, copies up of blocks whose columns are shorter
/// (a 2-D copy moves each column on its own, and short ones run well below
/// the link's rate), and products by depth (a shallow rank update spends
/// more of its time filling and draining its tiles' pipeline).
#[derive(Clone, Debug)]
pub struct Rates {
    pub elem: usize,
    /// Contiguous copies, bytes/s.
    pub up: f64,
    pub down: f64,
    /// (bytes a column, bytes/s) of 2-D copies up, ascending.
    pub up_strided: Vec<(usize, f64)>,
    /// (depth K, flop/s) of N x N x K products, ascending.
    pub flops: Vec<(usize, f64)>,
}

/// `table`'s value at `x`: linear in log x between its points, the nearest
/// point's value outside them.
fn interpolate(table: &[(usize, f64)], x: usize) -> Option<f64> {
    let (first, last) = (table.first()?, table.last()?);
    if x <= first.0 {
        return Some(first.1);
    }
    if x >= last.0 {
        return Some(last.1);
    }
    let i = table.iter().position(|p| p.0 >= x)?;
    let (lo, hi) = (table[i - 1], table[i]);
    let t = ((x as f64).ln() - (lo.0 as f64).ln()) / ((hi.0 as f64).ln() - (lo.0 as f64).ln());
    Some(lo.1 + t * (hi.1 - lo.1))
}

impl Rates {
    /// One rate for every copy up, every copy down and every product.
    pub fn uniform(elem: usize, up: f64, down: f64, flops: f64) -> Rates {
        Rates {
            elem,
            up,
            down,
            up_strided: Vec::new(),
            flops: vec![(1, flops)],
        }
    }

    fn upload(&self, rows: usize, n: usize) -> f64 {
        if rows == n {
            return self.up;
        }
        interpolate(&self.up_strided, rows * self.elem)
            .unwrap_or(self.up)
            .min(self.up)
    }

    fn flop_rate(&self, k: usize) -> f64 {
        interpolate(&self.flops, k).unwrap_or(f64::INFINITY)
    }
}

/// The model's timeline of a plan, seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    pub total: f64,
    /// Time the GPU spends on products.
    pub compute: f64,
    /// Time the GPU waits before its first product.
    pub fill: f64,
}

/// Replays `steps` on three in-order queues, as the pipeline enqueues
/// them: copies up, products, copies down; a product waits for every copy
/// up enqueued before it, a copy down for every product before it.
pub fn predict(steps: &[Step], n: usize, r: &Rates) -> Timeline {
    let (mut up, mut gpu, mut down) = (0.0f64, 0.0f64, 0.0f64);
    let (mut compute, mut fill) = (0.0, None);
    for s in steps {
        match s {
            Step::Upload { rows, cols, .. } => {
                up += (rows.len() * cols.len() * r.elem) as f64 / r.upload(rows.len(), n);
            }
            Step::Gemm { ks, cols, .. } => {
                let start = gpu.max(up);
                fill.get_or_insert(start);
                let t = 2.0 * (n * ks.len() * cols.len()) as f64 / r.flop_rate(ks.len());
                compute += t;
                gpu = start + t;
            }
            Step::Download { cols } => {
                down = down.max(gpu) + (n * cols.len() * r.elem) as f64 / r.down;
            }
        }
    }
    Timeline {
        total: up.max(gpu).max(down),
        compute,
        fill: fill.unwrap_or(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a plan on the CPU: "device" matrices that hold NaN until a
    /// block is uploaded, products by `matrixmultiply`, C read back only
    /// through downloads. Returns the host C.
    fn replay(steps: &[Step], n: usize, a: &[f64], b: &[f64], c: &[f64], beta: f64) -> Vec<f64> {
        let mut dev = [
            vec![f64::NAN; n * n],
            vec![f64::NAN; n * n],
            vec![f64::NAN; n * n],
        ];
        let mut host_c = c.to_vec();
        for s in steps {
            match s {
                Step::Upload { matrix, rows, cols } => {
                    let (from, to) = match matrix {
                        Matrix::A => (a, 0),
                        Matrix::B => (b, 1),
                        Matrix::C => (c, 2),
                    };
                    for j in cols.clone() {
                        for i in rows.clone() {
                            dev[to][i + j * n] = from[i + j * n];
                        }
                    }
                }
                Step::Gemm { ks, cols, first } => {
                    let beta = if *first { beta } else { 1.0 };
                    let (m, k, w) = (n, ks.len(), cols.len());
                    let mut out: Vec<f64> = (0..m * w)
                        .map(|e| {
                            let (i, j) = (e % m, cols.start + e / m);
                            if beta == 0.0 {
                                0.0
                            } else {
                                beta * dev[2][i + j * n]
                            }
                        })
                        .collect();
                    // SAFETY: A[:, ks] is m x k with column stride n,
                    // B[ks, cols] is k x w with column stride n, `out` is m
                    // x w with column stride m; all inside their vectors.
                    unsafe {
                        matrixmultiply::dgemm(
                            m,
                            k,
                            w,
                            1.0,
                            dev[0].as_ptr().add(ks.start * n),
                            1,
                            n as isize,
                            dev[1].as_ptr().add(ks.start + cols.start * n),
                            1,
                            n as isize,
                            1.0,
                            out.as_mut_ptr(),
                            1,
                            m as isize,
                        )
                    };
                    for (e, v) in out.into_iter().enumerate() {
                        dev[2][e % m + (cols.start + e / m) * n] = v;
                    }
                }
                Step::Download { cols } => {
                    for j in cols.clone() {
                        for i in 0..n {
                            host_c[i + j * n] = dev[2][i + j * n];
                        }
                    }
                }
            }
        }
        host_c
    }

    fn check(s: Schedule, n: usize, beta: f64, g: usize) {
        let val = |m: usize, i: usize| ((i * 7 + m * 13) % 97) as f64 / 97.0 - 0.5;
        let a: Vec<f64> = (0..n * n).map(|i| val(0, i)).collect();
        let b: Vec<f64> = (0..n * n).map(|i| val(1, i)).collect();
        // beta = 0 never reads C: NaN shows it was read.
        let c: Vec<f64> = (0..n * n)
            .map(|i| if beta == 0.0 { f64::NAN } else { val(2, i) })
            .collect();
        let mut want = vec![0.0; n * n];
        // SAFETY: n x n column-major matrices.
        unsafe {
            matrixmultiply::dgemm(
                n,
                n,
                n,
                1.0,
                a.as_ptr(),
                1,
                n as isize,
                b.as_ptr(),
                1,
                n as isize,
                0.0,
                want.as_mut_ptr(),
                1,
                n as isize,
            )
        };
        let got = replay(&s.plan_aligned(n, beta != 0.0, g), n, &a, &b, &c, beta);
        for (e, (g, w)) in got.iter().zip(&want).enumerate() {
            let w = w + if beta == 0.0 { 0.0 } else { beta * c[e] };
            assert!(
                (g - w).abs() <= 1e-12 * n as f64,
                "{s} n={n} beta={beta}: C[{e}] = {g}, want {w}"
            );
        }
    }

    #[test]
    fn every_plan_computes_the_product_from_uploaded_data_only() {
        for n in [1, 5, 37, 64] {
            for s in [
                Schedule::panels(1),
                Schedule::panels(4),
                Schedule::panels(100),
                Schedule::with_head(n / 3, 3, false, 4),
                Schedule::with_head(n / 2, 3, true, 4),
                Schedule::with_head(n, 4, false, 3),
                Schedule::with_head(n + 10, 50, true, 7),
                Schedule::with_head(n - n / 8, 5, true, 4),
            ] {
                // Exact splits, and boundaries rounded to multiples of 4
                // (heads near N rounded past it among them).
                for g in [1, 4] {
                    check(s, n, 0.0, g);
                    check(s, n, 0.5, g);
                }
            }
        }
    }

    #[test]
    fn a_plan_that_reads_c_keeps_to_column_panels() {
        let s = Schedule::with_head(32, 2, false, 4);
        let steps = s.plan(64, true);
        assert!(steps
            .iter()
            .all(|s| !matches!(s, Step::Gemm { ks, .. } if ks.len() != 64)));
        assert_eq!(
            steps
                .iter()
                .filter(|s| matches!(
                    s,
                    Step::Upload {
                        matrix: Matrix::C,
                        ..
                    }
                ))
                .count(),
            4
        );
    }

    #[test]
    fn the_timeline_of_column_panels_waits_for_all_of_a() {
        // 1 s per matrix each way, 10 s of compute: the GPU starts after
        // A and the first B panel (1.25 s) and the last panel comes back
        // 0.25 s after the products end.
        let n = 64;
        let m = (n * n) as f64;
        let r = Rates::uniform(1, m, m, 2.0 * (n * n * n) as f64 / 10.0);
        let t = predict(&Schedule::panels(4).plan(n, false), n, &r);
        assert!((t.fill - 1.25).abs() < 1e-12, "{t:?}");
        assert!((t.compute - 10.0).abs() < 1e-12);
        assert!((t.total - 11.5).abs() < 1e-12, "{t:?}");
    }

    #[test]
    fn doubling_slices_cover_the_range_and_double() {
        let r = doubling(0..700, 3);
        assert_eq!(r, vec![0..100, 100..300, 300..700]);
        for (len, parts) in [(1, 5), (5, 4), (1000, 7), (64, 1)] {
            let r = doubling(10..10 + len, parts);
            assert_eq!(r.first().unwrap().start, 10);
            assert_eq!(r.last().unwrap().end, 10 + len);
            assert!(r
                .windows(2)
                .all(|w| w[0].end == w[1].start && w[1].len() >= w[0].len()));
        }
    }

    #[test]
    fn large_plans_start_every_slice_of_b_aligned() {
        for (n, s) in [
            (16384, Schedule::with_head(4096, 3, false, 16)),
            (16384, Schedule::with_head(12288 - 100, 5, true, 32)),
            // Not a multiple of 128: the head must not round past N.
            (2170, Schedule::with_head(2150, 3, false, 4)),
            (2170, Schedule::with_head(2100, 2, true, 4)),
        ] {
            // Head slices follow one another from 0; every panel then
            // takes the rest of the depth; the panels cover every column.
            let (mut head_end, mut columns) = (0, 0);
            for step in s.plan(n, false) {
                if let Step::Gemm { ks, cols, .. } = step {
                    assert_eq!(ks.start % DEPTH_ALIGN, 0, "{s}: {ks:?}");
                    if cols.len() == n && ks.end < n {
                        assert_eq!(ks.start, head_end, "{s}: {ks:?}");
                        head_end = ks.end;
                    } else {
                        assert_eq!(ks, head_end..n, "{s}");
                        assert_eq!(cols.start, columns, "{s}");
                        columns = cols.end;
                    }
                }
            }
            assert!(head_end <= n && (head_end == n || columns == n), "{s}");
        }
    }

    #[test]
    fn a_schedule_as_run_names_what_the_plan_does() {
        let s = Schedule::with_head(2150, 3, true, 4);
        assert_eq!(s.as_run(2170, false), Schedule::with_head(2170, 3, true, 4));
        assert_eq!(s.as_run(2170, true), Schedule::panels(4));
        // Three equal slices of 100 rounded to 128: two remain.
        let r = Schedule::with_head(300, 3, false, 8).as_run(4096, false);
        assert_eq!((r.head, r.head_steps), (256, 2));
        assert_eq!(Schedule::panels(100).as_run(10, false).panels, 10);
    }

    #[test]
    fn rates_between_measured_points_follow_the_logarithm() {
        let t = [(256, 10.0), (1024, 20.0), (4096, 26.0)];
        assert_eq!(interpolate(&t, 100), Some(10.0));
        assert_eq!(interpolate(&t, 512), Some(15.0));
        assert_eq!(interpolate(&t, 2048), Some(23.0));
        assert_eq!(interpolate(&t, 1 << 20), Some(26.0));
        assert_eq!(interpolate(&[], 5), None);
        let r = Rates {
            up_strided: vec![(2048, 10.0), (16384, 60.0)],
            ..Rates::uniform(8, 50.0, 50.0, 1.0)
        };
        // Whole columns at the contiguous rate; short ones slower; never
        // above the contiguous rate.
        assert_eq!(r.upload(64, 64), 50.0);
        assert_eq!(r.upload(256, 4096), 10.0);
        assert_eq!(r.upload(4096, 8192), 50.0);
    }

    #[test]
    fn above_the_crossover_the_chosen_plan_hides_most_of_the_upload_of_a() {
        // An H200's rates at N = 16384 (2026-11-29, `gemm_transfer`):
        // 55 GB/s each way, DGEMM at 52 TFLOP/s deep and less shallow,
        // 2-D copies of short columns slower.
        let n = 16384;
        let r = Rates {
            elem: 8,
            up: 55e9,
            down: 55e9,
            up_strided: vec![(2048, 20e9), (4096, 35e9), (8192, 50e9), (16384, 55e9)],
            flops: vec![(256, 35e12), (512, 44e12), (1024, 49e12), (16384, 52e12)],
        };
        let compute = 2.0 * (n as f64).powi(3) / 52e12;
        let panels = predict(&Schedule::panels(16).plan(n, false), n, &r);
        let s = Schedule::choose(n, &r, false);
        let chosen = predict(&s.plan(n, false), n, &r);
        assert!(s.head > 0, "{s}");
        // Panels alone wait 39 ms for A; the head leaves a few.
        assert!(panels.total > 1.2 * compute, "{panels:?}");
        assert!(chosen.total < 1.1 * compute, "{s}: {chosen:?}");
        assert!(chosen.fill < 0.1 * panels.fill, "{s}: {chosen:?}");
        // Below the crossover the transfers bound the time and panels stay.
        let small = Schedule::choose(2048, &r, false);
        let t = predict(&small.plan(2048, false), 2048, &r);
        let transfers = 2.0 * 8.0 * 2048.0 * 2048.0 / r.up;
        assert!(t.total < 1.3 * transfers, "{small}: {t:?}");
        // C read: no head.
        assert_eq!(Schedule::choose(n, &r, true).head, 0);
    }
}
