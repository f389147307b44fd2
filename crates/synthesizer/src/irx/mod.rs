//! IR helpers: typed construction and traversal.

pub mod build;
pub mod walk;
