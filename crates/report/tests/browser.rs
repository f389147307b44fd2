//! The benchmark page of a recorded run, opened in headless Chromium: the
//! DOM the browser built (after the page's scripts ran) must hold the
//! headings, tables and numbers of the run and no script error; screenshots
//! at a phone's and a desktop's width are kept under the printed folder.
//!
//! Chromium comes from the distribution's packages (`.ci/run` installs it).
//! Without it the test says so and passes, unless `HONE_REQUIRE_BROWSER=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use hone_kernels::routine::BenchReport;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HONE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .map(PathBuf::from)
}

/// Runs headless Chromium on `page` with `extra` flags; its stdout.
fn headless(browser: &Path, profile: &Path, page: &Path, extra: &[String]) -> String {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium starts");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Chromium, or `None` (the test then passes, saying why) unless
/// `HONE_REQUIRE_BROWSER=1`.
fn browser_or_skip() -> Option<PathBuf> {
    let b = chromium();
    if b.is_none() {
        assert!(
            std::env::var("HONE_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "HONE_REQUIRE_BROWSER=1 but no chromium was found"
        );
        println!("skipped: no headless Chromium (chromium) on this machine");
    }
    b
}

/// Screenshots at a phone's and a desktop's width, checked to be images.
fn screenshots(browser: &Path, profile: &Path, page: &Path, dir: &Path, name: &str) {
    for (label, width) in [("phone", 390), ("desktop", 1280)] {
        let shot = dir.join(format!("{name}-{label}.png"));
        headless(
            browser,
            profile,
            page,
            &[
                format!("--screenshot={}", shot.display()),
                format!("--window-size={width},1600"),
            ],
        );
        let png = std::fs::read(&shot).unwrap();
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 10_000,
            "{name} {label}"
        );
    }
}

fn out_dir() -> PathBuf {
    let dir = root().join("target/browser-report");
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
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
    let started = std::time::Instant::now();
    let dom = headless(&browser, &profile, &page, &["--dump-dom".to_string()]);
    println!(
        "loaded and dumped in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    assert!(dom.contains("data-ready=\"yes\""), "scripts did not run");
    assert!(dom.contains("<div id=\"script-errors\" role=\"alert\"></div>"));
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
    assert!(dom.matches("<figure>").count() >= 2, "diagrams inline");
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
    let dom = headless(&browser, &profile, &page, &["--dump-dom".to_string()]);
    assert!(dom.contains("data-ready=\"yes\""), "scripts did not run");
    assert!(dom.contains("<div id=\"script-errors\" role=\"alert\"></div>"));
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

    let dom = headless(&browser, &profile, &page, &["--dump-dom".to_string()]);
    // The page's own script ran and reported no error.
    assert!(dom.contains("data-ready=\"yes\""), "scripts did not run");
    assert!(
        dom.contains("<div id=\"script-errors\" role=\"alert\"></div>"),
        "script errors: {dom}"
    );
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
