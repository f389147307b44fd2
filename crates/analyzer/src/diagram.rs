//! Thread-to-address diagrams after the paper's figure 2, one per kept warp
//! request: the 32 lanes across the top (lanes that did not execute the
//! access shown as unknown), below them every 128-byte line the request
//! touched as a row of 32 four-byte words, so columns are banks, with sector
//! (and for compute capability 1.1 segment) boundaries, and an arrow from
//! each lane to the word it accessed. Failed CC 1.1 conditions are marked per
//! half-warp; for shared memory the words of conflicting banks are marked.
//! [`png`] renders a diagram with resvg.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use hone_ir::AddressSpace;

use crate::analysis::{Analysis, Site};
use crate::banks::{lanes_per_phase, shared_request};
use crate::cc11::{check_warp, segment_bytes, HALF_WARP};
use crate::collect::Sample;
use crate::sectors::{global_request, LINE_BYTES, SECTOR_BYTES};
use crate::{AnalyzeError, Model};

const PITCH: f64 = 28.0;
const LEFT: f64 = 150.0;
const ROW_H: f64 = 20.0;
const GAP_H: f64 = 16.0;
const MAX_ROWS: usize = 40;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn lane_x(lane: u32) -> f64 {
    LEFT + PITCH * f64::from(lane) + PITCH / 2.0
}

/// The SVG text of the diagram of `sample`, one of `site`'s kept requests.
pub fn svg(site: &Site, sample: &Sample, model: Model) -> String {
    let s = &site.stats;
    let size = u64::from(s.size.max(1));
    let shared = s.space == AddressSpace::Shared;
    let lanes: Vec<(u32, u64)> = sample.lanes.iter().map(|l| (l.lane, l.address)).collect();
    let by_lane: BTreeMap<u32, u64> = lanes.iter().copied().collect();

    // Rows: every 128-byte line touched, in address order.
    let mut rows: BTreeSet<u64> = BTreeSet::new();
    for &(_, a) in &lanes {
        for w in (a / 4)..=((a + size - 1) / 4) {
            rows.insert(w * 4 / LINE_BYTES);
        }
    }
    let all_rows = rows.len();
    let rows: Vec<u64> = rows.into_iter().take(MAX_ROWS).collect();
    let mut row_y: BTreeMap<u64, f64> = BTreeMap::new();
    let grid_top = 215.0;
    let mut y = grid_top;
    let mut gaps = Vec::new();
    for (i, &r) in rows.iter().enumerate() {
        if i > 0 && r != rows[i - 1] + 1 {
            gaps.push((y, (r - rows[i - 1] - 1) * LINE_BYTES));
            y += GAP_H;
        }
        row_y.insert(r, y);
        y += ROW_H;
    }
    let grid_bottom = y;

    // Lanes to mark: failing half-warps (global) or conflicting words (shared).
    let mut marked_lanes: BTreeSet<u32> = BTreeSet::new();
    let mut marked_words: BTreeSet<u64> = BTreeSet::new();
    let mut notes: Vec<String> = Vec::new();
    let mut half_labels: Vec<(u32, String, bool)> = Vec::new();
    let summary;
    if shared {
        let r = shared_request(&lanes, s.size);
        summary = format!(
            "{} active lanes: {} wavefront(s), ideal {}, {}-way bank conflict",
            r.active, r.wavefronts, r.ideal_wavefronts, r.ways
        );
        let per_phase = lanes_per_phase(s.size);
        let mut phases: BTreeMap<u32, Vec<(u32, u64)>> = BTreeMap::new();
        for &(l, a) in &lanes {
            phases.entry(l / per_phase).or_default().push((l, a));
        }
        for (p, group) in &phases {
            let mut bank_words: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
            for &(_, a) in group {
                for w in (a / 4)..=((a + size - 1) / 4) {
                    bank_words.entry(w % 32).or_default().insert(w);
                }
            }
            for (bank, words) in &bank_words {
                if words.len() > 1 {
                    marked_words.extend(words.iter().copied());
                    for &(l, a) in group {
                        if (a / 4..=(a + size - 1) / 4).any(|w| w % 32 == *bank) {
                            marked_lanes.insert(l);
                        }
                    }
                }
            }
            if phases.len() > 1 {
                let worst = bank_words.values().map(BTreeSet::len).max().unwrap_or(0);
                half_labels.push((p * per_phase, format!("phase {p}: {worst}-way"), worst > 1));
            }
        }
        if !marked_words.is_empty() {
            notes.push("red words: several distinct words of one bank in one phase (served one per wavefront)".into());
        }
    } else {
        let r = global_request(lanes.iter().map(|l| l.1), s.size);
        summary = format!(
            "{} active lanes, {} bytes: {} sector(s) in {} line(s), ideal {}, efficiency {:.0}%",
            r.active,
            r.requested_bytes,
            r.sectors,
            r.lines,
            r.ideal_sectors,
            100.0 * crate::sectors::efficiency(r.unique_bytes, r.sectors)
        );
        for (h, check) in check_warp(s.size, lanes.iter().copied())
            .into_iter()
            .enumerate()
        {
            let first = h as u32 * HALF_WARP;
            let Some(c) = check else {
                half_labels.push((first, format!("half-warp {h}: no access"), false));
                continue;
            };
            if c.coalesced() {
                half_labels.push((first, format!("half-warp {h}: coalesced (CC 1.1)"), false));
                continue;
            }
            let mut why = Vec::new();
            if c.failed.has(1) {
                why.push(format!("1 (word of {} bytes)", s.size));
            }
            if let Some(b) = c.break_lane {
                why.push(format!(
                    "2 (lane {} does not take the word after the previous lane's)",
                    first + b
                ));
            }
            if c.failed.has(3) {
                why.push(format!(
                    "3 (first address {:#010x} is not {}-byte aligned)",
                    c.first_address,
                    segment_bytes(s.size)
                ));
            }
            let conds: Vec<String> = c.failed.list().iter().map(u8::to_string).collect();
            half_labels.push((
                first,
                format!("half-warp {h}: fails {}", conds.join(", ")),
                true,
            ));
            notes.push(format!(
                "half-warp {h} fails condition {}",
                why.join("; condition ")
            ));
            if model == Model::Cc11 {
                for l in first..first + HALF_WARP {
                    if by_lane.contains_key(&l) {
                        marked_lanes.insert(l);
                    }
                }
            }
        }
    }

    if lanes.len() < 32 {
        notes.insert(
            0,
            "grey lanes did not execute the access: their address is unknown".into(),
        );
    }
    let width = LEFT + 32.0 * PITCH + 30.0;
    let height = grid_bottom + 70.0 + 16.0 * notes.len() as f64;
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    o.push_str(
        r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f4e9c"/></marker><marker id="arrow-bad" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c62828"/></marker></defs>
<rect width="100%" height="100%" fill="white"/>
"##,
    );
    let expr = site.expression.clone().unwrap_or_else(|| s.array.clone());
    let kind = format!("{:?}", s.kind).to_lowercase();
    let space = if shared { "shared" } else { "global" };
    let _ = writeln!(
        o,
        r#"<text x="10" y="20" font-size="14" font-weight="bold">{}:{}:{}  {}  ({space} {kind}, {} B per lane)</text>"#,
        esc(&site.file),
        site.line,
        site.column,
        esc(&expr),
        s.size
    );
    let _ = writeln!(
        o,
        r#"<text x="10" y="38" font-size="12">block ({}, {}, {}) warp {}: {}</text>"#,
        sample.block[0],
        sample.block[1],
        sample.block[2],
        sample.warp,
        esc(&summary)
    );

    // Lanes.
    let _ = writeln!(o, r#"<text x="10" y="72" font-size="11">lane</text>"#);
    let _ = writeln!(o, r#"<text x="10" y="96" font-size="11">thread</text>"#);
    let two_d = sample
        .lanes
        .iter()
        .any(|l| l.thread[1] != 0 || l.thread[2] != 0);
    for lane in 0..32u32 {
        let x = LEFT + PITCH * f64::from(lane) + 2.0;
        let active = by_lane.contains_key(&lane);
        let fill = match (active, marked_lanes.contains(&lane)) {
            (false, _) => "#e0e0e0",
            (true, true) => "#f8c9c9",
            (true, false) => "#cfe0f7",
        };
        let _ = writeln!(
            o,
            r##"<rect class="lane" x="{x}" y="58" width="{}" height="20" fill="{fill}" stroke="#555"/><text x="{}" y="72" font-size="10" text-anchor="middle">{lane}</text>"##,
            PITCH - 4.0,
            lane_x(lane)
        );
        let label = match sample.lanes.iter().find(|l| l.lane == lane) {
            Some(l) if two_d => format!("{},{}", l.thread[0], l.thread[1]),
            Some(l) => l.thread[0].to_string(),
            None => "?".to_string(),
        };
        let _ = writeln!(
            o,
            r#"<text x="{}" y="96" font-size="8" text-anchor="middle">{}</text>"#,
            lane_x(lane),
            esc(&label)
        );
        if !active {
            // The paper's "unknown": this thread did not execute the access.
            let _ = writeln!(
                o,
                r##"<text class="unknown" x="{x}" y="104" font-size="8" fill="#777" transform="rotate(90 {x} 104)">unknown</text>"##,
                x = lane_x(lane) - 3.0
            );
        }
    }
    // Half-warp (global) or phase (shared) labels.
    let groups = half_labels.len().max(1) as f64;
    for (first, text, bad) in &half_labels {
        let x0 = LEFT + PITCH * f64::from(*first);
        let span = 32.0 * PITCH / groups;
        let colour = if *bad { "#c62828" } else { "#2e7d32" };
        let _ = writeln!(
            o,
            r#"<path d="M{x0},144 v6 h{} v-6" fill="none" stroke="{colour}"/><text class="{}" x="{}" y="164" font-size="10" fill="{colour}" text-anchor="middle">{}</text>"#,
            span - 4.0,
            if *bad { "failed" } else { "ok" },
            x0 + span / 2.0,
            esc(text)
        );
    }

    // Bank / word header.
    let _ = writeln!(
        o,
        r#"<text x="10" y="{}" font-size="11">{}</text>"#,
        grid_top - 24.0,
        if shared { "bank" } else { "word (bank)" }
    );
    for col in 0..32u32 {
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="8" text-anchor="middle">{col}</text>"#,
            lane_x(col),
            grid_top - 24.0
        );
    }
    let _ = writeln!(
        o,
        r#"<text x="10" y="{}" font-size="10">{}</text>"#,
        grid_top - 8.0,
        if shared {
            "offset in the block's shared memory"
        } else {
            "address (element)"
        }
    );

    // Rows of memory.
    let accessed: BTreeSet<u64> = lanes
        .iter()
        .flat_map(|&(_, a)| (a / 4)..=((a + size - 1) / 4))
        .collect();
    let touched_sectors: BTreeSet<u64> = lanes
        .iter()
        .flat_map(|&(_, a)| (a / SECTOR_BYTES)..=((a + size - 1) / SECTOR_BYTES))
        .collect();
    for (&row, &y) in &row_y {
        let addr = row * LINE_BYTES;
        let label = if shared {
            format!("+{addr:#06x}")
        } else {
            let elem = (addr as i128 - i128::from(s.array_base)) / i128::from(size as u32);
            format!("{addr:#010x} [{elem}]")
        };
        let _ = writeln!(
            o,
            r#"<text class="row" x="10" y="{}" font-size="10">{}</text>"#,
            y + 14.0,
            esc(&label)
        );
        for col in 0..32u64 {
            let word = addr / 4 + col;
            let x = LEFT + PITCH * col as f64;
            let fill = if marked_words.contains(&word) {
                "#ef9a9a"
            } else if accessed.contains(&word) {
                "#90caf9"
            } else {
                "#fafafa"
            };
            let _ = writeln!(
                o,
                r##"<rect x="{x}" y="{y}" width="{PITCH}" height="{ROW_H}" fill="{fill}" stroke="#bbb" stroke-width="0.5"/>"##
            );
        }
        // Sector boundaries, and the touched sectors outlined.
        for sec in 0..(LINE_BYTES / SECTOR_BYTES) {
            let x = LEFT + PITCH * (sec * SECTOR_BYTES / 4) as f64;
            let w = PITCH * (SECTOR_BYTES / 4) as f64;
            if !shared && touched_sectors.contains(&(addr / SECTOR_BYTES + sec)) {
                let _ = writeln!(
                    o,
                    r##"<rect class="sector" x="{x}" y="{y}" width="{w}" height="{ROW_H}" fill="none" stroke="#1f4e9c" stroke-width="2"/>"##
                );
            } else {
                let _ = writeln!(
                    o,
                    r##"<line x1="{x}" y1="{y}" x2="{x}" y2="{}" stroke="#666" stroke-dasharray="3,2"/>"##,
                    y + ROW_H
                );
            }
        }
        if !shared && model == Model::Cc11 {
            let seg = segment_bytes(s.size).min(LINE_BYTES);
            for k in 0..(LINE_BYTES / seg) {
                let x = LEFT + PITCH * (k * seg / 4) as f64;
                let _ = writeln!(
                    o,
                    r##"<line class="segment" x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="#e65100" stroke-width="3"/>"##,
                    y - 2.0,
                    y + ROW_H + 2.0
                );
            }
        }
        let _ = writeln!(
            o,
            r##"<rect class="line" x="{LEFT}" y="{y}" width="{}" height="{ROW_H}" fill="none" stroke="#000" stroke-width="1.2"/>"##,
            32.0 * PITCH
        );
    }
    for (gy, bytes) in &gaps {
        let _ = writeln!(
            o,
            r##"<text class="gap" x="{}" y="{}" font-size="9" fill="#555" text-anchor="middle">&#8942; {bytes} bytes not touched &#8942;</text>"##,
            LEFT + 16.0 * PITCH,
            gy + 11.0
        );
    }

    // Arrows, lane to word.
    for &(lane, a) in &lanes {
        let row = a / LINE_BYTES;
        let Some(&y) = row_y.get(&row) else { continue };
        let col = (a % LINE_BYTES) / 4;
        let bad = marked_lanes.contains(&lane);
        let _ = writeln!(
            o,
            r##"<line class="access" x1="{}" y1="80" x2="{}" y2="{}" stroke="{}" stroke-width="1" marker-end="url(#{})"/>"##,
            lane_x(lane),
            lane_x(col as u32),
            y - 1.0,
            if bad { "#c62828" } else { "#1f4e9c" },
            if bad { "arrow-bad" } else { "arrow" }
        );
    }

    // Legend.
    let mut ly = grid_bottom + 20.0;
    if all_rows > rows.len() {
        let _ = writeln!(
            o,
            r#"<text x="10" y="{ly}" font-size="10">{} more line(s) not drawn</text>"#,
            all_rows - rows.len()
        );
        ly += 16.0;
    }
    let legend = if shared {
        "columns are the 32 banks (4-byte words); rows are 128 bytes; dashed lines: 32-byte sectors"
            .to_string()
    } else if model == Model::Cc11 {
        format!(
            "rows: 128-byte lines; boxed: 32-byte sectors moved; orange: {}-byte segments (CC 1.1 condition 3)",
            segment_bytes(s.size)
        )
    } else {
        "rows: 128-byte lines; columns: 4-byte words (= banks); boxed: 32-byte sectors moved; dashed: sectors not moved".to_string()
    };
    let _ = writeln!(
        o,
        r#"<text x="10" y="{ly}" font-size="10">{}</text>"#,
        esc(&legend)
    );
    for n in &notes {
        ly += 16.0;
        let _ = writeln!(
            o,
            r#"<text x="10" y="{ly}" font-size="10">{}</text>"#,
            esc(n)
        );
    }
    o.push_str("</svg>\n");
    o
}

/// Renders SVG text to PNG bytes. Text is drawn with the system's fonts.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    static FONTS: std::sync::OnceLock<std::sync::Arc<usvg::fontdb::Database>> =
        std::sync::OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        std::sync::Arc::new(db)
    });
    let opt = usvg::Options {
        fontdb: fonts.clone(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("empty image")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// File-name stem for a diagram of `site`'s `k`-th kept request.
pub fn file_stem(kernel: &str, site: &Site, k: usize) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!(
        "{}_{:02}_L{}C{}_{}_{}_{}",
        clean(kernel),
        site.rank,
        site.line,
        site.column,
        clean(&site.stats.array),
        format!("{:?}", site.stats.kind).to_lowercase(),
        k + 1
    )
}

/// Writes the diagrams of the worst requests of every flagged site into
/// `dir` (SVG, and PNG beside each unless `png` is false); returns the files
/// written, by site rank.
pub fn write_all(
    analysis: &Analysis,
    model: Model,
    dir: &Path,
    png: bool,
) -> Result<BTreeMap<usize, Vec<String>>, AnalyzeError> {
    let io = |what: &str, path: &Path, e: &dyn std::fmt::Display| {
        AnalyzeError::Output(format!("cannot {what} {}: {e}", path.display()))
    };
    let mut written: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    std::fs::create_dir_all(dir).map_err(|e| io("create", dir, &e))?;
    // One source access, one set: a record's members draw alike.
    for site in analysis
        .sites
        .iter()
        .filter(|s| s.flagged(model) && s.leads_group())
    {
        for (k, sample) in site.stats.worst.iter().enumerate() {
            let stem = file_stem(&analysis.kernel, site, k);
            let text = svg(site, sample, model);
            let svg_path = dir.join(format!("{stem}.svg"));
            std::fs::write(&svg_path, &text).map_err(|e| io("write", &svg_path, &e))?;
            let files = written.entry(site.rank).or_default();
            files.push(svg_path.display().to_string());
            if png {
                let image = self::png(&text).map_err(|e| io("render", &svg_path, &e))?;
                let png_path = dir.join(format!("{stem}.png"));
                std::fs::write(&png_path, image).map_err(|e| io("write", &png_path, &e))?;
                files.push(png_path.display().to_string());
            }
        }
    }
    Ok(written)
}
