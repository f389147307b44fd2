//! Launch files: a kernel, its grid and block, and how to fill each argument,
//! as `hone sim`, `hone analyze`, `hone synth` and `hone gpu-run` read them.
//!
//! A [`Launch`] is read from JSON ([`file`] holds the format), its source is
//! parsed with the front end, and it is resolved against the kernel's
//! parameters into a [`LaunchData`]: the emulator's configuration, arguments
//! and initialised buffers. Every error names the launch file or the argument
//! at fault.

mod buffers;
mod compare;
mod data;
pub mod file;
mod json;
mod launch;
pub mod run_report;
pub mod saved;

pub use buffers::parse_type;
pub use compare::{difference, Difference};
pub use data::LaunchData;
pub use json::buffer_to_json;
pub use launch::{Launch, LaunchError};
