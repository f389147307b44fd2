//! hone-report: one self-contained HTML file per report (no network needed
//! to view it), for memory-access analyses, tuning runs and the benchmarks of
//! the tuned routines. The pages are
//! built from the same serialisable reports the commands write as JSON, so
//! a recorded run renders the same page as a live one.
//!
//! - [`page`]: the page skeleton (inline styles and scripts, light and dark,
//!   sortable accessible tables, script errors surfaced in the DOM);
//! - [`analysis`](mod@analysis): the memory-access analysis page;
//! - [`bench`](mod@bench): the routine benchmark page;
//! - [`tuning`](mod@tuning): the page of a tuning run.

pub mod analysis;
pub mod bench;
pub mod page;
pub mod tuning;

pub use analysis::analysis_page;
pub use bench::bench_page;
pub use tuning::tuning_page;
