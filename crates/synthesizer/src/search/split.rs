//! The then/else/cond split of section 4.2.4, for reads whose index no
//! single `exp` gives: `cond ? then : else`.
//!
//! `then` is searched first among sums of up to two terms, allowed to fail on
//! fewer than half of the cases (the thesis's limit); `else` must then be
//! right on every case `then` gets wrong; and `cond` must be true where only
//! `then` is right and false where `then` is wrong.

use super::cond::{self, BExp, CondSpec};
use super::index::{self, IndexSpec};
use super::{Lin, Space, MAX_TERMS};

#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    pub cond: BExp,
    pub then: Lin,
    pub els: Lin,
}

/// Then-expressions tried before giving up.
const THEN_CANDIDATES: usize = 8;

fn correct(space: &Space, l: &Lin, c: usize, answers: &[i64]) -> bool {
    answers
        .binary_search(&(space.terms.eval(&l.terms, c) + l.k))
        .is_ok()
}

/// For `N`, the constant right on a strict majority of the cases, if any
/// (Boyer-Moore vote on each case's first answer, then a count).
fn majority(space: &Space, spec: &IndexSpec, n: &[(i8, u32)]) -> Option<(i64, usize)> {
    let mut cand = 0i64;
    let mut count = 0usize;
    for (p, &c) in spec.cases.iter().enumerate() {
        let d = spec.answers[p][0] - space.terms.eval(n, c);
        if count == 0 {
            cand = d;
            count = 1;
        } else if d == cand {
            count += 1;
        } else {
            count -= 1;
        }
    }
    let lin = Lin {
        terms: n.to_vec(),
        k: cand,
    };
    let right = spec
        .cases
        .iter()
        .enumerate()
        .filter(|&(p, &c)| correct(space, &lin, c, spec.answers[p]))
        .count();
    (2 * right > spec.cases.len()).then_some((cand, right))
}

pub fn search(space: &Space, spec: &IndexSpec) -> Option<Split> {
    let mut thens: Vec<(i64, usize, Lin)> = Vec::new();
    let mut consider = |n: &[(i8, u32)]| {
        if let Some((k, right)) = majority(space, spec, n) {
            let l = Lin {
                terms: n.to_vec(),
                k,
            };
            if l.grammar_terms() <= MAX_TERMS {
                thens.push((l.cost(&space.terms), usize::MAX - right, l));
            }
        }
    };
    consider(&[]);
    for e in &space.bank.entries {
        consider(e);
    }
    thens.sort_by_key(|t| (t.1, t.0));
    for (_, _, then) in thens.into_iter().take(THEN_CANDIDATES) {
        let (good, bad): (Vec<usize>, Vec<usize>) = (0..spec.cases.len())
            .partition(|&p| correct(space, &then, spec.cases[p], spec.answers[p]));
        let else_spec = IndexSpec {
            cases: bad.iter().map(|&p| spec.cases[p]).collect(),
            answers: bad.iter().map(|&p| spec.answers[p]).collect(),
        };
        let Some(els) = index::search(space, &else_spec) else {
            continue;
        };
        let must_true: Vec<usize> = good
            .iter()
            .filter(|&&p| !correct(space, &els, spec.cases[p], spec.answers[p]))
            .map(|&p| spec.cases[p])
            .collect();
        let must_false: Vec<usize> = else_spec.cases.clone();
        let Some(cond) = cond::search(
            space,
            &CondSpec {
                must_true,
                must_false,
            },
        ) else {
            continue;
        };
        return Some(Split { cond, then, els });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::tests::table;
    use super::*;

    #[test]
    fn west_neighbour_with_a_clamped_edge() {
        // Threads of blocks of 3 over a row of 6; the read is in[i == 0 ? c : c - 1];
        // in shared memory at csb - 1 except at i == 0, where it is csb, and not
        // at all for the other block edges.
        let tx: Vec<i64> = (0..6).map(|c| c % 3).collect();
        let i: Vec<i64> = (0..6).collect();
        let space = Space::new(table(&[("tx", tx.clone()), ("i", i.clone())]), true);
        let found: Vec<usize> = (0..6).filter(|&c| tx[c] != 0 || i[c] == 0).collect();
        let answers: Vec<Vec<i64>> = found
            .iter()
            .map(|&c| vec![if i[c] == 0 { tx[c] } else { tx[c] - 1 }])
            .collect();
        let spec = IndexSpec {
            cases: found.clone(),
            answers: answers.iter().map(Vec::as_slice).collect(),
        };
        assert!(index::search(&space, &spec).is_none());
        let s = search(&space, &spec).unwrap();
        for (p, &c) in found.iter().enumerate() {
            let pick = if s.cond.holds(&space, c) {
                &s.then
            } else {
                &s.els
            };
            assert_eq!(
                space.terms.eval(&pick.terms, c) + pick.k,
                answers[p][0],
                "case {c}: {s:?}"
            );
        }
        assert_eq!((s.then.terms.len(), s.then.k), (1, -1), "{s:?}");
    }
}
