//! Translation phases 1 to 3: line splicing, comment removal and splitting
//! into preprocessing tokens grouped by logical line.

use std::rc::Rc;

use super::token::{HideSet, Kind, Token};

/// One logical line: the tokens up to an unspliced newline.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub toks: Vec<Token>,
    /// Physical lines where the logical line starts and ends.
    pub first: u32,
    pub last: u32,
}

pub(crate) struct Lexed {
    pub lines: Vec<Line>,
    /// Physical lines in the file.
    pub line_count: u32,
}

#[derive(Debug)]
pub(crate) struct LexError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// The text after phases 1 and 2, each character with its physical position.
struct Spliced {
    chars: Vec<char>,
    pos: Vec<(u32, u32)>,
    line_count: u32,
}

fn splice(text: &str) -> Spliced {
    let raw: Vec<char> = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .chars()
        .collect();
    let newline_len = |k: usize| match raw.get(k) {
        Some('\n') => 1,
        Some('\r') if raw.get(k + 1) == Some(&'\n') => 2,
        _ => 0,
    };
    let mut chars = Vec::with_capacity(raw.len());
    let mut pos = Vec::with_capacity(raw.len());
    let (mut line, mut col) = (1u32, 1u32);
    let mut ends_with_newline = false;
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == '\\' {
            // Trailing blanks between the backslash and the newline are a
            // common slip; compilers splice anyway, and so do we.
            let mut j = i + 1;
            while matches!(raw.get(j), Some(' ' | '\t')) {
                j += 1;
            }
            let k = newline_len(j);
            if k > 0 {
                i = j + k;
                line += 1;
                col = 1;
                ends_with_newline = true;
                continue;
            }
        }
        let k = newline_len(i);
        if k > 0 {
            chars.push('\n');
            pos.push((line, col));
            i += k;
            line += 1;
            col = 1;
            ends_with_newline = true;
            continue;
        }
        chars.push(raw[i]);
        pos.push((line, col));
        col += 1;
        i += 1;
        ends_with_newline = false;
    }
    let line_count = if raw.is_empty() {
        0
    } else if ends_with_newline {
        line - 1
    } else {
        line
    };
    Spliced {
        chars,
        pos,
        line_count,
    }
}

/// Whitespace seen since the last token on the current physical line.
struct Lead {
    text: String,
    line: u32,
}

impl Lead {
    fn push(&mut self, line: u32, c: char) {
        if self.line != line {
            self.text.clear();
            self.line = line;
        }
        self.text.push(c);
    }
}

pub(crate) fn lex(text: &str) -> Result<Lexed, LexError> {
    let src = splice(text);
    let (c, pos) = (&src.chars, &src.pos);
    let n = c.len();
    let mut lines = Vec::new();
    let mut toks = Vec::new();
    let mut first = 1u32;
    let mut ws = true;
    let mut lead = Lead {
        text: String::new(),
        line: 1,
    };
    let mut i = 0;
    while i < n {
        let (l, col) = pos[i];
        match c[i] {
            '\n' => {
                lines.push(Line {
                    toks: std::mem::take(&mut toks),
                    first,
                    last: l,
                });
                first = l + 1;
                ws = true;
                lead.text.clear();
                lead.line = l + 1;
                i += 1;
                continue;
            }
            ch @ (' ' | '\t' | '\x0b' | '\x0c' | '\r') => {
                lead.push(l, if ch == '\r' { ' ' } else { ch });
                ws = true;
                i += 1;
                continue;
            }
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < n && c[i] != '\n' {
                    lead.push(pos[i].0, ' ');
                    i += 1;
                }
                ws = true;
                continue;
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                i = skip_block_comment(c, pos, i, &mut lead).ok_or_else(|| LexError {
                    line: l,
                    col,
                    message: "unterminated comment".into(),
                })?;
                ws = true;
                continue;
            }
            _ => {}
        }
        let (kind, end) = scan(c, i);
        let text: String = c[i..end].iter().collect();
        let lead_text: Rc<str> = if lead.line == l {
            lead.text.as_str().into()
        } else {
            "".into()
        };
        toks.push(Token {
            kind,
            text: text.into(),
            line: l,
            col,
            ws,
            lead: lead_text,
            from_macro: false,
            hide: HideSet::default(),
        });
        lead.text.clear();
        lead.line = pos[end - 1].0;
        ws = false;
        i = end;
    }
    if first <= src.line_count {
        lines.push(Line {
            toks,
            first,
            last: src.line_count,
        });
    }
    Ok(Lexed {
        lines,
        line_count: src.line_count,
    })
}

/// Skips the comment starting at `i`; returns the index after it, or `None`
/// when it never ends. Its characters become blanks of the lead so that what
/// follows on its last line keeps its column.
fn skip_block_comment(
    c: &[char],
    pos: &[(u32, u32)],
    mut i: usize,
    lead: &mut Lead,
) -> Option<usize> {
    lead.push(pos[i].0, ' ');
    lead.push(pos[i + 1].0, ' ');
    i += 2;
    loop {
        match c.get(i)? {
            '*' if c.get(i + 1) == Some(&'/') => {
                lead.push(pos[i].0, ' ');
                lead.push(pos[i + 1].0, ' ');
                return Some(i + 2);
            }
            '\n' => {}
            _ => lead.push(pos[i].0, ' '),
        }
        i += 1;
    }
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$' || !c.is_ascii()
}

fn is_ident_continue(c: char) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// Punctuators of more than one character, longest first.
const PUNCTS: [&str; 26] = [
    "<<=", ">>=", "...", "->*", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "::", ".*",
];

const SINGLE_PUNCTS: &str = "[](){}.&*+-~!/%<>^|?:;=,#";

/// The kind and end of the token that starts at `i`.
fn scan(c: &[char], i: usize) -> (Kind, usize) {
    let at = |k: usize| c.get(k).copied();
    let ch = c[i];
    if is_ident_start(ch) {
        let mut j = i + 1;
        while at(j).is_some_and(is_ident_continue) {
            j += 1;
        }
        let word: String = c[i..j].iter().collect();
        if matches!(word.as_str(), "L" | "u" | "U" | "u8") && matches!(at(j), Some('\'' | '"')) {
            return scan_quoted(c, j);
        }
        return (Kind::Ident, j);
    }
    if ch.is_ascii_digit() || (ch == '.' && at(i + 1).is_some_and(|d| d.is_ascii_digit())) {
        let mut j = i + 1;
        loop {
            match at(j) {
                Some('e' | 'E' | 'p' | 'P') if matches!(at(j + 1), Some('+' | '-')) => j += 2,
                Some(d) if is_ident_continue(d) || d == '.' => j += 1,
                // C++14 digit separator.
                Some('\'') if at(j + 1).is_some_and(is_ident_continue) => j += 2,
                _ => break,
            }
        }
        return (Kind::Number, j);
    }
    if ch == '"' || ch == '\'' {
        return scan_quoted(c, i);
    }
    for p in PUNCTS {
        if p.chars().enumerate().all(|(k, pc)| at(i + k) == Some(pc)) {
            return (Kind::Punct, i + p.chars().count());
        }
    }
    if SINGLE_PUNCTS.contains(ch) {
        return (Kind::Punct, i + 1);
    }
    (Kind::Other, i + 1)
}

/// A string or character literal whose opening quote is at `q`. One that
/// runs into the end of the line becomes an `Other` token: apostrophes in
/// skipped groups and `#error` text must not stop preprocessing.
fn scan_quoted(c: &[char], q: usize) -> (Kind, usize) {
    let quote = c[q];
    let mut j = q + 1;
    loop {
        match c.get(j) {
            None | Some('\n') => return (Kind::Other, j),
            Some('\\') if c.get(j + 1).is_some_and(|&n| n != '\n') => j += 2,
            Some(&x) if x == quote => {
                let kind = if quote == '"' { Kind::Str } else { Kind::Char };
                return (kind, j + 1);
            }
            Some(_) => j += 1,
        }
    }
}

/// The kind of the single token spelled exactly `text`, if it is one.
pub(crate) fn lex_single(text: &str) -> Option<Kind> {
    let lexed = lex(text).ok()?;
    match lexed.lines.as_slice() {
        [line] => match line.toks.as_slice() {
            [t] if &*t.text == text => Some(t.kind),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `a` written right before `b` still reads as those two tokens.
pub(crate) fn lexes_apart(a: &str, b: &str) -> bool {
    let Ok(lexed) = lex(&format!("{a}{b}")) else {
        return false;
    };
    match lexed.lines.as_slice() {
        [line] => match line.toks.as_slice() {
            [x, y] => &*x.text == a && &*y.text == b,
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &Line) -> Vec<String> {
        line.toks.iter().map(|t| t.text.to_string()).collect()
    }

    #[test]
    fn splices_join_lines_but_keep_physical_positions() {
        let lexed = lex("int\\\n x = 1;\nnext").unwrap();
        assert_eq!(lexed.line_count, 3);
        assert_eq!(lexed.lines.len(), 2);
        assert_eq!(texts(&lexed.lines[0]), ["int", "x", "=", "1", ";"]);
        assert_eq!((lexed.lines[0].first, lexed.lines[0].last), (1, 2));
        let x = &lexed.lines[0].toks[1];
        assert_eq!((x.line, x.col), (2, 2));
        assert_eq!(lexed.lines[1].first, 3);
    }

    #[test]
    fn comments_become_lead_blanks() {
        let lexed = lex("a /* c */ b // tail\n  /* x\n y */ c").unwrap();
        let b = &lexed.lines[0].toks[1];
        assert_eq!(&*b.lead, "         ");
        assert_eq!(b.col, 11);
        let c = &lexed.lines[1].toks[0];
        assert_eq!((c.line, c.col), (3, 7));
        assert_eq!(&*c.lead, "      ");
    }

    #[test]
    fn punctuators_numbers_and_literals() {
        let lexed = lex("a<<=b->c ... 1.5e+3f 0x1'000 L'x' u8\"s\" 'open").unwrap();
        assert_eq!(
            texts(&lexed.lines[0]),
            ["a", "<<=", "b", "->", "c", "...", "1.5e+3f", "0x1'000", "L'x'", "u8\"s\"", "'open"]
        );
        assert_eq!(lexed.lines[0].toks[10].kind, Kind::Other);
    }

    #[test]
    fn unterminated_comment_is_an_error_at_its_start() {
        let e = lex("x\n  /* never").err().unwrap();
        assert_eq!((e.line, e.col), (2, 3));
    }

    #[test]
    fn relexing_checks() {
        assert_eq!(lex_single("ab"), Some(Kind::Ident));
        assert_eq!(lex_single("+="), Some(Kind::Punct));
        assert_eq!(lex_single("+-"), None);
        assert!(lexes_apart("<<", "<"));
        assert!(!lexes_apart("-", "-"));
        assert!(!lexes_apart("/", "/"));
        assert!(!lexes_apart("a", "b"));
    }
}
