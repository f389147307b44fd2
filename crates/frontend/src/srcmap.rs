//! Maps positions in the preprocessed text back to the user's files.

use hone_ir::Span;
use tree_sitter::{Node, Point};

use crate::preprocess::Preprocessed;

pub(crate) struct SourceMap<'a> {
    text: &'a str,
    pre: &'a Preprocessed,
    /// Byte offset of the start of each line of `text`.
    line_starts: Vec<usize>,
    /// Offsets of bytes of `text` that are not in the preprocessed text
    /// (parentheses a repair added), sorted: columns after them move back.
    added: Vec<usize>,
}

impl<'a> SourceMap<'a> {
    /// The map of `text`, which is `pre`'s text with bytes added at the
    /// sorted offsets `added` (no line breaks among them; none for `pre`'s
    /// own text).
    pub fn with_added(pre: &'a Preprocessed, text: &'a str, added: Vec<usize>) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceMap {
            text,
            pre,
            line_starts,
            added,
        }
    }

    pub fn file_name(&self, file: u32) -> String {
        self.pre
            .files
            .get(file as usize)
            .cloned()
            .unwrap_or_else(|| "<input>".to_string())
    }

    /// (file, line, column) of a point; the column counts characters of the
    /// preprocessed line, which is the original column except inside expansions.
    pub fn locate(&self, p: Point) -> (u32, u32, u32) {
        let (file, line) = match self.pre.lines.get(p.row) {
            Some(o) => (o.file, o.line),
            None => (0, p.row as u32 + 1),
        };
        let start = self
            .line_starts
            .get(p.row)
            .copied()
            .unwrap_or(self.text.len());
        let end = (start + p.column).min(self.text.len());
        let col = match self.text.get(start..end) {
            Some(s) if s.is_ascii() => s.len(),
            Some(s) => s.chars().count(),
            None => p.column,
        };
        let added =
            self.added.partition_point(|&a| a < end) - self.added.partition_point(|&a| a < start);
        let col = col - added.min(col);
        (file, line, col as u32 + 1)
    }

    pub fn span(&self, node: Node) -> Span {
        let (file, line, col) = self.locate(node.start_position());
        let (end_file, end_line, end_col) = self.locate(node.end_position());
        if end_file == file && end_line >= line {
            Span {
                file,
                line,
                col,
                end_line,
                end_col,
            }
        } else {
            Span::point(file, line, col)
        }
    }
}
