//! The benchmark page of a recorded run, opened in headless Chromium: the
//! DOM the browser built (after the page's scripts ran) must hold the
//! headings, tables and numbers of the run and no script error; screenshots
//! at a phone's and a desktop's width are kept under the printed folder.
//!
//! Chromium comes from the distribution's packages (`.ci/run` installs it);
//! without it the tests say so and pass, unless `HONE_REQUIRE_BROWSER=1`.

use std::path::PathBuf;

use hone_testkit::browser::{browser_or_skip, dom as built_dom, out_dir, screenshots};

use hone_kernels::routine::BenchReport;

fn root() -> PathBuf {
    hone_testkit::repo_root()
}

#[test]
fn the_figure6_analysis_page_renders_in_a_browser() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/figure6");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data.join("analysis.json")).unwrap())
            .unwrap();
    let source = "examples/analyze/figure6.cu";
    let sources = std::collections::BTreeMap::from([(
        source.to_string(),
        std::fs::read_to_string(root().join(source)).unwrap(),
    )]);
    let html = hone_report::analysis_page(&json, &sources, &|p| {
        std::fs::read_to_string(data.join(p)).ok()
    });
    let dir = out_dir();
    let page = dir.join("figure6.html");
    std::fs::write(&page, &html).unwrap();
    let profile = dir.join("profile-analysis");
    let (dom, took) = built_dom(&browser, &profile, &page);
    println!("loaded and dumped in {:.2} s", took.as_secs_f64());
    // Line 22 carries the three sites' sectors: 96 against 48 ideal.
    assert!(
        dom.contains("id=\"L22\"><td>22</td><td>96</td><td>48</td><td>48</td>"),
        "line 22"
    );
    let sites = json["sites"].as_array().unwrap().len();
    assert!(sites >= 3);
    for rank in 1..=sites {
        assert!(dom.contains(&format!("id=\"site-{rank}\"")), "site {rank}");
    }
    assert_eq!(
        dom.matches("<figure>").count(),
        sites,
        "one diagram per site, inline"
    );
    assert!(dom.contains("Verification: same outputs"));
    assert!(dom.contains("<span class=\"add\">+     if (id % 64 &lt; 32) {</span>"));
    screenshots(&browser, &profile, &page, &dir, "figure6");
    println!("page and screenshots: {}", dir.display());
}

#[test]
fn the_recorded_vcopy_tuning_page_renders_in_a_browser() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = out_dir();
    // A copy: opening a database may add what newer versions store.
    let db_path = dir.join("vcopy.sqlite");
    std::fs::copy(root().join("bench/results/tune/vcopy.sqlite"), &db_path).unwrap();
    let db = hone_tuner::TuningDb::open(&db_path).unwrap();
    let job = hone_tuner::refit::select_job(&db, None, None).unwrap();
    let fitted = hone_tuner::refit::refit(&db, job, None, None).unwrap();
    let recording = db.recording(fitted.job.id).unwrap();
    let html = hone_report::tuning_page(&fitted, &recording);
    let page = dir.join("vcopy.html");
    std::fs::write(&page, &html).unwrap();
    let profile = dir.join("profile-tuning");
    let (dom, _) = built_dom(&browser, &profile, &page);
    assert_eq!(dom.matches("<figure>").count(), 2);
    let table = |id: &str| -> usize {
        dom.split(&format!("id=\"{id}\""))
            .nth(1)
            .and_then(|t| t.split("</table>").next())
            .map(|t| t.matches("<tr>").count() - 1)
            .unwrap_or(0)
    };
    assert_eq!(table("rule-table"), fitted.rule.intervals.len());
    assert_eq!(table("measurement-table"), recording.records.len());
    assert!(recording.records.len() > 500);
    screenshots(&browser, &profile, &page, &dir, "vcopy");
}

#[test]
fn the_recorded_symv_benchmark_page_renders_in_a_browser() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let json = root().join("bench/results/library/h100/bench/symv.json");
    let report: BenchReport =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let html = hone_report::bench_page(&report);
    assert!(html.len() < 2 << 20, "{} bytes", html.len());

    let dir = out_dir();
    let page = dir.join("symv.html");
    std::fs::write(&page, &html).unwrap();
    let profile = dir.join("profile");

    let (dom, _) = built_dom(&browser, &profile, &page);
    for v in &report.options.variants {
        assert!(dom.contains(&format!("<h2 id=\"v-{v}\">{v}</h2>")), "{v}");
    }
    assert_eq!(
        dom.matches("<figure>").count(),
        report.options.variants.len()
    );
    // The headline table of the first variant: one row per headline size,
    // with the measured speedup over cuBLAS at N = 16384.
    let headline = dom
        .split("id=\"headline-0\"")
        .nth(1)
        .and_then(|t| t.split("</table>").next())
        .expect("the first headline table");
    assert_eq!(
        headline.matches("<tr>").count(),
        1 + report.options.sizes.len()
    );
    let c16k = report
        .of_variant(&report.options.variants[0])
        .find(|c| c.problem.size == 16384)
        .expect("N = 16384 measured");
    let speedup = format!("{:.2}", c16k.speedup().unwrap());
    assert!(headline.contains(&format!(">{speedup}</td>")), "{speedup}");
    assert!(dom.contains("aria-label=\"Sort by hone ms\""));

    screenshots(&browser, &profile, &page, &dir, "symv");
    println!("page and screenshots: {}", dir.display());
}
