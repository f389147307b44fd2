//! Macro expansion after Prosser's algorithm: each token carries the set of
//! macros whose expansion produced it, and a name in that set is not expanded
//! again, which is C's rule against recursion.

use super::engine::Engine;
use super::lexer::lex_single;
use super::macros::{stringize, Builtin, Macro};
use super::source::{Mode, TokenSource, VecSource};
use super::token::{HideSet, Kind, Token};
use super::PreprocessError;

/// Nesting of macro calls inside arguments, each level a recursion.
const MAX_ARG_NESTING: u32 = 200;
/// Tokens all expansions together may produce, against exponential blow-up.
const MAX_EXPANSION_TOKENS: u64 = 1_000_000;

type Result<T> = std::result::Result<T, PreprocessError>;

impl Engine {
    /// The next token before expansion: expansion results waiting in
    /// `pushback` (top last) come before the source.
    pub(crate) fn next_raw(
        &mut self,
        src: &mut dyn TokenSource,
        pushback: &mut Vec<Token>,
        mode: Mode,
    ) -> Result<Option<Token>> {
        match pushback.pop() {
            Some(t) => Ok(Some(t)),
            None => src.next(self, mode),
        }
    }

    /// The next fully expanded token.
    pub(crate) fn next_expanded(
        &mut self,
        src: &mut dyn TokenSource,
        pushback: &mut Vec<Token>,
        mode: Mode,
    ) -> Result<Option<Token>> {
        loop {
            let Some(t) = self.next_raw(src, pushback, mode)? else {
                return Ok(None);
            };
            if t.kind != Kind::Ident || t.hide.contains(&t.text) {
                return Ok(Some(t));
            }
            let Some(m) = self.macros.get(&t.text).cloned() else {
                return Ok(Some(t));
            };
            if let Some(b) = m.builtin {
                return Ok(Some(self.builtin(b, &t)));
            }
            let expansion = if m.params.is_some() {
                let lparen_next = match pushback.last() {
                    Some(n) => n.is_punct("("),
                    None => src.peek_lparen(),
                };
                if !lparen_next {
                    return Ok(Some(t));
                }
                self.next_raw(src, pushback, Mode::Args)?;
                let (args, rparen) = self.collect_args(src, pushback, &t, &m)?;
                let hs = t.hide.intersect(&rparen.hide).with(&t.text);
                self.subst(&m, &args, &t, &hs)?
            } else {
                self.subst(&m, &[], &t, &t.hide.with(&t.text))?
            };
            pushback.extend(expansion.into_iter().rev());
        }
    }

    fn builtin(&mut self, b: Builtin, at: &Token) -> Token {
        let (kind, text) = match b {
            Builtin::File => (Kind::Str, quote(&self.presumed_file_name())),
            Builtin::Line => (Kind::Number, self.presumed_line(at.line).to_string()),
            Builtin::Counter => {
                self.counter += 1;
                (Kind::Number, (self.counter - 1).to_string())
            }
        };
        Token::synthetic(kind, &text, at)
    }

    /// Reads the arguments after the `(` of an invocation of `m` by `name`;
    /// returns them with the closing `)`.
    fn collect_args(
        &mut self,
        src: &mut dyn TokenSource,
        pushback: &mut Vec<Token>,
        name: &Token,
        m: &Macro,
    ) -> Result<(Vec<Vec<Token>>, Token)> {
        let nparams = m.params.as_ref().map_or(0, Vec::len);
        let mut args: Vec<Vec<Token>> = vec![Vec::new()];
        let mut depth = 0u32;
        let rparen = loop {
            let Some(t) = self.next_raw(src, pushback, Mode::Args)? else {
                return Err(self.error_at(
                    name,
                    format!(
                        "unterminated argument list invoking macro \"{}\"",
                        name.text
                    ),
                ));
            };
            if t.is_punct("(") {
                depth += 1;
            } else if t.is_punct(")") {
                if depth == 0 {
                    break t;
                }
                depth -= 1;
            } else if t.is_punct(",") && depth == 0 && !(m.variadic && args.len() == nparams) {
                args.push(Vec::new());
                continue;
            }
            if let Some(arg) = args.last_mut() {
                arg.push(t);
            }
        };
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if m.variadic && args.len() + 1 == nparams {
            args.push(Vec::new());
        }
        if args.len() < nparams {
            return Err(self.error_at(
                name,
                format!(
                    "macro \"{}\" requires {} arguments, but only {} given",
                    name.text,
                    nparams,
                    args.len()
                ),
            ));
        }
        if args.len() > nparams {
            return Err(self.error_at(
                name,
                format!(
                    "macro \"{}\" passed {} arguments, but takes just {}",
                    name.text,
                    args.len(),
                    nparams
                ),
            ));
        }
        Ok((args, rparen))
    }

    /// Fully expands a token list on its own, as an argument or a directive's
    /// operand is.
    pub(crate) fn expand_list(&mut self, toks: Vec<Token>) -> Result<Vec<Token>> {
        let Some(first) = toks.first() else {
            return Ok(toks);
        };
        if self.arg_depth >= MAX_ARG_NESTING {
            return Err(self.error_at(
                first,
                format!("macro arguments nested more than {MAX_ARG_NESTING} deep"),
            ));
        }
        self.arg_depth += 1;
        let mut src = VecSource::new(toks);
        let mut pushback = Vec::new();
        let mut out = Vec::new();
        let result = loop {
            match self.next_expanded(&mut src, &mut pushback, Mode::Args) {
                Ok(Some(t)) => out.push(t),
                Ok(None) => break Ok(out),
                Err(e) => break Err(e),
            }
        };
        self.arg_depth -= 1;
        result
    }

    /// The replacement list of `m` with arguments substituted, `#` and `##`
    /// applied, every token given hide set `hs` and the position of `name`.
    fn subst(
        &mut self,
        m: &Macro,
        args: &[Vec<Token>],
        name: &Token,
        hs: &HideSet,
    ) -> Result<Vec<Token>> {
        let mut expanded: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        let mut out = self.replace(m, &m.body, args, &mut expanded, name)?;
        out.retain(|t| t.kind != Kind::Placemarker);
        self.produced += out.len() as u64;
        if self.produced > MAX_EXPANSION_TOKENS {
            return Err(self.error_at(
                name,
                format!("macro expansion produces more than {MAX_EXPANSION_TOKENS} tokens"),
            ));
        }
        for (k, tok) in out.iter_mut().enumerate() {
            tok.hide = tok.hide.union(hs);
            tok.from_macro = true;
            tok.line = name.line;
            tok.col = name.col;
            if k == 0 {
                tok.ws = name.ws;
                tok.lead = name.lead.clone();
            } else {
                tok.lead = if tok.ws {
                    self.space.clone()
                } else {
                    self.no_space.clone()
                };
            }
        }
        Ok(out)
    }

    /// Substitutes the arguments into `body` (the replacement list or the
    /// inside of a `__VA_OPT__`); `expanded` caches expanded arguments.
    fn replace(
        &mut self,
        m: &Macro,
        body: &[Token],
        args: &[Vec<Token>],
        expanded: &mut Vec<Option<Vec<Token>>>,
        name: &Token,
    ) -> Result<Vec<Token>> {
        let function_like = m.params.is_some();
        let va_index = if m.variadic {
            args.len().checked_sub(1)
        } else {
            None
        };
        let param_at = |k: usize| body.get(k).and_then(|n| m.param_index(n));
        let mut out: Vec<Token> = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            if function_like && t.is_punct("#") {
                if let Some(p) = param_at(i + 1) {
                    out.push(stringize(&args[p], t));
                    i += 2;
                    continue;
                }
                if let Some((toks, end)) = self.va_opt(m, body, i + 1, args, expanded, name)? {
                    out.push(stringize(&toks, t));
                    i = end;
                    continue;
                }
            }
            if t.is_punct("##") && i + 1 < body.len() && !out.is_empty() {
                let rhs = &body[i + 1];
                let rhs_param = param_at(i + 1);
                // GNU: `, ## __VA_ARGS__` drops the comma when there are no
                // variable arguments.
                if rhs_param.is_some()
                    && rhs_param == va_index
                    && out.last().is_some_and(|l| l.is_punct(","))
                {
                    let va = &args[rhs_param.unwrap_or_default()];
                    if va.is_empty() {
                        out.pop();
                    } else {
                        out.extend(with_lead(va.clone(), rhs));
                    }
                    i += 2;
                    continue;
                }
                let (rhs_toks, consumed) =
                    if function_like && rhs.is_punct("#") && param_at(i + 2).is_some() {
                        (
                            vec![stringize(&args[param_at(i + 2).unwrap_or_default()], rhs)],
                            3,
                        )
                    } else if let Some(p) = rhs_param {
                        (args[p].clone(), 2)
                    } else if let Some((toks, end)) =
                        self.va_opt(m, body, i + 1, args, expanded, name)?
                    {
                        (toks, end - i)
                    } else {
                        (vec![rhs.clone()], 2)
                    };
                // An empty right operand leaves the left one as it is.
                let mut rhs_iter = rhs_toks.into_iter();
                if let Some(first) = rhs_iter.next() {
                    if let Some(lhs) = out.pop() {
                        let pasted = self.paste(&lhs, &first, name)?;
                        out.push(pasted);
                    }
                    out.extend(rhs_iter);
                }
                i += consumed;
                continue;
            }
            if let Some((toks, end)) = self.va_opt(m, body, i, args, expanded, name)? {
                out.extend(toks);
                i = end;
                continue;
            }
            if let Some(p) = m.param_index(t) {
                let before_paste = body.get(i + 1).is_some_and(|n| n.is_punct("##"));
                let toks = if before_paste {
                    if args[p].is_empty() {
                        vec![placemarker(t)]
                    } else {
                        args[p].clone()
                    }
                } else {
                    if expanded[p].is_none() {
                        expanded[p] = Some(self.expand_list(args[p].clone())?);
                    }
                    expanded[p].clone().unwrap_or_default()
                };
                out.extend(with_lead(toks, t));
                i += 1;
                continue;
            }
            out.push(t.clone());
            i += 1;
        }
        Ok(out)
    }

    /// `__VA_OPT__( ... )` at `body[i]` of a variadic macro: its contents
    /// when there are variable arguments, else a placemarker; returns them
    /// with the index after the closing parenthesis.
    fn va_opt(
        &mut self,
        m: &Macro,
        body: &[Token],
        i: usize,
        args: &[Vec<Token>],
        expanded: &mut Vec<Option<Vec<Token>>>,
        name: &Token,
    ) -> Result<Option<(Vec<Token>, usize)>> {
        let is_va_opt = |t: &Token| t.kind == Kind::Ident && &*t.text == "__VA_OPT__";
        let Some(t) = body.get(i).filter(|t| m.variadic && is_va_opt(t)) else {
            return Ok(None);
        };
        if !body.get(i + 1).is_some_and(|n| n.is_punct("(")) {
            return Err(self.error_at(name, "__VA_OPT__ must be followed by '('"));
        }
        let mut depth = 0usize;
        let mut close = None;
        for (k, b) in body.iter().enumerate().skip(i + 1) {
            if b.is_punct("(") {
                depth += 1;
            } else if b.is_punct(")") {
                depth -= 1;
                if depth == 0 {
                    close = Some(k);
                    break;
                }
            }
        }
        let Some(close) = close else {
            return Err(self.error_at(name, "unterminated __VA_OPT__"));
        };
        let contents = &body[i + 2..close];
        if contents.iter().any(is_va_opt) {
            return Err(self.error_at(name, "__VA_OPT__ cannot be nested"));
        }
        // C++20: the variable arguments count only if they expand to tokens.
        let Some(va) = args.len().checked_sub(1) else {
            return Ok(None);
        };
        if expanded[va].is_none() {
            expanded[va] = Some(self.expand_list(args[va].clone())?);
        }
        let has_va = expanded[va].as_ref().is_some_and(|a| !a.is_empty());
        let mut toks = if has_va {
            self.replace(m, contents, args, expanded, name)?
        } else {
            Vec::new()
        };
        if toks.is_empty() {
            toks.push(placemarker(t));
        }
        Ok(Some((with_lead(toks, t), close + 1)))
    }

    /// The `##` operator.
    fn paste(&mut self, lhs: &Token, rhs: &Token, name: &Token) -> Result<Token> {
        if lhs.kind == Kind::Placemarker {
            let mut t = rhs.clone();
            t.ws = lhs.ws;
            return Ok(t);
        }
        if rhs.kind == Kind::Placemarker {
            return Ok(lhs.clone());
        }
        let text = format!("{}{}", lhs.text, rhs.text);
        let Some(kind) = lex_single(&text) else {
            return Err(self.error_at(
                name,
                format!(
                    "pasting \"{}\" and \"{}\" does not give a valid preprocessing token",
                    lhs.text, rhs.text
                ),
            ));
        };
        let mut t = lhs.clone();
        t.kind = kind;
        t.text = text.into();
        t.hide = HideSet::default();
        Ok(t)
    }
}

fn placemarker(at: &Token) -> Token {
    let mut pm = Token::synthetic(Kind::Placemarker, "", at);
    pm.hide = HideSet::default();
    pm
}

/// Gives the first of `toks` the spacing of the parameter it replaces.
fn with_lead(mut toks: Vec<Token>, param: &Token) -> Vec<Token> {
    if let Some(first) = toks.first_mut() {
        first.ws = param.ws;
    }
    toks
}

/// `s` as a C string literal.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The text of a plain string literal token without its quotes and escapes.
pub(crate) fn unquote(lit: &str) -> Option<String> {
    let inner = lit.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.push(chars.next()?);
        } else {
            out.push(c);
        }
    }
    Some(out)
}
