//! Each entry of the catalogue on a kernel where it applies: the fix is
//! proposed, verified in the emulator (same outputs, under the stated layout
//! change), and really removes the excess sectors or wavefronts.

mod common;

use common::*;
use hone_analyzer::patterns::{verify::verify, Layout, Suggestion};
use hone_analyzer::{Model, Site};
use hone_emulator::{Buffer, KernelArg};

fn fix<'a>(s: &'a Site, pattern: &str) -> &'a Suggestion {
    s.suggestions
        .iter()
        .find(|x| x.pattern == pattern)
        .unwrap_or_else(|| {
            panic!(
                "no `{pattern}` fix for {:?}; found {:?}, rejected {:?}",
                s.expression,
                s.suggestions.iter().map(|x| x.pattern).collect::<Vec<_>>(),
                s.rejected
            )
        })
}

fn check_verified(f: &Suggestion) {
    assert!(f.verification.verified, "{}", f.verification.message);
    assert_eq!(
        f.verification.inputs, 3,
        "the launch's inputs and two random ones"
    );
}

#[test]
fn misaligned_offset_pads_the_array_onto_sector_boundaries() {
    let s = spec(
        "misaligned.cu",
        "shift_copy",
        [4, 1, 1],
        [64, 1, 1],
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(256),
        ],
        vec![
            floats("in", 257, 9),
            Buffer::zeros("out", hone_ir::Type::FLOAT, 256),
        ],
    );
    let a = run(&s, Model::Sm90, true);
    let read = site(&a, 7, "in[i + 1]");
    // 8 requests of 32 floats starting 4 bytes into a sector: 5 sectors each
    assert_eq!((read.stats.sectors, read.stats.ideal_sectors), (40, 32));
    let f = fix(read, "misaligned-offset");
    check_verified(f);
    assert!(f.source.contains("in[i + 8]"), "{}", f.source);
    assert_eq!(f.layout_changes[0].layout, Layout::Shift { pad: 7 });
    assert_eq!((f.site_before.sectors, f.site_after.sectors), (40, 32));
    assert_eq!(f.kernel_after.sectors, f.kernel_after.ideal_sectors);
}

#[test]
fn array_of_structures_becomes_structure_of_arrays_per_warp() {
    let s = spec(
        "aos.cu",
        "norms",
        [2, 1, 1],
        [128, 1, 1],
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(256),
        ],
        vec![
            floats("pos", 768, 5),
            Buffer::zeros("r2", hone_ir::Type::FLOAT, 256),
        ],
    );
    let a = run(&s, Model::Sm90, true);
    for (line, expr) in [
        (8, "pos[3 * i]"),
        (9, "pos[3 * i + 1]"),
        (10, "pos[3 * i + 2]"),
    ] {
        let st = &site(&a, line, expr).stats;
        // lanes 12 bytes apart: 384 bytes = 12 sectors for 4 sectors of data
        assert_eq!((st.sectors, st.ideal_sectors), (96, 32), "{expr}");
    }
    let f = fix(site(&a, 8, "pos[3 * i]"), "structure-of-arrays");
    check_verified(f);
    assert_eq!(
        f.layout_changes[0].layout,
        Layout::Interleave {
            stride: 3,
            chunk: 32
        }
    );
    assert_eq!((f.site_before.sectors, f.site_after.sectors), (96, 32));
    // all three fields are fixed by the one relayout
    assert_eq!(f.kernel_after.sectors, f.kernel_after.ideal_sectors);
    assert_eq!(f.kernel_before.sectors, 3 * 96 + 32);
}

#[test]
fn row_walk_of_a_matrix_is_stored_in_column_major_panels() {
    let s = spec(
        "matvec.cu",
        "matvec_rows",
        [2, 1, 1],
        [32, 1, 1],
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
            KernelArg::Int(64),
            KernelArg::Int(32),
        ],
        vec![
            floats("A", 2048, 7),
            floats("x", 32, 8),
            Buffer::zeros("y", hone_ir::Type::FLOAT, 64),
        ],
    );
    let a = run(&s, Model::Sm90, true);
    let read = site(&a, 9, "A[row * n + j]");
    // every lane its own row: 32 sectors per request
    assert_eq!(read.stats.sectors, 32 * read.stats.requests);
    let f = fix(read, "row-walk");
    check_verified(f);
    assert!(
        f.source
            .contains("A[row / 32 * (32 * n) + row % 32 + 32 * j]"),
        "{}",
        f.source
    );
    assert_eq!((f.site_before.sectors, f.site_after.sectors), (2048, 256));
    assert_eq!(f.site_after.sectors, f.site_after.ideal_sectors);
}

#[test]
fn transposed_store_is_fixed_by_relayout_or_by_a_shared_tile() {
    let s = naive_transpose_64();
    let a = run(&s, Model::Sm90, true);
    let store = site(&a, 9, "out[x * n + y]");
    let f = fix(store, "row-walk");
    check_verified(f);
    assert_eq!((f.site_before.sectors, f.site_after.sectors), (4096, 512));
    assert_eq!(f.layout_changes.len(), 1);

    // Staging through a shared tile keeps the layout: each warp of the 32 x 8
    // block then writes 4 runs of 8 floats, 4 sectors.
    let t = fix(store, "shared-tile");
    check_verified(t);
    assert!(t.layout_changes.is_empty());
    assert!(
        t.source.contains("__shared__ float tile[8][36]"),
        "{}",
        t.source
    );
    assert!(t.source.contains("__syncthreads()"));
    assert_eq!((t.site_before.sectors, t.site_after.sectors), (4096, 512));
    assert_eq!(t.site_after.requests, 128);
    // the tile's two accesses, 128 requests each, are conflict-free
    assert_eq!(t.kernel_after.wavefronts, 256);
    assert_eq!(t.kernel_after.wavefronts, t.kernel_after.ideal_wavefronts);
}

#[test]
fn shared_tile_conflicts_are_removed_by_padding_and_by_swizzling() {
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
    let a = run(&s, Model::Sm90, true);
    let read = site(&a, 35, "tile[t][c]");
    assert_eq!(read.stats.max_ways, 32);
    let pad = fix(read, "shared-padding");
    check_verified(pad);
    assert!(pad.source.contains("tile[32][33]"), "{}", pad.source);
    assert!(pad.layout_changes.is_empty());
    assert_eq!(
        (pad.site_before.wavefronts, pad.site_after.wavefronts),
        (1024, 32)
    );
    let swz = fix(read, "shared-swizzle");
    check_verified(swz);
    assert!(
        swz.source.contains("tile[t][c ^ (t % 32)]"),
        "{}",
        swz.source
    );
    assert_eq!(swz.site_after.wavefronts, swz.site_after.ideal_wavefronts);
    // the row-wise store stays conflict-free after either fix
    assert_eq!(
        pad.kernel_after.wavefronts,
        pad.kernel_after.ideal_wavefronts
    );
    assert_eq!(
        swz.kernel_after.wavefronts,
        swz.kernel_after.ideal_wavefronts
    );
}

#[test]
fn one_dimensional_shared_arrays_are_padded_every_32_words() {
    for stride in [2i64, 32] {
        let s = spec(
            "shared_stride.cu",
            "shared_stride",
            [1, 1, 1],
            [32, 1, 1],
            vec![KernelArg::Buffer(0), KernelArg::Int(stride)],
            vec![Buffer::zeros("out", hone_ir::Type::FLOAT, 32)],
        );
        let a = run(&s, Model::Sm90, true);
        let read = site(&a, 10, "s[threadIdx.x * stride % (32 * 33)]");
        let pad = fix(read, "shared-padding");
        check_verified(pad);
        assert!(
            pad.source.contains("__shared__ float s[1089]"),
            "{}",
            pad.source
        );
        assert_eq!(pad.site_after.wavefronts, 1, "stride {stride}");
        let swz = fix(read, "shared-swizzle");
        assert_eq!(swz.site_after.wavefronts, 1, "stride {stride}");
    }
}

#[test]
fn tiled_transpose_tile_is_padded() {
    let s = spec(
        "transpose.cu",
        "transpose_tiled",
        [2, 2, 1],
        [32, 8, 1],
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(64),
        ],
        vec![
            Buffer::zeros("out", hone_ir::Type::FLOAT, 4096),
            floats("in", 4096, 1),
        ],
    );
    let a = run(&s, Model::Sm90, true);
    // global traffic is ideal; the shared column read is the one problem
    assert_eq!(
        a.totals.global_store.sectors,
        a.totals.global_store.ideal_sectors
    );
    let read = site(&a, 27, "tile[threadIdx.x][threadIdx.y + j]");
    assert_eq!(read.rank, 1);
    let pad = fix(read, "shared-padding");
    check_verified(pad);
    assert_eq!(
        (pad.site_before.wavefronts, pad.site_after.wavefronts),
        (4096, 128)
    );
}

#[test]
fn a_stencil_pad_that_only_moves_the_misalignment_is_rejected() {
    // i starts at 1: out[i] and in[i] are 4 bytes off, in[i + 1] 8, in[i - 1] aligned.
    let src = "__global__ void blur(const float *in, float *out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
        if (i < n - 1) out[i] = in[i - 1] + in[i] + in[i + 1];
    }";
    let parsed = hone_frontend::parse_source("blur.cu", src, &Default::default()).unwrap();
    let s = hone_analyzer::LaunchSpec {
        module: parsed.module,
        kernel: "blur".into(),
        launch: hone_analyzer::LaunchData {
            name: String::new(),
            config: hone_emulator::LaunchConfig::linear(2, 64),
            args: vec![
                KernelArg::Buffer(0),
                KernelArg::Buffer(1),
                KernelArg::Int(130),
            ],
            buffers: vec![
                floats("in", 130, 3),
                Buffer::zeros("out", hone_ir::Type::FLOAT, 130),
            ],
            symbols: Vec::new(),
        },
    };
    let a = run(&s, Model::Sm90, true);
    assert!(!site(&a, 3, "in[i - 1]").flagged(Model::Sm90));
    // Shifting `in` aligns in[i] but misaligns in[i - 1]: nothing gained.
    let read = site(&a, 3, "in[i]");
    assert!(
        read.suggestions.is_empty(),
        "{:?}",
        read.suggestions
            .iter()
            .map(|s| &s.title)
            .collect::<Vec<_>>()
    );
    let r = read
        .rejected
        .iter()
        .find(|r| r.pattern == "misaligned-offset")
        .expect("the shift was tried");
    assert!(r.reason.contains("moves the waste"), "{}", r.reason);
    // Shifting `out` (written once) is a real fix.
    let f = fix(site(&a, 3, "out[i]"), "misaligned-offset");
    check_verified(f);
    assert!(f.source.contains("out[i + 7]"), "{}", f.source);
    assert!(f.kernel_after.sectors < f.kernel_before.sectors);
}

#[test]
fn verification_catches_a_rewrite_that_computes_something_else() {
    let s = spec(
        "misaligned.cu",
        "shift_copy",
        [4, 1, 1],
        [64, 1, 1],
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(256),
        ],
        vec![
            floats("in", 257, 9),
            Buffer::zeros("out", hone_ir::Type::FLOAT, 256),
        ],
    );
    let wrong = "__global__ void shift_copy(const float *in, float *out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = in[i];
    }";
    let m = hone_frontend::parse_source("wrong.cu", wrong, &Default::default())
        .unwrap()
        .module;
    let v = verify(&s, &m, &[], 2);
    assert!(!v.verified);
    assert!(
        v.message.contains("`out` differs at element 0"),
        "{}",
        v.message
    );
    // the right rewrite under the right layout passes, under a wrong one fails
    let right = wrong.replace("in[i]", "in[i + 8]");
    let m = hone_frontend::parse_source("right.cu", &right, &Default::default())
        .unwrap()
        .module;
    assert!(verify(&s, &m, &[(0, Layout::Shift { pad: 7 })], 2).verified);
    assert!(!verify(&s, &m, &[(0, Layout::Shift { pad: 6 })], 2).verified);
}

fn records(kernel: &str, fields: usize) -> hone_analyzer::Analysis {
    let s = spec(
        "vector.cu",
        kernel,
        [2, 1, 1],
        [64, 1, 1],
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(128),
        ],
        vec![
            floats("in", 128 * fields, 3),
            Buffer::zeros("out", hone_ir::Type::FLOAT, 128),
        ],
    );
    run(&s, Model::Sm90, true)
}

#[test]
fn consecutive_elements_of_a_record_are_read_as_one_vector() {
    let a = records("magnitude", 2);
    let f = fix(site(&a, 9, "z[2 * i]"), "vector-load");
    check_verified(f);
    assert!(f.layout_changes.is_empty());
    assert!(
        f.source
            .contains("const float2 z_v = ((const float2 *)z)[i];"),
        "{}",
        f.source
    );
    assert!(f.source.contains("float im = z_v.y;"), "{}", f.source);
    // Two requests of 2x the sectors each become one that uses them all.
    assert_eq!((f.kernel_before.sectors, f.kernel_after.sectors), (80, 48));
    assert_eq!(f.site_after.sectors, f.site_after.ideal_sectors);

    // Four floats, read in any order, one of them with `i * 4`.
    let a = records("luminance", 4);
    let f = fix(site(&a, 19, "rgba[4 * i + 3]"), "vector-load");
    check_verified(f);
    assert!(
        f.source.contains("((const float4 *)rgba)[i]"),
        "{}",
        f.source
    );
    assert!(f.source.contains("rgba_v.y"), "{}", f.source);
    assert_eq!(f.kernel_after.requests, 8, "{f:?}");
}

#[test]
fn a_vector_load_is_not_offered_where_a_read_may_not_run_or_may_change() {
    for (kernel, line, expr) in [
        ("guarded", 30, "z[2 * i]"),
        ("store_between", 40, "z[2 * i]"),
        ("comma_store", 55, "z[2 * i]"),
        ("self_store", 64, "z[2 * i]"),
        ("moved_pointer", 74, "z[2 * i]"),
        ("unsigned_index", 84, "z[2 * i]"),
    ] {
        let a = records(kernel, 2);
        let s = site(&a, line, expr);
        assert!(s.stats.excess(Model::Sm90) > 0, "{kernel}");
        assert!(
            s.suggestions.iter().all(|f| f.pattern != "vector-load"),
            "{kernel}: {:?}",
            s.suggestions.iter().map(|f| &f.source).collect::<Vec<_>>()
        );
    }
}

fn nest(
    kernel: &str,
    grid: u32,
    buffers: Vec<Buffer>,
    rows: i64,
    cols: i64,
) -> hone_analyzer::Analysis {
    let mut args: Vec<KernelArg> = (0..buffers.len()).map(KernelArg::Buffer).collect();
    args.extend([KernelArg::Int(rows), KernelArg::Int(cols)]);
    let s = spec(
        "interchange.cu",
        kernel,
        [grid, 1, 1],
        [64, 1, 1],
        args,
        buffers,
    );
    run(&s, Model::Sm90, true)
}

#[test]
fn a_column_walk_shared_by_the_threads_is_interchanged() {
    // The block's threads share the loop over rows, inside the loop over
    // columns.
    let a = nest(
        "scale_rows",
        2,
        vec![floats("m", 2 * 64 * 96, 1), floats("factor", 64, 2)],
        64,
        96,
    );
    let f = fix(site(&a, 12, "mine[r * cols + c]"), "loop-interchange");
    check_verified(f);
    assert!(f.layout_changes.is_empty());
    assert!(
        f.source.contains("for (int r = 0; r < rows; r++)")
            && f.source
                .contains("for (int c = threadIdx.x; c < cols; c += blockDim.x)"),
        "{}",
        f.source
    );
    // A warp's 32 rows, one sector each, become 32 neighbouring floats.
    assert!(f.site_before.sectors >= 7 * f.site_after.sectors, "{f:?}");
    assert_eq!(f.site_after.sectors, f.site_after.ideal_sectors, "{f:?}");
    // Merged into one loop over every pair, the columns the faster, so as
    // many threads have work as before.
    let merged = merged_loop(site(&a, 12, "mine[r * cols + c]"));
    check_verified(merged);
    for line in [
        "for (long long k = threadIdx.x; rows > 0 && cols > 0 && k < (long long)rows * cols; k += blockDim.x)",
        "int r = k / cols;",
        "int c = k % cols;",
    ] {
        assert!(merged.source.contains(line), "{}", merged.source);
    }
    assert_eq!(merged.site_after.sectors, merged.site_after.ideal_sectors);

    // The grid's threads each walk their own rows.
    let a = nest(
        "add_bias",
        2,
        vec![
            floats("in", 256 * 64, 3),
            Buffer::zeros("out", hone_ir::Type::FLOAT, 256 * 64),
            floats("bias", 64, 4),
        ],
        256,
        64,
    );
    // Sharing the 64 columns instead of the 256 rows would leave three
    // threads in four without work: only the merged loop is offered.
    let s = site(&a, 21, "out[r * cols + c]");
    let offered: Vec<&str> = s.suggestions.iter().map(|f| f.title.as_str()).collect();
    assert!(
        offered
            .iter()
            .all(|t| !t.starts_with("let the threads share")),
        "{offered:?}"
    );
    let merged = merged_loop(site(&a, 21, "out[r * cols + c]"));
    check_verified(merged);
    assert!(
        merged.source.contains(
            "for (long long k = blockIdx.x * blockDim.x + threadIdx.x; rows > 0 && cols > 0 && k < (long long)rows * cols; k += blockDim.x * gridDim.x)"
        ),
        "{}",
        merged.source
    );
    assert!(merged.kernel_after.sectors * 4 < merged.kernel_before.sectors);
}

/// The `loop-interchange` fix that merges the two loops into one.
fn merged_loop(s: &Site) -> &Suggestion {
    s.suggestions
        .iter()
        .find(|f| f.pattern == "loop-interchange" && f.title.starts_with("merge"))
        .unwrap_or_else(|| panic!("no merged loop for {:?}: {:?}", s.expression, s.rejected))
}

#[test]
fn loops_whose_trips_depend_on_each_other_are_not_interchanged() {
    let m = || floats("m", 64 * 48, 5);
    for (kernel, line, expr, buffers) in [
        (
            "column_sums",
            32,
            "m[r * cols + c]",
            vec![m(), Buffer::zeros("out", hone_ir::Type::FLOAT, 64)],
        ),
        ("row_prefix", 41, "m[r * cols + c]", vec![m()]),
        (
            "last_column",
            49,
            "m[r * cols + c]",
            vec![m(), Buffer::zeros("last", hone_ir::Type::FLOAT, 64)],
        ),
        ("lower_triangle", 57, "m[r * cols + c]", vec![m()]),
        ("with_barrier", 65, "m[r * cols + c]", vec![m()]),
        (
            "own_factor",
            77,
            "m[r * cols + c]",
            vec![m(), floats("factor", 64, 6)],
        ),
        ("diagonal_sums", 85, "m[r * 2 + c]", vec![m()]),
        (
            "shift_rows",
            95,
            "next[r * cols + c]",
            vec![floats("m", 65 * 48, 7)],
        ),
    ] {
        let a = nest(kernel, 1, buffers, 64, 48);
        let s = site(&a, line, expr);
        assert!(s.stats.excess(Model::Sm90) > 0, "{kernel}");
        let offered: Vec<&str> = s.suggestions.iter().map(|f| f.pattern).collect();
        assert!(
            !offered.contains(&"loop-interchange")
                && s.rejected.iter().all(|r| r.pattern != "loop-interchange"),
            "{kernel}: {offered:?} {:?}",
            s.rejected
        );
    }
}

fn walk(kernel: &str, args: Vec<KernelArg>, buffers: Vec<Buffer>) -> hone_analyzer::Analysis {
    let s = spec("staged.cu", kernel, [2, 1, 1], [64, 1, 1], args, buffers);
    run(&s, Model::Sm90, true)
}

/// The `staged-walk` fix of a site, verified, keeping the layout, and
/// cutting the site's sectors (now those of the copy) by `factor` or more.
fn staged(s: &Site, factor: u64) -> &Suggestion {
    let f = fix(s, "staged-walk");
    check_verified(f);
    assert!(f.layout_changes.is_empty());
    assert!(
        f.site_after.sectors > 0 && f.site_before.sectors >= factor * f.site_after.sectors,
        "{:?} -> {:?}",
        f.site_before,
        f.site_after
    );
    assert!(f.kernel_after.sectors < f.kernel_before.sectors);
    f
}

#[test]
fn row_walks_are_staged_through_shared_memory() {
    // 100 rows of 48 columns (a chunk of 32 and one of 16) on 128 threads:
    // the threads past the last row take part in the copies.
    let (rows, cols) = (100, 48);
    let a = walk(
        "row_prefix",
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(rows),
            KernelArg::Int(cols),
        ],
        vec![
            floats("in", 128 * 48, 1),
            Buffer::zeros("out", hone_ir::Type::FLOAT, 128 * 48),
        ],
    );
    let read = staged(site(&a, 14, "in[row * cols + c]"), 4);
    for line in [
        "bool hone_act = row < rows;",
        "hone_rows0[hone_tid] = &in[row * cols];",
        "hone_rows1[hone_tid] = &out[row * cols];",
        "for (int c = hone_x0; c < cols && c < hone_x0 + 32; c++) {",
        "if (cols > 2147483583) {",
        "s += hone_tile0[hone_tid][c - hone_x0];",
        "hone_tile1[hone_tid][c - hone_x0] = s;",
        "if (blockDim.x * blockDim.y * blockDim.z != 64) {",
    ] {
        assert!(read.source.contains(line), "{line}\n{}", read.source);
    }
    staged(site(&a, 15, "out[row * cols + c]"), 4);

    // The helper that walks the row it is given, reads and stores.
    let a = walk(
        "box_rows",
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(80),
            KernelArg::Int(4),
        ],
        vec![floats("id", 128 * 80, 2), floats("od", 128 * 80, 3)],
    );
    let f = staged(site(&a, 28, "id[x - r - 1]"), 4);
    assert!(
        f.source.contains("hone_rows1[hone_tid] = &id[-r - 1];"),
        "{}",
        f.source
    );
    staged(site(&a, 29, "od[x]"), 4);
    // The window's first r + 1 = 5 columns: shorter than a chunk, where the
    // copy costs more than it saves.
    let first = site(&a, 26, "id[x]");
    assert!(first.stats.excess(Model::Sm90) > 0);
    assert!(first.suggestions.iter().all(|f| f.pattern != "staged-walk"));

    // Threads past the last row return before the walk: they join the
    // copies, and what follows the walk runs only for the others.
    let a = walk(
        "row_sums",
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(rows),
            KernelArg::Int(cols),
        ],
        vec![floats("in", 128 * 48, 4), floats("out", 128, 5)],
    );
    let f = staged(site(&a, 48, "in[row * cols + c]"), 4);
    for line in [
        "bool hone_stay = !(row >= rows);",
        "bool hone_act = hone_stay;",
        "if (hone_stay) {\n        out[row] = s;",
    ] {
        assert!(f.source.contains(line), "{line}\n{}", f.source);
    }
    assert!(!f.source.contains("return;"), "{}", f.source);

    // An early return and a guard: the row the guard skips still stores
    // its sum, so what follows the walk runs for every thread that stayed.
    let a = walk(
        "skip_row",
        vec![
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(rows),
            KernelArg::Int(cols),
            KernelArg::Int(7),
        ],
        vec![floats("in", 128 * 48, 6), floats("out", 128, 7)],
    );
    let f = staged(site(&a, 62, "in[row * cols + c]"), 4);
    for line in [
        "bool hone_act = hone_stay && row != skip;",
        "if (hone_stay) {\n        out[row] = s;",
    ] {
        assert!(f.source.contains(line), "{line}\n{}", f.source);
    }
}

#[test]
fn walks_that_leave_early_or_disagree_are_not_staged() {
    let m = || floats("m", 128 * 48, 5);
    let out = || Buffer::zeros("out", hone_ir::Type::FLOAT, 128);
    let ints = |n: usize| {
        let v: Vec<i32> = (0..n as i32).map(|i| 8 + i % 40).collect();
        Buffer::from_i32("len", &v)
    };
    let b = KernelArg::Buffer;
    let cols = KernelArg::Int(48);
    for (kernel, line, expr, args, buffers) in [
        (
            "own_length",
            75,
            "in[row * cols + c]",
            vec![b(0), b(1), b(2), cols],
            vec![m(), out(), ints(128)],
        ),
        (
            "first_negative",
            85,
            "in[row * cols + c]",
            vec![b(0), b(1), cols],
            vec![m(), Buffer::zeros("at", hone_ir::Type::INT, 128)],
        ),
        (
            "store_then_walk",
            103,
            "in[row * cols + c]",
            vec![b(0), b(1), KernelArg::Int(100), cols],
            vec![m(), out()],
        ),
        (
            "guarded_read",
            114,
            "in[row * cols + c]",
            vec![b(0), b(1), cols],
            vec![m(), out()],
        ),
        (
            "in_place",
            123,
            "m[row * cols + c]",
            vec![b(0), cols],
            vec![m()],
        ),
        (
            "two_rows",
            131,
            "r[c]",
            vec![b(0), b(1), b(2), cols],
            vec![m(), floats("b", 128 * 48, 6), out()],
        ),
        (
            "second_name",
            147,
            "m[row * cols + c - 1]",
            vec![b(0), cols],
            vec![m()],
        ),
        (
            "second_name",
            147,
            "w[row * cols + c]",
            vec![b(0), cols],
            vec![m()],
        ),
        (
            "mean_in_place",
            156,
            "src[x - 1]",
            vec![b(0), cols],
            vec![m()],
        ),
        (
            "unsigned_shift",
            174,
            "in[row * cols + c - 1]",
            vec![b(0), b(1), cols],
            vec![m(), out()],
        ),
        (
            "narrow_column",
            184,
            "in[row * cols + c]",
            vec![b(0), b(1), cols],
            vec![m(), out()],
        ),
        (
            "pointer_in_trip",
            195,
            "p[c]",
            vec![b(0), b(1), cols],
            vec![m(), out()],
        ),
        (
            "copied_pointer",
            206,
            "r[row * cols + c - 1]",
            vec![b(0), cols],
            vec![m()],
        ),
        (
            "copied_pointer",
            206,
            "m[row * cols + c]",
            vec![b(0), cols],
            vec![m()],
        ),
    ] {
        let a = walk(kernel, args, buffers);
        let s = site(&a, line, expr);
        assert!(s.stats.excess(Model::Sm90) > 0, "{kernel}");
        assert!(
            s.suggestions.iter().all(|f| f.pattern != "staged-walk")
                && s.rejected.iter().all(|r| r.pattern != "staged-walk"),
            "{kernel}: {:?} {:?}",
            s.suggestions.iter().map(|f| f.pattern).collect::<Vec<_>>(),
            s.rejected
        );
    }
}
