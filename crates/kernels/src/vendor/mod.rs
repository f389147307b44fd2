//! The vendor libraries hone's routines are measured against, and the one
//! whose integer products the INT8 emulation runs on.

pub mod cublas;
pub mod cublaslt;
