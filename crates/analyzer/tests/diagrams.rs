//! Thread-to-address diagrams: what the SVG shows for a coalescing failure,
//! a column walk and a bank conflict, and that it renders to PNG.

mod common;

use common::*;
use hone_analyzer::{diagram, Model};
use hone_emulator::Buffer;

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

fn figure6() -> hone_analyzer::Analysis {
    let s = spec(
        "figure6.cu",
        "kernel_plain",
        [4, 1, 1],
        [64, 1, 1],
        buffers(2),
        vec![ints("d_A", 256, 3), ints("d_B", 256, 0)],
    );
    run(&s, Model::Cc11, false)
}

#[test]
fn figure6_diagram_shows_lanes_unknowns_sectors_and_failed_conditions() {
    let a = figure6();
    let site = site(&a, 22, "d_A[id + 1]");
    let sample = &site.stats.worst[0];
    let svg = diagram::svg(site, sample, Model::Cc11);
    assert!(svg.starts_with("<svg"));
    assert_eq!(count(&svg, r#"class="lane""#), 32);
    // 16 even lanes access, 16 odd ones are unknown, as in the paper's figure 10
    assert_eq!(count(&svg, r#"class="access""#), 16);
    assert_eq!(count(&svg, r#"class="unknown""#), 16);
    // the accessing lanes are marked as failing, with arrows in the failure colour
    assert_eq!(count(&svg, "url(#arrow-bad)"), 16);
    assert!(svg.contains("half-warp 0: fails 2, 3"), "{svg}");
    assert!(svg.contains("half-warp 1: fails 2, 3"));
    assert!(svg.contains("condition 2 (lane 2 does not take the word after the previous lane"));
    assert!(svg.contains("is not 64-byte aligned"));
    // one 128-byte line, all four sectors moved, 64-byte segment boundaries drawn
    assert_eq!(count(&svg, r#"class="row""#), 1);
    assert_eq!(count(&svg, r#"class="sector""#), 4);
    assert!(count(&svg, r#"class="segment""#) >= 2);
    assert!(svg
        .contains("16 active lanes, 64 bytes: 4 sector(s) in 1 line(s), ideal 2, efficiency 50%"));
    // the sm90 view of the same request does not mark lanes for CC 1.1
    let plain = diagram::svg(site, sample, Model::Sm90);
    assert_eq!(count(&plain, "url(#arrow-bad)"), 0);
    assert_eq!(count(&plain, r#"class="segment""#), 0);
}

#[test]
fn column_walk_diagram_has_a_row_per_line_and_gaps_between() {
    let s = naive_transpose_64();
    let a = run(&s, Model::Sm90, false);
    let site = site(&a, 9, "out[x * n + y]");
    let svg = diagram::svg(site, &site.stats.worst[0], Model::Sm90);
    // 32 lanes, 256 bytes apart: 32 lines, one sector each, 31 gaps of 128 bytes
    assert_eq!(count(&svg, r#"class="row""#), 32);
    assert_eq!(count(&svg, r#"class="sector""#), 32);
    assert_eq!(count(&svg, r#"class="gap""#), 31);
    assert_eq!(count(&svg, "128 bytes not touched"), 31);
    assert_eq!(count(&svg, r#"class="access""#), 32);
    assert_eq!(count(&svg, r#"class="unknown""#), 0);
    assert!(svg.contains("32 sector(s) in 32 line(s), ideal 4, efficiency 12%"));
}

#[test]
fn bank_conflict_diagram_marks_the_conflicting_bank_and_renders_to_png() {
    let s = spec(
        "shared_stride.cu",
        "column_sum",
        [1, 1, 1],
        [32, 1, 1],
        buffers(2),
        vec![
            floats("in", 1024, 11),
            Buffer::zeros("out", hone_ir::Type::FLOAT, 32),
        ],
    );
    let a = run(&s, Model::Sm90, false);
    let site = site(&a, 35, "tile[t][c]");
    let svg = diagram::svg(site, &site.stats.worst[0], Model::Sm90);
    assert!(svg.contains("32 wavefront(s), ideal 1, 32-way bank conflict"));
    assert_eq!(count(&svg, r#"class="row""#), 32);
    // every word read is in bank 0 and marked; all arrows in the failure colour
    assert_eq!(count(&svg, "#ef9a9a"), 32);
    assert_eq!(count(&svg, "url(#arrow-bad)"), 32);
    assert_eq!(
        count(&svg, r#"class="sector""#),
        0,
        "no sectors for shared memory"
    );
    let png = diagram::png(&svg).expect("renders");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height follow the chunk header
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!(width, 1076);
    assert!(height > 32 * 20, "{height}");
}
