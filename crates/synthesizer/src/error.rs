//! What can stop a synthesis. Every message names the place in the user's
//! file it is about, where there is one.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum SynthError {
    /// A malformed or misplaced annotation.
    #[error("{location}: {message}")]
    Annotation { location: String, message: String },
    /// The annotated file could not be read or lowered.
    #[error("{0}")]
    Input(String),
    /// The profile run of the annotated kernel did not complete.
    #[error("profile run: {0}")]
    Profile(String),
    /// No expression of the grammar meets the profile.
    #[error("{location}: {message}")]
    Search { location: String, message: String },
    /// A launch could not be set up or derived.
    #[error("{0}")]
    Launch(String),
}
