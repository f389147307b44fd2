//! The printer's contract with the front end: a lowered module, printed as
//! CUDA C and read again, is the same module. The fuzzer, the differential
//! tester and the front end's own tests hold the printer to it.
//!
//! Spans differ (the print has its own layout), and so may variable names:
//! the printer renames a variable whose name C would read differently or
//! that is not an identifier it can write (see `hone_ir::print`). What the
//! renaming may not do is change which variable a use means, so the
//! comparison keeps every `VarId` and drops only the names; and printing
//! the module read back must give the same text again.

use std::fmt;

use crate::{parse_source, FrontendOptions, Parsed, Severity};

/// How a round trip failed; each variant carries the printed text.
#[derive(Debug)]
pub enum RoundTripError {
    /// The print does not preprocess.
    Preprocess { message: String, printed: String },
    /// The print lowers with an error.
    DoesNotLower { error: String, printed: String },
    /// Printing the module read back gives other text.
    Unstable { printed: String, reprinted: String },
    /// The module read back differs from the first (dumps of both).
    Changed {
        before: String,
        after: String,
        printed: String,
    },
}

impl fmt::Display for RoundTripError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundTripError::Preprocess { message, printed } => {
                write!(f, "the printed module does not preprocess: {message}\n{printed}")
            }
            RoundTripError::DoesNotLower { error, printed } => {
                write!(f, "the printed module does not lower: {error}\n{printed}")
            }
            RoundTripError::Unstable { printed, reprinted } => write!(
                f,
                "printing the module read back gave other text\nfirst:\n{printed}\nsecond:\n{reprinted}"
            ),
            RoundTripError::Changed {
                before,
                after,
                printed,
            } => {
                let (a, b) = (without_spans(before), without_spans(after));
                let line = a
                    .lines()
                    .zip(b.lines())
                    .position(|(x, y)| x != y)
                    .unwrap_or_else(|| a.lines().count().min(b.lines().count()));
                write!(
                    f,
                    "the round trip changed the module at dump line {}\n  before: {}\n  after:  {}\nprinted:\n{printed}",
                    line + 1,
                    a.lines().nth(line).unwrap_or("<end>"),
                    b.lines().nth(line).unwrap_or("<end>"),
                )
            }
        }
    }
}

impl std::error::Error for RoundTripError {}

/// Prints `parsed`'s module, reads the print back as file `name` and checks
/// the contract; returns the module read back.
pub fn round_trip(
    name: &str,
    parsed: &Parsed,
    opts: &FrontendOptions,
) -> Result<Parsed, RoundTripError> {
    let printed = hone_ir::print::print_module(&parsed.module);
    let again = parse_source(name, &printed, opts).map_err(|e| RoundTripError::Preprocess {
        message: e.to_string(),
        printed: printed.clone(),
    })?;
    if let Some(d) = again
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
    {
        return Err(RoundTripError::DoesNotLower {
            error: d.to_string(),
            printed,
        });
    }
    let reprinted = hone_ir::print::print_module(&again.module);
    if reprinted != printed {
        return Err(RoundTripError::Unstable { printed, reprinted });
    }
    if without_variable_names(&parsed.module) != without_variable_names(&again.module) {
        return Err(RoundTripError::Changed {
            before: crate::dump(&parsed.module),
            after: crate::dump(&again.module),
            printed,
        });
    }
    Ok(again)
}

fn without_variable_names(m: &hone_ir::Module) -> hone_ir::Module {
    let mut m = m.clone();
    for f in &mut m.functions {
        for v in &mut f.vars {
            v.name.clear();
        }
    }
    m
}

/// A dump without its `@line:col` positions, which printing changes.
fn without_spans(dump: &str) -> String {
    dump.lines()
        .map(|l| match l.rfind(" @") {
            Some(i) if l[i + 2..].chars().all(|c| c.is_ascii_digit() || c == ':') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}
