//! GEMM with its operands on the host: the GEMM paper's transfer model and
//! a pipelined implementation that beats it.
//!
//! The paper models a host-to-host DGEMM as T = 32 N^2 / B + 2 N^3 / F:
//! A, B and C go over the link, C comes back (4 N^2 doubles at B bytes/s),
//! then the kernel runs at F flop/s, one after the other. [`serial`] does
//! exactly that and measures it.
//!
//! [`overlapped`] runs a [`Schedule`]'s plan on three streams: copies up,
//! products, copies down. Column panels (contiguous in column-major
//! storage) let panel j of B go up while the kernel computes panel j - 1
//! and panel j - 2 of C comes back, so the time approaches max(upload,
//! compute, download) plus one panel's fill and drain instead of their sum.
//! Compute hides the transfers once 2 N^3 / F exceeds the upload of A and
//! B, 2 elem N^2 / B: from N* = elem F / B on ([`crossover`]). Above it, the
//! plan starts with rank updates of all of C from the first slices of A and
//! B, so the GPU works while the rest of A goes up (the `schedule` module
//! says how the head is sized).

mod schedule;

pub use schedule::{predict, Matrix, Rates, Schedule, Step, Timeline};

use hone_gpu::launch::DeviceBuffer;
use hone_gpu::Gpu;

use super::reference::Operands;
use super::{GemmProblem, Layout};
use crate::driver::{Pinned, RawEvent, Stream};
use crate::routine::{LibError, Result};

impl From<crate::driver::DriverError> for LibError {
    fn from(e: crate::driver::DriverError) -> LibError {
        LibError::Routine(e.to_string())
    }
}

/// Pinned host-to-device and device-to-host rates, GB/s.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LinkRates {
    pub h2d_gbps: f64,
    pub d2h_gbps: f64,
}

/// The model's time in seconds for an N x N x N host-to-host GEMM: every
/// matrix crosses the link once at `b` (bytes/s; C both ways), then the
/// kernel runs at `f` (flop/s).
pub fn model_seconds(n: usize, elem: usize, b: f64, f: f64) -> f64 {
    let n = n as f64;
    4.0 * elem as f64 * n * n / b + 2.0 * n * n * n / f
}

/// The N above which a panelled pipeline's compute (2 N^3 / F) takes longer
/// than uploading A and B (2 elem N^2 / B), so that transfers hide behind it.
pub fn crossover(elem: usize, b: f64, f: f64) -> f64 {
    elem as f64 * f / b
}

/// Times `bytes` bytes each way between pinned memory and the device (the
/// median of `reps` copies).
pub fn measure_link(gpu: &Gpu, bytes: usize, reps: usize) -> Result<LinkRates> {
    let mut host = Pinned::new(bytes)?;
    let dev = DeviceBuffer::alloc(gpu, bytes)?;
    let stream = Stream::new()?;
    let mut time = |up: bool| -> Result<f64> {
        let mut ms = Vec::new();
        for _ in 0..reps.max(1) + 1 {
            let (s, e) = (RawEvent::new()?, RawEvent::new()?);
            s.record_on(&stream)?;
            // SAFETY: both sides hold `bytes` bytes; synchronised below.
            unsafe {
                if up {
                    host.upload(0, bytes, dev.ptr(), &stream)?
                } else {
                    host.download(0, bytes, dev.ptr(), &stream)?
                }
            }
            e.record_on(&stream)?;
            stream.synchronize()?;
            ms.push(e.since(&s)?);
        }
        // The first copy warms the path up.
        ms.remove(0);
        ms.sort_by(f64::total_cmp);
        Ok(bytes as f64 / (ms[ms.len() / 2] * 1e-3) / 1e9)
    };
    Ok(LinkRates {
        h2d_gbps: time(true)?,
        d2h_gbps: time(false)?,
    })
}

/// Times 2-D copies up of `cols` columns of `rows` elements each out of
/// the N x N matrix `host` (columns `n` elements apart, as a plan's slices
/// of B are), for each `rows`: (bytes a column, bytes/s), the median of
/// `reps` copies after one that warms the path up.
pub fn measure_strided_uploads(
    gpu: &Gpu,
    host: &Pinned,
    n: usize,
    elem: usize,
    rows: &[usize],
    reps: usize,
) -> Result<Vec<(usize, f64)>> {
    let pitch = n * elem;
    let dev = DeviceBuffer::alloc(gpu, n * pitch)?;
    let stream = Stream::new()?;
    let mut out = Vec::new();
    for &r in rows.iter().filter(|&&r| r >= 1 && r < n) {
        let mut ms = Vec::new();
        for _ in 0..reps.max(1) + 1 {
            let (s, e) = (RawEvent::new()?, RawEvent::new()?);
            s.record_on(&stream)?;
            // SAFETY: n columns of r <= n elements at pitch n * elem lie
            // inside both N x N matrices; synchronised below.
            unsafe { host.upload_2d(0, pitch, r * elem, n, dev.ptr(), pitch, &stream)? };
            e.record_on(&stream)?;
            stream.synchronize()?;
            ms.push(e.since(&s)?);
        }
        ms.remove(0);
        ms.sort_by(f64::total_cmp);
        out.push((r * elem, (r * n * elem) as f64 / (ms[ms.len() / 2] * 1e-3)));
    }
    Ok(out)
}

/// Host copies of a square problem's A, B and C, pinned.
pub struct HostOperands {
    pub n: usize,
    pub elem: usize,
    pub a: Pinned,
    pub b: Pinned,
    pub c: Pinned,
}

impl HostOperands {
    /// Pinned N x N matrices filled with `fill(matrix, index)` (0: A, 1: B,
    /// 2: C), as bytes of `elem`.
    pub fn new(n: usize, elem: usize, fill: impl Fn(usize, usize) -> f64) -> Result<HostOperands> {
        let bytes = n * n * elem;
        let make = |which: usize| -> Result<Pinned> {
            let mut p = Pinned::new(bytes)?;
            for (i, chunk) in p.as_mut_slice().chunks_exact_mut(elem).enumerate() {
                let v = fill(which, i);
                if elem == 8 {
                    chunk.copy_from_slice(&v.to_le_bytes());
                } else {
                    chunk.copy_from_slice(&(v as f32).to_le_bytes());
                }
            }
            Ok(p)
        };
        Ok(HostOperands {
            n,
            elem,
            a: make(0)?,
            b: make(1)?,
            c: make(2)?,
        })
    }
}

fn values(p: &Pinned, elem: usize) -> Vec<f64> {
    p.as_slice()
        .chunks_exact(elem)
        .map(|w| match *w {
            [a, b, c, d] => f32::from_le_bytes([a, b, c, d]) as f64,
            _ => f64::from_le_bytes(w.try_into().expect("8-byte elements")),
        })
        .collect()
}

impl HostOperands {
    /// A, B and C as FP64 values, for the reference.
    pub fn operands(&self) -> Operands {
        Operands {
            a: values(&self.a, self.elem),
            b: values(&self.b, self.elem),
            c: values(&self.c, self.elem),
        }
    }

    /// C as FP64 values.
    pub fn c_values(&self) -> Vec<f64> {
        values(&self.c, self.elem)
    }
}

/// What one host-to-host call took.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HostTiming {
    /// From the first upload's start to the last download's end.
    pub total_ms: f64,
    /// The plan as run ([`Schedule::as_run`]; [`serial`]: one panel, no
    /// head).
    pub schedule: Schedule,
}

/// Enqueues one GEMM on the GPU's stream: (problem, alpha, a, b, beta, c).
pub type Enqueue<'a> = dyn FnMut(&GemmProblem, f64, u64, u64, f64, u64) -> Result<()> + 'a;

impl GemmProblem {
    /// The leading dimensions of packed N x N storage.
    fn with_square_lds(mut self, n: usize) -> GemmProblem {
        self.lda = n;
        self.ldb = n;
        self.ldc = n;
        self
    }
}

/// Device buffers for the full matrices.
struct DeviceOperands {
    a: DeviceBuffer,
    b: DeviceBuffer,
    c: DeviceBuffer,
}

impl DeviceOperands {
    fn new(gpu: &Gpu, bytes: usize) -> Result<DeviceOperands> {
        Ok(DeviceOperands {
            a: DeviceBuffer::alloc(gpu, bytes)?,
            b: DeviceBuffer::alloc(gpu, bytes)?,
            c: DeviceBuffer::alloc(gpu, bytes)?,
        })
    }
}

fn check_square(p: &GemmProblem, host: &HostOperands) -> Result<()> {
    if p.layout != Layout::ALL[0] || (p.m, p.n, p.k) != (host.n, host.n, host.n) {
        return Err(LibError::Usage(format!(
            "host-to-host GEMM takes square NN problems of the host matrices' size {}: {p}",
            host.n
        )));
    }
    Ok(())
}

/// Waits for every copy and product enqueued when a call ends, also when it
/// ends early with an error: copies still queued would otherwise read device
/// buffers about to be freed, or write the caller's C after it got it back.
/// Declared after the buffers and streams, so it drops before them.
struct Drain<'a> {
    streams: [&'a Stream; 2],
    gpu: &'a Gpu,
}

impl Drop for Drain<'_> {
    fn drop(&mut self) {
        for s in self.streams {
            let _ = s.synchronize();
        }
        let _ = self.gpu.synchronize();
    }
}

/// Upload everything, compute, download C: the model's schedule.
pub fn serial(
    gpu: &Gpu,
    p: &GemmProblem,
    host: &mut HostOperands,
    alpha: f64,
    beta: f64,
    enqueue: &mut Enqueue<'_>,
) -> Result<HostTiming> {
    check_square(p, host)?;
    let bytes = host.n * host.n * host.elem;
    let d = DeviceOperands::new(gpu, bytes)?;
    let copy = Stream::new()?;
    let _drain = Drain {
        streams: [&copy, &copy],
        gpu,
    };
    let (start, uploaded, computed, end) = (
        RawEvent::new()?,
        RawEvent::new()?,
        RawEvent::new()?,
        RawEvent::new()?,
    );
    start.record_on(&copy)?;
    // SAFETY: every buffer holds `bytes`; the events order the streams and
    // everything is synchronised before the buffers drop.
    unsafe {
        host.a.upload(0, bytes, d.a.ptr(), &copy)?;
        host.b.upload(0, bytes, d.b.ptr(), &copy)?;
        if beta != 0.0 {
            host.c.upload(0, bytes, d.c.ptr(), &copy)?;
        }
    }
    uploaded.record_on(&copy)?;
    uploaded.make_gpu_wait(gpu)?;
    enqueue(
        &p.with_square_lds(host.n),
        alpha,
        d.a.ptr(),
        d.b.ptr(),
        beta,
        d.c.ptr(),
    )?;
    computed.record_on_gpu(gpu)?;
    computed.make_stream_wait(&copy)?;
    // SAFETY: as above.
    unsafe { host.c.download(0, bytes, d.c.ptr(), &copy)? };
    end.record_on(&copy)?;
    copy.synchronize()?;
    gpu.synchronize()?;
    Ok(HostTiming {
        total_ms: end.since(&start)?,
        schedule: Schedule::panels(1),
    })
}

/// Runs `schedule`'s plan ([`Schedule::plan`]) on three streams: copies up
/// on one, the products on the GPU's stream, copies down on a third. A
/// product waits for the copies up enqueued before it, a copy down for the
/// products before it, so the link carries the next block while the
/// kernel computes the current one and the last panel comes back.
pub fn overlapped(
    gpu: &Gpu,
    p: &GemmProblem,
    host: &mut HostOperands,
    alpha: f64,
    beta: f64,
    schedule: &Schedule,
    enqueue: &mut Enqueue<'_>,
) -> Result<HostTiming> {
    check_square(p, host)?;
    let (n, elem) = (host.n, host.elem);
    let col_bytes = n * elem;
    let d = DeviceOperands::new(gpu, n * col_bytes)?;
    let (up, down) = (Stream::new()?, Stream::new()?);
    let _drain = Drain {
        streams: [&up, &down],
        gpu,
    };
    let (start, end) = (RawEvent::new()?, RawEvent::new()?);
    let steps = schedule.plan(n, beta != 0.0);
    // One event per step; a step waits on the last one of the other queue.
    let events: Vec<RawEvent> = steps
        .iter()
        .map(|_| RawEvent::new())
        .collect::<std::result::Result<_, _>>()?;
    let (mut last_upload, mut last_gemm) = (None::<usize>, None::<usize>);
    start.record_on(&up)?;
    let at = |rows: &std::ops::Range<usize>, cols: &std::ops::Range<usize>| {
        (rows.start + cols.start * n) * elem
    };
    for (i, step) in steps.iter().enumerate() {
        match step {
            Step::Upload { matrix, rows, cols } => {
                let (from, to) = match matrix {
                    Matrix::A => (&host.a, &d.a),
                    Matrix::B => (&host.b, &d.b),
                    Matrix::C => (&host.c, &d.c),
                };
                let off = at(rows, cols);
                // SAFETY: the block lies inside both N x N matrices; the
                // events order every later use, and everything is
                // synchronised before the buffers drop.
                unsafe {
                    if rows.len() == n {
                        from.upload(off, cols.len() * col_bytes, to.ptr() + off as u64, &up)?
                    } else {
                        from.upload_2d(
                            off,
                            col_bytes,
                            rows.len() * elem,
                            cols.len(),
                            to.ptr() + off as u64,
                            col_bytes,
                            &up,
                        )?
                    }
                }
                events[i].record_on(&up)?;
                last_upload = Some(i);
            }
            Step::Gemm { ks, cols, first } => {
                if let Some(u) = last_upload {
                    events[u].make_gpu_wait(gpu)?;
                }
                let q = GemmProblem {
                    n: cols.len(),
                    k: ks.len(),
                    ..*p
                }
                .with_square_lds(n);
                enqueue(
                    &q,
                    alpha,
                    d.a.ptr() + (ks.start * col_bytes) as u64,
                    d.b.ptr() + at(ks, cols) as u64,
                    if *first { beta } else { 1.0 },
                    d.c.ptr() + (cols.start * col_bytes) as u64,
                )?;
                events[i].record_on_gpu(gpu)?;
                last_gemm = Some(i);
            }
            Step::Download { cols } => {
                if let Some(g) = last_gemm {
                    events[g].make_stream_wait(&down)?;
                }
                let off = cols.start * col_bytes;
                // SAFETY: as above.
                unsafe {
                    host.c
                        .download(off, cols.len() * col_bytes, d.c.ptr() + off as u64, &down)?
                };
            }
        }
    }
    end.record_on(&down)?;
    down.synchronize()?;
    up.synchronize()?;
    gpu.synchronize()?;
    Ok(HostTiming {
        total_ms: end.since(&start)?,
        schedule: schedule.as_run(n, beta != 0.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_the_papers_for_double() {
        // 32 N^2 / B + 2 N^3 / F for doubles.
        let (n, b, f) = (1000, 8e9, 1e12);
        let t = model_seconds(n, 8, b, f);
        assert!((t - (32.0 * 1e6 / b + 2e9 / f)).abs() < 1e-15);
        // Compute hides the upload of A and B from N = elem F / B.
        let x = crossover(8, b, f);
        assert_eq!(x, 1000.0);
        let upload = |n: f64| 2.0 * 8.0 * n * n / b;
        let compute = |n: f64| 2.0 * n * n * n / f;
        assert!((upload(x) - compute(x)).abs() < 1e-12);
        assert!(compute(2.0 * x) > upload(2.0 * x));
    }
}
