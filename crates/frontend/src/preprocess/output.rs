//! The preprocessed text and its line map. Every output line is one physical
//! line of some file: tokens are written on the line they came from (an
//! expansion on its invocation's line), and lines with nothing to show stay
//! empty, so the line map stays one-to-one with the user's lines.

use std::path::PathBuf;
use std::rc::Rc;

use super::lexer::lexes_apart;
use super::token::Token;
use super::LineOrigin;

/// A file being read.
pub(crate) struct Frame {
    /// Index in `files` of the file's name, or of the name `#line` gave.
    pub presumed: u32,
    /// Added to physical line numbers by `#line`.
    pub delta: i64,
    /// The next physical line that has no output line yet.
    pub next_line: u32,
    /// Directory searched first for quoted includes.
    pub dir: Option<PathBuf>,
    pub path: Option<PathBuf>,
    /// Index of the `-I` directory the file was found in (for `#include_next`).
    pub found_in: Option<usize>,
}

impl Frame {
    pub fn presumed_line(&self, phys: u32) -> u32 {
        (i64::from(phys) + self.delta).clamp(1, i64::from(u32::MAX)) as u32
    }

    fn origin(&self, phys: u32) -> LineOrigin {
        LineOrigin {
            file: self.presumed,
            line: self.presumed_line(phys),
        }
    }
}

struct Last {
    text: Rc<str>,
    line: u32,
    end_col: u32,
    from_macro: bool,
}

#[derive(Default)]
pub(crate) struct Output {
    pub text: String,
    pub lines: Vec<LineOrigin>,
    /// Physical line (of the innermost frame) of the line being written.
    open: Option<u32>,
    /// Characters written on the open line.
    line_chars: u32,
    last: Option<Last>,
}

impl Output {
    pub fn close(&mut self) {
        if self.open.take().is_some() {
            self.text.push('\n');
        }
        self.line_chars = 0;
        self.last = None;
    }

    fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
        self.line_chars += s.chars().count() as u32;
    }

    /// Makes physical line `p` the open line unless it (or a later one) is
    /// open already; returns whether a new line was started.
    fn goto_line(&mut self, fr: &mut Frame, p: u32) -> bool {
        if self.open.is_some_and(|q| q >= p) {
            return false;
        }
        self.close();
        let p = p.max(fr.next_line);
        for l in fr.next_line..p {
            self.lines.push(fr.origin(l));
            self.text.push('\n');
        }
        self.lines.push(fr.origin(p));
        self.open = Some(p);
        fr.next_line = p + 1;
        true
    }

    /// Closes the open line and writes empty lines up to physical line `e`.
    pub fn fill_through(&mut self, fr: &mut Frame, e: u32) {
        self.close();
        for l in fr.next_line..=e {
            self.lines.push(fr.origin(l));
            self.text.push('\n');
        }
        fr.next_line = fr.next_line.max(e.saturating_add(1));
    }

    /// Writes `text` as the whole of physical line `p` (a `#pragma`).
    pub fn whole_line(&mut self, fr: &mut Frame, p: u32, text: &str) {
        self.goto_line(fr, p);
        self.push_str(text);
        self.close();
    }

    /// Writes `text` as an output line of its own amid physical line `p`
    /// (a `_Pragma`); what follows goes on a new output line of the same
    /// origin.
    pub fn own_line(&mut self, fr: &mut Frame, p: u32, text: &str) {
        self.goto_line(fr, p);
        let Some(q) = self.open else {
            return;
        };
        if self.line_chars > 0 {
            self.text.push('\n');
            self.lines.push(fr.origin(q));
        }
        self.text.push_str(text);
        self.text.push('\n');
        self.lines.push(fr.origin(q));
        self.line_chars = 0;
        self.last = None;
    }

    pub fn token(&mut self, fr: &mut Frame, t: &Token) {
        let opened = self.goto_line(fr, t.line);
        // Source tokens go back to their own column when what came before
        // them on the line (an expansion, say) is not longer than it was.
        let lead_len = t.lead.chars().count() as u32;
        let pad = if opened || !t.from_macro {
            t.col
                .saturating_sub(1)
                .saturating_sub(lead_len)
                .saturating_sub(self.line_chars)
        } else {
            0
        };
        self.push_str(&" ".repeat(pad as usize));
        self.push_str(&t.lead);
        if !opened && pad == 0 && t.lead.is_empty() {
            if let Some(last) = &self.last {
                let adjacent_in_source = !last.from_macro
                    && !t.from_macro
                    && last.line == t.line
                    && last.end_col == t.col;
                if !adjacent_in_source && !lexes_apart(&last.text, &t.text) {
                    self.push_str(" ");
                }
            }
        }
        self.push_str(&t.text);
        self.last = Some(Last {
            text: t.text.clone(),
            line: t.line,
            end_col: t.col + t.text.chars().count() as u32,
            from_macro: t.from_macro,
        });
    }
}
