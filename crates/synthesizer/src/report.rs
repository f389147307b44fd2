//! The synthesis report for people: each access with the expression found,
//! the barriers inserted, and the verification's checks.

use std::path::Path;

use crate::synth::Synthesis;

/// The synthesis report as `hone synth` prints it; `written` is the file the
/// kernel was written to, if any.
pub fn human(s: &Synthesis, written: Option<&Path>) -> String {
    let mut o = String::new();
    o.push_str(&format!(
        "synthesized {} access{} of `{}` in {:.3} s\n",
        s.sites.len(),
        if s.sites.len() == 1 { "" } else { "es" },
        s.kernel,
        s.seconds
    ));
    for site in &s.sites {
        let what = if site.kind == "copy" {
            format!("{} cases, {} needing the copy", site.cases, site.found)
        } else {
            format!(
                "{} cases, {} in `{}` ({} at several indices){}",
                site.cases,
                site.found,
                site.array,
                site.multiple,
                if site.split {
                    ", index split into cond ? then : else"
                } else {
                    ""
                }
            )
        };
        o.push_str(&format!(
            "  {} {}  {}\n      -> {}\n      {what}; {:.4} s\n",
            site.kind, site.location, site.original, site.synthesized, site.seconds
        ));
    }
    for b in &s.barriers {
        o.push_str(&format!("  {b}\n"));
    }
    for f in &s.folded {
        o.push_str(&format!("  global intermediate `{f}` no longer read: its stores were folded into the copies into shared memory\n"));
    }
    for n in &s.notes {
        o.push_str(&format!("note: {n}\n"));
    }
    let v = &s.verification;
    if v.skipped {
        o.push_str("verification skipped (--unverified)\n");
    } else {
        o.push_str(&format!(
            "verification ({:.3} s): the emitted kernel against the annotated one on {} launch{}, random data, outputs compared bit for bit, race detection{}:\n",
            v.seconds,
            v.checks.len(),
            if v.checks.len() == 1 { "" } else { "es" },
            if s.tolerate_same_value_races { " (same-value writes tolerated)" } else { "" }
        ));
        for r in &v.rules {
            o.push_str(&format!("  size rule: {r}\n"));
        }
        for c in &v.checks {
            let bufs: Vec<String> = c
                .compared
                .iter()
                .map(|(n, len)| format!("{n} ({len})"))
                .collect();
            o.push_str(&format!(
                "  {} {}: {}{}\n",
                if c.passed { "ok    " } else { "FAILED" },
                c.launch,
                if bufs.is_empty() {
                    "nothing compared".to_string()
                } else {
                    format!("compared {}", bufs.join(", "))
                },
                c.problem
                    .as_deref()
                    .map(|p| format!("; {p}"))
                    .unwrap_or_default()
            ));
        }
    }
    if let Some(d) = &s.dynamic_shared {
        o.push_str(&format!(
            "launch the emitted kernel with {d} of dynamic shared memory\n"
        ));
    }
    match (written, s.verified) {
        (Some(p), _) => o.push_str(&format!("wrote {}\n", p.display())),
        (None, false) if !v.skipped => {
            o.push_str("verification failed: no kernel emitted (--unverified emits it anyway)\n")
        }
        _ => {}
    }
    o
}
