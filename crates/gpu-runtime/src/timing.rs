//! Timing device work with CUDA events: warm-up, many repetitions, an
//! optional L2 flush before each, and rotation over copies of the data.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::device::Gpu;
use crate::error::Result;
use cudarc::driver::sys;

use crate::launch::{DeviceBuffer, Event, KernelArg, LaunchDims, Module};
use crate::nvrtc::{self, CompileOptions, CompiledModule};
use crate::stats::Stats;

/// How L2 is emptied before each timed run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum L2Flush {
    /// A kernel reads a buffer of twice the L2 size: every line the timed
    /// run finds in L2 is clean, so the run pays only for its own traffic.
    #[default]
    Read,
    /// The buffer is overwritten (`cuMemsetD8Async`): L2 is left full of
    /// dirty lines, and the timed run pays for writing them back as its own
    /// loads evict them, up to the L2 size in extra DRAM writes. That cost is
    /// the same for every kernel, so it lowers the rate of a short run more
    /// than of a long one.
    Overwrite,
}

impl L2Flush {
    fn before_the_read_flush() -> L2Flush {
        L2Flush::Overwrite
    }

    pub fn name(self) -> &'static str {
        match self {
            L2Flush::Read => "read",
            L2Flush::Overwrite => "overwrite",
        }
    }
}

impl std::str::FromStr for L2Flush {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "read" => Ok(L2Flush::Read),
            "overwrite" => Ok(L2Flush::Overwrite),
            _ => Err(format!("`{s}`: the L2 flush is `read` or `overwrite`")),
        }
    }
}

/// How to time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TimingOptions {
    /// Untimed runs first: module load, clocks ramping, TLB warm-up.
    pub warmup: u32,
    /// Timed runs; the median is the result.
    pub reps: u32,
    /// Empty L2 before each timed run, so no run starts with its data in
    /// cache.
    pub flush_l2: bool,
    /// How L2 is emptied when `flush_l2`. Records made before the read
    /// flush lack the field: they were measured with the overwrite.
    #[serde(default = "L2Flush::before_the_read_flush")]
    pub l2_flush: L2Flush,
    /// Copies of all buffers to cycle through; `None` picks enough copies to
    /// exceed twice the L2 size (at most [`MAX_COPIES`]).
    pub copies: Option<u32>,
}

/// The most buffer copies the automatic rotation makes.
pub const MAX_COPIES: u32 = 8;

impl Default for TimingOptions {
    fn default() -> Self {
        TimingOptions {
            warmup: 3,
            reps: 30,
            flush_l2: true,
            l2_flush: L2Flush::default(),
            copies: None,
        }
    }
}

impl TimingOptions {
    /// How the runs began, for reports: "" or ", L2 flushed before each (...)".
    pub fn flush_phrase(&self) -> &'static str {
        match (self.flush_l2, self.l2_flush) {
            (false, _) => "",
            (true, L2Flush::Read) => ", L2 flushed before each (a read of twice its size)",
            (true, L2Flush::Overwrite) => {
                ", L2 flushed before each (an overwrite of twice its size, whose dirty lines \
                 the timed run writes back)"
            }
        }
    }

    /// The number of copies of a working set of `footprint` bytes, given the
    /// L2 size and the device memory free for them.
    pub fn copies_for(&self, footprint: usize, l2_bytes: u64, free_bytes: usize) -> u32 {
        let wanted = match self.copies {
            Some(c) => c.max(1),
            None if footprint == 0 => 1,
            None => {
                ((2 * l2_bytes as usize).div_ceil(footprint)).clamp(1, MAX_COPIES as usize) as u32
            }
        };
        // Leave half of free memory to everything else.
        let fit = (free_bytes / 2)
            .checked_div(footprint)
            .map_or(wanted, |c| c.max(1) as u32);
        wanted.min(fit)
    }
}

/// Reads `words` 16-byte words and folds them into one value that is stored
/// only if `sink` is not null, which the flusher never passes: the loads
/// cannot be removed, and nothing is written.
const READ_KERNEL_NAME: &str = "hone_l2_read";
const READ_KERNEL: &str = r#"
extern "C" __global__ void hone_l2_read(const int4* __restrict__ p, unsigned long long words,
                                        int* sink)
{
    int acc = 0;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         i < words; i += stride) {
        const int4 v = p[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (sink != nullptr) {
        *sink = acc;
    }
}
"#;

/// The read kernel's image per architecture, compiled once per process.
fn read_kernel_image(target: &nvrtc::Target) -> Result<CompiledModule> {
    static IMAGES: Mutex<Vec<(nvrtc::Target, CompiledModule)>> = Mutex::new(Vec::new());
    let mut images = IMAGES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, m)) = images.iter().find(|(t, _)| t == target) {
        return Ok(m.clone());
    }
    let m = nvrtc::compile(
        READ_KERNEL,
        "hone_l2_read.cu",
        &CompileOptions::default(),
        target,
    )?;
    images.push((*target, m.clone()));
    Ok(m)
}

/// Device memory used to evict L2 between timed runs, and the kernel that
/// reads it.
pub struct L2Flusher {
    buffer: DeviceBuffer,
    round: u8,
    compute_capability: (u32, u32),
    /// Loaded at the first [`L2Flush::Read`] (NVRTC is needed then only).
    reader: Option<Module>,
    grid: u32,
}

impl L2Flusher {
    /// A buffer of twice the L2 size (at least 8 MiB when L2 is unknown).
    pub fn new(gpu: &Gpu) -> Result<L2Flusher> {
        let bytes = (2 * gpu.props().l2_cache_bytes as usize).max(8 << 20) / 16 * 16;
        let buffer = DeviceBuffer::alloc(gpu, bytes)?;
        // Whatever stream flushes next finds the pages touched.
        buffer.fill_async(gpu, 0)?;
        gpu.synchronize()?;
        Ok(L2Flusher {
            buffer,
            round: 0,
            compute_capability: gpu.props().compute_capability,
            reader: None,
            grid: gpu.props().sm_count.max(1) * 4,
        })
    }

    /// Enqueues the flush on hone's stream.
    pub fn flush(&mut self, gpu: &Gpu, how: L2Flush) -> Result<()> {
        // SAFETY: hone's stream belongs to the flusher's context.
        unsafe { self.flush_on(gpu.stream(), how) }
    }

    /// Enqueues the flush on the legacy default stream, where vendor
    /// libraries' calls are timed.
    pub fn flush_default_stream(&mut self, how: L2Flush) -> Result<()> {
        // SAFETY: null is the legacy default stream of the current context.
        unsafe { self.flush_on(std::ptr::null_mut(), how) }
    }

    /// # Safety
    /// `stream` belongs to the context the flusher was made in.
    unsafe fn flush_on(&mut self, stream: sys::CUstream, how: L2Flush) -> Result<()> {
        match how {
            L2Flush::Read => {
                if self.reader.is_none() {
                    let target = nvrtc::target_for(self.compute_capability)?;
                    let image = read_kernel_image(&target)?;
                    self.reader = Some(Module::load_current(&image.image, image.kind)?);
                }
                let reader = self.reader.as_ref().expect("loaded above");
                let function = reader.function(READ_KERNEL_NAME)?;
                let dims = LaunchDims {
                    grid: (self.grid, 1, 1),
                    block: (256, 1, 1),
                    shared_mem: 0,
                };
                let args = [
                    KernelArg::Ptr(self.buffer.ptr()),
                    KernelArg::U64((self.buffer.bytes() / 16) as u64),
                    KernelArg::Ptr(0),
                ];
                // SAFETY: the arguments match the kernel; it reads the
                // buffer's 16-byte words and, with a null sink, writes nothing.
                function.launch_on(stream, &dims, &args)
            }
            L2Flush::Overwrite => {
                // A different byte each time so no write is elided.
                self.round = self.round.wrapping_add(1);
                self.buffer.fill_on(stream, self.round)
            }
        }
    }
}

/// Runs `run(copy)` `warmup` times untimed, then `reps` times between events,
/// cycling `copy` through `0..copies`; returns each timed run's milliseconds.
/// Waits for the device once, at the end.
pub fn time_runs(
    gpu: &Gpu,
    options: &TimingOptions,
    copies: u32,
    mut flusher: Option<&mut L2Flusher>,
    mut run: impl FnMut(usize) -> Result<()>,
) -> Result<Vec<f64>> {
    let copies = copies.max(1) as usize;
    for i in 0..options.warmup as usize {
        run(i % copies)?;
    }
    let reps = options.reps.max(1) as usize;
    let events = (0..reps)
        .map(|_| Ok((Event::new(gpu)?, Event::new(gpu)?)))
        .collect::<Result<Vec<_>>>()?;
    for (r, (start, end)) in events.iter().enumerate() {
        if let Some(f) = flusher.as_deref_mut() {
            f.flush(gpu, options.l2_flush)?;
        }
        start.record(gpu)?;
        run((options.warmup as usize + r) % copies)?;
        end.record(gpu)?;
    }
    gpu.synchronize()?;
    events.iter().map(|(s, e)| e.elapsed_since(s)).collect()
}

/// Timing of device-to-device copies, the bandwidth a copy kernel can hope for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CopyBandwidth {
    /// Bytes per copy (each is read once and written once).
    pub bytes: usize,
    pub time_ms: Stats,
    /// (bytes read + bytes written) / median time, in GB/s (10^9 bytes).
    pub gbps: f64,
    pub copies: u32,
    pub flushed: bool,
}

/// GB/s (10^9 bytes per second) for `bytes` in `ms` milliseconds.
pub fn gbps(bytes: f64, ms: f64) -> f64 {
    if ms > 0.0 {
        bytes / (ms * 1e-3) / 1e9
    } else {
        0.0
    }
}

/// Times `cuMemcpyDtoDAsync` of `bytes` bytes the same way kernels are timed.
pub fn memcpy_bandwidth(
    gpu: &Gpu,
    bytes: usize,
    options: &TimingOptions,
    flusher: Option<&mut L2Flusher>,
) -> Result<CopyBandwidth> {
    let (free, _) = gpu.memory_info()?;
    let copies = options.copies_for(2 * bytes, gpu.props().l2_cache_bytes, free);
    let pairs = (0..copies)
        .map(|_| {
            let src = DeviceBuffer::alloc(gpu, bytes)?;
            let dst = DeviceBuffer::alloc(gpu, bytes)?;
            src.fill_async(gpu, 0x5A)?;
            Ok((src, dst))
        })
        .collect::<Result<Vec<_>>>()?;
    let flushed = flusher.is_some() && options.flush_l2;
    let flusher = if options.flush_l2 { flusher } else { None };
    let samples = time_runs(gpu, options, copies, flusher, |i| {
        let (src, dst) = &pairs[i];
        dst.copy_from_async(gpu, src)
    })?;
    let time_ms = Stats::from_samples(&samples).ok_or_else(|| {
        crate::error::GpuError::Launch("the copy timings were not finite".to_string())
    })?;
    Ok(CopyBandwidth {
        bytes,
        gbps: gbps(2.0 * bytes as f64, time_ms.median),
        time_ms,
        copies,
        flushed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_working_sets_are_rotated_past_twice_the_l2() {
        let o = TimingOptions::default();
        let l2 = 50 << 20;
        let free = 64usize << 30;
        // 8 KB: capped at the maximum.
        assert_eq!(o.copies_for(8 << 10, l2, free), MAX_COPIES);
        // 30 MB: 4 copies reach 120 MB >= 100 MB.
        assert_eq!(o.copies_for(30 << 20, l2, free), 4);
        // 2 GB: already far past L2.
        assert_eq!(o.copies_for(2 << 30, l2, free), 1);
    }

    #[test]
    fn the_read_flush_kernel_compiles_to_wide_loads() {
        if !crate::libs::nvrtc_or_skip() {
            return;
        }
        let target = crate::nvrtc::Target {
            arch: 90,
            kind: crate::nvrtc::ImageKind::Ptx,
            arch_specific: false,
        };
        let m = nvrtc::compile(READ_KERNEL, "r.cu", &CompileOptions::default(), &target).unwrap();
        let ptx = String::from_utf8_lossy(&m.image);
        assert!(ptx.contains(READ_KERNEL_NAME), "{ptx}");
        assert!(ptx.contains("ld.global.nc.v4.u32"), "{ptx}");
        // The one store is the sink's, behind the null test.
        assert_eq!(ptx.matches("st.global").count(), 1, "{ptx}");
    }

    #[test]
    fn records_without_the_flush_kind_were_overwritten() {
        let old: TimingOptions =
            serde_json::from_str(r#"{"warmup":3,"reps":30,"flush_l2":true,"copies":null}"#)
                .unwrap();
        assert_eq!(old.l2_flush, L2Flush::Overwrite);
        assert_eq!(TimingOptions::default().l2_flush, L2Flush::Read);
        let again: TimingOptions =
            serde_json::from_str(&serde_json::to_string(&TimingOptions::default()).unwrap())
                .unwrap();
        assert_eq!(again.l2_flush, L2Flush::Read);
    }

    #[test]
    fn flush_phrases_say_how() {
        let mut o = TimingOptions::default();
        assert!(o.flush_phrase().contains("a read"));
        o.l2_flush = "overwrite".parse().unwrap();
        assert!(o.flush_phrase().contains("dirty"));
        o.flush_l2 = false;
        assert_eq!(o.flush_phrase(), "");
        assert!("scrub".parse::<L2Flush>().unwrap_err().contains("read"));
    }

    #[test]
    fn rotation_never_takes_more_than_half_the_free_memory() {
        let o = TimingOptions {
            copies: Some(8),
            ..Default::default()
        };
        assert_eq!(o.copies_for(1 << 30, 50 << 20, 3 << 30), 1);
        assert_eq!(o.copies_for(1 << 20, 50 << 20, 1 << 30), 8);
        assert_eq!(o.copies_for(0, 50 << 20, 0), 8);
    }

    #[test]
    fn bandwidth_is_bytes_over_time() {
        // 1 GB in 1 ms is 1000 GB/s.
        assert!((gbps(1e9, 1.0) - 1000.0).abs() < 1e-9);
        assert_eq!(gbps(1e9, 0.0), 0.0);
    }
}
