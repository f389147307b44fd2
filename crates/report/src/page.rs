//! One self-contained HTML page: styles, scripts and SVG inline, nothing
//! fetched, readable in light and dark mode and at phone widths, with real
//! headings and tables so that keyboards and screen readers get the same
//! page as eyes.
//!
//! Tables built with [`Table`] sort by any column from a button in its
//! header (Enter or Space work, `aria-sort` says the order). A script error
//! anywhere on the page is written into `#script-errors`, so a test can
//! read it from the DOM the browser built.

use std::fmt::Write as _;

pub use hone_tuner::plot::escape;

const STYLE: &str = r#"
:root { color-scheme: light dark; --fg: #1b1b1f; --bg: #ffffff; --muted: #5c5f66;
  --line: #d5d8de; --head: #f1f3f6; --good: #0a7a3b; --bad: #b3261e; --accent: #1f5fbf; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e7ea; --bg: #15171b; --muted: #a2a7b0; --line: #3a3e46; --head: #22252b;
    --good: #5fd08a; --bad: #ff8a80; --accent: #8ab4ff; }
  svg.chart { background: #f7f7f7; border-radius: 4px; }
}
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); margin: 0 auto; max-width: 1200px; padding: 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.25rem; margin-top: 2rem; } h3 { font-size: 1.05rem; }
p.meta { color: var(--muted); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border: 1px solid var(--line); padding: 0.25rem 0.5rem; text-align: right; white-space: nowrap; }
th { background: var(--head); }
td.text, th.text { text-align: left; }
th button { font: inherit; color: inherit; background: none; border: 0; padding: 0; cursor: pointer; }
th button:focus-visible { outline: 2px solid var(--accent); }
.good { color: var(--good); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; }
figure { margin: 1rem 0; } figcaption { color: var(--muted); }
svg.chart { max-width: 100%; height: auto; }
#script-errors:empty { display: none; }
#script-errors { border: 2px solid var(--bad); padding: 0.5rem; }
@media (max-width: 640px) { body { padding: 0.5rem; font-size: 14px; } th, td { padding: 0.2rem 0.3rem; } }
"#;

const SCRIPT: &str = r#"
window.addEventListener('error', function (e) {
  var box = document.getElementById('script-errors');
  if (box) { var li = document.createElement('p'); li.textContent = 'Script error: ' + e.message; box.appendChild(li); }
});
function honeSortKey(cell) {
  var v = cell.getAttribute('data-value');
  if (v === null) v = cell.textContent.trim();
  var n = parseFloat(v);
  return isNaN(n) ? { num: false, v: v.toLowerCase() } : { num: true, v: n };
}
function honeSort(button) {
  var th = button.closest('th');
  var table = th.closest('table');
  var index = Array.prototype.indexOf.call(th.parentNode.children, th);
  var ascending = th.getAttribute('aria-sort') !== 'ascending';
  Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute('aria-sort'); });
  th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  rows.sort(function (a, b) {
    var x = honeSortKey(a.cells[index]), y = honeSortKey(b.cells[index]);
    var c = (x.num && y.num) ? x.v - y.v : String(x.v).localeCompare(String(y.v));
    return ascending ? c : -c;
  });
  rows.forEach(function (r) { body.appendChild(r); });
}
document.addEventListener('DOMContentLoaded', function () {
  document.body.setAttribute('data-ready', 'yes');
});
"#;

/// A page under construction.
pub struct Page {
    title: String,
    body: String,
}

impl Page {
    pub fn new(title: &str) -> Page {
        Page {
            title: title.to_string(),
            body: String::new(),
        }
    }

    /// Raw HTML, already escaped by the caller.
    pub fn raw(&mut self, html: &str) -> &mut Page {
        self.body.push_str(html);
        self.body.push('\n');
        self
    }

    pub fn heading(&mut self, level: u8, text: &str, id: &str) -> &mut Page {
        let level = level.clamp(1, 6);
        let _ = writeln!(
            self.body,
            "<h{level} id=\"{}\">{}</h{level}>",
            escape(id),
            escape(text)
        );
        self
    }

    pub fn paragraph(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.body, "<p>{}</p>", escape(text));
        self
    }

    pub fn meta(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.body, "<p class=\"meta\">{}</p>", escape(text));
        self
    }

    /// An inline SVG figure; `svg` is hone's own output, `label` describes
    /// it for screen readers.
    pub fn figure(&mut self, svg: &str, label: &str, caption: &str) -> &mut Page {
        let svg = svg
            .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
            .trim();
        let svg = svg.replacen(
            "<svg ",
            &format!(
                "<svg class=\"chart\" role=\"img\" aria-label=\"{}\" ",
                escape(label)
            ),
            1,
        );
        let _ = writeln!(
            self.body,
            "<figure>{svg}<figcaption>{}</figcaption></figure>",
            escape(caption)
        );
        self
    }

    pub fn table(&mut self, table: &Table) -> &mut Page {
        self.body.push_str(&table.html());
        self
    }

    /// The whole document.
    pub fn finish(&self) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{}</title>\n<style>{STYLE}</style>\n<script>{SCRIPT}</script>\n</head>\n\
             <body>\n<main>\n<div id=\"script-errors\" role=\"alert\"></div>\n{}</main>\n</body>\n</html>\n",
            escape(&self.title),
            self.body
        )
    }
}

/// One cell: its text, an optional sort value and class.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub text: String,
    pub sort: Option<f64>,
    pub class: Option<&'static str>,
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        Cell {
            text: s.into(),
            sort: None,
            class: Some("text"),
        }
    }

    /// A number shown with `digits` decimals (`-` when absent).
    pub fn num(v: Option<f64>, digits: usize) -> Cell {
        Cell {
            text: v
                .filter(|x| x.is_finite())
                .map(|x| format!("{x:.digits$}"))
                .unwrap_or_else(|| "-".to_string()),
            sort: v.filter(|x| x.is_finite()),
            class: None,
        }
    }

    pub fn with_class(mut self, class: &'static str) -> Cell {
        self.class = Some(class);
        self
    }
}

/// A sortable table.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub id: String,
    pub caption: String,
    /// (header, whether the column holds text).
    pub columns: Vec<(String, bool)>,
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn new(id: &str, caption: &str, columns: &[(&str, bool)]) -> Table {
        Table {
            id: id.to_string(),
            caption: caption.to_string(),
            columns: columns.iter().map(|(c, t)| (c.to_string(), *t)).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<Cell>) {
        self.rows.push(cells);
    }

    pub fn html(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "<div class=\"scroll\"><table id=\"{}\"><caption>{}</caption><thead><tr>",
            escape(&self.id),
            escape(&self.caption)
        );
        for (c, text) in &self.columns {
            let _ = write!(
                s,
                "<th scope=\"col\"{}><button type=\"button\" onclick=\"honeSort(this)\" \
                 aria-label=\"Sort by {}\">{}</button></th>",
                if *text { " class=\"text\"" } else { "" },
                escape(c),
                escape(c)
            );
        }
        s.push_str("</tr></thead><tbody>");
        for r in &self.rows {
            s.push_str("<tr>");
            for c in r {
                let class = c
                    .class
                    .map(|k| format!(" class=\"{k}\""))
                    .unwrap_or_default();
                let sort = c
                    .sort
                    .map(|v| format!(" data-value=\"{v}\""))
                    .unwrap_or_default();
                let _ = write!(s, "<td{class}{sort}>{}</td>", escape(&c.text));
            }
            s.push_str("</tr>");
        }
        s.push_str("</tbody></table></div>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_everywhere() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let mut t = Table::new("t", "A <caption>", &[("N", false), ("kernel <x>", true)]);
        t.row(vec![Cell::num(Some(1.5), 2), Cell::text("a<b")]);
        let html = t.html();
        assert!(html.contains("A &lt;caption&gt;") && html.contains("a&lt;b"));
        assert!(html.contains("data-value=\"1.5\">1.50</td>"));
        assert!(html.contains("<th scope=\"col\" class=\"text\">"));
        let mut p = Page::new("T & T");
        p.heading(1, "x<y", "top").table(&t);
        let doc = p.finish();
        assert!(doc.starts_with("<!DOCTYPE html>") && doc.contains("<title>T &amp; T</title>"));
        assert!(!doc.contains("http://") && !doc.contains("https://"));
    }

    #[test]
    fn missing_numbers_show_a_dash_and_do_not_sort_as_numbers() {
        let c = Cell::num(None, 2);
        assert_eq!((c.text.as_str(), c.sort), ("-", None));
        assert_eq!(Cell::num(Some(f64::NAN), 1).text, "-");
    }

    #[test]
    fn figures_get_a_role_and_label() {
        let mut p = Page::new("x");
        p.figure(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\"></svg>",
            "rates",
            "cap",
        );
        let doc = p.finish();
        assert!(doc.contains("<svg class=\"chart\" role=\"img\" aria-label=\"rates\" xmlns"));
        assert!(doc.contains("<figcaption>cap</figcaption>"));
    }
}
