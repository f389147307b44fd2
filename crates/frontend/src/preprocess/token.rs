//! Preprocessing tokens and the hide sets that keep a macro from expanding
//! inside its own expansion.

use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Number,
    Char,
    Str,
    Punct,
    /// A character that starts no other token, or an unterminated literal.
    Other,
    /// Stands for an empty macro argument next to `##`; never leaves `subst`.
    Placemarker,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    pub text: Rc<str>,
    /// Physical line and column (1-based, in characters) where the token
    /// starts. Tokens produced by an expansion carry the invocation's position.
    pub line: u32,
    pub col: u32,
    /// Whitespace, a comment or a line break comes before the token.
    pub ws: bool,
    /// The whitespace before the token on its own physical line (comments
    /// blanked): re-emitting it keeps the columns of unexpanded code.
    pub lead: Rc<str>,
    pub from_macro: bool,
    pub hide: HideSet,
}

impl Token {
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == p
    }

    /// A token made by the preprocessor itself, placed where `at` is.
    pub fn synthetic(kind: Kind, text: &str, at: &Token) -> Token {
        Token {
            kind,
            text: text.into(),
            line: at.line,
            col: at.col,
            ws: at.ws,
            lead: at.lead.clone(),
            from_macro: true,
            hide: at.hide.clone(),
        }
    }
}

/// The names of the macros whose expansion produced a token (Prosser's
/// algorithm): a name in its own hide set is not expanded again.
#[derive(Clone, Debug, Default)]
pub(crate) struct HideSet(Option<Rc<[Rc<str>]>>);

impl HideSet {
    pub fn contains(&self, name: &str) -> bool {
        self.0
            .as_ref()
            .is_some_and(|s| s.iter().any(|n| &**n == name))
    }

    pub fn with(&self, name: &Rc<str>) -> HideSet {
        if self.contains(name) {
            return self.clone();
        }
        let mut v: Vec<Rc<str>> = self.0.as_deref().map(<[_]>::to_vec).unwrap_or_default();
        v.push(name.clone());
        HideSet(Some(v.into()))
    }

    pub fn union(&self, other: &HideSet) -> HideSet {
        match (&self.0, &other.0) {
            (None, _) => other.clone(),
            (_, None) => self.clone(),
            (Some(a), Some(b)) if Rc::ptr_eq(a, b) => self.clone(),
            (Some(a), Some(b)) => {
                let mut v = a.to_vec();
                for n in b.iter() {
                    if !v.contains(n) {
                        v.push(n.clone());
                    }
                }
                HideSet(Some(v.into()))
            }
        }
    }

    pub fn intersect(&self, other: &HideSet) -> HideSet {
        match (&self.0, &other.0) {
            (Some(a), Some(_)) => {
                let v: Vec<Rc<str>> = a.iter().filter(|n| other.contains(n)).cloned().collect();
                if v.is_empty() {
                    HideSet(None)
                } else {
                    HideSet(Some(v.into()))
                }
            }
            _ => HideSet(None),
        }
    }
}
