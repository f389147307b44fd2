//! GEMM with its operands on the host: the GEMM paper's transfer model and
//! a pipelined implementation that beats it.
//!
//! The paper models a host-to-host DGEMM as T = 32 N^2 / B + 2 N^3 / F:
//! A, B and C go over the link, C comes back (4 N^2 doubles at B bytes/s),
//! then the kernel runs at F flop/s, one after the other. [`serial`] does
//! exactly that and measures it.
//!
//! [`overlapped`] splits B and C into column panels (contiguous in
//! column-major storage): A goes up first, in panels too, then panel j of B
//! (and of C when beta != 0) goes up on one stream while the kernel computes
//! panel j - 1 on the GPU's stream and panel j - 2 of C comes back on a
//! third. With copy engines for each direction, the time approaches
//! max(upload, compute, download) plus one panel's fill and drain, instead
//! of their sum. Compute hides the transfers once 2 N^3 / F exceeds the
//! upload of A and B, 2 elem N^2 / B: from N* = elem F / B on
//! ([`crossover`]).

use hone_gpu::launch::DeviceBuffer;
use hone_gpu::Gpu;

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

/// What one host-to-host call took.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HostTiming {
    /// From the first upload's start to the last download's end.
    pub total_ms: f64,
    /// Column panels (1: no pipelining).
    pub panels: usize,
}

/// Enqueues one GEMM on the GPU's stream: (problem, alpha, a, b, beta, c).
pub type Enqueue<'a> = dyn FnMut(&GemmProblem, f64, u64, u64, f64, u64) -> Result<()> + 'a;

fn panel_problem(template: &GemmProblem, n: usize, cols: usize) -> GemmProblem {
    GemmProblem {
        n: cols,
        ..*template
    }
    .with_square_lds(n)
}

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
        panels: 1,
    })
}

/// The panelled pipeline: A up in `panels` pieces, then per column panel
/// of B and C: upload, compute, download, each on its own stream.
pub fn overlapped(
    gpu: &Gpu,
    p: &GemmProblem,
    host: &mut HostOperands,
    alpha: f64,
    beta: f64,
    panels: usize,
    enqueue: &mut Enqueue<'_>,
) -> Result<HostTiming> {
    check_square(p, host)?;
    let n = host.n;
    let panels = panels.clamp(1, n);
    let col_bytes = n * host.elem;
    let bytes = n * col_bytes;
    let d = DeviceOperands::new(gpu, bytes)?;
    let (up, down) = (Stream::new()?, Stream::new()?);
    let start = RawEvent::new()?;
    let end = RawEvent::new()?;
    // Column ranges of the panels, as equal as possible.
    let bounds: Vec<(usize, usize)> = (0..panels)
        .map(|j| (j * n / panels, (j + 1) * n / panels))
        .filter(|(a, b)| b > a)
        .collect();
    let a_ready = RawEvent::new()?;
    let uploaded: Vec<RawEvent> = bounds
        .iter()
        .map(|_| RawEvent::new())
        .collect::<std::result::Result<_, _>>()?;
    let computed: Vec<RawEvent> = bounds
        .iter()
        .map(|_| RawEvent::new())
        .collect::<std::result::Result<_, _>>()?;
    start.record_on(&up)?;
    // A goes first, in the same panels so the link stays busy from the start.
    for &(c0, c1) in &bounds {
        // SAFETY: in bounds of both sides; ordered by the events below.
        unsafe {
            host.a.upload(
                c0 * col_bytes,
                (c1 - c0) * col_bytes,
                d.a.ptr() + (c0 * col_bytes) as u64,
                &up,
            )?
        };
    }
    a_ready.record_on(&up)?;
    a_ready.make_gpu_wait(gpu)?;
    for (j, &(c0, c1)) in bounds.iter().enumerate() {
        let (off, len) = (c0 * col_bytes, (c1 - c0) * col_bytes);
        // SAFETY: as above.
        unsafe {
            host.b.upload(off, len, d.b.ptr() + off as u64, &up)?;
            if beta != 0.0 {
                host.c.upload(off, len, d.c.ptr() + off as u64, &up)?;
            }
        }
        uploaded[j].record_on(&up)?;
        uploaded[j].make_gpu_wait(gpu)?;
        enqueue(
            &panel_problem(p, n, c1 - c0),
            alpha,
            d.a.ptr(),
            d.b.ptr() + off as u64,
            beta,
            d.c.ptr() + off as u64,
        )?;
        computed[j].record_on_gpu(gpu)?;
        computed[j].make_stream_wait(&down)?;
        // SAFETY: as above.
        unsafe { host.c.download(off, len, d.c.ptr() + off as u64, &down)? };
    }
    end.record_on(&down)?;
    down.synchronize()?;
    up.synchronize()?;
    gpu.synchronize()?;
    Ok(HostTiming {
        total_ms: end.since(&start)?,
        panels: bounds.len(),
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

    #[test]
    fn panel_problems_keep_the_full_leading_dimensions() {
        let p = GemmProblem::packed(super::super::Flavor::Dgemm, Layout::ALL[0], 100, 100, 100);
        let q = panel_problem(&p, 100, 33);
        assert_eq!(
            (q.m, q.n, q.k, q.lda, q.ldb, q.ldc),
            (100, 33, 100, 100, 100, 100)
        );
        assert!(q.validate().is_ok());
    }
}
