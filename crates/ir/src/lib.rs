//! hone's typed intermediate representation of CUDA C device code.
//!
//! The front end lowers `__global__` and `__device__` functions into this IR with
//! every type resolved and every implicit conversion explicit; the emulator runs
//! it, the analyzer and synthesizer read and rewrite it, and `print` turns it back
//! into CUDA C that NVRTC compiles. Spans are kept on every node for reports but
//! are ignored by equality, so `parse(print(m)) == m` is the round-trip property.

pub mod build;
mod expr;
mod module;
pub mod path;
pub mod print;
mod span;
mod types;
pub mod visit;

pub use expr::*;
pub use module::*;
pub use span::Span;
pub use types::*;
