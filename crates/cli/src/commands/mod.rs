pub mod analyze;
pub mod gpurun;
pub mod parse;
pub mod refit;
pub mod report;
pub mod rule;
pub mod sim;
pub mod tune;
