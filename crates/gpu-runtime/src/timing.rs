//! Timing device work with CUDA events: warm-up, many repetitions, an
//! optional L2 flush before each, and rotation over copies of the data.

use serde::{Deserialize, Serialize};

use crate::device::Gpu;
use crate::error::Result;
use crate::launch::{DeviceBuffer, Event};
use crate::stats::Stats;

/// How to time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TimingOptions {
    /// Untimed runs first: module load, clocks ramping, TLB warm-up.
    pub warmup: u32,
    /// Timed runs; the median is the result.
    pub reps: u32,
    /// Overwrite a buffer larger than L2 before each timed run, so no run
    /// starts with its data in cache.
    pub flush_l2: bool,
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
            copies: None,
        }
    }
}

impl TimingOptions {
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

/// Device memory used to evict L2 between timed runs.
pub struct L2Flusher {
    buffer: DeviceBuffer,
    round: u8,
}

impl L2Flusher {
    /// A buffer of twice the L2 size (at least 8 MiB when L2 is unknown).
    pub fn new(gpu: &Gpu) -> Result<L2Flusher> {
        let bytes = (2 * gpu.props().l2_cache_bytes as usize).max(8 << 20);
        Ok(L2Flusher {
            buffer: DeviceBuffer::alloc(gpu, bytes)?,
            round: 0,
        })
    }

    /// Enqueues the overwrite; a different byte each time so no write is elided.
    pub fn flush(&mut self, gpu: &Gpu) -> Result<()> {
        self.round = self.round.wrapping_add(1);
        self.buffer.fill_async(gpu, self.round)
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
            f.flush(gpu)?;
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
