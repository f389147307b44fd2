//! Race detection: planted races are found with both source sites; correct
//! synchronization is silent.

use hone_emulator::*;
use hone_ir::AddressSpace;

use crate::{cuda, launch, launch_with, line_of};

const REDUCE: &str = r#"
__global__ void reduce(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    for (int stride = 32; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        SYNC
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
"#;

fn reduce(sync: bool) -> (Report, Vec<i32>) {
    let src = REDUCE.replace("SYNC", if sync { "__syncthreads();" } else { "" });
    let m = cuda(&src);
    let input: Vec<i32> = (0..128).collect();
    let mut bufs = vec![
        Buffer::from_i32("in", &input),
        Buffer::from_i32("out", &[0; 2]),
    ];
    let r = launch(
        &m,
        "reduce",
        LaunchConfig::linear(2, 64),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
    );
    (r, bufs[1].to_i32_vec())
}

#[test]
fn missing_barrier_in_shared_reduction_is_a_race() {
    let (r, _) = reduce(false);
    assert!(r.completed);
    assert!(!r.races.is_empty());
    let line = line_of(REDUCE, "s[t] += s[t + stride]");
    let race = r
        .races
        .iter()
        .find(|x| x.space == AddressSpace::Shared)
        .expect("a shared race");
    assert_eq!(race.array, "s");
    assert_eq!(race.first.span.line, line);
    assert_eq!(race.second.span.line, line);
    assert_ne!(race.first.thread, race.second.thread);
    assert_eq!(race.first.block, race.second.block);
    assert!(
        [race.first.kind, race.second.kind].contains(&AccessKind::Store),
        "one side writes: {race:#?}"
    );
    // Between warp 0 (threads < 32) and warp 1 the first step races across warps.
    assert!(r.races.iter().all(|x| x.count >= 1));
}

#[test]
fn barrier_removes_the_race_and_gives_the_sum() {
    let (r, out) = reduce(true);
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(out, vec![(0..64).sum::<i32>(), (64..128).sum::<i32>()]);
}

const DIFFUSION_TYPO: &str = r#"
__global__ void diffusion(float *in, float *out, int nx, int ny, int nz) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    for (int k = 0; k < nz; ++k) {
        int w = (i == 0) ? c : c - 1;
        int e = (i == nx-1) ? c : c + 1;
        int b = (k == 0) ? c : c - xy;
        int t = (k == nz-1) ? c : c + xy;
        TARGET[c] = 0.4f * in[c] + 0.1f * (in[w] + in[e] + in[b] + in[t]);
        c += xy;
    }
}
"#;

fn diffusion(target: &str) -> Report {
    let m = cuda(&DIFFUSION_TYPO.replace("TARGET", target));
    let n = 8 * 4 * 4;
    let mut bufs = vec![
        Buffer::from_f32("in", &(0..n).map(|x| x as f32).collect::<Vec<_>>()),
        Buffer::zeros("out", hone_ir::Type::FLOAT, n),
    ];
    let args = [
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Int(8),
        KernelArg::Int(4),
        KernelArg::Int(4),
    ];
    launch(
        &m,
        "diffusion",
        LaunchConfig::new([2, 1, 1], [4, 4, 1]),
        &args,
        &mut bufs,
    )
}

#[test]
fn in_place_update_races_between_blocks() {
    let r = diffusion("in");
    assert!(r.completed);
    let cross: Vec<&Race> = r
        .races
        .iter()
        .filter(|x| x.space == AddressSpace::Global && x.first.block != x.second.block)
        .collect();
    assert!(!cross.is_empty(), "{:#?}", r.races);
    let store_line = line_of(DIFFUSION_TYPO, "TARGET[c]");
    for x in &cross {
        assert_eq!(x.array, "in");
        assert!(x.first.span.line == store_line || x.second.span.line == store_line);
        // Only the halo column between the two blocks is shared: i = 3 and 4.
        assert!((x.offset / 4) % 8 == 3 || (x.offset / 4) % 8 == 4, "{x:#?}");
    }
    // Threads of one block also read neighbours the others overwrite.
    assert!(r.races.iter().any(|x| x.first.block == x.second.block));
}

#[test]
fn writing_a_separate_output_is_race_free() {
    let r = diffusion("out");
    assert!(r.is_clean(), "{r:#?}");
}

const SAME_VALUE: &str = r#"
__global__ void k(int *out, int mode) {
    __shared__ int flag;
    if (mode == 0) flag = 7;
    else flag = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = flag;
    out[64 + blockIdx.x] = 5;
}
"#;

fn same_value(mode: i64, tolerate: bool) -> Report {
    let m = cuda(SAME_VALUE);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 66])];
    let opts = Options {
        tolerate_same_value_races: tolerate,
        ..Options::default()
    };
    launch_with(
        &m,
        "k",
        LaunchConfig::linear(2, 64),
        &[KernelArg::Buffer(0), KernelArg::Int(mode)],
        &mut bufs,
        &opts,
        None,
    )
}

#[test]
fn same_value_writes_are_races_unless_tolerated() {
    let strict = same_value(0, false);
    assert!(strict
        .races
        .iter()
        .any(|x| x.space == AddressSpace::Shared && x.array == "flag"));
    let tolerant = same_value(0, true);
    assert!(tolerant.is_clean(), "{:#?}", tolerant.races);
    // Different values stay races even when tolerating.
    let differing = same_value(1, true);
    let race = differing
        .races
        .iter()
        .find(|x| x.array == "flag")
        .expect("flag race");
    assert_eq!(
        (race.first.kind, race.second.kind),
        (AccessKind::Store, AccessKind::Store)
    );
}

#[test]
fn lanes_of_one_store_to_one_address_race() {
    let src = r#"
__global__ void k(int *out) {
    __shared__ int s[16];
    s[threadIdx.x / 2] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x < 16) out[threadIdx.x] = s[threadIdx.x];
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0; 16])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(1, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    let race = r.races.iter().find(|x| x.array == "s").expect("race on s");
    let line = line_of(src, "s[threadIdx.x / 2]");
    assert_eq!((race.first.span.line, race.second.span.line), (line, line));
    assert_eq!(race.count, 16, "one per pair of lanes");
    let text = race.describe(&m);
    assert!(
        text.starts_with(&format!(
            "race on shared `s` at byte 0: store at test.cu:{line}:"
        )),
        "{text}"
    );
    assert!(text.ends_with("(16 times)"), "{text}");
    // Lanes apply in order: the odd lane's value wins.
    assert_eq!(
        bufs[0].to_i32_vec(),
        (0..16).map(|i| 2 * i + 1).collect::<Vec<i32>>()
    );
}

#[test]
fn never_written_shared_read_warns_once_per_site() {
    let src = r#"
__global__ void k(int *out) {
    __shared__ int s[64];
    if (threadIdx.x < 32) s[threadIdx.x] = 1;
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x];
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[9; 192])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(3, 64),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(r.warnings.len(), 1, "{:#?}", r.warnings);
    let w = &r.warnings[0];
    assert_eq!(w.span.line, line_of(src, "= s[threadIdx.x]"));
    assert_eq!(w.thread, [32, 0, 0]);
    assert!(w.message.contains("`s`"));
    // Unwritten shared memory reads as zero, deterministically.
    let out = bufs[0].to_i32_vec();
    for b in 0..3 {
        assert_eq!(out[b * 64..b * 64 + 32], [1; 32]);
        assert_eq!(out[b * 64 + 32..b * 64 + 64], [0; 32]);
    }
}

#[test]
fn atomics_do_not_race_with_each_other_but_plain_reads_do() {
    let src = r#"
__global__ void k(int *out) {
    __shared__ int count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    PEEK
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = count;
}
"#;
    for (peek, racy) in [("", false), ("out[8 + threadIdx.x] = count;", true)] {
        let m = cuda(&src.replace("PEEK", peek));
        let mut bufs = vec![Buffer::from_i32("out", &[0; 8 + 64])];
        let r = launch(
            &m,
            "k",
            LaunchConfig::linear(2, 64),
            &[KernelArg::Buffer(0)],
            &mut bufs,
        );
        assert!(r.completed);
        assert_eq!(&bufs[0].to_i32_vec()[..2], &[64, 64]);
        let shared_races: Vec<_> = r.races.iter().filter(|x| x.array == "count").collect();
        if racy {
            let x = shared_races.first().expect("read/atomic race");
            let kinds = [x.first.kind, x.second.kind];
            assert!(
                kinds.contains(&AccessKind::Atomic) && kinds.contains(&AccessKind::Load),
                "{x:#?}"
            );
        } else {
            assert!(shared_races.is_empty(), "{shared_races:#?}");
        }
    }
}

#[test]
fn syncwarp_orders_accesses_within_a_warp() {
    let src = r#"
__global__ void k(int *out) {
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x * 3;
    SYNC
    out[threadIdx.x] = s[31 - threadIdx.x];
}
"#;
    for (sync, racy) in [("__syncwarp();", false), ("", true)] {
        let m = cuda(&src.replace("SYNC", sync));
        let mut bufs = vec![Buffer::from_i32("out", &[0; 32])];
        let r = launch(
            &m,
            "k",
            LaunchConfig::linear(1, 32),
            &[KernelArg::Buffer(0)],
            &mut bufs,
        );
        assert_eq!(!r.races.is_empty(), racy, "sync `{sync}`: {:#?}", r.races);
        assert_eq!(
            bufs[0].to_i32_vec(),
            (0..32).map(|t| (31 - t) * 3).collect::<Vec<i32>>()
        );
    }
}

#[test]
fn write_write_between_blocks_names_both_blocks() {
    let src = r#"
__global__ void k(int *out) {
    if (threadIdx.x == 0) out[0] = blockIdx.x;
}
"#;
    let m = cuda(src);
    let mut bufs = vec![Buffer::from_i32("out", &[0])];
    let r = launch(
        &m,
        "k",
        LaunchConfig::linear(3, 32),
        &[KernelArg::Buffer(0)],
        &mut bufs,
    );
    assert_eq!(r.races.len(), 1, "{:#?}", r.races);
    let x = &r.races[0];
    assert_eq!(x.count, 2);
    assert_eq!((x.first.block, x.second.block), ([0, 0, 0], [1, 0, 0]));
    assert_eq!(x.space, AddressSpace::Global);
    // Blocks run in order, so the last one's value stays.
    assert_eq!(bufs[0].to_i32_vec(), vec![2]);
}

#[test]
fn race_detection_can_be_switched_off() {
    let src = REDUCE.replace("SYNC", "");
    let m = cuda(&src);
    let mut bufs = vec![
        Buffer::from_i32("in", &[1; 128]),
        Buffer::from_i32("out", &[0; 2]),
    ];
    let opts = Options {
        detect_races: false,
        ..Options::default()
    };
    let r = launch_with(
        &m,
        "reduce",
        LaunchConfig::linear(2, 64),
        &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
        &mut bufs,
        &opts,
        None,
    );
    assert!(r.completed && r.races.is_empty());
}

#[test]
fn atomics_on_never_initialized_shared_bins_warn() {
    let src = r#"
__global__ void k(const int *in, int *out) {
    __shared__ int bins[4];
    ZERO
    __syncthreads();
    atomicAdd(&bins[in[threadIdx.x] % 4], 1);
    __syncthreads();
    if (threadIdx.x < 4) out[threadIdx.x] = bins[threadIdx.x];
}
"#;
    for (zero, warns) in [
        ("", true),
        ("if (threadIdx.x < 4) bins[threadIdx.x] = 0;", false),
    ] {
        let m = cuda(&src.replace("ZERO", zero));
        let mut bufs = vec![
            Buffer::from_i32("in", &(0..64).collect::<Vec<_>>()),
            Buffer::from_i32("out", &[0; 4]),
        ];
        let r = launch(
            &m,
            "k",
            LaunchConfig::linear(1, 64),
            &[KernelArg::Buffer(0), KernelArg::Buffer(1)],
            &mut bufs,
        );
        assert!(r.is_clean(), "{r:#?}");
        assert_eq!(
            bufs[1].to_i32_vec(),
            vec![16; 4],
            "shared memory starts zeroed"
        );
        assert_eq!(r.warnings.len(), warns as usize, "{:#?}", r.warnings);
        if warns {
            assert_eq!(r.warnings[0].span.line, line_of(src, "atomicAdd"));
        }
    }
}
