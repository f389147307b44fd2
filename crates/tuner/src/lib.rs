//! hone-tuner: the auto-tuning engine.

pub mod config;
pub mod db;
pub mod dspline;
pub mod expr;
pub mod job;
pub mod measure;
pub mod plot;
pub mod replay;
pub mod rule;
pub mod sampling;
pub mod space;
pub mod strategy;
pub mod synthetic;
