//! The C preprocessor of the CUDA front end.
//!
//! It implements translation phases 1 to 4 of C: line splicing, comment
//! removal, `#define`/`#undef` with `#`, `##`, variadic macros (with GNU
//! `, ## __VA_ARGS__` and C++20 `__VA_OPT__`) and C's rule that a macro is not
//! expanded inside its own expansion, conditional groups with full integer
//! constant expressions, `#include` (quoted ones from the including file's
//! directory, then the `-I` directories; system and CUDA headers that are not
//! found are skipped), `#include_next`, `#line`, `#error` and `#pragma`.
//! Pragmas are passed through for the parser, except `once` and
//! `push_macro`/`pop_macro`, which are carried out; the operand of
//! `#pragma unroll` is macro-expanded, since nvcc evaluates it as a constant
//! expression, and `_Pragma("...")` becomes a `#pragma` line of its own.
//!
//! The output keeps one line per line of input: directives and skipped lines
//! become empty lines, an expansion is written on its invocation's line, and
//! an included file's lines take the place of the `#include`. Unexpanded
//! tokens keep their columns: after an expansion that is shorter than its
//! invocation, the rest of the line is padded back to its place.
//! [`Preprocessed::lines`] maps every output line back to a file and line.
//!
//! Predefined: `__CUDACC__`, `__NVCC__`, `__CUDA_ARCH__` (900, the device
//! pass), `__CUDACC_VER_MAJOR__`/`__CUDACC_VER_MINOR__`, `__cplusplus`
//! (201703L), `__linux__` and `__unix__` (the host side of nvcc on Linux, by
//! which programs choose platform code), `__align__(n)` (as `__attribute__((aligned(n)))`, as CUDA's
//! headers have it), `__FILE__`, `__LINE__` and `__COUNTER__`. In `#if`, `true` is 1,
//! `defined` and `__has_include` work, and the other `__has_*` operators are 0.
//!
//! Not supported: digraphs, C++11 raw string literals that contain a `"` or
//! span lines, and `#include`, `#pragma` or `#line` inside the arguments of a
//! macro invocation (an error).

mod directives;
mod engine;
mod expand;
mod expr;
mod include;
mod lexer;
mod macros;
mod output;
mod source;
mod token;

use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default)]
pub struct PreprocessOptions {
    /// `-I` directories, searched after the including file's own directory.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`, in command-line order. `None` defines NAME as `1`.
    /// NAME may carry a parameter list (`F(x)`); these come after the
    /// predefined macros and may replace them.
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
    /// One line per entry of `lines`, each ending in a newline.
    pub text: String,
    /// Files read, the main file first (with names given by `#line`).
    pub files: Vec<String>,
    /// `lines[i]` is the origin of output line `i + 1`.
    pub lines: Vec<LineOrigin>,
}

impl Preprocessed {
    /// File name and line of 1-based output line `line`.
    pub fn origin_of(&self, line: u32) -> Option<(&str, u32)> {
        let o = self.lines.get((line as usize).checked_sub(1)?)?;
        Some((self.files.get(o.file as usize)?.as_str(), o.line))
    }
}

/// An error stops preprocessing. `line` and `col` (1-based, in characters)
/// are 0 when the file could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct PreprocessError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// Preprocesses the file at `path`; its name in messages and `files` is
/// `path` as given.
pub fn preprocess_file(
    path: &Path,
    opts: &PreprocessOptions,
) -> Result<Preprocessed, PreprocessError> {
    let name = path.to_string_lossy().into_owned();
    let bytes = std::fs::read(path).map_err(|e| PreprocessError {
        file: name.clone(),
        line: 0,
        col: 0,
        message: format!("cannot read file: {e}"),
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let dir = path.parent().map(Path::to_path_buf);
    run(&name, &text, Some(path.to_path_buf()), dir, opts)
}

/// `name` is used in messages; quoted includes are resolved relative to `base_dir`.
pub fn preprocess_str(
    name: &str,
    text: &str,
    base_dir: Option<&Path>,
    opts: &PreprocessOptions,
) -> Result<Preprocessed, PreprocessError> {
    run(name, text, None, base_dir.map(Path::to_path_buf), opts)
}

fn run(
    name: &str,
    text: &str,
    path: Option<PathBuf>,
    dir: Option<PathBuf>,
    opts: &PreprocessOptions,
) -> Result<Preprocessed, PreprocessError> {
    let mut eng = engine::Engine::new(opts)?;
    eng.run_main(name, text, path, dir)?;
    Ok(eng.finish())
}
