//! C preprocessor (to be written).
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default)]
pub struct PreprocessOptions {
    /// `-I` directories, searched after the including file's own directory.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`, in command-line order. `None` defines NAME as `1`.
    pub defines: Vec<(String, Option<String>)>,
}

/// Origin of one output line in the user's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOrigin {
    /// Index into `Preprocessed::files`.
    pub file: u32,
    /// 1-based line in that file.
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct Preprocessed {
    pub text: String,
    /// Files read, the main file first.
    pub files: Vec<String>,
    /// `lines[i]` is the origin of output line `i + 1`.
    pub lines: Vec<LineOrigin>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct PreprocessError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

pub fn preprocess_file(_path: &Path, _opts: &PreprocessOptions) -> Result<Preprocessed, PreprocessError> {
    unimplemented!()
}

/// `name` is used in messages; quoted includes are resolved relative to `base_dir`.
pub fn preprocess_str(
    _name: &str,
    _text: &str,
    _base_dir: Option<&Path>,
    _opts: &PreprocessOptions,
) -> Result<Preprocessed, PreprocessError> {
    unimplemented!()
}
