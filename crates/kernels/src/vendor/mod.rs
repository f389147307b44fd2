//! The vendor libraries hone's routines are measured against.

pub mod cublas;
