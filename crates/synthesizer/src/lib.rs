//! Shared-memory synthesis from annotated kernels: the PSySha method
//! (profile-based synthesis of shared-memory accesses, Kani 2019) in hone.
//!
//! The programmer states the shared-memory policy in the kernel; hone writes
//! the index and condition expressions and proves the result in the
//! emulator before handing it back:
//!
//! - **SHA**: a `__shared__` array and the copy into it are written by the
//!   user, and global reads are marked `__opt__in[...]`; each marked read
//!   becomes `cond ? sb[idx] : in[...]` (or `sb[idx]`), with `cond` and `idx`
//!   from the thesis's grammar, split into `c ? then : else` when no single
//!   index fits.
//! - **SHA-sleeve**: `__opt__(sb[...], in[...])` reads `sb[...]`, and the
//!   halo copies `if (cond) sb[...] = in[...];` are synthesized at
//!   `__insert()`.
//! - **Temporal blocking**: the user's blocked kernel with a global
//!   intermediate (`mid`) is annotated like SHA; once no read of `mid`
//!   remains, its stores are folded into the copies into shared memory, and
//!   the same-value writes of the overlapping halos are tolerated by the
//!   race checks.
//!
//! [`synthesize`] profiles the annotated kernel ([`profile`]), searches
//! ([`search`]), rewrites, emits CUDA C ([`emit`]) and verifies it on other
//! launches ([`verify`]), inserting `__syncthreads()` where a race shows one
//! is missing.

mod annotate;
mod data;
pub mod emit;
mod error;
mod launches;
mod lockstep;
pub mod profile;
pub mod queue;
mod render;
pub mod report;
mod rewrite;
pub mod search;
mod sites;
mod symbols;
mod synth;
pub mod tunable;
pub mod verify;
pub mod zchunk;

pub use data::{fill_distinct, fill_random};
pub use error::SynthError;
pub use hone_launch::LaunchData;
pub use sites::{load_file, load_source, AnnotatedKernel};
pub use synth::{synthesize, Options, SiteReport, Synthesis, VerificationReport};

/// The kernel [`synthesize`] writes for the annotated module `text`,
/// profiled on `launch` alone, where every check passed and it needs no
/// dynamic shared memory (so it launches as `launch` does); else why not.
/// What a caller that annotates kernels itself (the analyzer's
/// `shared-stencil` fix) asks of the synthesizer.
pub fn synthesize_checked(
    text: &str,
    kernel: &str,
    launch: &LaunchData,
    opts: &Options,
) -> Result<String, String> {
    let ak = load_source("annotated.cu", text, kernel, &Default::default())
        .map_err(|e| e.to_string())?;
    let s = synthesize(&ak, std::slice::from_ref(launch), opts).map_err(|e| e.to_string())?;
    if !s.verified || s.dynamic_shared.is_some() {
        return Err("the synthesized kernel did not pass its checks".to_string());
    }
    Ok(s.source)
}
