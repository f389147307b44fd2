//! printer: to be written
