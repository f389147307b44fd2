//! Where the expander reads tokens from: a file (whose directives are
//! carried out as its lines are reached) or a finished list of tokens.

use std::collections::VecDeque;

use super::engine::Engine;
use super::lexer::Line;
use super::token::Token;
use super::PreprocessError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Tokens go straight to the output: every directive may run.
    Top,
    /// Inside a macro's arguments: directives that write output cannot run.
    Args,
}

pub(crate) trait TokenSource {
    fn next(&mut self, eng: &mut Engine, mode: Mode) -> Result<Option<Token>, PreprocessError>;

    /// Whether the next token is `(`, consuming nothing; a directive line
    /// ends the search, since a macro invocation cannot reach past it.
    fn peek_lparen(&mut self) -> bool;
}

pub(crate) struct VecSource {
    toks: std::iter::Peekable<std::vec::IntoIter<Token>>,
}

impl VecSource {
    pub fn new(toks: Vec<Token>) -> Self {
        VecSource {
            toks: toks.into_iter().peekable(),
        }
    }
}

impl TokenSource for VecSource {
    fn next(&mut self, _eng: &mut Engine, _mode: Mode) -> Result<Option<Token>, PreprocessError> {
        Ok(self.toks.next())
    }

    fn peek_lparen(&mut self) -> bool {
        self.toks.peek().is_some_and(|t| t.is_punct("("))
    }
}

/// An open `#if` group.
pub(crate) struct Cond {
    /// Lines of the current branch are kept.
    pub active: bool,
    /// Some branch was taken already (or the whole group is skipped).
    pub taken: bool,
    pub parent_active: bool,
    pub seen_else: bool,
    pub directive: &'static str,
    pub line: u32,
    pub col: u32,
}

/// A file being read: its lines not yet reached and its open groups.
pub(crate) struct FileSource {
    lines: Vec<Line>,
    idx: usize,
    pending: VecDeque<Token>,
    pub conds: Vec<Cond>,
    /// Physical lines in the file.
    pub line_count: u32,
    /// The including file's line that follows the `#include`.
    pub resume_line: u32,
}

impl FileSource {
    pub fn new(lines: Vec<Line>, line_count: u32, resume_line: u32) -> Self {
        FileSource {
            lines,
            idx: 0,
            pending: VecDeque::new(),
            conds: Vec::new(),
            line_count,
            resume_line,
        }
    }

    pub fn skipping(&self) -> bool {
        self.conds.last().is_some_and(|c| !c.active)
    }

    fn take_line(&mut self) -> Option<Line> {
        let line = self.lines.get_mut(self.idx)?;
        self.idx += 1;
        Some(Line {
            toks: std::mem::take(&mut line.toks),
            first: line.first,
            last: line.last,
        })
    }

    fn peek_lparen(&mut self) -> bool {
        loop {
            if let Some(t) = self.pending.front() {
                return t.is_punct("(");
            }
            let skipping = self.skipping();
            let Some(line) = self.lines.get_mut(self.idx) else {
                return false;
            };
            if is_directive(line) {
                return false;
            }
            self.idx += 1;
            if !skipping {
                self.pending.extend(std::mem::take(&mut line.toks));
            }
        }
    }
}

fn is_directive(line: &Line) -> bool {
    line.toks.first().is_some_and(|t| t.is_punct("#"))
}

/// The files being read, the innermost `#include` last. A stack rather than
/// recursion, so that deep include chains cannot exhaust the call stack.
pub(crate) struct Files {
    stack: Vec<FileSource>,
}

impl Files {
    pub fn new(main: FileSource) -> Self {
        Files { stack: vec![main] }
    }
}

impl TokenSource for Files {
    fn next(&mut self, eng: &mut Engine, mode: Mode) -> Result<Option<Token>, PreprocessError> {
        loop {
            let Some(top) = self.stack.last_mut() else {
                return Ok(None);
            };
            if let Some(t) = top.pending.pop_front() {
                return Ok(Some(t));
            }
            if let Some(line) = top.take_line() {
                if is_directive(&line) {
                    if let Some(included) = eng.directive(top, line, mode)? {
                        self.stack.push(included);
                    }
                } else if !top.skipping() {
                    top.pending.extend(line.toks);
                }
                continue;
            }
            // Macro arguments cannot run past the end of a file.
            if mode == Mode::Args {
                return Ok(None);
            }
            eng.end_file(top)?;
            self.stack.pop();
        }
    }

    fn peek_lparen(&mut self) -> bool {
        self.stack.last_mut().is_some_and(FileSource::peek_lparen)
    }
}
