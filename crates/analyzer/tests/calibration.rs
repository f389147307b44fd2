//! The models against what Nsight Compute counted on an H200
//! (`ncu --clock-control none`, shared/gpu-baselines.md): a 64 x 64 naive
//! transpose with grid 2 x 8 and block 32 x 8 took 128 load requests / 512
//! sectors and 128 store requests / 4096 sectors; warps reading shared floats
//! 1, 2, 32 and 33 words apart took 1, 2, 32 and 1 wavefronts.

mod common;

use common::*;
use hone_analyzer::Model;
use hone_emulator::{Buffer, KernelArg};

#[test]
fn naive_transpose_matches_ncu_requests_and_sectors() {
    let s = naive_transpose_64();
    let a = run(&s, Model::Sm90, false);
    assert!(a.completed);
    let t = &a.totals;
    assert_eq!((t.global_load.requests, t.global_load.sectors), (128, 512));
    assert_eq!(
        (t.global_store.requests, t.global_store.sectors),
        (128, 4096)
    );
    let store = site(&a, 9, "out[x * n + y]");
    assert_eq!(store.rank, 1, "the column walk wastes most");
    assert_eq!(store.stats.excess_sectors(), 4096 - 512);
    assert_eq!(store.stats.executions, 4096);
}

#[test]
fn shared_strides_match_ncu_wavefronts() {
    for (stride, want) in [(1i64, 1u64), (2, 2), (32, 32), (33, 1)] {
        let s = spec(
            "shared_stride.cu",
            "shared_stride",
            [1, 1, 1],
            [32, 1, 1],
            vec![KernelArg::Buffer(0), KernelArg::Int(stride)],
            vec![Buffer::zeros("out", hone_ir::Type::FLOAT, 32)],
        );
        let a = run(&s, Model::Sm90, false);
        let read = site(&a, 10, "s[threadIdx.x * stride % (32 * 33)]");
        assert_eq!(read.stats.requests, 1);
        assert_eq!(read.stats.wavefronts, want, "stride {stride}");
        assert_eq!(read.stats.ideal_wavefronts, 1);
        assert_eq!(read.stats.max_ways, want);
        // the filling loop writes 32 consecutive words per request
        assert_eq!(
            a.totals.shared_store.wavefronts,
            a.totals.shared_store.requests
        );
    }
}

#[test]
fn wide_shared_accesses_take_one_wavefront_per_phase() {
    let s = spec(
        "shared_stride.cu",
        "shared_wide",
        [1, 1, 1],
        [32, 1, 1],
        buffers(2),
        vec![
            Buffer::zeros("out", hone_ir::Type::DOUBLE, 32),
            Buffer::zeros("out4", hone_ir::Type::Vector(hone_ir::Scalar::F32, 4), 32),
        ],
    );
    let a = run(&s, Model::Sm90, false);
    let d = site(&a, 21, "d[t]");
    assert_eq!(
        (d.stats.size, d.stats.wavefronts, d.stats.ideal_wavefronts),
        (8, 2, 2)
    );
    let q = site(&a, 22, "q[t]");
    assert_eq!(
        (q.stats.size, q.stats.wavefronts, q.stats.ideal_wavefronts),
        (16, 4, 4)
    );
    // float4 global stores: 512 bytes in 16 sectors
    let g = site(&a, 22, "out4[t]");
    assert_eq!((g.stats.sectors, g.stats.ideal_sectors), (16, 16));
}
