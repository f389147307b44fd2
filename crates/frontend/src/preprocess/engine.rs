//! The preprocessor's state, and reading one file from start to end.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::expand::unquote;
use super::lexer::lex;
use super::macros::{parse_define, Builtin, Macro};
use super::output::{Frame, Output};
use super::source::{FileSource, Files, Mode};
use super::token::{Kind, Token};
use super::{PreprocessError, PreprocessOptions, Preprocessed};

/// Macros every translation unit starts with, as nvcc's device pass has them.
const PREDEFINED: &[(&str, &str)] = &[
    ("__CUDACC__", "1"),
    ("__NVCC__", "1"),
    ("__CUDA_ARCH__", "900"),
    ("__CUDACC_VER_MAJOR__", "12"),
    ("__CUDACC_VER_MINOR__", "0"),
    ("__cplusplus", "201703L"),
    // nvcc on Linux: programs choose their platform code by these.
    ("__linux__", "1"),
    ("__unix__", "1"),
    // As CUDA's headers define it; tree-sitter reads the attribute form.
    ("__align__(n)", "__attribute__((aligned(n)))"),
];

type Result<T> = std::result::Result<T, PreprocessError>;

pub(crate) struct Engine {
    pub opts: PreprocessOptions,
    pub macros: HashMap<Rc<str>, Rc<Macro>>,
    /// Names of the files read (and of those named by `#line`).
    pub files: Vec<String>,
    /// Files being read, innermost last.
    pub frames: Vec<Frame>,
    pub out: Output,
    /// Files that said `#pragma once`.
    pub once: HashSet<PathBuf>,
    /// Definitions saved by `#pragma push_macro`.
    pub pushed: HashMap<Rc<str>, Vec<Option<Rc<Macro>>>>,
    pub counter: u64,
    /// Tokens produced by expansions so far.
    pub produced: u64,
    /// Current nesting of argument pre-expansion.
    pub arg_depth: u32,
    /// Shared leads of expanded tokens.
    pub space: Rc<str>,
    pub no_space: Rc<str>,
}

impl Engine {
    pub fn new(opts: &PreprocessOptions) -> Result<Engine> {
        let mut eng = Engine {
            opts: opts.clone(),
            macros: HashMap::new(),
            files: Vec::new(),
            frames: Vec::new(),
            out: Output::default(),
            once: HashSet::new(),
            pushed: HashMap::new(),
            counter: 0,
            produced: 0,
            arg_depth: 0,
            space: " ".into(),
            no_space: "".into(),
        };
        for (name, b) in [
            ("__FILE__", Builtin::File),
            ("__LINE__", Builtin::Line),
            ("__COUNTER__", Builtin::Counter),
        ] {
            eng.macros.insert(name.into(), Rc::new(Macro::builtin(b)));
        }
        for (name, value) in PREDEFINED {
            eng.command_line_define(name, Some(value))?;
        }
        for (name, value) in opts.defines.clone() {
            eng.command_line_define(&name, value.as_deref())?;
        }
        Ok(eng)
    }

    /// `-D name=value`; `name` may carry a parameter list, as in `-D'F(x)=x'`.
    fn command_line_define(&mut self, name: &str, value: Option<&str>) -> Result<()> {
        let text = format!("#define {name} {}", value.unwrap_or("1")).replace(['\n', '\r'], " ");
        let error = |message: String| PreprocessError {
            file: "<command line>".into(),
            line: 1,
            col: 1,
            message: format!("invalid definition -D{name}: {message}"),
        };
        let lexed = lex(&text).map_err(|e| error(e.message))?;
        let toks = lexed
            .lines
            .into_iter()
            .next()
            .map(|l| l.toks)
            .unwrap_or_default();
        let Some(directive) = toks.get(1) else {
            return Err(error("no macro name given".into()));
        };
        let (macro_name, m) = parse_define(&toks[2..], directive).map_err(|e| error(e.message))?;
        self.macros.insert(macro_name, Rc::new(m));
        Ok(())
    }

    pub fn finish(mut self) -> Preprocessed {
        self.out.close();
        Preprocessed {
            text: self.out.text,
            files: self.files,
            lines: self.out.lines,
        }
    }

    pub fn file_index(&mut self, name: &str) -> u32 {
        let k = match self.files.iter().position(|f| f == name) {
            Some(k) => k,
            None => {
                self.files.push(name.to_string());
                self.files.len() - 1
            }
        };
        k as u32
    }

    /// Lexes a file and makes it the innermost one being read.
    pub fn open_file(
        &mut self,
        name: &str,
        text: &str,
        path: Option<PathBuf>,
        found_in: Option<usize>,
        resume_line: u32,
    ) -> Result<FileSource> {
        let presumed = self.file_index(name);
        let lexed = lex(text).map_err(|e| PreprocessError {
            file: name.to_string(),
            line: e.line,
            col: e.col,
            message: e.message,
        })?;
        let dir = path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        self.frames.push(Frame {
            presumed,
            delta: 0,
            next_line: 1,
            dir,
            path,
            found_in,
        });
        Ok(FileSource::new(lexed.lines, lexed.line_count, resume_line))
    }

    /// Preprocesses the main file; quoted includes are searched in `dir`.
    pub fn run_main(
        &mut self,
        name: &str,
        text: &str,
        path: Option<PathBuf>,
        dir: Option<PathBuf>,
    ) -> Result<()> {
        let main = self.open_file(name, text, path, None, 0)?;
        if let Some(fr) = self.frames.last_mut() {
            fr.dir = dir;
        }
        let mut files = Files::new(main);
        let mut pushback = Vec::new();
        while let Some(t) = self.next_expanded(&mut files, &mut pushback, Mode::Top)? {
            if t.kind == Kind::Ident && &*t.text == "_Pragma" {
                self.pragma_operator(&t, &mut files, &mut pushback)?;
            } else if let Some(fr) = self.frames.last_mut() {
                self.out.token(fr, &t);
            }
        }
        Ok(())
    }

    /// `_Pragma("...")` becomes a `#pragma` line of its own.
    fn pragma_operator(
        &mut self,
        at: &Token,
        files: &mut Files,
        pushback: &mut Vec<Token>,
    ) -> Result<()> {
        let mut operand = Vec::new();
        for _ in 0..3 {
            operand.extend(self.next_expanded(files, pushback, Mode::Args)?);
        }
        let text = match operand.as_slice() {
            [open, lit, close]
                if open.is_punct("(") && close.is_punct(")") && lit.kind == Kind::Str =>
            {
                lit.text
                    .strip_prefix('L')
                    .and_then(unquote)
                    .or_else(|| unquote(&lit.text))
            }
            _ => None,
        };
        let Some(text) = text else {
            return Err(self.error_at(at, "_Pragma takes a parenthesized string literal"));
        };
        if let Some(fr) = self.frames.last_mut() {
            self.out.own_line(fr, at.line, &format!("#pragma {text}"));
        }
        Ok(())
    }

    /// Finishes the innermost file: its groups must be closed, and its
    /// includer goes on after the `#include` line.
    pub fn end_file(&mut self, fs: &FileSource) -> Result<()> {
        if let Some(c) = fs.conds.last() {
            return Err(self.error_pos(c.line, c.col, format!("unterminated #{}", c.directive)));
        }
        if let Some(fr) = self.frames.last_mut() {
            self.out.fill_through(fr, fs.line_count);
        }
        self.frames.pop();
        if let Some(fr) = self.frames.last_mut() {
            fr.next_line = fr.next_line.max(fs.resume_line);
        }
        Ok(())
    }

    /// An error at physical `line` and `col` of the current file, reported
    /// with the names and numbers `#line` gave.
    pub fn error_pos(&self, line: u32, col: u32, message: impl Into<String>) -> PreprocessError {
        let (file, line) = match self.frames.last() {
            Some(fr) => (
                self.files
                    .get(fr.presumed as usize)
                    .cloned()
                    .unwrap_or_default(),
                fr.presumed_line(line),
            ),
            None => ("<command line>".to_string(), line),
        };
        PreprocessError {
            file,
            line,
            col,
            message: message.into(),
        }
    }

    pub fn error_at(&self, t: &Token, message: impl Into<String>) -> PreprocessError {
        self.error_pos(t.line, t.col, message)
    }

    pub fn presumed_file_name(&self) -> String {
        self.frames
            .last()
            .and_then(|fr| self.files.get(fr.presumed as usize))
            .cloned()
            .unwrap_or_default()
    }

    pub fn presumed_line(&self, phys: u32) -> u32 {
        self.frames.last().map_or(phys, |fr| fr.presumed_line(phys))
    }
}
