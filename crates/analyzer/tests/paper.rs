//! The profiling-support paper's examples under its own model, compute
//! capability 1.1: figures 3 and 4 (misaligned read and its fix), figure 6
//! (every other thread; the paper's findings per access) and figure 11 (its fix).

mod common;

use common::*;
use hone_analyzer::{LaunchSpec, Model};
use hone_emulator::Buffer;

fn figure3(kernel: &str) -> LaunchSpec {
    spec(
        "figure3.cu",
        kernel,
        [4, 1, 1],
        [64, 1, 1],
        buffers(2),
        vec![ints("d_a", 256, 1), ints("d_b", 272, 2)],
    )
}

#[test]
fn figure3_read_fails_only_the_alignment_condition() {
    let a = run(&figure3("kernel1"), Model::Cc11, true);
    let read = site(&a, 7, "d_b[id + 1]");
    assert_eq!(read.stats.cc11_failed(), vec![3]);
    assert_eq!(read.stats.failed_half_warps, [0, 0, 16]);
    assert_eq!(read.stats.fail_ranges.len(), 1);
    assert_eq!(read.stats.fail_ranges[0].threads, vec![(0, 255)]);
    assert_eq!(read.rank, 1);
    // d_a[id] (load and store of `*=`) is coalesced
    let others: Vec<_> = a.sites.iter().filter(|s| s.stats.array == "d_a").collect();
    assert_eq!(others.len(), 2);
    assert!(others.iter().all(|s| s.stats.cc11_failed().is_empty()));
}

#[test]
fn figure3_fix_is_figure4_and_is_verified() {
    let a = run(&figure3("kernel1"), Model::Cc11, true);
    let read = site(&a, 7, "d_b[id + 1]");
    let fix = read
        .suggestions
        .iter()
        .find(|s| s.pattern == "misaligned-offset")
        .expect("a misaligned-offset fix");
    // The paper's figure 4: read 16 words on, the data stored 15 words later.
    assert!(fix.source.contains("d_b[id + 16]"), "{}", fix.source);
    assert!(fix.verification.verified, "{}", fix.verification.message);
    assert_eq!(fix.verification.inputs, 3);
    assert_eq!(fix.layout_changes.len(), 1);
    assert_eq!(fix.layout_changes[0].array, "d_b");
    assert_eq!(
        fix.site_after.transactions,
        fix.site_after.ideal_transactions
    );
    assert_eq!(
        fix.site_before.transactions, 256,
        "16 half-warps of 16 threads, one transaction each"
    );
    // and figure 4 itself is coalesced
    let b = run(&figure3("kernel2"), Model::Cc11, false);
    assert!(b.sites.iter().all(|s| s.stats.cc11_failed().is_empty()));
    assert!(b.sites.iter().all(|s| !s.flagged(Model::Cc11)));
}

fn figure6_paper_kernel(file: &str, line: u32) -> (hone_analyzer::Analysis, u32) {
    let n = 256;
    let m = if file.contains("seed") {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file);
        hone_frontend::parse_file(&path, &Default::default())
            .unwrap()
            .module
    } else {
        module(file)
    };
    let s = LaunchSpec {
        module: m,
        kernel: "kernel_func".into(),
        launch: hone_analyzer::LaunchData {
            name: String::new(),
            config: hone_emulator::LaunchConfig::linear(4, 64),
            args: buffers(5),
            buffers: vec![
                ints("d_A", n + 1, 3),
                Buffer::from_i32("d_B", &vec![-1; n]),
                Buffer::from_i32("dst1", &vec![-1; n]),
                Buffer::from_i32("src1", &vec![-1; n]),
                Buffer::from_i32("src2", &vec![-1; n]),
            ],
            symbols: Vec::new(),
        },
    };
    (run(&s, Model::Cc11, false), line)
}

#[test]
fn figure6_reproduces_the_papers_findings() {
    // The example keeps the paper's line numbers; the seed copy of the
    // figure sits further down its file.
    for (file, line) in [
        ("figure6.cu", 7),
        ("../../tests/corpus/seed/coalescing.cu", 27),
    ] {
        let (a, line) = figure6_paper_kernel(file, line);
        let first_read = site(&a, line, "d_A[id]");
        let second_read = site(&a, line, "d_A[id + 1]");
        let write = site(&a, line, "d_B[id]");
        assert_eq!(
            first_read.stats.cc11_failed(),
            vec![2],
            "{file}: first read of d_A"
        );
        assert_eq!(write.stats.cc11_failed(), vec![2], "{file}: write of d_B");
        assert_eq!(
            second_read.stats.cc11_failed(),
            vec![2, 3],
            "{file}: second read of d_A"
        );
        // Only even threads access: 8 of every 16, in every half-warp.
        assert_eq!(first_read.stats.max_active, 16);
        assert_eq!(first_read.stats.half_warps, 16);
        assert_eq!(second_read.stats.failed_half_warps, [0, 16, 16]);
        assert!(second_read.stats.worst[0]
            .lanes
            .iter()
            .all(|l| l.lane % 2 == 0));
    }
}

#[test]
fn figure11_is_coalesced_in_every_half_warp_that_accesses() {
    let s = spec(
        "figure6.cu",
        "kernel_fixed",
        [4, 1, 1],
        [64, 1, 1],
        buffers(2),
        vec![ints("d_A", 256, 3), ints("d_B", 256, 0)],
    );
    let a = run(&s, Model::Cc11, false);
    assert_eq!(a.sites.len(), 3);
    for st in a.sites.iter().map(|s| &s.stats) {
        assert!(st.cc11_failed().is_empty(), "{}", st.array);
        // half the warps do the work
        assert_eq!(st.requests, 4);
        assert_eq!(st.half_warps, 8);
        assert_eq!(st.sectors, st.ideal_sectors);
    }
}

#[test]
fn figure6_without_recording_gets_figure11_as_a_verified_fix() {
    let s = spec(
        "figure6.cu",
        "kernel_plain",
        [4, 1, 1],
        [64, 1, 1],
        buffers(2),
        vec![ints("d_A", 256, 3), ints("d_B", 256, 0)],
    );
    let a = run(&s, Model::Sm90, true);
    let read = site(&a, 22, "d_A[id + 1]");
    let fix = read
        .suggestions
        .iter()
        .find(|s| s.pattern == "thread-remap")
        .expect("the figure 11 fix");
    assert!(fix.source.contains("id % 64 < 32"), "{}", fix.source);
    assert!(fix.source.contains("d_A[id + 32]"), "{}", fix.source);
    assert!(fix.verification.verified, "{}", fix.verification.message);
    assert_eq!(fix.layout_changes.len(), 2);
    assert_eq!((fix.site_before.sectors, fix.site_after.sectors), (32, 16));
    assert_eq!(fix.site_after.sectors, fix.site_after.ideal_sectors);
    assert_eq!(fix.kernel_after.requests * 2, fix.kernel_before.requests);
}

#[test]
fn figure6_with_recording_arrays_rejects_the_remap_and_says_why() {
    // The recording arrays store thread numbers, which the remap changes.
    let (a, _) = figure6_paper_kernel("figure6.cu", 7);
    assert!(
        a.sites.iter().all(|s| s.suggestions.is_empty()),
        "suggest was off"
    );
    let s = spec(
        "figure6.cu",
        "kernel_func",
        [4, 1, 1],
        [64, 1, 1],
        buffers(5),
        vec![
            ints("d_A", 257, 3),
            ints("d_B", 256, 0),
            ints("dst1", 256, 0),
            ints("src1", 256, 0),
            ints("src2", 256, 0),
        ],
    );
    let a = run(&s, Model::Sm90, true);
    let read = site(&a, 7, "d_A[id]");
    let rejected = read
        .rejected
        .iter()
        .find(|r| r.pattern == "thread-remap")
        .expect("the remap was tried");
    assert!(rejected.reason.contains("dst1"), "{}", rejected.reason);
    assert!(read.suggestions.iter().all(|s| s.pattern != "thread-remap"));
}
