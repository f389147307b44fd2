//! A line diff of two printed kernels, to show a rewrite compactly.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiffLine {
    /// `' '` unchanged, `'-'` removed, `'+'` added.
    pub op: char,
    pub text: String,
}

/// The lines of `old` and `new` aligned by a longest common subsequence.
pub fn diff(old: &str, new: &str) -> Vec<DiffLine> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    let line = |op: char, t: &str| DiffLine {
        op,
        text: t.to_string(),
    };
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push(line(' ', a[i]));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push(line('+', b[j]));
            j += 1;
        } else {
            out.push(line('-', a[i]));
            i += 1;
        }
    }
    // Removals before additions reads best; the walk above may interleave them.
    let mut k = 0;
    while k < out.len() {
        let end = (k..out.len())
            .find(|&x| out[x].op == ' ')
            .unwrap_or(out.len());
        out[k..end].sort_by_key(|d| d.op != '-');
        k = end + 1;
    }
    out
}

/// Only the changed lines, each with one line of context before it.
pub fn changed(lines: &[DiffLine]) -> Vec<DiffLine> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.op != ' ' {
            if i > 0 && lines[i - 1].op == ' ' && out.last() != Some(&lines[i - 1]) {
                out.push(lines[i - 1].clone());
            }
            out.push(l.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_is_a_removal_then_an_addition() {
        let d = diff("a\nb\nc\n", "a\nB\nc\n");
        let ops: String = d.iter().map(|l| l.op).collect();
        assert_eq!(ops, " -+ ");
        assert_eq!(d[1].text, "b");
        assert_eq!(d[2].text, "B");
        let c = changed(&d);
        assert_eq!(
            c.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
            vec!["a", "b", "B"]
        );
    }
}
