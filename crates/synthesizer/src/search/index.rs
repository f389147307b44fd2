//! Index expressions: an `exp` whose value, in every case, is one of the
//! shared-memory indices holding the value the marked read returns.

use std::collections::HashMap;

use super::{spread, Lin, Space, MAX_TERMS};

/// What an index must meet: for each listed case (a row of the table), the
/// sorted set of acceptable values.
pub struct IndexSpec<'a> {
    pub cases: Vec<usize>,
    pub answers: Vec<&'a [i64]>,
}

impl IndexSpec<'_> {
    /// Positions of the cases in checking order: single-answer cases first
    /// (they are the strictest), each group spread out.
    fn order(&self) -> Vec<usize> {
        let single: Vec<usize> = (0..self.cases.len())
            .filter(|&p| self.answers[p].len() == 1)
            .collect();
        let multi: Vec<usize> = (0..self.cases.len())
            .filter(|&p| self.answers[p].len() > 1)
            .collect();
        let mut order = spread(single);
        order.extend(spread(multi));
        order
    }
}

struct Checker<'a> {
    space: &'a Space,
    spec: &'a IndexSpec<'a>,
    order: Vec<usize>,
}

impl Checker<'_> {
    /// The constants `k` with `|k| <= kmax` making `N + k` meet every case;
    /// the one of least size (then the smaller), stopping at the first case
    /// none survives.
    fn feasible(&self, n: &[(i8, u32)], kmax: i64) -> Option<i64> {
        let t = &self.space.terms;
        let mut it = self.order.iter();
        let &p0 = it.next()?;
        let v0 = t.eval(n, self.spec.cases[p0]);
        let mut ks: Vec<i64> = self.spec.answers[p0]
            .iter()
            .map(|a| a - v0)
            .filter(|k| k.abs() <= kmax)
            .collect();
        for &p in it {
            if ks.is_empty() {
                return None;
            }
            let v = t.eval(n, self.spec.cases[p]);
            let ans = self.spec.answers[p];
            ks.retain(|k| ans.binary_search(&(v + k)).is_ok());
        }
        ks.into_iter().min_by_key(|k| (k.abs(), *k))
    }
}

/// Takes a candidate sum and keeps it if it beats the best so far.
type Offer<'a> = dyn FnMut(Vec<(i8, u32)>, &mut Option<Lin>) + 'a;

fn better(space: &Space, cand: &Lin, best: &Option<Lin>) -> bool {
    let t = &space.terms;
    cand.grammar_terms() <= MAX_TERMS
        && match best {
            None => true,
            Some(b) => {
                cand.cost(t) < b.cost(t) || (cand.cost(t) == b.cost(t) && cand.k.abs() < b.k.abs())
            }
        }
}

/// The cheapest `exp` meeting `spec`, or `None` if the grammar has none.
pub fn search(space: &Space, spec: &IndexSpec) -> Option<Lin> {
    if spec.cases.is_empty() {
        return Some(Lin::constant(0));
    }
    let ck = Checker {
        space,
        spec,
        order: spec.order(),
    };
    let mut best: Option<Lin> = None;
    for level in 0..=4i64 {
        if let Some(b) = &best {
            if level > b.cost(&space.terms) || (level == b.cost(&space.terms) && b.k == 0) {
                break;
            }
        }
        let kmax = |best: &Option<Lin>| {
            let budget = 2 * (MAX_TERMS - level);
            match best {
                None => budget,
                Some(b) => budget.min(b.cost(&space.terms) - level),
            }
        };
        let mut offer = |terms: Vec<(i8, u32)>, best: &mut Option<Lin>| {
            let km = kmax(best);
            if km < 0 {
                return;
            }
            if let Some(k) = ck.feasible(&terms, km) {
                let cand = Lin { terms, k };
                if better(space, &cand, best) {
                    *best = Some(cand);
                }
            }
        };
        match level {
            0 => offer(Vec::new(), &mut best),
            1 | 2 => {
                for e in space
                    .bank
                    .entries
                    .iter()
                    .filter(|e| e.len() as i64 == level)
                {
                    offer(e.clone(), &mut best);
                }
            }
            3 => three_terms(&ck, &mut best, &mut offer),
            _ => four_terms(&ck, &mut best, &mut offer),
        }
    }
    best
}

/// Bank pairs plus one term, the term found by the value it needs in the
/// first case.
fn three_terms(ck: &Checker, best: &mut Option<Lin>, offer: &mut Offer) {
    let space = ck.space;
    let p0 = ck.order[0];
    let c0 = ck.spec.cases[p0];
    let by_value = space.terms.by_value(c0);
    let km0 = 2 * (MAX_TERMS - 3);
    for e in space.bank.entries.iter().filter(|e| e.len() == 2) {
        let e0 = space.terms.eval(e, c0);
        let km = match best {
            None => km0,
            Some(b) => km0.min(b.cost(&space.terms) - 3),
        };
        if km < 0 {
            return;
        }
        for &a in ck.spec.answers[p0] {
            for k in -km..=km {
                for s in [1i8, -1] {
                    let need = s as i64 * (a - k - e0);
                    for &t in by_value.get(&need).map(Vec::as_slice).unwrap_or(&[]) {
                        if e.iter().any(|&(_, x)| x == t) {
                            continue;
                        }
                        let mut n = e.clone();
                        n.push((s, t));
                        offer(n, best);
                    }
                }
            }
        }
    }
}

/// Two bank pairs joined through their values on a few single-answer cases.
fn four_terms(ck: &Checker, best: &mut Option<Lin>, offer: &mut Offer) {
    let space = ck.space;
    let keys: Vec<usize> = ck
        .order
        .iter()
        .copied()
        .filter(|&p| ck.spec.answers[p].len() == 1)
        .take(6)
        .collect();
    if keys.is_empty() {
        return;
    }
    let pairs: Vec<&Vec<(i8, u32)>> = space.bank.entries.iter().filter(|e| e.len() == 2).collect();
    let mut by_proj: HashMap<Vec<i64>, Vec<usize>> = HashMap::new();
    for (i, e) in pairs.iter().enumerate() {
        let proj: Vec<i64> = keys
            .iter()
            .map(|&p| space.terms.eval(e, ck.spec.cases[p]))
            .collect();
        by_proj.entry(proj).or_default().push(i);
    }
    let km0 = 2 * (MAX_TERMS - 4);
    for e1 in &pairs {
        let km = match best {
            None => km0,
            Some(b) => km0.min(b.cost(&space.terms) - 4),
        };
        if km < 0 {
            return;
        }
        let v1: Vec<i64> = keys
            .iter()
            .map(|&p| space.terms.eval(e1, ck.spec.cases[p]))
            .collect();
        for k in -km..=km {
            for s in [1i8, -1] {
                let need: Vec<i64> = keys
                    .iter()
                    .zip(&v1)
                    .map(|(&p, &x)| s as i64 * (ck.spec.answers[p][0] - k - x))
                    .collect();
                for &j in by_proj.get(&need).map(Vec::as_slice).unwrap_or(&[]) {
                    let e2 = pairs[j];
                    if e2.iter().any(|(_, t)| e1.iter().any(|(_, u)| u == t)) {
                        continue;
                    }
                    let mut n = (*e1).clone();
                    n.extend(e2.iter().map(|&(sg, t)| (sg * s, t)));
                    offer(n, best);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::table;
    use super::super::{Space, Term};
    use super::*;

    fn render(space: &Space, l: &Lin) -> String {
        let mut s = String::new();
        for &(sg, t) in &l.terms {
            let name = match space.terms.list[t as usize] {
                Term::Sym(a) => space.table.names[a as usize].clone(),
                other => format!("{other:?}"),
            };
            s.push_str(if sg > 0 { "+" } else { "-" });
            s.push_str(&name);
        }
        if l.k != 0 {
            s.push_str(&format!("{:+}", l.k));
        }
        s
    }

    #[test]
    fn finds_offsets_and_prefers_symbols_over_coincidental_constants() {
        // tx in 0..3 over two blocks of width 3; csb = tx; the answer is csb - bdx + 1.
        let tx: Vec<i64> = (0..6).map(|i| i % 3).collect();
        let bdx = vec![3; 6];
        let space = Space::new(table(&[("tx", tx.clone()), ("bdx", bdx)]), true);
        let answers: Vec<Vec<i64>> = tx.iter().map(|&t| vec![t - 2]).collect();
        let spec = IndexSpec {
            cases: (0..6).collect(),
            answers: answers.iter().map(Vec::as_slice).collect(),
        };
        let l = search(&space, &spec).unwrap();
        assert_eq!(render(&space, &l), "+tx-bdx+1");
    }

    #[test]
    fn multiple_answers_allow_a_simpler_index() {
        // Case 0 has its value at 0 and at 1 (a clamped copy); `i + 1` fits
        // only if the second answer counts.
        let i: Vec<i64> = vec![0, 0, 1, 2, 3];
        let space = Space::new(table(&[("i", i.clone())]), true);
        let answers: Vec<Vec<i64>> = vec![vec![0, 1], vec![0, 1], vec![2], vec![3], vec![4]];
        let spec = IndexSpec {
            cases: (0..5).collect(),
            answers: answers.iter().map(Vec::as_slice).collect(),
        };
        assert_eq!(render(&space, &search(&space, &spec).unwrap()), "+i+1");
        // With only the first answer, no single `exp` fits.
        let first: Vec<Vec<i64>> = answers.iter().map(|a| vec![a[0]]).collect();
        let spec = IndexSpec {
            cases: (0..5).collect(),
            answers: first.iter().map(Vec::as_slice).collect(),
        };
        assert!(search(&space, &spec).is_none());
    }

    #[test]
    fn reaches_three_and_four_term_sums() {
        let a: Vec<i64> = vec![1, 5, 2, 8, 3, 9, 4];
        let b: Vec<i64> = vec![7, 2, 9, 1, 6, 3, 5];
        let c: Vec<i64> = vec![2, 2, 8, 4, 1, 7, 3];
        let d: Vec<i64> = vec![6, 1, 4, 9, 2, 5, 8];
        let space = Space::new(
            table(&[
                ("a", a.clone()),
                ("b", b.clone()),
                ("c", c.clone()),
                ("d", d.clone()),
            ]),
            true,
        );
        let three: Vec<Vec<i64>> = (0..7).map(|i| vec![a[i] - b[i] + c[i]]).collect();
        let spec = IndexSpec {
            cases: (0..7).collect(),
            answers: three.iter().map(Vec::as_slice).collect(),
        };
        let l = search(&space, &spec).unwrap();
        assert_eq!((l.terms.len(), l.k), (3, 0));
        let four: Vec<Vec<i64>> = (0..7).map(|i| vec![a[i] + b[i] - c[i] + d[i]]).collect();
        let spec = IndexSpec {
            cases: (0..7).collect(),
            answers: four.iter().map(Vec::as_slice).collect(),
        };
        let l = search(&space, &spec).unwrap();
        assert_eq!((l.terms.len(), l.k), (4, 0));
        for (i, want) in four.iter().enumerate() {
            assert_eq!(space.terms.eval(&l.terms, i) + l.k, want[0]);
        }
    }
}
