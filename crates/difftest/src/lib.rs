//! Differential testing of hone against the GPU. Random kernels within
//! hone's subset, well defined for every input (no signed overflow, guarded
//! divisions and shifts, float-to-integer conversions in range, barriers and
//! warp collectives only in converged code, atomics whose results do not
//! depend on the order of threads), go through hone's front end, the printer
//! and a second parse, the emulator and NVRTC; on a GPU each runs as
//! generated and as hone prints it, and every output bit is compared with the
//! emulator's (NaNs equal to each other). A kernel that differs is built
//! again without the GPU compiler's optimisations (ptxas's first, then all):
//! when that build gives the emulator's values, the case is `compiler` (the
//! optimised code is what departs from C++), otherwise `mismatch`. Either is
//! reduced by delta debugging to a small kernel saved as a `.cu` file.

pub mod ast;
pub mod check;
pub mod compile;
pub mod device;
pub mod gen;
pub mod pipeline;
pub mod reduce;
pub mod runner;
