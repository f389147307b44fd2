//! Carrying out directive lines.

use std::rc::Rc;

use super::engine::Engine;
use super::expand::unquote;
use super::expr::evaluate;
use super::include::{file_key, is_system_header, own_header, resolve};
use super::lexer::Line;
use super::macros::{macro_name, parse_define};
use super::source::{Cond, FileSource, Mode, VecSource};
use super::token::{Kind, Token};
use super::PreprocessError;

/// Deepest nesting of `#include`; beyond it an include cycle is assumed.
pub(crate) const MAX_INCLUDE_DEPTH: usize = 200;

/// Operators `#if` understands besides `defined`; `defined(op)` is 1 for them.
const HAS_OPERATORS: &[&str] = &[
    "__has_include",
    "__has_include_next",
    "__has_builtin",
    "__has_attribute",
    "__has_cpp_attribute",
    "__has_c_attribute",
    "__has_feature",
    "__has_extension",
    "__has_declspec_attribute",
    "__has_warning",
];

type Result<T> = std::result::Result<T, PreprocessError>;

/// The tokens of a line spelled as written, spacing kept within a line.
fn spell(toks: &[Token]) -> String {
    let mut s = String::new();
    let mut prev: Option<&Token> = None;
    for t in toks {
        if let Some(p) = prev {
            if !t.from_macro && !p.from_macro && t.line == p.line && !t.lead.is_empty() {
                s.push_str(&t.lead);
            } else if t.ws {
                s.push(' ');
            }
        }
        s.push_str(&t.text);
        prev = Some(t);
    }
    s
}

/// A header name: `"file"` or `<file>` spelled from the tokens between.
fn header_name(toks: &[Token]) -> Option<(String, bool, Token)> {
    let first = toks.first()?;
    if first.kind == Kind::Str {
        let name = first.text.strip_prefix('"')?.strip_suffix('"')?;
        return Some((name.to_string(), false, first.clone()));
    }
    if first.is_punct("<") {
        let mut name = String::new();
        for (k, t) in toks[1..].iter().enumerate() {
            if t.is_punct(">") {
                return Some((name, true, first.clone()));
            }
            if k > 0 && t.ws {
                name.push(' ');
            }
            name.push_str(&t.text);
        }
    }
    None
}

impl Engine {
    /// Carries out a directive line of `fs`; returns the file an `#include`
    /// opens, to be read next.
    pub(crate) fn directive(
        &mut self,
        fs: &mut FileSource,
        line: Line,
        mode: Mode,
    ) -> Result<Option<FileSource>> {
        let Line { toks, first, last } = line;
        let mut it = toks.into_iter();
        let Some(hash) = it.next() else {
            return Ok(None);
        };
        let Some(name) = it.next() else {
            return Ok(None);
        };
        let rest: Vec<Token> = it.collect();
        let word = if name.kind == Kind::Ident {
            &*name.text
        } else {
            ""
        };
        match word {
            "if" | "ifdef" | "ifndef" => return self.open_group(fs, &name, rest).map(|()| None),
            "elif" => return self.elif(fs, &name, rest).map(|()| None),
            "else" | "endif" => return self.else_endif(fs, &name).map(|()| None),
            _ if fs.skipping() => return Ok(None),
            _ => {}
        }
        let output_directive = matches!(
            word,
            "include" | "include_next" | "import" | "pragma" | "line"
        ) || name.kind == Kind::Number;
        if mode == Mode::Args && output_directive {
            return Err(self.error_at(
                &name,
                format!("#{} inside macro arguments is not supported", name.text),
            ));
        }
        match word {
            "define" => {
                let (n, m) = parse_define(&rest, &name)
                    .map_err(|e| self.error_pos(e.line, e.col, e.message))?;
                self.macros.insert(n, Rc::new(m));
            }
            "undef" => {
                let t = macro_name(rest.first(), "undef", &name)
                    .map_err(|e| self.error_pos(e.line, e.col, e.message))?;
                self.macros.remove(&t.text);
            }
            "include" | "import" => return self.include(&name, rest, first, last, false),
            "include_next" => return self.include(&name, rest, first, last, true),
            "line" => self.line(&name, rest, last, true)?,
            "error" => return Err(self.error_at(&hash, format!("#error {}", spell(&rest)))),
            "pragma" => self.pragma(&hash, &name, rest, first)?,
            "warning" | "ident" | "sccs" | "assert" | "unassert" => {}
            // GNU line marker: `# 33 "file.cu"`.
            _ if name.kind == Kind::Number => {
                let mut toks = vec![name.clone()];
                toks.extend(rest);
                self.line(&name, toks, last, false)?;
            }
            _ => {
                return Err(self.error_at(
                    &name,
                    format!("invalid preprocessing directive #{}", name.text),
                ))
            }
        }
        Ok(None)
    }

    fn open_group(&mut self, fs: &mut FileSource, name: &Token, rest: Vec<Token>) -> Result<()> {
        let directive = match &*name.text {
            "ifdef" => "ifdef",
            "ifndef" => "ifndef",
            _ => "if",
        };
        let mut cond = Cond {
            active: false,
            taken: true,
            parent_active: false,
            seen_else: false,
            directive,
            line: name.line,
            col: name.col,
        };
        if !fs.skipping() {
            let v = if directive == "if" {
                self.eval_if(name, rest)?
            } else {
                let t = macro_name(rest.first(), directive, name)
                    .map_err(|e| self.error_pos(e.line, e.col, e.message))?;
                self.macros.contains_key(&t.text) == (directive == "ifdef")
            };
            cond.active = v;
            cond.taken = v;
            cond.parent_active = true;
        }
        fs.conds.push(cond);
        Ok(())
    }

    fn elif(&mut self, fs: &mut FileSource, name: &Token, rest: Vec<Token>) -> Result<()> {
        let Some(c) = fs.conds.last_mut() else {
            return Err(self.error_at(name, "#elif without #if"));
        };
        if c.seen_else {
            return Err(self.error_at(name, "#elif after #else"));
        }
        if c.parent_active && !c.taken {
            let v = self.eval_if(name, rest)?;
            c.active = v;
            c.taken = v;
        } else {
            c.active = false;
        }
        Ok(())
    }

    fn else_endif(&mut self, fs: &mut FileSource, name: &Token) -> Result<()> {
        let Some(c) = fs.conds.last_mut() else {
            return Err(self.error_at(name, format!("#{} without #if", name.text)));
        };
        if &*name.text == "endif" {
            fs.conds.pop();
            return Ok(());
        }
        if c.seen_else {
            return Err(self.error_at(name, "#else after #else"));
        }
        c.seen_else = true;
        c.active = c.parent_active && !c.taken;
        c.taken = true;
        Ok(())
    }

    /// Evaluates the expression of `#if`/`#elif` (`at` is the directive name).
    fn eval_if(&mut self, at: &Token, rest: Vec<Token>) -> Result<bool> {
        if rest.is_empty() {
            return Err(self.error_at(at, format!("#{} with no expression", at.text)));
        }
        let toks = self.if_operands(rest)?;
        evaluate(&toks, (at.line, at.col)).map_err(|e| self.error_pos(e.line, e.col, e.message))
    }

    /// Macro-expands an `#if` line, replacing `defined` and the `__has_*`
    /// operators by their values.
    fn if_operands(&mut self, rest: Vec<Token>) -> Result<Vec<Token>> {
        let mut src = VecSource::new(rest);
        let mut pushback = Vec::new();
        let mut out = Vec::new();
        while let Some(t) = self.next_expanded(&mut src, &mut pushback, Mode::Args)? {
            if t.kind != Kind::Ident {
                out.push(t);
                continue;
            }
            let value = match &*t.text {
                "defined" => {
                    let mut op = self.next_raw(&mut src, &mut pushback, Mode::Args)?;
                    let paren = op.as_ref().is_some_and(|o| o.is_punct("("));
                    if paren {
                        op = self.next_raw(&mut src, &mut pushback, Mode::Args)?;
                    }
                    let Some(id) = op.filter(|o| o.kind == Kind::Ident) else {
                        return Err(
                            self.error_at(&t, "operator \"defined\" requires an identifier")
                        );
                    };
                    if paren {
                        let close = self.next_raw(&mut src, &mut pushback, Mode::Args)?;
                        if !close.is_some_and(|c| c.is_punct(")")) {
                            return Err(self.error_at(&t, "missing ')' after \"defined\""));
                        }
                    }
                    self.macros.contains_key(&id.text) || HAS_OPERATORS.contains(&&*id.text)
                }
                op if HAS_OPERATORS.contains(&op) => {
                    let inner = self.parenthesized(&mut src, &mut pushback, &t)?;
                    if op.starts_with("__has_include") {
                        let (spec, angled, _) = self.include_spec(inner, &t)?;
                        self.find_include(&spec, angled, op == "__has_include_next")
                            .is_some()
                    } else {
                        false
                    }
                }
                _ => {
                    out.push(t);
                    continue;
                }
            };
            out.push(Token::synthetic(
                Kind::Number,
                if value { "1" } else { "0" },
                &t,
            ));
        }
        Ok(out)
    }

    /// The unexpanded tokens of `( ... )` after the operator `op`.
    fn parenthesized(
        &mut self,
        src: &mut VecSource,
        pushback: &mut Vec<Token>,
        op: &Token,
    ) -> Result<Vec<Token>> {
        let missing = |eng: &Engine| eng.error_at(op, format!("missing '(' after \"{}\"", op.text));
        match self.next_raw(src, pushback, Mode::Args)? {
            Some(t) if t.is_punct("(") => {}
            _ => return Err(missing(self)),
        }
        let mut depth = 0u32;
        let mut inner = Vec::new();
        loop {
            let Some(t) = self.next_raw(src, pushback, Mode::Args)? else {
                return Err(self.error_at(op, format!("missing ')' after \"{}\" operand", op.text)));
            };
            if t.is_punct("(") {
                depth += 1;
            } else if t.is_punct(")") {
                if depth == 0 {
                    return Ok(inner);
                }
                depth -= 1;
            }
            inner.push(t);
        }
    }

    /// The header an `#include` names, macro-expanding the operand when it is
    /// neither `"..."` nor `<...>`; returns the name, whether it was `<...>`,
    /// and the token that places errors.
    fn include_spec(&mut self, toks: Vec<Token>, at: &Token) -> Result<(String, bool, Token)> {
        if let Some(spec) = header_name(&toks) {
            return Ok(spec);
        }
        let expanded = self.expand_list(toks)?;
        header_name(&expanded).ok_or_else(|| {
            self.error_at(
                at,
                format!("#{} expects \"FILENAME\" or <FILENAME>", at.text),
            )
        })
    }

    fn find_include(
        &self,
        spec: &str,
        angled: bool,
        next: bool,
    ) -> Option<(std::path::PathBuf, Option<usize>)> {
        let fr = self.frames.last()?;
        let quoted_dir = if angled || next {
            None
        } else {
            fr.dir.as_deref()
        };
        let first_dir = if next {
            fr.found_in.map_or(0, |k| k + 1)
        } else {
            0
        };
        resolve(spec, quoted_dir, &self.opts.include_dirs, first_dir)
    }

    /// `#include`: the included file's lines replace the directive's lines.
    fn include(
        &mut self,
        name: &Token,
        rest: Vec<Token>,
        first: u32,
        last: u32,
        next: bool,
    ) -> Result<Option<FileSource>> {
        let (spec, angled, at) = self.include_spec(rest, name)?;
        if spec.is_empty() {
            return Err(self.error_at(&at, format!("empty filename in #{}", name.text)));
        }
        let Some((path, found_in)) = self.find_include(&spec, angled, next) else {
            if let Some((file_name, text)) = own_header(&spec) {
                // Its include guard keeps a second inclusion empty.
                if let Some(fr) = self.frames.last_mut() {
                    self.out.fill_through(fr, first.saturating_sub(1));
                }
                let included =
                    self.open_file(&file_name, text, None, None, last.saturating_add(1))?;
                return Ok(Some(included));
            }
            if angled || is_system_header(&spec) {
                return Ok(None);
            }
            return Err(self.error_at(&at, format!("cannot find include file \"{spec}\"")));
        };
        if self.once.contains(&file_key(&path)) {
            return Ok(None);
        }
        if self.frames.len() >= MAX_INCLUDE_DEPTH {
            return Err(self.error_at(
                &at,
                format!("#include nested more than {MAX_INCLUDE_DEPTH} deep (is there an include cycle?)"),
            ));
        }
        let bytes = std::fs::read(&path)
            .map_err(|e| self.error_at(&at, format!("cannot read \"{}\": {e}", path.display())))?;
        let text = String::from_utf8_lossy(&bytes);
        if let Some(fr) = self.frames.last_mut() {
            self.out.fill_through(fr, first.saturating_sub(1));
        }
        let file_name = path.to_string_lossy().into_owned();
        let included = self.open_file(
            &file_name,
            &text,
            Some(path),
            found_in,
            last.saturating_add(1),
        )?;
        Ok(Some(included))
    }

    /// `#line N ["file"]`, and GNU line markers when `expand` is false.
    fn line(&mut self, at: &Token, toks: Vec<Token>, last: u32, expand: bool) -> Result<()> {
        let toks = if expand {
            self.expand_list(toks)?
        } else {
            toks
        };
        let Some(num) = toks.first() else {
            return Err(self.error_at(at, "#line directive requires a line number"));
        };
        let n: Option<u32> =
            if num.kind == Kind::Number && num.text.chars().all(|c| c.is_ascii_digit()) {
                num.text.parse().ok().filter(|&n| n <= 2_147_483_647)
            } else {
                None
            };
        let Some(n) = n else {
            return Err(self.error_at(
                num,
                format!("\"{}\" after #line is not a positive integer", num.text),
            ));
        };
        let file = match toks.get(1) {
            None => None,
            Some(t) => match unquote(&t.text).filter(|_| t.kind == Kind::Str) {
                Some(f) => Some(f),
                None => {
                    return Err(self.error_at(t, format!("invalid filename {} in #line", t.text)))
                }
            },
        };
        // Lines up to the directive keep the numbering they had.
        if let Some(fr) = self.frames.last_mut() {
            self.out.fill_through(fr, last);
        }
        let presumed = file.map(|f| self.file_index(&f));
        if let Some(fr) = self.frames.last_mut() {
            fr.delta = i64::from(n) - (i64::from(last) + 1);
            if let Some(p) = presumed {
                fr.presumed = p;
            }
        }
        Ok(())
    }

    /// `#pragma`: `once` and `push_macro`/`pop_macro` are carried out, the
    /// rest is written out for the parser, with the operand of `unroll`
    /// macro-expanded since nvcc evaluates it as a constant expression.
    fn pragma(&mut self, hash: &Token, name: &Token, rest: Vec<Token>, first: u32) -> Result<()> {
        let op = rest
            .first()
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.text.clone());
        match op.as_deref() {
            Some("once") => {
                if let Some(path) = self.frames.last().and_then(|f| f.path.as_deref()) {
                    let key = file_key(path);
                    self.once.insert(key);
                }
                return Ok(());
            }
            Some(which @ ("push_macro" | "pop_macro")) => {
                let target = match rest.as_slice() {
                    [_, open, s, close, ..]
                        if open.is_punct("(") && close.is_punct(")") && s.kind == Kind::Str =>
                    {
                        unquote(&s.text)
                    }
                    _ => None,
                };
                let Some(target) = target else {
                    return Err(self.error_at(name, format!("#pragma {which} expects (\"NAME\")")));
                };
                let target: Rc<str> = target.into();
                if which == "push_macro" {
                    let saved = self.macros.get(&target).cloned();
                    self.pushed.entry(target).or_default().push(saved);
                } else if let Some(saved) = self.pushed.get_mut(&target).and_then(Vec::pop) {
                    match saved {
                        Some(m) => self.macros.insert(target, m),
                        None => self.macros.remove(&target),
                    };
                }
                return Ok(());
            }
            _ => {}
        }
        let mut toks = vec![hash.clone(), name.clone()];
        let mut rest = rest.into_iter();
        if op.as_deref() == Some("unroll") {
            toks.extend(rest.next());
            let operand = self.expand_list(rest.collect())?;
            toks.extend(operand);
        } else {
            toks.extend(rest);
        }
        let text = format!("{}{}", hash.lead, spell(&toks));
        if let Some(fr) = self.frames.last_mut() {
            self.out.whole_line(fr, first, &text);
        }
        Ok(())
    }
}
