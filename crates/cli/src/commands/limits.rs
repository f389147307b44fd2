//! The emulator's limits as command-line flags, shared by every command that
//! emulates, and the progress line a long emulation shows.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use clap::Args;
use hone_emulator::{Limits, Options, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

#[derive(Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Most warp instructions a launch may execute, and any one of its warps
    /// (default: 2^32 for the launch, 2^28 for a warp)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_steps: Option<u64>,
    /// Most bytes a launch may hold: its buffers and variables, and a block's
    /// shared and local memory; a number with an optional K, M or G suffix
    /// (default: 4G)
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Most seconds a launch may run; 0 for no limit (default: 600)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Deepest chain of device-function calls (default: 256, at most 2047)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=2047))]
    pub max_call_depth: Option<u32>,
}

impl LimitArgs {
    pub fn limits(&self) -> Limits {
        let mut l = Limits::default();
        if let Some(n) = self.max_steps {
            l.max_steps = n;
        }
        if let Some(b) = self.max_memory {
            l.max_memory = b;
        }
        if let Some(s) = self.time_limit {
            l.time_limit = (s > 0.0).then(|| Duration::from_secs_f64(s));
        }
        if let Some(d) = self.max_call_depth {
            l.max_call_depth = d;
        }
        l
    }

    /// Sets `opts` to these limits; `--max-steps` bounds each warp too.
    pub fn apply(&self, opts: &mut Options) {
        opts.limits = self.limits();
        if let Some(n) = self.max_steps {
            opts.max_thread_steps = n;
        }
    }
}

/// Bytes: a whole number with an optional binary K, M, G or T suffix.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("`{text}`: the suffix must be K, M, G or T")),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a number of bytes (such as 512M or 8G)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is more bytes than 64 bits hold"))
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        // Past a century the limit is none in practice, and Duration would overflow.
        Ok(s) if s.is_finite() && (0.0..=3.2e9).contains(&s) => Ok(s),
        _ => Err(format!(
            "`{text}` is not a number of seconds between 0 and 3.2e9"
        )),
    }
}

/// A progress line on standard error for an emulation that runs for more
/// than a second, while standard error is a terminal; nothing otherwise.
/// Dropping it removes the line.
pub struct Watch {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watch {
    pub fn start(progress: &Progress) -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        let thread = std::io::stderr().is_terminal().then(|| {
            let (stop, progress) = (stop.clone(), progress.clone());
            std::thread::spawn(move || show(&stop, &progress))
        });
        Watch { stop, thread }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn show(stop: &AtomicBool, progress: &Progress) {
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if start.elapsed() < Duration::from_secs(1) {
            continue;
        }
        let s = progress.snapshot();
        let b = bar.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(
                    "emulating [{elapsed}] {wide_bar} {pos}/{len} blocks, {msg}",
                )
                .expect("a valid template"),
            );
            b
        });
        b.set_length(s.blocks_total);
        b.set_position(s.blocks_done);
        b.set_message(format!(
            "{:.3e} warp instructions",
            s.warp_instructions as f64
        ));
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes_take_binary_suffixes_and_refuse_overflow() {
        assert_eq!(parse_bytes("300"), Ok(300));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("8g"), Ok(8 << 30));
        assert!(parse_bytes("99999999999T").is_err());
        assert!(parse_bytes("12Q").unwrap_err().contains("suffix"));
        assert!(parse_bytes("lots").is_err());
    }

    #[test]
    fn flags_override_the_emulator_defaults() {
        let args = LimitArgs {
            max_steps: Some(1000),
            max_memory: None,
            time_limit: Some(0.0),
            max_call_depth: Some(8),
        };
        let mut opts = Options::default();
        args.apply(&mut opts);
        assert_eq!(opts.limits.max_steps, 1000);
        assert_eq!(opts.max_thread_steps, 1000);
        assert_eq!(opts.limits.max_memory, hone_emulator::DEFAULT_MAX_MEMORY);
        assert_eq!(opts.limits.time_limit, None);
        assert_eq!(opts.limits.max_call_depth, 8);
        assert_eq!(
            LimitArgs::default().limits().time_limit,
            Some(hone_emulator::DEFAULT_TIME_LIMIT)
        );
        assert!(parse_seconds("-1").is_err() && parse_seconds("nan").is_err());
    }
}
