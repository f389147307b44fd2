//! Headless Chromium for the tests of hone's HTML pages: the DOM the
//! browser built after the page's scripts ran, and screenshots. Chromium
//! comes from the distribution's packages (`.ci/run` installs it); without
//! it a test skips, saying so, unless `HONE_REQUIRE_BROWSER=1`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The browser (`HONE_CHROMIUM`, else `chromium` or a relative on PATH).
pub fn chromium() -> Option<PathBuf> {
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

/// Chromium, or `None` after printing why the test skips; panics when
/// `HONE_REQUIRE_BROWSER=1` and there is none.
pub fn browser_or_skip() -> Option<PathBuf> {
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

/// Where pages and screenshots are kept (`target/browser-report`).
pub fn out_dir() -> PathBuf {
    let dir = crate::repo_root().join("target/browser-report");
    std::fs::create_dir_all(&dir).expect("target/browser-report");
    dir.canonicalize().expect("canonical path")
}

/// Runs headless Chromium on `page` with `extra` flags: its stdout and how
/// long it took (start-up included).
pub fn headless(
    browser: &Path,
    profile: &Path,
    page: &Path,
    extra: &[String],
) -> (String, Duration) {
    let start = Instant::now();
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
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        start.elapsed(),
    )
}

/// The DOM after the page's scripts ran, checked to be script-error free.
pub fn dom(browser: &Path, profile: &Path, page: &Path) -> (String, Duration) {
    let (dom, took) = headless(browser, profile, page, &["--dump-dom".to_string()]);
    assert!(
        dom.contains("data-ready=\"yes\""),
        "the page's scripts did not run"
    );
    assert!(
        dom.contains("<div id=\"script-errors\" role=\"alert\"></div>"),
        "script errors: {}",
        dom.split("id=\"script-errors\"")
            .nth(1)
            .unwrap_or("")
            .chars()
            .take(400)
            .collect::<String>()
    );
    (dom, took)
}

/// Screenshots at a phone's and a desktop's width into `dir`, checked to be
/// images.
pub fn screenshots(browser: &Path, profile: &Path, page: &Path, dir: &Path, name: &str) {
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
        let png = std::fs::read(&shot).expect("the screenshot");
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 10_000,
            "{name} {label}"
        );
    }
}
