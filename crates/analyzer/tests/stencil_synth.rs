//! The `shared-stencil` fix: the analyzer annotates a stencil's statement,
//! `hone synth` writes the tile reads, and the result is verified and
//! analysed again like every fix. Given the synthesizer as the CLI gives it.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::*;
use hone_analyzer::patterns::SynthesizerHandle;
use hone_analyzer::{analyze, Model, Options};
use hone_emulator::{Buffer, KernelArg};

/// The synthesizer as the CLI passes it (without its time limit and panic
/// guard), counting its calls.
fn synthesizer(calls: Arc<AtomicUsize>) -> SynthesizerHandle {
    SynthesizerHandle(Arc::new(
        move |text: &str, kernel: &str, launch: &hone_analyzer::LaunchData| {
            calls.fetch_add(1, Ordering::SeqCst);
            hone_synthesizer::synthesize_checked(text, kernel, launch, &Default::default())
        },
    ))
}

/// The analysis, and how often it called the synthesizer.
fn stencil(kernel: &str, first: Buffer) -> (hone_analyzer::Analysis, usize) {
    let calls = Arc::new(AtomicUsize::new(0));
    let s = spec(
        "stencil.cu",
        kernel,
        [2, 4, 1],
        [32, 4, 1],
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(64),
            KernelArg::Int(16),
        ],
        vec![first, floats("b", 1024, 2)],
    );
    let opts = Options {
        model: Model::Sm90,
        synthesizer: Some(synthesizer(calls.clone())),
        ..Options::default()
    };
    let a = analyze(&s, &opts).expect("analysis runs");
    (a, calls.load(Ordering::SeqCst))
}

#[test]
fn neighbour_reads_are_served_from_a_tile_the_synthesizer_writes() {
    let (a, calls) = stencil("jacobi5", floats("in", 1024, 1));
    // The two sites of one statement share one synthesis.
    assert_eq!(calls, 1);
    let site = site(&a, 15, "in[w]");
    let f = site
        .suggestions
        .iter()
        .find(|f| f.pattern == "shared-stencil")
        .unwrap_or_else(|| panic!("no shared-stencil fix: {:?}", site.rejected));
    assert!(f.verification.verified, "{}", f.verification.message);
    assert!(f.layout_changes.is_empty());
    for line in [
        "if (blockDim.x != 32 || blockDim.y != 4) {",
        "__trap();",
        "__shared__ float sb_in[128];",
        "const int in_sb = threadIdx.x + threadIdx.y * 32;",
        "sb_in[in_sb] = in[c];",
        "__syncthreads();",
    ] {
        assert!(f.source.contains(line), "{line}\n{}", f.source);
    }
    // The misaligned reads and the rows' repeated reads now come from the
    // tile: fewer sectors at the site and in the kernel.
    assert!(f.site_after.sectors < f.site_before.sectors, "{f:?}");
    assert!(
        f.kernel_after.excess(Model::Sm90) < f.kernel_before.excess(Model::Sm90),
        "{f:?}"
    );
    assert!(f.kernel_after.sectors < f.kernel_before.sectors, "{f:?}");
}

#[test]
fn no_tile_where_a_barrier_could_not_be_reached_or_the_array_is_written() {
    for (kernel, line, expr) in [
        ("jacobi5_guarded", 28, "in[w]"),
        ("smooth_in_place", 39, "a[w]"),
        ("planes_by_row", 51, "in[w]"),
    ] {
        let first = floats(
            if kernel == "smooth_in_place" {
                "a"
            } else {
                "in"
            },
            1024,
            1,
        );
        let (a, calls) = stencil(kernel, first);
        assert_eq!(calls, 0, "{kernel}: refused before the synthesizer");
        let s = site(&a, line, expr);
        assert!(s.stats.excess(Model::Sm90) > 0, "{kernel}");
        assert!(
            s.suggestions.iter().all(|f| f.pattern != "shared-stencil")
                && s.rejected.iter().all(|r| r.pattern != "shared-stencil"),
            "{kernel}: {:?}",
            s.suggestions.iter().map(|f| &f.source).collect::<Vec<_>>()
        );
    }
}
