//! The search of section 4.2.3-4.2.4: expressions of the thesis's grammar
//! that meet the profile.
//!
//! Grammar: `p ::= 0 | 1 | 2 | s | 2*s | s*s | 2*s*s`, `exp ::= exp + p |
//! exp - p` with at most five terms, `b ::= exp == exp | exp != exp | exp <
//! exp | exp <= exp`, `bexp ::= b | b || b | b && b`.
//!
//! How the search stays fast:
//!
//! - Constants are not enumerated. A candidate is a sum `N` of non-constant
//!   terms, and the constant `k` that makes `N + k` meet the profile is
//!   solved for: for an index, `k` must lie in `answers(c) - N(c)` for every
//!   case `c`; for a comparison, the cases pin `k` or bound it to an interval.
//! - Sums of up to two terms form a bank built bottom-up with observational
//!   equivalence: one sum is kept per distinct vector of values over the
//!   profile cases. Three-term sums are a bank entry plus a term, and the term
//!   is looked up by the value it must have at the first case (so only
//!   candidates right on that case are ever built); four-term index sums
//!   join two bank entries through a hash of their values on a few cases.
//! - Every candidate is checked case by case and dropped at its first
//!   failing case.
//! - Candidates are ranked by `terms + |k|` (products weigh two), ties going to the smaller
//!   constant: with one profile launch `blockDim.x` is a constant too, and
//!   `threadIdx.x != 2` must not win over `threadIdx.x != blockDim.x - 1`.

pub mod cond;
pub mod index;
pub mod split;

use std::collections::{HashMap, HashSet};

/// Profile values: one column per symbol, one row per case.
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub names: Vec<String>,
    /// The launch axis of a symbol (0, 1, 2 for x, y, z), for symbols that
    /// belong to one.
    pub axes: Vec<Option<u8>>,
    /// `cols[s][c]`: symbol `s` in case `c`.
    pub cols: Vec<Vec<i64>>,
    pub n: usize,
}

/// A non-constant term of the grammar's `p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Sym(u16),
    Twice(u16),
    Prod(u16, u16),
    TwiceProd(u16, u16),
}

impl Term {
    /// Symbols mentioned (for printing and cost).
    pub fn symbols(self) -> Vec<u16> {
        match self {
            Term::Sym(s) | Term::Twice(s) => vec![s],
            Term::Prod(a, b) | Term::TwiceProd(a, b) => vec![a, b],
        }
    }
}

/// `Σ sign·term + k`: an `exp` of the grammar with its constants gathered.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lin {
    /// (sign ±1, index into [`Terms::list`]).
    pub terms: Vec<(i8, u32)>,
    pub k: i64,
}

impl Lin {
    pub fn constant(k: i64) -> Lin {
        Lin {
            terms: Vec::new(),
            k,
        }
    }
    /// Ranking: the terms' weights plus the size of the constant.
    pub fn cost(&self, terms: &Terms) -> i64 {
        terms.weight(&self.terms) + self.k.abs()
    }
    /// Terms of the grammar it takes (constants as sums of 1 and 2).
    pub fn grammar_terms(&self) -> i64 {
        self.terms.len() as i64 + (self.k.abs() + 1) / 2
    }
}

/// Most terms an `exp` may have (the thesis's limit).
pub const MAX_TERMS: i64 = 5;

/// The non-constant terms over the symbols, one per distinct value vector.
pub struct Terms {
    pub list: Vec<Term>,
    /// The launch axis of a term that is a (doubled) thread or block id or
    /// dimension.
    pub axes: Vec<Option<u8>>,
    /// `vals[t * n + c]`.
    pub vals: Vec<i64>,
    pub n: usize,
}

impl Terms {
    /// The terms over `table`'s symbols; products only if `products`.
    pub fn new(table: &Table, products: bool) -> Terms {
        let n = table.n;
        // A symbol equal to one of the grammar's constants (0, 1, 2) in
        // every case says nothing the constant does not, and would stand in
        // for it by coincidence (a loop counter with one trip in the profile).
        let useful: Vec<u16> = (0..table.cols.len() as u16)
            .filter(|&s| {
                let col = &table.cols[s as usize];
                !(col.iter().all(|&v| v == col[0]) && col.first().is_none_or(|v| v.abs() <= 2))
            })
            .collect();
        let mut cand = Vec::new();
        for &s in &useful {
            cand.push(Term::Sym(s));
        }
        for &s in &useful {
            cand.push(Term::Twice(s));
        }
        for (i, &s) in useful.iter().enumerate().filter(|_| products) {
            for &t in &useful[i..] {
                cand.push(Term::Prod(s, t));
            }
        }
        for (i, &s) in useful.iter().enumerate().filter(|_| products) {
            for &t in &useful[i..] {
                cand.push(Term::TwiceProd(s, t));
            }
        }
        let mut seen = HashSet::new();
        let mut list = Vec::new();
        let mut vals = Vec::new();
        let mut buf = vec![0i64; n];
        for term in cand {
            for (c, v) in buf.iter_mut().enumerate() {
                *v = match term {
                    Term::Sym(s) => table.cols[s as usize][c],
                    Term::Twice(s) => 2 * table.cols[s as usize][c],
                    Term::Prod(a, b) => {
                        table.cols[a as usize][c].wrapping_mul(table.cols[b as usize][c])
                    }
                    Term::TwiceProd(a, b) => {
                        2 * table.cols[a as usize][c].wrapping_mul(table.cols[b as usize][c])
                    }
                };
            }
            if buf.iter().all(|&v| v == 0) || !seen.insert(fingerprint(&buf)) {
                continue;
            }
            list.push(term);
            vals.extend_from_slice(&buf);
        }
        let axes = list
            .iter()
            .map(|t| match *t {
                Term::Sym(s) | Term::Twice(s) => table.axes.get(s as usize).copied().flatten(),
                _ => None,
            })
            .collect();
        Terms {
            list,
            vals,
            n,
            axes,
        }
    }

    /// Ranking weight of a sum: 1 per symbol or doubled symbol, 2 per
    /// product, and 2 more when it adds symbols of different launch axes
    /// (`threadIdx.y - blockDim.x`, `j - blockDim.x`), which with a profile
    /// of one block shape can stand in for the right axis by coincidence.
    pub fn weight(&self, terms: &[(i8, u32)]) -> i64 {
        let w: i64 = terms
            .iter()
            .map(|&(_, t)| match self.list[t as usize] {
                Term::Sym(_) | Term::Twice(_) => 1,
                Term::Prod(..) | Term::TwiceProd(..) => 2,
            })
            .sum();
        let mut axis = None;
        let mut mixed = false;
        for &(_, t) in terms {
            if let Some(a) = self.axes[t as usize] {
                mixed |= axis.is_some_and(|b| b != a);
                axis = Some(a);
            }
        }
        w + if mixed { 2 } else { 0 }
    }

    #[inline(always)]
    pub fn val(&self, t: u32, c: usize) -> i64 {
        self.vals[t as usize * self.n + c]
    }

    /// Value of `Σ sign·term` (without the constant) in case `c`.
    #[inline(always)]
    pub fn eval(&self, terms: &[(i8, u32)], c: usize) -> i64 {
        terms.iter().map(|&(s, t)| s as i64 * self.val(t, c)).sum()
    }

    /// Terms by their value in case `c`.
    pub fn by_value(&self, c: usize) -> HashMap<i64, Vec<u32>> {
        let mut m: HashMap<i64, Vec<u32>> = HashMap::new();
        for t in 0..self.list.len() as u32 {
            m.entry(self.val(t, c)).or_default().push(t);
        }
        m
    }
}

/// Sums of one and two signed terms, one per distinct value vector
/// (observational equivalence), in the order they were built.
pub struct Bank {
    pub entries: Vec<Vec<(i8, u32)>>,
}

impl Bank {
    pub fn new(terms: &Terms) -> Bank {
        let n = terms.n;
        let nt = terms.list.len() as u32;
        let mut seen = HashSet::new();
        let mut entries = Vec::new();
        let mut buf = vec![0i64; n];
        let mut consider = |e: Vec<(i8, u32)>, entries: &mut Vec<Vec<(i8, u32)>>| {
            for (c, v) in buf.iter_mut().enumerate() {
                *v = terms.eval(&e, c);
            }
            if buf.iter().any(|&v| v != 0) && seen.insert(fingerprint(&buf)) {
                entries.push(e);
            }
        };
        for t in 0..nt {
            consider(vec![(1, t)], &mut entries);
            consider(vec![(-1, t)], &mut entries);
        }
        for a in 0..nt {
            for b in a + 1..nt {
                for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    consider(vec![(sa, a), (sb, b)], &mut entries);
                }
            }
        }
        Bank { entries }
    }
}

/// A 128-bit hash of a value vector, standing for the vector in
/// observational-equivalence sets.
pub fn fingerprint(v: &[i64]) -> u128 {
    let mut h1: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h2: u64 = 0xc2b2_ae3d_27d4_eb4f;
    for &x in v {
        let x = x as u64;
        h1 = (h1 ^ x).wrapping_mul(0x100_0000_01b3).rotate_left(23);
        h2 = (h2.wrapping_add(x)).wrapping_mul(0xff51_afd7_ed55_8ccd) ^ (h2 >> 29);
    }
    ((h1 as u128) << 64) | h2 as u128
}

/// A deterministic spread of `0..n`, so that early cases differ from each
/// other and a wrong candidate fails soon.
pub fn spread(mut idx: Vec<usize>) -> Vec<usize> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for i in (1..idx.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = (state % (i as u64 + 1)) as usize;
        idx.swap(i, j);
    }
    idx
}

/// Everything a search over one site's cases needs.
pub struct Space {
    pub table: Table,
    pub terms: Terms,
    pub bank: Bank,
}

impl Space {
    /// Products (`s*s`, `2*s*s`) are offered only if `products`: a search
    /// first runs without them, since with small profiles they fit many
    /// cases by coincidence, and only falls back to them.
    pub fn new(table: Table, products: bool) -> Space {
        let terms = Terms::new(&table, products);
        let bank = Bank::new(&terms);
        Space { table, terms, bank }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A table from named columns.
    pub fn table(cols: &[(&str, Vec<i64>)]) -> Table {
        Table {
            names: cols.iter().map(|(n, _)| n.to_string()).collect(),
            axes: vec![None; cols.len()],
            n: cols[0].1.len(),
            cols: cols.iter().map(|(_, c)| c.clone()).collect(),
        }
    }

    #[test]
    fn equivalent_terms_and_sums_are_kept_once() {
        // b == 2*a everywhere: Sym(b) and Twice(a) are one term, and the
        // first built (Sym) is the one kept.
        let t = table(&[("a", vec![1, 2, 3]), ("b", vec![2, 4, 6])]);
        let terms = Terms::new(&t, true);
        assert!(terms.list.contains(&Term::Sym(1)));
        assert!(!terms.list.contains(&Term::Twice(0)));
        let bank = Bank::new(&terms);
        let mut fps = HashSet::new();
        for e in &bank.entries {
            let v: Vec<i64> = (0..3).map(|c| terms.eval(e, c)).collect();
            assert!(fps.insert(v), "duplicate vector for {e:?}");
        }
        assert!(!bank.entries.is_empty());
    }
}
