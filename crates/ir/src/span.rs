//! Source positions. Lines and columns are 1-based and refer to the original
//! file (before preprocessing), so reports point where the user wrote the code.

use serde::{Deserialize, Serialize};

#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Span {
    /// Index into `Module::files`.
    pub file: u32,
    pub line: u32,
    pub col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

impl Span {
    pub fn point(file: u32, line: u32, col: u32) -> Span {
        Span {
            file,
            line,
            col,
            end_line: line,
            end_col: col,
        }
    }
}
