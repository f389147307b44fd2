//! Diagnostics: what could not be lowered, and where.

use std::fmt;

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The function containing the construct was not lowered.
    Error,
    /// The function was lowered, but something in it was dropped or approximated.
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One message about the input, positioned in the user's original file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub col: u32,
    /// Short name of the construct (`goto`, `template`, `printf`, ...).
    pub construct: String,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {} ({})",
            self.file,
            self.line,
            self.col,
            self.severity.as_str(),
            self.message,
            self.construct
        )
    }
}
