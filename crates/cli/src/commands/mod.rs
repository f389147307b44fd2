pub mod parse;
pub mod sim;
