//! CUDA C front end: preprocess a `.cu` file, parse it with tree-sitter-cuda, and
//! lower every `__global__` and `__device__` function into hone's typed IR.
//!
//! Constructs outside the supported subset become [`Diagnostic`]s naming file,
//! line, column and construct; the functions that contain them are skipped and
//! the rest of the file is still lowered.

pub mod preprocess;
