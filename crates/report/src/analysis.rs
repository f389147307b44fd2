//! The page of a memory-access analysis (`hone analyze --html`): the
//! kernel's source with each line's sectors, ideal sectors, excess and
//! shared-memory wavefronts beside it on a heat scale, the ranked sites,
//! and per site its thread-to-address diagrams inline and each fix's diff
//! with its verification and the sectors before and after.
//!
//! It reads the analysis as `hone analyze --json` writes it, so the page
//! and the JSON never disagree, and the SVG diagrams that JSON names.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use crate::page::{escape, Cell, Page, Table};

fn u(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Per source line: sectors, ideal sectors, excess, wavefronts, ideal
/// wavefronts, summed over the sites on that line.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct LineCost {
    sectors: u64,
    ideal: u64,
    excess: u64,
    wavefronts: u64,
    ideal_wavefronts: u64,
}

fn line_costs(sites: &[Value]) -> BTreeMap<(String, u64), LineCost> {
    let mut out: BTreeMap<(String, u64), LineCost> = BTreeMap::new();
    for site in sites {
        let key = (s(site, "file").to_string(), u(site, "line").unwrap_or(0));
        let c = out.entry(key).or_default();
        c.sectors += u(site, "sectors").unwrap_or(0);
        c.ideal += u(site, "ideal_sectors").unwrap_or(0);
        c.excess += u(site, "excess_sectors").unwrap_or(0);
        c.wavefronts += u(site, "wavefronts").unwrap_or(0);
        c.ideal_wavefronts += u(site, "ideal_wavefronts").unwrap_or(0);
    }
    out
}

/// The wasted share of a line's traffic as a heat level 0..=4.
fn heat(c: &LineCost, worst: u64) -> usize {
    let waste = c.excess + c.wavefronts.saturating_sub(c.ideal_wavefronts);
    if waste == 0 || worst == 0 {
        return 0;
    }
    1 + (3 * waste / worst) as usize
}

const HEAT_STYLE: &str = "<style>\
.src { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }\
.src td.code { white-space: pre; text-align: left; }\
tr.h1 td.code { background: rgba(255,196,0,0.18); }\
tr.h2 td.code { background: rgba(255,140,0,0.28); }\
tr.h3 td.code { background: rgba(230,60,30,0.32); }\
tr.h4 td.code { background: rgba(200,0,0,0.42); }\
pre.diff { font: 13px/1.4 ui-monospace, monospace; overflow-x: auto; border: 1px solid var(--line); padding: 0.5rem; }\
pre.diff .add { color: var(--good); } pre.diff .del { color: var(--bad); }\
.diagrams { display: flex; flex-wrap: wrap; gap: 1rem; }\
.diagrams figure { max-width: 100%; }\
</style>";

/// The analysis page. `sources` maps each file the sites name to its text;
/// `diagram` reads a diagram file the JSON names (its SVG text), or `None`
/// when it cannot.
pub fn analysis_page(
    analysis: &Value,
    sources: &BTreeMap<String, String>,
    diagram: &dyn Fn(&str) -> Option<String>,
) -> String {
    let kernel = s(analysis, "kernel");
    let sites: Vec<Value> = analysis
        .get("sites")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut page = Page::new(&format!("Memory accesses of {kernel}"));
    page.raw(HEAT_STYLE);
    page.heading(1, &format!("Memory accesses of {kernel}"), "top");
    let dims = |k: &str| {
        analysis
            .get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|x| x.as_u64().unwrap_or(0).to_string())
                    .collect::<Vec<_>>()
                    .join(" x ")
            })
            .unwrap_or_default()
    };
    page.meta(&format!(
        "Model {}; grid {}, block {}; {}.",
        s(analysis, "model"),
        dims("grid"),
        dims("block"),
        if analysis.get("completed").and_then(Value::as_bool) == Some(true) {
            "the launch ran to completion in the emulator"
        } else {
            "the launch did not complete in the emulator"
        }
    ));
    if let Some(faults) = analysis
        .get("faults")
        .and_then(Value::as_array)
        .filter(|f| !f.is_empty())
    {
        page.paragraph(&format!(
            "Faults: {}",
            faults
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }

    // Totals by space and kind.
    let mut totals = Table::new(
        "totals",
        "Requests and traffic by kind of access",
        &[
            ("access", true),
            ("requests", false),
            ("sectors", false),
            ("ideal sectors", false),
            ("wavefronts", false),
            ("ideal wavefronts", false),
        ],
    );
    if let Some(t) = analysis.get("totals").and_then(Value::as_object) {
        for (k, v) in t {
            if u(v, "requests").unwrap_or(0) == 0 {
                continue;
            }
            let n = |key| Cell::num(u(v, key).map(|x| x as f64), 0);
            totals.row(vec![
                Cell::text(k.replace('_', " ")),
                n("requests"),
                n("sectors"),
                n("ideal_sectors"),
                n("wavefronts"),
                n("ideal_wavefronts"),
            ]);
        }
    }
    page.table(&totals);

    // The source with each line's costs.
    let costs = line_costs(&sites);
    let worst = costs
        .values()
        .map(|c| c.excess + c.wavefronts.saturating_sub(c.ideal_wavefronts))
        .max()
        .unwrap_or(0);
    for (file, text) in sources {
        page.heading(
            2,
            &format!("Source: {file}"),
            &format!("src-{}", escape(file)),
        );
        let mut html = String::from(
            "<div class=\"scroll\"><table class=\"src\"><caption>Each line's global sectors, \
             ideal sectors and excess, and shared-memory wavefronts, summed over the launch; \
             the shading grows with the line's waste.</caption><thead><tr>\
             <th scope=\"col\">line</th><th scope=\"col\">sectors</th><th scope=\"col\">ideal</th>\
             <th scope=\"col\">excess</th><th scope=\"col\">wavefronts</th>\
             <th scope=\"col\" class=\"text\">code</th></tr></thead><tbody>",
        );
        for (i, line) in text.lines().enumerate() {
            let n = i as u64 + 1;
            let c = costs.get(&(file.clone(), n)).copied();
            let h = c.map(|c| heat(&c, worst)).unwrap_or(0);
            let cell = |v: Option<u64>| {
                v.filter(|_| c.is_some())
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            };
            let _ = write!(
                html,
                "<tr class=\"h{h}\" id=\"L{n}\"><td>{n}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"code\">{}</td></tr>",
                cell(c.map(|c| c.sectors)),
                cell(c.map(|c| c.ideal)),
                cell(c.map(|c| c.excess)),
                cell(c.map(|c| c.wavefronts)),
                escape(line)
            );
        }
        html.push_str("</tbody></table></div>");
        page.raw(&html);
    }

    // The ranked sites.
    page.heading(2, "Sites, worst first", "sites");
    let mut table = Table::new(
        "site-table",
        "Every access site: traffic against the ideal",
        &[
            ("rank", false),
            ("line", false),
            ("access", true),
            ("space", true),
            ("requests", false),
            ("sectors", false),
            ("ideal sectors", false),
            ("excess sectors", false),
            ("efficiency", false),
            ("wavefronts", false),
            ("fixes", false),
        ],
    );
    for site in &sites {
        let n = |k| Cell::num(u(site, k).map(|x| x as f64), 0);
        table.row(vec![
            n("rank"),
            n("line"),
            Cell::text(format!("{} ({})", s(site, "expression"), s(site, "kind"))),
            Cell::text(s(site, "space")),
            n("requests"),
            n("sectors"),
            n("ideal_sectors"),
            n("excess_sectors"),
            Cell::num(site.get("efficiency").and_then(Value::as_f64), 2),
            n("wavefronts"),
            Cell::num(
                site.get("suggestions")
                    .and_then(Value::as_array)
                    .map(|a| a.len() as f64),
                0,
            ),
        ]);
    }
    page.table(&table);

    // One section per source access: the other sites of an access (a
    // record's members) are rows of the table above.
    let group = |site: &Value| u(site, "group").or_else(|| u(site, "rank"));
    for site in sites.iter().filter(|x| group(x) == u(x, "rank")) {
        let rank = u(site, "rank").unwrap_or(0);
        page.heading(
            3,
            &format!(
                "#{rank}: {} at {}:{}:{} ({} {})",
                s(site, "expression"),
                s(site, "file"),
                u(site, "line").unwrap_or(0),
                u(site, "column").unwrap_or(0),
                s(site, "space"),
                s(site, "kind")
            ),
            &format!("site-{rank}"),
        );
        let others: Vec<String> = sites
            .iter()
            .filter(|x| group(x) == Some(rank) && u(x, "rank") != Some(rank))
            .map(|x| format!("#{}", u(x, "rank").unwrap_or(0)))
            .collect();
        if !others.is_empty() {
            page.paragraph(&format!(
                "The same source access makes {} more site(s) ({}), as a record read or \
                 written whole makes one per member; each is a row of the table above.",
                others.len(),
                others.join(", ")
            ));
        }
        if let Some(cc) = site.get("cc11").filter(|c| !c.is_null()) {
            let failed = cc.get("failed").map(|f| f.to_string()).unwrap_or_default();
            page.paragraph(&format!(
                "Compute capability 1.1: {} of {} half-warps coalesced; conditions failed: {failed}; \
                 {} transactions against {} ideal.",
                u(cc, "coalesced_half_warps").unwrap_or(0),
                u(cc, "half_warps").unwrap_or(0),
                u(cc, "transactions").unwrap_or(0),
                u(cc, "ideal_transactions").unwrap_or(0)
            ));
        }
        let svgs: Vec<String> = site
            .get("diagrams")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|p| p.ends_with(".svg"))
            // The worst request alone keeps a page of many sites light;
            // `hone analyze --svg DIR` draws the others.
            .take(1)
            .filter_map(diagram)
            .collect();
        if !svgs.is_empty() {
            page.raw("<div class=\"diagrams\">");
            for (i, svg) in svgs.iter().enumerate() {
                page.figure(
                    svg,
                    &format!("thread-to-address diagram {} of site {rank}", i + 1),
                    &format!(
                        "Thread to address, worst request {} of site #{rank}.",
                        i + 1
                    ),
                );
            }
            page.raw("</div>");
        }
        for (j, fix) in site
            .get("suggestions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            page.raw(&format!(
                "<h4 id=\"site-{rank}-fix-{j}\">Fix: {}</h4>",
                escape(s(fix, "title"))
            ));
            page.paragraph(s(fix, "explanation"));
            let verified = fix
                .pointer("/verification/verified")
                .and_then(Value::as_bool);
            let message = fix
                .pointer("/verification/message")
                .and_then(Value::as_str)
                .unwrap_or("");
            page.raw(&format!(
                "<p class=\"{}\">Verification: {}</p>",
                if verified == Some(true) {
                    "good"
                } else {
                    "bad"
                },
                escape(if message.is_empty() {
                    "not run"
                } else {
                    message
                })
            ));
            let before = fix.pointer("/before/site/sectors").and_then(Value::as_u64);
            let after = fix.pointer("/after/site/sectors").and_then(Value::as_u64);
            let kb = fix
                .pointer("/before/kernel/sectors")
                .and_then(Value::as_u64);
            let ka = fix.pointer("/after/kernel/sectors").and_then(Value::as_u64);
            if let (Some(b), Some(a), Some(kb), Some(ka)) = (before, after, kb, ka) {
                page.paragraph(&format!(
                    "Sectors at this site: {b} before, {a} after; whole kernel: {kb} before, {ka} after ({} saved).",
                    kb as i64 - ka as i64
                ));
            }
            let mut diff = String::from("<pre class=\"diff\">");
            for line in fix
                .get("diff")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let l = line.as_str().unwrap_or("");
                let class = match l.chars().next() {
                    Some('+') => "add",
                    Some('-') => "del",
                    _ => "ctx",
                };
                let _ = writeln!(diff, "<span class=\"{class}\">{}</span>", escape(l));
            }
            diff.push_str("</pre>");
            page.raw(&diff);
        }
    }
    page.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn analysis() -> Value {
        json!({
            "kernel": "k", "model": "sm90", "grid": [4, 1, 1], "block": [64, 1, 1],
            "completed": true, "faults": [],
            "totals": {"global_load": {"requests": 8, "sectors": 32, "ideal_sectors": 16,
                        "wavefronts": 0, "ideal_wavefronts": 0, "transactions": 0, "ideal_transactions": 0}},
            "sites": [{
                "rank": 1, "file": "k.cu", "line": 2, "column": 5, "expression": "a[2*i]",
                "kind": "load", "space": "global", "requests": 8, "sectors": 32,
                "ideal_sectors": 16, "excess_sectors": 16, "efficiency": 0.5,
                "wavefronts": null, "ideal_wavefronts": null, "cc11": null,
                "diagrams": ["d/one.svg", "d/one.png"],
                "suggestions": [{"title": "use a[i]", "explanation": "contiguous <lanes>",
                  "diff": [" x", "-a[2*i]", "+a[i]"],
                  "verification": {"verified": true, "message": "same outputs on 3 inputs"},
                  "before": {"site": {"sectors": 32}, "kernel": {"sectors": 40}},
                  "after": {"site": {"sectors": 16}, "kernel": {"sectors": 24}}}]
            }]
        })
    }

    #[test]
    fn lines_carry_their_costs_and_sites_their_fixes_and_diagrams() {
        let sources = BTreeMap::from([(
            "k.cu".to_string(),
            "void k() {\n  x = a[2*i];\n}\n".to_string(),
        )]);
        let html = analysis_page(&analysis(), &sources, &|p| {
            (p == "d/one.svg").then(|| {
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>d</title></svg>".to_string()
            })
        });
        // Line 2 has the site: its costs and the top heat level.
        assert!(
            html.contains("<tr class=\"h4\" id=\"L2\"><td>2</td><td>32</td><td>16</td><td>16</td>"),
            "{html}"
        );
        assert!(html.contains("<tr class=\"h0\" id=\"L1\"><td>1</td><td></td>"));
        assert!(html.contains("id=\"site-1\""));
        assert_eq!(html.matches("<figure>").count(), 1);
        assert!(
            html.contains("<span class=\"del\">-a[2*i]</span>")
                && html.contains("<span class=\"add\">+a[i]</span>")
        );
        assert!(html.contains("class=\"good\">Verification: same outputs on 3 inputs"));
        assert!(html.contains("whole kernel: 40 before, 24 after (16 saved)"));
        assert!(html.contains("contiguous &lt;lanes&gt;"));
    }

    /// The sites of one source access (a record's members) are rows of the
    /// table, with one section at the best-ranked of them.
    #[test]
    fn the_sites_of_one_access_get_one_section() {
        let mut a = analysis();
        let first = a["sites"][0].clone();
        let mut second = first.clone();
        second["rank"] = json!(2);
        second["group"] = json!(1);
        second["suggestions"] = json!([]);
        a["sites"][0]["group"] = json!(1);
        a["sites"].as_array_mut().unwrap().push(second);
        let html = analysis_page(&a, &BTreeMap::new(), &|_| None);
        assert!(html.contains("id=\"site-1\""), "{html}");
        assert!(!html.contains("id=\"site-2\""), "{html}");
        assert!(
            html.contains("The same source access makes 1 more site(s) (#2)"),
            "{html}"
        );
        // without groups (older analyses) every site has its section
        let mut old = a.clone();
        for site in old["sites"].as_array_mut().unwrap() {
            site.as_object_mut().unwrap().remove("group");
        }
        let html = analysis_page(&old, &BTreeMap::new(), &|_| None);
        assert!(html.contains("id=\"site-2\""), "{html}");
    }
}
