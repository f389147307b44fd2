//! Macro definitions: parsing `#define` lines and the `#` operator.

use std::rc::Rc;

use super::token::{Kind, Token};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    File,
    Line,
    Counter,
}

#[derive(Clone, Debug)]
pub(crate) struct Macro {
    /// `None` for an object-like macro. A variadic macro's last parameter is
    /// `__VA_ARGS__` or the GNU-style named one.
    pub params: Option<Vec<Rc<str>>>,
    pub variadic: bool,
    pub body: Vec<Token>,
    pub builtin: Option<Builtin>,
}

impl Macro {
    pub fn builtin(b: Builtin) -> Macro {
        Macro {
            params: None,
            variadic: false,
            body: Vec::new(),
            builtin: Some(b),
        }
    }

    pub fn param_index(&self, t: &Token) -> Option<usize> {
        if t.kind != Kind::Ident {
            return None;
        }
        self.params.as_ref()?.iter().position(|p| **p == *t.text)
    }
}

#[derive(Debug)]
pub(crate) struct DefineError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

fn error(at: &Token, message: impl Into<String>) -> DefineError {
    DefineError {
        line: at.line,
        col: at.col,
        message: message.into(),
    }
}

/// Checks that `tok` may name a macro.
pub(crate) fn macro_name<'t>(
    tok: Option<&'t Token>,
    directive: &str,
    at: &Token,
) -> Result<&'t Token, DefineError> {
    let Some(t) = tok else {
        return Err(error(
            at,
            format!("no macro name given in #{directive} directive"),
        ));
    };
    if t.kind != Kind::Ident {
        return Err(error(
            t,
            format!("macro names must be identifiers, found \"{}\"", t.text),
        ));
    }
    if &*t.text == "defined" {
        return Err(error(t, "\"defined\" cannot be used as a macro name"));
    }
    Ok(t)
}

/// Parses what follows `#define`; `at` (the directive name) places errors
/// about a missing name.
pub(crate) fn parse_define(toks: &[Token], at: &Token) -> Result<(Rc<str>, Macro), DefineError> {
    let name = macro_name(toks.first(), "define", at)?;
    if &*name.text == "__VA_ARGS__" {
        return Err(error(name, "__VA_ARGS__ cannot be used as a macro name"));
    }
    let mut i = 1;
    let mut params = None;
    let mut variadic = false;
    if toks.get(1).is_some_and(|t| t.is_punct("(") && !t.ws) {
        let (list, var, next) = parse_params(toks, 2, &toks[1])?;
        params = Some(list);
        variadic = var;
        i = next;
    }
    let body: Vec<Token> = toks[i..]
        .iter()
        .map(|t| {
            let mut t = t.clone();
            t.lead = if t.ws { " ".into() } else { "".into() };
            t.from_macro = true;
            t
        })
        .collect();
    let m = Macro {
        params,
        variadic,
        body,
        builtin: None,
    };
    check_body(&m)?;
    Ok((name.text.clone(), m))
}

/// Parses a parameter list whose first token is at `i`; returns the
/// parameters, whether the macro is variadic, and the index after `)`.
fn parse_params(
    toks: &[Token],
    mut i: usize,
    open: &Token,
) -> Result<(Vec<Rc<str>>, bool, usize), DefineError> {
    let mut list: Vec<Rc<str>> = Vec::new();
    if toks.get(i).is_some_and(|t| t.is_punct(")")) {
        return Ok((list, false, i + 1));
    }
    loop {
        let Some(t) = toks.get(i) else {
            return Err(error(open, "missing ')' in macro parameter list"));
        };
        let mut variadic = false;
        if t.is_punct("...") {
            list.push("__VA_ARGS__".into());
            variadic = true;
        } else if t.kind == Kind::Ident {
            if &*t.text == "__VA_ARGS__" {
                return Err(error(
                    t,
                    "__VA_ARGS__ can only appear in the expansion of a variadic macro",
                ));
            }
            if list.iter().any(|p| **p == *t.text) {
                return Err(error(
                    t,
                    format!("duplicate macro parameter \"{}\"", t.text),
                ));
            }
            list.push(t.text.clone());
            if toks.get(i + 1).is_some_and(|n| n.is_punct("...")) {
                variadic = true;
                i += 1;
            }
        } else {
            return Err(error(
                t,
                format!("expected parameter name, found \"{}\"", t.text),
            ));
        }
        i += 1;
        match toks.get(i) {
            Some(t) if t.is_punct(")") => return Ok((list, variadic, i + 1)),
            Some(t) if t.is_punct(",") && !variadic => i += 1,
            Some(t) if variadic => {
                return Err(error(
                    t,
                    format!("expected ')' after \"...\", found \"{}\"", t.text),
                ))
            }
            Some(t) => {
                return Err(error(
                    t,
                    format!("expected ',' or ')', found \"{}\"", t.text),
                ))
            }
            None => return Err(error(open, "missing ')' in macro parameter list")),
        }
    }
}

fn check_body(m: &Macro) -> Result<(), DefineError> {
    let body = &m.body;
    if let Some(t) = body.first().filter(|t| t.is_punct("##")) {
        return Err(error(
            t,
            "'##' cannot appear at either end of a macro expansion",
        ));
    }
    if let Some(t) = body.last().filter(|t| t.is_punct("##")) {
        return Err(error(
            t,
            "'##' cannot appear at either end of a macro expansion",
        ));
    }
    if m.params.is_some() {
        for (k, t) in body.iter().enumerate() {
            let operand = body.get(k + 1);
            let va_opt = m.variadic
                && operand.is_some_and(|n| n.kind == Kind::Ident && &*n.text == "__VA_OPT__");
            if t.is_punct("#") && operand.and_then(|n| m.param_index(n)).is_none() && !va_opt {
                return Err(error(t, "'#' is not followed by a macro parameter"));
            }
        }
    }
    Ok(())
}

/// The `#` operator: the argument's spelling as a string literal.
pub(crate) fn stringize(arg: &[Token], at: &Token) -> Token {
    let mut s = String::from("\"");
    for (k, t) in arg
        .iter()
        .filter(|t| t.kind != Kind::Placemarker)
        .enumerate()
    {
        if k > 0 && t.ws {
            s.push(' ');
        }
        if matches!(t.kind, Kind::Str | Kind::Char) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    let mut tok = Token::synthetic(Kind::Str, &s, at);
    tok.hide = Default::default();
    tok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocess::lexer::lex;

    fn define(src: &str) -> Result<(Rc<str>, Macro), DefineError> {
        let lexed = lex(src).unwrap();
        let toks = &lexed.lines[0].toks;
        parse_define(&toks[2..], &toks[1])
    }

    #[test]
    fn object_and_function_like() {
        let (name, m) = define("#define N (1 + 2)").unwrap();
        assert_eq!(&*name, "N");
        assert!(m.params.is_none());
        assert_eq!(m.body.len(), 5);
        let (_, m) = define("#define F (x) x").unwrap();
        assert!(
            m.params.is_none(),
            "a space before '(' makes it object-like"
        );
        let (_, m) = define("#define F(a, b, ...) a b __VA_ARGS__").unwrap();
        assert_eq!(m.params.as_ref().unwrap().len(), 3);
        assert!(m.variadic);
        let (_, m) = define("#define G(args...) f(args)").unwrap();
        assert!(m.variadic);
        assert_eq!(&*m.params.as_ref().unwrap()[0], "args");
    }

    #[test]
    fn malformed_definitions() {
        let msg = |s: &str| define(s).err().unwrap().message;
        assert_eq!(
            msg("#define 3 x"),
            "macro names must be identifiers, found \"3\""
        );
        assert_eq!(msg("#define F(a, a) a"), "duplicate macro parameter \"a\"");
        assert_eq!(msg("#define F(a b) a"), "expected ',' or ')', found \"b\"");
        assert_eq!(msg("#define F(a"), "missing ')' in macro parameter list");
        assert_eq!(
            msg("#define F(a) #b"),
            "'#' is not followed by a macro parameter"
        );
        assert_eq!(
            msg("#define F ## x"),
            "'##' cannot appear at either end of a macro expansion"
        );
        assert_eq!(
            msg("#define defined 1"),
            "\"defined\" cannot be used as a macro name"
        );
    }
}
