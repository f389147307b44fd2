//! CUDA C front end: preprocess a `.cu` file, parse it with tree-sitter-cuda, and
//! lower every `__global__` and `__device__` function into hone's typed IR.
//!
//! Constructs outside the supported subset become [`Diagnostic`]s naming file,
//! line, column and construct; the functions that contain them are skipped and
//! the rest of the file is still lowered.
//!
//! Typing follows CUDA C++ as nvcc compiles it: comparisons and `!`, `&&`,
//! `||` give `bool`, character literals are `char`, integer literals take the
//! first of C's candidate types that holds them, `<cmath>` overloads work in
//! float only when every argument is float. Every implicit conversion is an
//! explicit `Cast { implicit: true }`; conditions keep their own type. For
//! compound assignment the right side is converted to the type the operation
//! is done in (the promoted left type for shifts; for `p += n` on a pointer it
//! is the promoted integer).
//!
//! Some source forms lower to equivalent IR rather than to a node of their
//! own: file-scope integral constants, enumerators and the `<climits>` /
//! `<cfloat>` limits become literals; `__ldg(p)` is `*p`; fast-math spellings
//! (`__expf`, `__fdividef`, ...) are their plain operations; `threadIdx` as a
//! whole and `dim3 b(x, y)` are `MakeVector`s; `__syncwarp()` gets its default
//! full mask.
//!
//! C++ lowers the same way: a member function of a struct or class is a
//! function taking its object first (by value for a `const` member, by address
//! otherwise), named `S__name` (`S__ctor` for a constructor, which returns the
//! object it builds; `S__operator_add_assign` for a mutating operator); a
//! `const` member operator and a free one keep the name `operator+` and are
//! chosen by overload resolution, and the printer writes their calls as the
//! operator; a mutating member returning `*this` by reference returns nothing.
//! A `T&` parameter or local is a pointer read through (a `const T&` parameter
//! is the value, and a `const T&` bound to a temporary a copy); `auto` takes
//! its initializer's type; enums are their underlying integer type and
//! enumerators constants (`E::name` for scoped ones); names in namespaces
//! share the file's one scope; `static_assert` is checked when it folds.

mod consteval;
mod diagnostic;
mod dump;
mod literal;
mod lower;
pub mod preprocess;
mod roundtrip;
mod srcmap;
mod syntax;

use std::path::{Path, PathBuf};

pub use diagnostic::{Diagnostic, Severity};
pub use dump::dump;
use preprocess::{PreprocessError, PreprocessOptions, Preprocessed};
pub use roundtrip::{round_trip, RoundTripError};

/// Options of the whole front end; they are handed to the preprocessor.
#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`, in command-line order.
    pub defines: Vec<(String, Option<String>)>,
    /// Instances of function templates to make besides those the host code
    /// launches: `scan<256, float>`.
    pub instantiate: Vec<String>,
}

impl FrontendOptions {
    /// Options from nvcc-style `-D NAME[=VALUE]` words and `-I` directories.
    pub fn from_flags(defines: &[String], include_dirs: &[PathBuf]) -> FrontendOptions {
        FrontendOptions {
            include_dirs: include_dirs.to_vec(),
            defines: defines
                .iter()
                .map(|d| match d.split_once('=') {
                    Some((k, v)) => (k.to_string(), Some(v.to_string())),
                    None => (d.clone(), None),
                })
                .collect(),
            instantiate: Vec::new(),
        }
    }

    fn preprocess_options(&self) -> PreprocessOptions {
        PreprocessOptions {
            include_dirs: self.include_dirs.clone(),
            defines: self.defines.clone(),
        }
    }
}

/// The lowered module and everything that could not be lowered.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub module: hone_ir::Module,
    pub diagnostics: Vec<Diagnostic>,
    /// Instances made on request: the request as written normally
    /// (`scan<256, float>`) and the function that is it (`scan_256_float`).
    pub instances: Vec<(String, String)>,
}

impl Parsed {
    /// True when some function was skipped (or another error was reported).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The `__global__` function `name`; `file` names the source in the error.
    /// A template instance (`scan<256, float>`) is found by the name of its
    /// function, when the front end was asked for it or the host code launches it.
    pub fn kernel(&self, name: &str, file: &str) -> Result<&hone_ir::Function, KernelNotFound> {
        let name = self.function_name(name);
        let name = name.as_str();
        match self.module.kernel(name) {
            Some((_, f)) => Ok(f),
            None => Err(KernelNotFound {
                kernel: name.to_string(),
                file: file.to_string(),
                kernels: self.module.kernels().map(|k| k.name.clone()).collect(),
                errors: self
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .map(|d| d.to_string())
                    .collect(),
            }),
        }
    }
}

impl Parsed {
    /// The function a kernel name means: itself, or the instance a template
    /// name with arguments stands for.
    pub fn function_name(&self, name: &str) -> String {
        if !name.contains('<') {
            return name.to_string();
        }
        let normal = lower::normalize_request(name);
        self.instances
            .iter()
            .find(|(r, _)| *r == normal)
            .map(|(_, f)| f.clone())
            .unwrap_or_else(|| name.to_string())
    }
}

/// A launch or a command named a kernel the module does not have. The front
/// end's errors are part of the message because they usually say why: the
/// kernel was skipped.
#[derive(Clone, Debug, thiserror::Error)]
#[error(
    "kernel `{kernel}` not found in {file} (kernels: {}){}",
    if kernels.is_empty() { "none".to_string() } else { kernels.join(", ") },
    if errors.is_empty() { String::new() } else { format!("; the front end reported:\n  {}", errors.join("\n  ")) }
)]
pub struct KernelNotFound {
    pub kernel: String,
    pub file: String,
    pub kernels: Vec<String>,
    pub errors: Vec<String>,
}

/// Failures that stop the front end before lowering starts. Unsupported code is
/// not an error of this kind: it is reported in [`Parsed::diagnostics`].
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error(transparent)]
    Preprocess(#[from] PreprocessError),
}

/// Preprocesses, parses and lowers the file at `path`.
pub fn parse_file(path: &Path, opts: &FrontendOptions) -> Result<Parsed, FrontendError> {
    // Read first so an unreadable file is an I/O error, not a preprocessor one.
    std::fs::read(path).map_err(|e| FrontendError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let pre = preprocess::preprocess_file(path, &opts.preprocess_options())?;
    Ok(lower_preprocessed_with(&pre, opts))
}

/// Preprocesses, parses and lowers `text`; `name` is the file name used in
/// spans and diagnostics, and quoted includes are searched from its directory.
pub fn parse_source(
    name: &str,
    text: &str,
    opts: &FrontendOptions,
) -> Result<Parsed, FrontendError> {
    let base = Path::new(name)
        .parent()
        .filter(|p| !p.as_os_str().is_empty());
    let pre = preprocess::preprocess_str(name, text, base, &opts.preprocess_options())?;
    Ok(lower_preprocessed_with(&pre, opts))
}

/// Parses and lowers already-preprocessed text; `pre.lines` maps positions back
/// to the user's files.
pub fn lower_preprocessed(pre: &Preprocessed) -> Parsed {
    lower_preprocessed_with(pre, &FrontendOptions::default())
}

/// [`lower_preprocessed`] with the options' template instances made too.
pub fn lower_preprocessed_with(pre: &Preprocessed, opts: &FrontendOptions) -> Parsed {
    let requests = &opts.instantiate;
    // Lowering recurses over the syntax tree, up to a fixed nesting limit. A
    // thread of its own gives it a stack that holds that limit in any build
    // and on any caller's thread.
    let spawned = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("hone-frontend".into())
            .stack_size(LOWERING_STACK)
            .spawn_scoped(s, || lower::lower_translation_unit(pre, requests))
            .map(|h| h.join())
    });
    match spawned {
        Ok(Ok(parsed)) => parsed,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => lower::lower_translation_unit(pre, requests),
    }
}

const LOWERING_STACK: usize = 64 << 20;

/// A `Preprocessed` for text that needs no preprocessing: one file, each line
/// its own origin. Useful for tools and tests that lower generated code.
pub fn identity_preprocessed(name: &str, text: &str) -> Preprocessed {
    let n = text.lines().count().max(1) + 1;
    Preprocessed {
        text: text.to_string(),
        files: vec![name.to_string()],
        lines: (1..=n as u32)
            .map(|line| preprocess::LineOrigin { file: 0, line })
            .collect(),
    }
}
