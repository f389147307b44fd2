//! The PSySha annotations in the source text.
//!
//! `__opt__in[e]`, `__opt__(shared, global)` and `__insert()` are not C, and
//! the front end would reject a kernel using them. They are removed from the
//! text before parsing in a way that keeps every other character where it
//! was, so the spans of the lowered IR still point at the user's file:
//!
//! - `__opt__in[e]` becomes `       in[e]` (the prefix is blanked); the marked
//!   read is the `Index` expression spanning `in[e]`;
//! - `__opt__(a, b)` becomes `       (a, b)`, a parenthesised comma
//!   expression; its span is that of the parentheses;
//! - `__insert()` becomes `0` followed by blanks: an expression statement
//!   `0;` at the position of the annotation.

use crate::error::SynthError;

/// A 1-based line and column (columns count characters, as the front end's
/// spans do).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnnotationKind {
    /// `__opt__NAME[...]`: a global read to serve from shared memory.
    Read { array: String },
    /// `__opt__(shared, global)`: a shared-memory read whose halo copy is to be
    /// synthesized.
    Sleeve,
    /// `__insert()`: where the synthesized copies go.
    Insert,
}

#[derive(Clone, Debug)]
pub struct Annotation {
    pub kind: AnnotationKind,
    /// Where the annotation's keyword starts.
    pub at: Pos,
    /// The text the annotation applies to: `in[e]`, `(a, b)`, or the `0`
    /// standing for `__insert()`. `end` is the column after its last
    /// character, as in IR spans.
    pub start: Pos,
    pub end: Pos,
}

/// The source with annotations blanked out, and where they were.
#[derive(Clone, Debug)]
pub struct Annotated {
    pub text: String,
    pub annotations: Vec<Annotation>,
}

const OPT: &str = "__opt__";
const INSERT: &str = "__insert";

/// Finds and blanks the annotations of `text`; `file` names it in messages.
pub fn scan(file: &str, text: &str) -> Result<Annotated, SynthError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    let mut sc = Scanner {
        chars: &chars,
        i: 0,
        line: 1,
        col: 1,
    };
    let mut annotations = Vec::new();
    let err = |p: Pos, message: String| SynthError::Annotation {
        location: format!("{file}:{}:{}", p.line, p.col),
        message,
    };
    while sc.i < chars.len() {
        let c = chars[sc.i];
        if c == '/' && sc.peek(1) == Some('/') {
            while sc.i < chars.len() && chars[sc.i] != '\n' {
                sc.bump();
            }
        } else if c == '/' && sc.peek(1) == Some('*') {
            sc.bump();
            sc.bump();
            while sc.i < chars.len() && !(chars[sc.i] == '*' && sc.peek(1) == Some('/')) {
                sc.bump();
            }
            sc.bump();
            sc.bump();
        } else if c == '"' || c == '\'' {
            sc.skip_literal(c);
        } else if is_ident_start(c) {
            let at = sc.pos();
            let start = sc.i;
            while sc.i < chars.len() && is_ident_char(chars[sc.i]) {
                sc.bump();
            }
            let ident: String = chars[start..sc.i].iter().collect();
            if ident == INSERT {
                let open = sc.skip_space();
                if open != Some('(') {
                    return Err(err(at, "`__insert` must be written `__insert();`".into()));
                }
                sc.bump();
                if sc.skip_space() != Some(')') {
                    return Err(err(at, "`__insert()` takes no arguments".into()));
                }
                sc.bump();
                let end_i = sc.i;
                if sc.skip_space() != Some(';') {
                    return Err(err(
                        at,
                        "`__insert()` must be a statement of its own: `__insert();`".into(),
                    ));
                }
                blank(&mut out, start, end_i);
                out[start] = '0';
                annotations.push(Annotation {
                    kind: AnnotationKind::Insert,
                    at,
                    start: at,
                    end: Pos {
                        line: at.line,
                        col: at.col + 1,
                    },
                });
            } else if ident == OPT {
                if sc.skip_space() != Some('(') {
                    return Err(err(
                        at,
                        "`__opt__` must be followed by an array read (`__opt__in[i]`) or by `(shared_expr, global_expr)`"
                            .into(),
                    ));
                }
                let open = sc.pos();
                let commas = sc.skip_group('(', ')').map_err(|m| err(open, m))?;
                if commas != 1 {
                    return Err(err(
                        at,
                        format!(
                            "`__opt__(shared_expr, global_expr)` takes two arguments, {} given",
                            commas + 1
                        ),
                    ));
                }
                blank(&mut out, start, start + OPT.len());
                annotations.push(Annotation {
                    kind: AnnotationKind::Sleeve,
                    at,
                    start: open,
                    end: sc.pos(),
                });
            } else if let Some(array) = ident.strip_prefix(OPT) {
                let target = Pos {
                    line: at.line,
                    col: at.col + OPT.len() as u32,
                };
                if sc.skip_space() != Some('[') {
                    return Err(err(
                        at,
                        format!(
                            "`__opt__{array}` must be followed by an index: `__opt__{array}[i]`"
                        ),
                    ));
                }
                while sc.skip_space() == Some('[') {
                    let open = sc.pos();
                    sc.skip_group('[', ']').map_err(|m| err(open, m))?;
                    let end = sc.pos();
                    let save = (sc.i, sc.line, sc.col);
                    if sc.skip_space() != Some('[') {
                        (sc.i, sc.line, sc.col) = save;
                        annotations.push(Annotation {
                            kind: AnnotationKind::Read {
                                array: array.to_string(),
                            },
                            at,
                            start: target,
                            end,
                        });
                        break;
                    }
                }
                blank(&mut out, start, start + OPT.len());
            }
        } else if c.is_ascii_digit() {
            // A number's suffix letters are not identifiers.
            while sc.i < chars.len() && (is_ident_char(chars[sc.i]) || chars[sc.i] == '.') {
                sc.bump();
            }
        } else {
            sc.bump();
        }
    }
    Ok(Annotated {
        text: out.into_iter().collect(),
        annotations,
    })
}

fn blank(out: &mut [char], from: usize, to: usize) {
    for c in &mut out[from..to] {
        if *c != '\n' {
            *c = ' ';
        }
    }
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_ascii_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_ascii_alphanumeric()
}

struct Scanner<'a> {
    chars: &'a [char],
    i: usize,
    line: u32,
    col: u32,
}

impl Scanner<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead).copied()
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    fn bump(&mut self) {
        if let Some(&c) = self.chars.get(self.i) {
            if c == '\n' {
                self.line += 1;
                self.col = 1;
            } else {
                self.col += 1;
            }
            self.i += 1;
        }
    }

    /// Skips blanks and returns the next character, without consuming it.
    fn skip_space(&mut self) -> Option<char> {
        while let Some(c) = self.peek(0) {
            if c.is_whitespace() {
                self.bump();
            } else {
                return Some(c);
            }
        }
        None
    }

    fn skip_literal(&mut self, quote: char) {
        self.bump();
        while let Some(c) = self.peek(0) {
            if c == '\\' {
                self.bump();
                self.bump();
            } else if c == quote || c == '\n' {
                self.bump();
                return;
            } else {
                self.bump();
            }
        }
    }

    /// Skips a bracketed group starting at the current `open`, nested groups
    /// and literals included; returns the number of commas at its top level.
    fn skip_group(&mut self, open: char, close: char) -> Result<usize, String> {
        let mut depth = 0usize;
        let mut commas = 0;
        while let Some(c) = self.peek(0) {
            match c {
                '"' | '\'' => {
                    self.skip_literal(c);
                    continue;
                }
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        if c != close {
                            return Err(format!("`{open}` closed by `{c}`"));
                        }
                        self.bump();
                        return Ok(commas);
                    }
                }
                ',' if depth == 1 => commas += 1,
                _ => {}
            }
            self.bump();
        }
        Err(format!("`{open}` is never closed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_keep_columns_and_record_targets() {
        let src =
            "x = __opt__in[(i == 0) ? c : c - 1] + __opt__(sb[csb - 1], in[w]);\n  __insert();\n";
        let a = scan("k.cu", src).unwrap();
        assert_eq!(a.text.len(), src.len());
        assert_eq!(
            a.text,
            "x =        in[(i == 0) ? c : c - 1] +        (sb[csb - 1], in[w]);\n  0         ;\n"
        );
        assert_eq!(a.annotations.len(), 3);
        let read = &a.annotations[0];
        assert_eq!(read.kind, AnnotationKind::Read { array: "in".into() });
        assert_eq!((read.start.line, read.start.col), (1, 12));
        // Column after the closing bracket.
        assert_eq!(read.end.col, 36);
        assert_eq!(&src[11..35], "in[(i == 0) ? c : c - 1]");
        let sleeve = &a.annotations[1];
        assert_eq!(sleeve.kind, AnnotationKind::Sleeve);
        assert_eq!(
            &src[sleeve.start.col as usize - 1..sleeve.end.col as usize - 1],
            "(sb[csb - 1], in[w])"
        );
        assert_eq!(a.annotations[2].kind, AnnotationKind::Insert);
        assert_eq!(
            (a.annotations[2].start.line, a.annotations[2].start.col),
            (2, 3)
        );
    }

    #[test]
    fn comments_and_strings_are_not_scanned() {
        let src = "// __opt__in[0]\n/* __insert(); */ s = \"__opt__x[1]\";";
        let a = scan("k.cu", src).unwrap();
        assert!(a.annotations.is_empty());
        assert_eq!(a.text, src);
    }

    #[test]
    fn malformed_annotations_are_reported_with_their_position() {
        let e = scan("k.cu", "a = __opt__(x);").unwrap_err().to_string();
        assert!(e.contains("k.cu:1:5") && e.contains("two arguments"), "{e}");
        let e = scan("k.cu", "a = __opt__in + 1;").unwrap_err().to_string();
        assert!(e.contains("must be followed by an index"), "{e}");
        let e = scan("k.cu", "\n  __insert(1);").unwrap_err().to_string();
        assert!(e.contains("k.cu:2:3") && e.contains("no arguments"), "{e}");
        let e = scan("k.cu", "__opt__in[i;").unwrap_err().to_string();
        assert!(e.contains("never closed") || e.contains("closed by"), "{e}");
    }

    #[test]
    fn multi_dimensional_reads_span_all_subscripts() {
        let a = scan("k.cu", "v = __opt__p[i][j] * 2;").unwrap();
        let r = &a.annotations[0];
        assert_eq!((r.start.col, r.end.col), (12, 19));
    }
}
