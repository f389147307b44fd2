//! Output: a compact human report per site, and JSON for tools.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use hone_ir::AddressSpace;
use serde_json::{json, Value};

use crate::analysis::{Analysis, Cost, Site};
use crate::collect::{LaneStride, SiteStats};
use crate::compiled::Counted;
use crate::patterns::Suggestion;
use crate::sectors::efficiency;
use crate::Model;

fn kind(s: &SiteStats) -> String {
    format!("{:?}", s.kind).to_lowercase()
}

fn space(s: &SiteStats) -> &'static str {
    match s.space {
        AddressSpace::Shared => "shared",
        AddressSpace::Local => "local",
        AddressSpace::Constant => "constant",
        AddressSpace::Global => "global",
    }
}

fn ranges(s: &SiteStats, max: usize) -> String {
    let mut parts = Vec::new();
    for r in &s.fail_ranges {
        let conds: Vec<String> = r.failed.iter().map(u8::to_string).collect();
        let mut threads: Vec<String> = r
            .threads
            .iter()
            .take(max)
            .map(|(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        if r.threads.len() > max {
            threads.push(format!("and {} more range(s)", r.threads.len() - max));
        }
        parts.push(format!(
            "failing {} in threads {}",
            conds.join(", "),
            threads.join(", ")
        ));
    }
    if s.fail_ranges_dropped > 0 {
        parts.push(format!(
            "{} more half-warp(s) not listed",
            s.fail_ranges_dropped
        ));
    }
    parts.join("; ")
}

fn cost_line(c: &Cost, shared: bool, model: Model) -> String {
    if shared {
        format!("{} wavefronts (ideal {})", c.wavefronts, c.ideal_wavefronts)
    } else if model == Model::Cc11 {
        format!(
            "{} transactions (ideal {})",
            c.transactions, c.ideal_transactions
        )
    } else {
        format!("{} sectors (ideal {})", c.sectors, c.ideal_sectors)
    }
}

/// The figures that changed, and the primary one (sectors, or transactions
/// under CC 1.1, for global sites; wavefronts for shared ones) in any case.
fn cost_change(before: &Cost, after: &Cost, model: Model, shared: bool) -> String {
    let mut parts = Vec::new();
    let mut show = |name: &str, a: u64, b: u64, primary: bool| {
        if primary || a != b {
            parts.push(format!("{name} {a} -> {b}"));
        }
    };
    show(
        "sectors",
        before.sectors,
        after.sectors,
        !shared && model == Model::Sm90,
    );
    if model == Model::Cc11 {
        show(
            "CC 1.1 transactions",
            before.transactions,
            after.transactions,
            !shared,
        );
    }
    show("wavefronts", before.wavefronts, after.wavefronts, shared);
    show("requests", before.requests, after.requests, false);
    parts.join(", ")
}

fn suggestion_text(
    o: &mut String,
    s: &Suggestion,
    model: Model,
    shared: bool,
    first_at: Option<usize>,
) {
    let _ = writeln!(o, "   fix ({}): {}", s.pattern, s.title);
    let _ = writeln!(
        o,
        "     this access: {}; kernel: {}",
        cost_change(&s.site_before, &s.site_after, model, shared),
        cost_change(&s.kernel_before, &s.kernel_after, model, shared)
    );
    if let Some(rank) = first_at {
        let _ = writeln!(o, "     the same rewrite as for #{rank} above");
        return;
    }
    let _ = writeln!(o, "     verified: {}", s.verification.message);
    if s.layout_changes.is_empty() {
        let _ = writeln!(o, "     data layout unchanged: callers need no change");
    }
    for l in &s.layout_changes {
        let _ = writeln!(o, "     changes the data layout: {}", l.description);
    }
    for d in &s.diff {
        let _ = writeln!(o, "     {} {}", d.op, d.text);
    }
}

/// The per-site report for a terminal.
pub fn human(a: &Analysis) -> String {
    let mut o = String::new();
    let c = &a.config;
    let _ = writeln!(
        o,
        "kernel {}: grid ({}, {}, {}), block ({}, {}, {}), model {}",
        a.kernel,
        c.grid[0],
        c.grid[1],
        c.grid[2],
        c.block[0],
        c.block[1],
        c.block[2],
        a.model.name()
    );
    let _ = writeln!(o, "counts: {}", a.count_source.describe());
    for f in &a.faults {
        let _ = writeln!(o, "fault: {f}");
    }
    if !a.completed {
        let _ = writeln!(
            o,
            "the launch stopped early: figures cover the accesses made before it stopped"
        );
    }
    let t = &a.totals;
    let mut totals = Vec::new();
    for (name, c, shared) in [
        ("global loads", &t.global_load, false),
        ("global stores", &t.global_store, false),
        ("global atomics", &t.global_atomic, false),
        ("shared loads", &t.shared_load, true),
        ("shared stores", &t.shared_store, true),
        ("shared atomics", &t.shared_atomic, true),
    ] {
        if c.requests > 0 {
            totals.push(format!(
                "{name} {} requests, {}",
                c.requests,
                cost_line(c, shared, Model::Sm90)
            ));
        }
    }
    if !totals.is_empty() {
        let _ = writeln!(o, "{}", totals.join("; "));
    }
    let flagged = a.sites.iter().filter(|s| s.flagged(a.model)).count();
    let places = a
        .sites
        .iter()
        .filter(|s| s.flagged(a.model) && s.leads_group())
        .count();
    let at = if places < flagged {
        format!(", made by {places} source access(es)")
    } else {
        String::new()
    };
    let _ = writeln!(
        o,
        "{flagged} of {} access site(s) waste bandwidth{at}",
        a.sites.len()
    );
    // Where each rewrite was shown first, so later sites only refer to it.
    let mut shown: BTreeMap<String, usize> = BTreeMap::new();
    for s in a
        .sites
        .iter()
        .filter(|s| s.flagged(a.model) && s.leads_group())
    {
        o.push('\n');
        site_text(&mut o, s, &members(a, s), a.model, &mut shown);
    }
    let fine: Vec<&Site> = a
        .sites
        .iter()
        .filter(|s| !s.flagged(a.model) && s.leads_group())
        .collect();
    if !fine.is_empty() {
        let _ = writeln!(o, "\nno excess:");
        for s in fine {
            let counted = match &s.stats.counted {
                Counted::Source => String::new(),
                c => format!(" [{}]", c.describe()),
            };
            let more = match members(a, s).len() {
                0 => String::new(),
                n => format!(" (and {n} more site(s) of this access)"),
            };
            let _ = writeln!(
                o,
                "#{} {}:{}:{}  {}  ({} {}): {} requests, {}{counted}{more}",
                s.rank,
                s.file,
                s.line,
                s.column,
                s.expression.as_deref().unwrap_or(&s.stats.array),
                space(&s.stats),
                kind(&s.stats),
                s.stats.requests,
                cost_line(
                    &Cost::of([&s.stats]),
                    s.stats.space == AddressSpace::Shared,
                    a.model
                )
            );
        }
    }
    o
}

/// The other sites of `leader`'s source access.
fn members<'a>(a: &'a Analysis, leader: &Site) -> Vec<&'a Site> {
    a.sites
        .iter()
        .filter(|m| m.group == leader.rank && m.rank != leader.rank)
        .collect()
}

/// The other sites of `first`'s source access, in one line: a record or
/// vector read or written whole is one access in the source and one site
/// per member in the code.
fn group_text(o: &mut String, first: &Site, others: &[&Site], model: Model) {
    let all: Vec<&SiteStats> = std::iter::once(&first.stats)
        .chain(others.iter().map(|s| &s.stats))
        .collect();
    let bytes: u64 = all.iter().map(|s| s.size as u64).sum();
    let ranks: Vec<String> = others.iter().map(|s| format!("#{}", s.rank)).collect();
    let ranks = if ranks.len() > 4 {
        format!("{}, {} and {} more", ranks[0], ranks[1], ranks.len() - 2)
    } else {
        ranks.join(", ")
    };
    let requests: u64 = all.iter().map(|s| s.requests).sum();
    let traffic = if first.stats.space == AddressSpace::Constant {
        let replays: u64 = all.iter().map(|s| s.constant_replays).sum();
        let broadcasts: u64 = all.iter().map(|s| s.constant_broadcasts).sum();
        format!("{replays} constant-cache accesses ({broadcasts} broadcast)")
    } else {
        cost_line(
            &Cost::of(all.iter().copied()),
            first.stats.space == AddressSpace::Shared,
            model,
        )
    };
    let _ = writeln!(
        o,
        "   this source access makes {} more site(s) ({ranks}: one per member of what it reads \
         or writes whole), {} B per lane in all; together {} requests, {traffic}",
        others.len(),
        bytes,
        requests,
    );
}

fn site_text(
    o: &mut String,
    s: &Site,
    others: &[&Site],
    model: Model,
    shown: &mut BTreeMap<String, usize>,
) {
    let st = &s.stats;
    let _ = writeln!(
        o,
        "#{} {}:{}:{}  {}  ({} {}, {} B per lane)",
        s.rank,
        s.file,
        s.line,
        s.column,
        s.expression.as_deref().unwrap_or(&st.array),
        space(st),
        kind(st),
        st.size
    );
    if let Some(line) = &s.source_line {
        let _ = writeln!(o, "{:>6} | {}", s.line, line.trim_start());
    }
    if st.counted != Counted::Source {
        let before = st
            .source
            .map(|t| format!(" ({} requests in the source)", t.requests))
            .unwrap_or_default();
        let _ = writeln!(o, "   counted: {}{before}", st.counted.describe());
    }
    if let Some(r) = &st.repeated {
        let traffic = if st.space == AddressSpace::Shared {
            format!("{} wavefronts", r.wavefronts)
        } else {
            format!("{} sectors", r.sectors)
        };
        let _ = writeln!(
            o,
            "   redundant: {} of {} requests touch the addresses the warp's previous request here touched ({traffic}); \
             the compiled code repeats them because another pointer might change that memory: \
             keep the value in a local variable (accumulate there, store once after the loop), \
             or declare the pointers `__restrict__` if they never overlap",
            r.requests, st.requests
        );
    }
    let stride = match st.lane_stride {
        LaneStride::Uniform(b) => format!(", active lanes {b} B apart"),
        _ => String::new(),
    };
    if st.space == AddressSpace::Constant {
        let serialized = st.requests - st.constant_broadcasts;
        let _ = writeln!(
            o,
            "   constant memory: {} executions in {} requests: {} broadcast (one address), {} serialized over distinct addresses into {} accesses ({} excess)",
            st.executions,
            st.requests,
            st.constant_broadcasts,
            serialized,
            st.constant_replays - st.constant_broadcasts,
            st.excess_constant()
        );
    } else if st.space == AddressSpace::Shared {
        let _ = writeln!(
            o,
            "   {} executions in {} requests: {} wavefronts, ideal {} ({} excess), up to {}-way bank conflicts{stride}",
            st.executions,
            st.requests,
            st.wavefronts,
            st.ideal_wavefronts,
            st.excess_wavefronts(),
            st.max_ways
        );
    } else {
        let _ = writeln!(
            o,
            "   {} executions in {} requests: {} sectors, ideal {} ({} excess), {} lines, efficiency {:.0}%{stride}",
            st.executions,
            st.requests,
            st.sectors,
            st.ideal_sectors,
            st.excess_sectors(),
            st.lines,
            100.0 * efficiency(st.unique_bytes, st.sectors)
        );
        let failed = st.cc11_failed();
        if failed.is_empty() {
            let _ = writeln!(
                o,
                "   CC 1.1: coalesced in all {} half-warps",
                st.half_warps
            );
        } else {
            let per: Vec<String> = failed
                .iter()
                .map(|&c| format!("condition {c} in {}", st.failed_half_warps[c as usize - 1]))
                .collect();
            let _ = writeln!(
                o,
                "   CC 1.1: not coalesced ({} of {} half-warps fail: {}); {}",
                st.half_warps - st.coalesced_half_warps,
                st.half_warps,
                per.join(", "),
                ranges(st, 3)
            );
            if model == Model::Cc11 {
                let _ = writeln!(
                    o,
                    "   CC 1.1 transactions: {} (ideal {})",
                    st.transactions, st.ideal_transactions
                );
            }
        }
    }
    if !others.is_empty() {
        group_text(o, s, others, model);
    }
    for sug in &s.suggestions {
        let first_at = shown.get(&sug.source).copied();
        suggestion_text(o, sug, model, st.space == AddressSpace::Shared, first_at);
        shown.entry(sug.source.clone()).or_insert(s.rank);
    }
    for r in &s.rejected {
        let _ = writeln!(
            o,
            "   also tried ({}): {}: {}",
            r.pattern, r.title, r.reason
        );
    }
    if s.searched && s.suggestions.is_empty() && s.rejected.is_empty() {
        let _ = writeln!(o, "   no fix in the catalogue matches this access");
    }
}

fn cost_json(c: &Cost) -> Value {
    serde_json::to_value(c).unwrap_or(Value::Null)
}

fn suggestion_json(s: &Suggestion) -> Value {
    json!({
        "pattern": s.pattern,
        "title": s.title,
        "explanation": s.explanation,
        "source": s.source,
        "diff": s.diff.iter().map(|d| format!("{} {}", d.op, d.text)).collect::<Vec<_>>(),
        "layout_changes": s.layout_changes,
        "changes_layout": !s.layout_changes.is_empty(),
        "verification": s.verification,
        "before": {"site": cost_json(&s.site_before), "kernel": cost_json(&s.kernel_before)},
        "after": {"site": cost_json(&s.site_after), "kernel": cost_json(&s.kernel_after)},
    })
}

fn site_json(s: &Site, diagrams: Option<&Vec<String>>) -> Value {
    let st = &s.stats;
    let shared = st.space == AddressSpace::Shared;
    let constant = st.space == AddressSpace::Constant;
    let global = |v: Value| if shared || constant { Value::Null } else { v };
    let sharedv = |v: Value| if shared { v } else { Value::Null };
    let cc11 = if shared || constant {
        Value::Null
    } else {
        let failed = st.cc11_failed();
        json!({
            "coalesced": failed.is_empty(),
            "failed": failed,
            "half_warps": st.half_warps,
            "coalesced_half_warps": st.coalesced_half_warps,
            "failed_half_warps": {"1": st.failed_half_warps[0], "2": st.failed_half_warps[1], "3": st.failed_half_warps[2]},
            "transactions": st.transactions,
            "ideal_transactions": st.ideal_transactions,
            "fail_ranges": st.fail_ranges,
            "fail_ranges_dropped": st.fail_ranges_dropped,
        })
    };
    json!({
        "rank": s.rank,
        "group": s.group,
        "file": s.file,
        "line": s.line,
        "column": s.column,
        "expression": s.expression,
        "array": st.array,
        "space": space(st),
        "kind": kind(st),
        "bytes_per_lane": st.size,
        "executions": st.executions,
        "requests": st.requests,
        "requested_bytes": global(json!(st.requested_bytes)),
        "sectors": global(json!(st.sectors)),
        "ideal_sectors": global(json!(st.ideal_sectors)),
        "excess_sectors": global(json!(st.excess_sectors())),
        "lines": global(json!(st.lines)),
        "efficiency": global(json!(efficiency(st.unique_bytes, st.sectors))),
        "wavefronts": sharedv(json!(st.wavefronts)),
        "ideal_wavefronts": sharedv(json!(st.ideal_wavefronts)),
        "bank_conflicts": sharedv(json!(st.excess_wavefronts())),
        "max_conflict_ways": sharedv(json!(st.max_ways)),
        "lane_stride_bytes": match st.lane_stride { LaneStride::Uniform(b) => json!(b), _ => Value::Null },
        "cc11": cc11,
        "counted": st.counted.tag(),
        "counted_text": st.counted.describe(),
        "source_counts": st.source,
        "repeated": st.repeated,
        "constant": if constant {
            json!({
                "broadcast_requests": st.constant_broadcasts,
                "serialized_requests": st.requests - st.constant_broadcasts,
                "accesses": st.constant_replays,
                "excess_accesses": st.excess_constant(),
            })
        } else {
            Value::Null
        },
        "worst_requests": st.worst.iter().map(|w| json!({
            "block": w.block,
            "warp": w.warp,
            "excess": w.excess,
            // per lane: the address, or null where the thread did not execute the access
            "addresses": (0..32u32)
                .map(|l| w.lanes.iter().find(|x| x.lane == l).map_or(Value::Null, |x| json!(x.address)))
                .collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "suggestions": s.suggestions.iter().map(suggestion_json).collect::<Vec<_>>(),
        "rejected": s.rejected,
        "diagrams": diagrams.cloned().unwrap_or_default(),
    })
}

/// The analysis as JSON; `diagrams` lists the files written per site rank.
pub fn json(a: &Analysis, diagrams: &BTreeMap<usize, Vec<String>>) -> Value {
    json!({
        "kernel": a.kernel,
        "model": a.model.name(),
        "grid": a.config.grid,
        "block": a.config.block,
        "completed": a.completed,
        "faults": a.faults,
        "totals": a.totals,
        "count_source": a.count_source.describe(),
        "sites": a.sites.iter().map(|s| site_json(s, diagrams.get(&s.rank))).collect::<Vec<_>>(),
    })
}
