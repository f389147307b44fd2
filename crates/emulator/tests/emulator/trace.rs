//! The access trace: one record per warp instruction with every active lane.

use std::collections::BTreeMap;

use hone_emulator::*;
use hone_ir::AddressSpace;

use crate::{cuda, launch_with, line_of};

const SRC: &str = r#"
__global__ void k(const float *a, float *b, int n) {
    __shared__ float s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    s[threadIdx.x] = x;
    __syncthreads();
    if (threadIdx.x < 20) {
        b[2 * i] = s[63 - threadIdx.x];
    }
}
"#;

fn traced() -> (Report, CollectTrace, Vec<Buffer>) {
    let m = cuda(SRC);
    let a: Vec<f32> = (0..128).map(|x| x as f32).collect();
    let mut bufs = vec![
        Buffer::from_f32("a", &a),
        Buffer::zeros("b", hone_ir::Type::FLOAT, 256),
    ];
    let mut sink = CollectTrace::default();
    let r = launch_with(
        &m,
        "k",
        LaunchConfig::linear(2, 64),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(128),
        ],
        &mut bufs,
        &Options::default(),
        Some(&mut sink),
    );
    (r, sink, bufs)
}

#[test]
fn one_record_per_warp_instruction_per_site() {
    let (r, sink, _) = traced();
    assert!(r.is_clean(), "{r:#?}");
    let mut per_line: BTreeMap<(u32, AccessKind), usize> = BTreeMap::new();
    for w in &sink.accesses {
        *per_line.entry((w.span.line, w.kind)).or_default() += 1;
    }
    let la = line_of(SRC, "float x = a[i]");
    let ls = line_of(SRC, "s[threadIdx.x] = x");
    let lb = line_of(SRC, "b[2 * i]");
    // 2 blocks x 2 warps execute the first two; only warp 0 of each block the last two.
    assert_eq!(per_line[&(la, AccessKind::Load)], 4);
    assert_eq!(per_line[&(ls, AccessKind::Store)], 4);
    assert_eq!(per_line[&(lb, AccessKind::Load)], 2);
    assert_eq!(per_line[&(lb, AccessKind::Store)], 2);
    assert_eq!(sink.accesses.len(), 12);
}

#[test]
fn lane_addresses_follow_the_access_pattern() {
    let (_, sink, _) = traced();
    let la = line_of(SRC, "float x = a[i]");
    let lb = line_of(SRC, "b[2 * i]");
    let loads: Vec<&WarpAccess> = sink.accesses.iter().filter(|w| w.span.line == la).collect();
    let a_base = loads[0].array_base;
    assert_eq!(a_base % 256, 0, "cudaMalloc-like alignment");
    for w in &loads {
        assert_eq!(
            (w.space, w.array.as_str(), w.size),
            (AddressSpace::Global, "a", 4)
        );
        assert_eq!(w.lanes.len(), 32);
        let first = (w.block[0] * 64 + w.warp * 32) as u64;
        for (l, lane) in w.lanes.iter().enumerate() {
            assert_eq!(lane.lane, l as u32);
            // Coalesced: consecutive lanes, consecutive words.
            assert_eq!(lane.address, a_base + 4 * (first + l as u64));
            assert_eq!(lane.value, Value::Float((first + l as u64) as f64));
            assert_eq!(lane.thread, [w.warp * 32 + l as u32, 0, 0]);
        }
    }
    let stores: Vec<&WarpAccess> = sink
        .accesses
        .iter()
        .filter(|w| w.span.line == lb && w.kind == AccessKind::Store)
        .collect();
    let b_base = stores[0].array_base;
    assert_ne!(a_base, b_base);
    for w in stores {
        // Only the 20 active lanes, stride 8 bytes.
        assert_eq!(w.lanes.len(), 20);
        for lane in &w.lanes {
            let i = (w.block[0] * 64 + lane.lane) as u64;
            assert_eq!(lane.address, b_base + 8 * i);
        }
    }
    let shared_reads: Vec<&WarpAccess> = sink
        .accesses
        .iter()
        .filter(|w| w.span.line == lb && w.kind == AccessKind::Load)
        .collect();
    for w in shared_reads {
        assert_eq!(w.space, AddressSpace::Shared);
        assert_eq!(w.array, "s");
        for lane in &w.lanes {
            assert_eq!(lane.address, w.array_base + 4 * (63 - lane.lane as u64));
        }
    }
}

#[test]
fn identical_launches_are_bit_identical() {
    let src = r#"
__global__ void k(const unsigned int *in, unsigned int *bins, float *acc, int *order) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int v = in[i];
    order[i] = atomicAdd(&bins[v % 8], 1u);
    atomicAdd(&acc[0], 0.1f * (float)(v % 100));
    if (v % 5 == 0) acc[1 + i % 4] = (float)v;
}
"#;
    let m = cuda(src);
    let run_once = || {
        let data: Vec<u32> = (0..512u32)
            .map(|x| x.wrapping_mul(2246822519).rotate_left(7))
            .collect();
        let mut bufs = vec![
            Buffer::from_u32("in", &data),
            Buffer::from_u32("bins", &[0; 8]),
            Buffer::from_f32("acc", &[0.0; 5]),
            Buffer::from_i32("order", &[0; 512]),
        ];
        let mut sink = CollectTrace::default();
        let mut r = launch_with(
            &m,
            "k",
            LaunchConfig::linear(4, 128),
            &(0..4).map(KernelArg::Buffer).collect::<Vec<_>>(),
            &mut bufs,
            &Options::default(),
            Some(&mut sink),
        );
        r.stats.seconds = 0.0;
        r.stats.operations_per_second = 0.0;
        (r, sink.accesses, bufs)
    };
    let (r1, t1, b1) = run_once();
    let (r2, t2, b2) = run_once();
    assert!(
        !r1.races.is_empty(),
        "the acc[1..] writes race across blocks"
    );
    assert_eq!(r1, r2);
    assert_eq!(t1, t2);
    assert_eq!(b1, b2);
}

#[test]
fn reports_and_traces_serialize_to_json() {
    let (r, sink, _) = traced();
    let report = serde_json::to_value(&r).expect("report serializes");
    assert_eq!(report["completed"], true);
    assert_eq!(report["stats"]["blocks"], 2);
    assert!(report["races"].as_array().unwrap().is_empty());
    let access = serde_json::to_value(&sink.accesses[0]).expect("trace serializes");
    assert_eq!(access["array"], "a");
    assert_eq!(access["space"], "Global");
    assert_eq!(access["kind"], "Load");
    assert_eq!(access["lanes"].as_array().unwrap().len(), 32);
    assert_eq!(access["lanes"][3]["value"]["Float"], 3.0);
    let fault = Fault {
        kind: FaultKind::OutOfBounds {
            array: "x".into(),
            space: AddressSpace::Shared,
            index: -1,
            offset: -4,
            length: 8,
        },
        span: Default::default(),
        block: [0; 3],
        thread: [1, 0, 0],
        message: "m".into(),
    };
    let f = serde_json::to_value(&fault).unwrap();
    assert_eq!(f["kind"]["OutOfBounds"]["index"], -1);
    let e = serde_json::to_value(SetupError::UnknownKernel("k".into())).unwrap();
    assert_eq!(e["UnknownKernel"], "k");
}
