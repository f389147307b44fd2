pub mod analyze;
pub mod parse;
pub mod sim;
