//! Kernels tuned by hone, each with its parameter space, its correctness
//! checks and a benchmark against the vendor library.
//!
//! - [`routine`]: what every routine shares (rules, checked runs against the
//!   vendor, benchmarks, reports, charts) and the registry of routines;
//!
//! - [`symv`]: the symmetric matrix-vector product y = alpha A x + beta y in
//!   double and single precision, lower and upper storage (the atomic and the
//!   L+U algorithms of Imamura et al., HPC-138, 2013, with Hopper-era
//!   changes), measured against cuBLAS `?symv` and `?gemv` in the same run.

//! - [`backend`]: the evaluator a tuning job gets for what it names, a
//!   kernel template or one of the routines here.

pub mod backend;
pub mod driver;
pub mod fft;
pub mod gemm;
pub mod precision;
pub mod routine;
pub mod symv;
pub mod vendor;
