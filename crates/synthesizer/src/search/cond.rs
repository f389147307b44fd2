//! Conditions: a `bexp` true on every case that needs it and false on every
//! case that must not have it (cases in neither set do not matter).

use std::collections::HashMap;

use super::{spread, Space, Term};

/// Comparison of `N + k` with zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
}

/// `N + k op 0`: the grammar's `exp op exp` with everything moved to one side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    pub n: Vec<(i8, u32)>,
    pub op: Op,
    pub k: i64,
}

impl Atom {
    pub fn cost(&self, terms: &super::Terms) -> i64 {
        terms.weight(&self.n) + self.k.abs()
    }

    pub fn holds(&self, space: &Space, c: usize) -> bool {
        let v = space.terms.eval(&self.n, c) + self.k;
        match self.op {
            Op::Eq => v == 0,
            Op::Ne => v != 0,
            Op::Lt => v < 0,
            Op::Le => v <= 0,
        }
    }

    /// The atom true exactly where this one is false.
    pub fn negate(&self) -> Atom {
        let neg = |n: &[(i8, u32)]| n.iter().map(|&(s, t)| (-s, t)).collect::<Vec<_>>();
        match self.op {
            Op::Eq => Atom {
                op: Op::Ne,
                ..self.clone()
            },
            Op::Ne => Atom {
                op: Op::Eq,
                ..self.clone()
            },
            // !(v < 0) == (v >= 0) == (-v <= 0)
            Op::Lt => Atom {
                n: neg(&self.n),
                op: Op::Le,
                k: -self.k,
            },
            // !(v <= 0) == (v > 0) == (-v < 0)
            Op::Le => Atom {
                n: neg(&self.n),
                op: Op::Lt,
                k: -self.k,
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum BExp {
    True,
    False,
    Atom(Atom),
    Or(Atom, Atom),
    And(Atom, Atom),
}

impl BExp {
    pub fn cost(&self, terms: &super::Terms) -> i64 {
        match self {
            BExp::True | BExp::False => 0,
            BExp::Atom(a) => a.cost(terms),
            BExp::Or(a, b) | BExp::And(a, b) => a.cost(terms) + b.cost(terms),
        }
    }

    pub fn holds(&self, space: &Space, c: usize) -> bool {
        match self {
            BExp::True => true,
            BExp::False => false,
            BExp::Atom(a) => a.holds(space, c),
            BExp::Or(a, b) => a.holds(space, c) || b.holds(space, c),
            BExp::And(a, b) => a.holds(space, c) && b.holds(space, c),
        }
    }
}

/// The cases a condition must be true on and false on (rows of the table).
pub struct CondSpec {
    pub must_true: Vec<usize>,
    pub must_false: Vec<usize>,
}

/// The cheapest condition meeting `spec`: a single comparison, a
/// disjunction or a conjunction of two, the cheapest winning (a single
/// comparison on ties).
pub fn search(space: &Space, spec: &CondSpec) -> Option<BExp> {
    if spec.must_false.is_empty() {
        return Some(BExp::True);
    }
    if spec.must_true.is_empty() {
        return Some(BExp::False);
    }
    let t = &space.terms;
    let mut best: Option<BExp> = single(space, spec).map(BExp::Atom);
    let or = pair(space, &spec.must_true, &spec.must_false).map(|(a, b)| BExp::Or(a, b));
    let and = pair(space, &spec.must_false, &spec.must_true)
        .map(|(a, b)| BExp::And(a.negate(), b.negate()));
    for c in [or, and].into_iter().flatten() {
        if best.as_ref().is_none_or(|b| c.cost(t) < b.cost(t)) {
            best = Some(c);
        }
    }
    best
}

/// Alternating true/false cases, so a wrong comparison fails early.
fn interleave(spec: &CondSpec) -> Vec<(usize, bool)> {
    let t = spread(spec.must_true.clone());
    let f = spread(spec.must_false.clone());
    let mut out = Vec::with_capacity(t.len() + f.len());
    let (mut i, mut j) = (0, 0);
    while i < t.len() || j < f.len() {
        if i < t.len() {
            out.push((t[i], true));
            i += 1;
        }
        if j < f.len() {
            out.push((f[j], false));
            j += 1;
        }
    }
    out
}

/// For one `N`, the constant of least size for each operator, checking the
/// cases in order and stopping once no operator can work.
fn solve(
    space: &Space,
    order: &[(usize, bool)],
    n: &[(i8, u32)],
    kmax: i64,
    ops: [bool; 4],
) -> Option<(Op, i64)> {
    let [mut eq_ok, mut ne_ok, mut lt_ok, mut le_ok] = ops;
    let (mut eq_k, mut ne_k) = (None::<i64>, None::<i64>);
    let mut ne_excluded: Vec<i64> = Vec::new();
    let (mut lt_lo, mut lt_hi, mut le_lo, mut le_hi) = (-kmax, kmax, -kmax, kmax);
    for &(c, want) in order {
        let v = space.terms.eval(n, c);
        if want {
            if eq_ok {
                match eq_k {
                    None if (-v).abs() <= kmax => eq_k = Some(-v),
                    None => eq_ok = false,
                    Some(k) => eq_ok = v + k == 0,
                }
            }
            if ne_ok {
                match ne_k {
                    None => ne_excluded.push(-v),
                    Some(k) => ne_ok = v + k != 0,
                }
            }
            lt_hi = lt_hi.min(-v - 1);
            le_hi = le_hi.min(-v);
        } else {
            if eq_ok {
                match eq_k {
                    // The order starts with a true case, so `k` is known.
                    None => {}
                    Some(k) => eq_ok = v + k != 0,
                }
            }
            if ne_ok {
                match ne_k {
                    None if (-v).abs() <= kmax && !ne_excluded.contains(&-v) => ne_k = Some(-v),
                    None => ne_ok = false,
                    Some(k) => ne_ok = v + k == 0,
                }
            }
            lt_lo = lt_lo.max(-v);
            le_lo = le_lo.max(-v + 1);
        }
        lt_ok &= lt_lo <= lt_hi;
        le_ok &= le_lo <= le_hi;
        if !(eq_ok || ne_ok || lt_ok || le_ok) {
            return None;
        }
    }
    let closest = |lo: i64, hi: i64| 0i64.clamp(lo, hi);
    let mut cands = Vec::new();
    if eq_ok {
        cands.extend(eq_k.map(|k| (Op::Eq, k)));
    }
    if ne_ok {
        cands.extend(ne_k.map(|k| (Op::Ne, k)));
    }
    if lt_ok {
        cands.push((Op::Lt, closest(lt_lo, lt_hi)));
    }
    if le_ok {
        cands.push((Op::Le, closest(le_lo, le_hi)));
    }
    cands.into_iter().min_by_key(|(_, k)| k.abs())
}

fn single(space: &Space, spec: &CondSpec) -> Option<Atom> {
    let order = interleave(spec);
    let mut best: Option<Atom> = None;
    let better = |a: &Atom, best: &Option<Atom>| match best {
        None => true,
        Some(b) => {
            a.cost(&space.terms) < b.cost(&space.terms)
                || (a.cost(&space.terms) == b.cost(&space.terms) && a.k.abs() < b.k.abs())
        }
    };
    for level in 1..=3i64 {
        if let Some(b) = &best {
            if level > b.cost(&space.terms) || (level == b.cost(&space.terms) && b.k == 0) {
                break;
            }
        }
        let kmax = |best: &Option<Atom>| match best {
            None => 2 * (super::MAX_TERMS - level).max(1),
            Some(b) => b.cost(&space.terms) - level,
        };
        if level <= 2 {
            for e in space
                .bank
                .entries
                .iter()
                .filter(|e| e.len() as i64 == level)
            {
                let km = kmax(&best);
                if km < 0 {
                    break;
                }
                if let Some((op, k)) = solve(space, &order, e, km, [true; 4]) {
                    let a = Atom {
                        n: e.clone(),
                        op,
                        k,
                    };
                    if better(&a, &best) {
                        best = Some(a);
                    }
                }
            }
            continue;
        }
        // Three terms: equalities only, the third term found by the value it
        // must have at the first case that pins `k` (a true case for `==`,
        // a false one for `!=`).
        let t0 = spec.must_true[0];
        let f0 = spec.must_false[0];
        let order_eq: Vec<(usize, bool)> = std::iter::once((t0, true))
            .chain(order.iter().copied())
            .collect();
        let order_ne: Vec<(usize, bool)> = std::iter::once((f0, false))
            .chain(order.iter().copied())
            .collect();
        let by_t0 = space.terms.by_value(t0);
        let by_f0 = space.terms.by_value(f0);
        for e in space.bank.entries.iter().filter(|e| e.len() == 2) {
            let km = kmax(&best);
            if km < 0 {
                break;
            }
            for (op, pin, by, ord) in [
                (Op::Eq, t0, &by_t0, &order_eq),
                (Op::Ne, f0, &by_f0, &order_ne),
            ] {
                let e0 = space.terms.eval(e, pin);
                for k in -km..=km {
                    for s in [1i8, -1] {
                        let need = s as i64 * (-k - e0);
                        for &t in by.get(&need).map(Vec::as_slice).unwrap_or(&[]) {
                            if e.iter().any(|&(_, x)| x == t) {
                                continue;
                            }
                            let mut n = e.clone();
                            n.push((s, t));
                            let ops = [op == Op::Eq, op == Op::Ne, false, false];
                            if let Some((op, k)) = solve(space, ord, &n, km, ops) {
                                let a = Atom { n, op, k };
                                if better(&a, &best) {
                                    best = Some(a);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    best
}

/// Small bitsets over the `want` cases.
fn bits(len: usize, set: impl Iterator<Item = usize>) -> Vec<u64> {
    let mut b = vec![0u64; len.div_ceil(64)];
    for i in set {
        b[i / 64] |= 1 << (i % 64);
    }
    b
}

/// The cheapest `a || b` true on all of `want` and false on all of `avoid`.
/// Atoms here compare one term, or a sum or difference of two symbols, with
/// a constant of size at most 2.
fn pair(space: &Space, want: &[usize], avoid: &[usize]) -> Option<(Atom, Atom)> {
    let simple = |e: &Vec<(i8, u32)>| {
        e.len() == 1
            || e.iter()
                .all(|&(_, t)| matches!(space.terms.list[t as usize], Term::Sym(_)))
    };
    let mut atoms: HashMap<Vec<u64>, Atom> = HashMap::new();
    let mut add = |a: Atom, set: Vec<u64>| {
        if set.iter().all(|&w| w == 0) {
            return;
        }
        match atoms.get(&set) {
            Some(old) if old.cost(&space.terms) <= a.cost(&space.terms) => {}
            _ => {
                atoms.insert(set, a);
            }
        }
    };
    let m = want.len();
    for e in space.bank.entries.iter().filter(|e| simple(e)) {
        let vt: Vec<i64> = want.iter().map(|&c| space.terms.eval(e, c)).collect();
        let vf: Vec<i64> = avoid.iter().map(|&c| space.terms.eval(e, c)).collect();
        // `N + k == 0` for each value N takes on the wanted cases.
        let mut seen: Vec<i64> = Vec::new();
        for &v in &vt {
            if v.abs() <= 2 && !seen.contains(&v) && !vf.contains(&v) {
                seen.push(v);
                let set = bits(m, (0..m).filter(|&i| vt[i] == v));
                add(
                    Atom {
                        n: e.clone(),
                        op: Op::Eq,
                        k: -v,
                    },
                    set,
                );
            }
        }
        // `N + k != 0`: false on every avoided case pins `k`.
        if let Some(&u) = vf.first() {
            if u.abs() <= 2 && vf.iter().all(|&x| x == u) {
                let set = bits(m, (0..m).filter(|&i| vt[i] != u));
                add(
                    Atom {
                        n: e.clone(),
                        op: Op::Ne,
                        k: -u,
                    },
                    set,
                );
            }
        }
        // `N + k < 0` / `<= 0` with the least `k` false on every avoided case.
        let lo_lt = vf.iter().map(|&v| -v).max().unwrap_or(i64::MIN);
        if lo_lt.abs() <= 2 {
            let set = bits(m, (0..m).filter(|&i| vt[i] + lo_lt < 0));
            add(
                Atom {
                    n: e.clone(),
                    op: Op::Lt,
                    k: lo_lt,
                },
                set,
            );
        }
        let lo_le = vf.iter().map(|&v| 1 - v).max().unwrap_or(i64::MIN);
        if lo_le.abs() <= 2 {
            let set = bits(m, (0..m).filter(|&i| vt[i] + lo_le <= 0));
            add(
                Atom {
                    n: e.clone(),
                    op: Op::Le,
                    k: lo_le,
                },
                set,
            );
        }
    }
    let full = bits(m, 0..m);
    let mut list: Vec<(Vec<u64>, Atom)> = atoms.into_iter().collect();
    list.sort_by(|a, b| {
        (a.1.cost(&space.terms), &a.1.n, a.1.k).cmp(&(b.1.cost(&space.terms), &b.1.n, b.1.k))
    });
    let mut best: Option<(i64, usize, usize)> = None;
    for i in 0..list.len() {
        let ci = list[i].1.cost(&space.terms);
        if best.is_some_and(|(c, _, _)| 2 * ci >= c) {
            break;
        }
        for j in i + 1..list.len() {
            let cj = list[j].1.cost(&space.terms);
            if best.is_some_and(|(c, _, _)| ci + cj >= c) {
                break;
            }
            if list[i]
                .0
                .iter()
                .zip(&list[j].0)
                .zip(&full)
                .all(|((a, b), f)| (a | b) == *f)
            {
                best = Some((ci + cj, i, j));
                break;
            }
        }
    }
    best.map(|(_, i, j)| (list[i].1.clone(), list[j].1.clone()))
}

#[cfg(test)]
mod tests {
    use super::super::tests::table;
    use super::*;

    fn space_2d() -> Space {
        // A 12x2 grid of threads in blocks of 3: tx, i = global x.
        let tx: Vec<i64> = (0..24).map(|c| c % 3).collect();
        let i: Vec<i64> = (0..24).map(|c| c % 12).collect();
        let bdx = vec![3; 24];
        let nx = vec![12; 24];
        Space::new(
            table(&[("tx", tx), ("bdx", bdx), ("i", i), ("nx", nx)]),
            true,
        )
    }

    fn spec(space: &Space, f: impl Fn(usize) -> bool) -> CondSpec {
        let (t, fl): (Vec<usize>, Vec<usize>) = (0..space.table.n).partition(|&c| f(c));
        CondSpec {
            must_true: t,
            must_false: fl,
        }
    }

    fn check(space: &Space, b: &BExp, f: impl Fn(usize) -> bool) {
        for c in 0..space.table.n {
            assert_eq!(b.holds(space, c), f(c), "case {c}: {b:?}");
        }
    }

    #[test]
    fn single_comparison_uses_the_block_dimension() {
        let s = space_2d();
        let tx = |c: usize| c % 3;
        let b = search(&s, &spec(&s, |c| tx(c) != 2)).unwrap();
        check(&s, &b, |c| tx(c) != 2);
        // `tx != bdx - 1`, not the coincidental `tx != 2`.
        let BExp::Atom(a) = &b else { panic!("{b:?}") };
        assert_eq!(a.n.len(), 2, "{a:?}");
    }

    #[test]
    fn disjunction_of_thread_and_grid_conditions() {
        let s = space_2d();
        let want = |c: usize| !c.is_multiple_of(3) || c.is_multiple_of(12);
        let b = search(&s, &spec(&s, want)).unwrap();
        check(&s, &b, want);
        // The products of the grammar find `i - tx*i <= 0`; the disjunction
        // search on its own finds the thesis's `tx != 0 || i == 0`.
        let sp = spec(&s, want);
        let (a, b) = pair(&s, &sp.must_true, &sp.must_false).unwrap();
        check(&s, &BExp::Or(a.clone(), b.clone()), want);
        assert_eq!(a.cost(&s.terms) + b.cost(&s.terms), 2, "{a:?} {b:?}");
    }

    #[test]
    fn conjunction_when_cheaper() {
        let s = space_2d();
        let want = |c: usize| c.is_multiple_of(3) && !c.is_multiple_of(12);
        let b = search(&s, &spec(&s, want)).unwrap();
        check(&s, &b, want);
    }

    #[test]
    fn cases_in_neither_set_are_free() {
        let s = space_2d();
        let spec = CondSpec {
            must_true: vec![1, 2],
            must_false: vec![0, 3],
        };
        let b = search(&s, &spec).unwrap();
        assert!(b.holds(&s, 1) && b.holds(&s, 2) && !b.holds(&s, 0) && !b.holds(&s, 3));
        assert!(b.cost(&s.terms) <= 1, "{b:?}");
    }
}
