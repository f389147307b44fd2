//! Kernels in the style of the PSySha thesis: shared-memory sketches with
//! launch-time array lengths, and temporal blocking that recomputes halos.

use hone_emulator::*;
use hone_ir::{AddressSpace, Type};

use crate::{cuda, launch, launch_with, line_of};

const SHA: &str = r#"
__global__ void diffusion_sha(float *in, float *out, int nx, int ny, int nz) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    __shared__ float sb[blockDim.x * blockDim.y];
    int csb = threadIdx.x + threadIdx.y * blockDim.x;
    for (int k = 0; k < nz; ++k) {
        sb[csb] = in[c];
        __syncthreads();
        int w = (i == 0) ? c : c - 1;
        int e = (i == nx - 1) ? c : c + 1;
        float vw = (threadIdx.x != 0) ? sb[csb - 1] : in[w];
        float ve = (threadIdx.x != blockDim.x - 1 && i != nx - 1) ? sb[csb + 1] : in[e];
        out[c] = 0.5f * in[c] + 0.25f * (vw + ve);
        c += xy;
        SECOND_BARRIER
    }
}
"#;

fn host_x_stencil(input: &[f32], nx: usize) -> Vec<f32> {
    (0..input.len())
        .map(|c| {
            let i = c % nx;
            let w = if i == 0 { c } else { c - 1 };
            let e = if i == nx - 1 { c } else { c + 1 };
            0.5 * input[c] + 0.25 * (input[w] + input[e])
        })
        .collect()
}

fn sha(second_barrier: bool) -> (Report, Vec<f32>, Vec<f32>) {
    let src = SHA.replace(
        "SECOND_BARRIER",
        if second_barrier {
            "__syncthreads();"
        } else {
            ""
        },
    );
    let m = cuda(&src);
    let (nx, ny, nz) = (12usize, 6usize, 3usize);
    let input: Vec<f32> = (0..nx * ny * nz).map(|x| (x % 10) as f32).collect();
    let mut bufs = vec![
        Buffer::from_f32("in", &input),
        Buffer::zeros("out", Type::FLOAT, input.len()),
    ];
    let args = [
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        KernelArg::Int(nx as i64),
        KernelArg::Int(ny as i64),
        KernelArg::Int(nz as i64),
    ];
    // 6x3 threads per block: a row of the block spans warps at odd places.
    let r = launch(
        &m,
        "diffusion_sha",
        LaunchConfig::new([2, 2, 1], [6, 3, 1]),
        &args,
        &mut bufs,
    );
    (r, bufs[1].to_f32_vec(), host_x_stencil(&input, nx))
}

#[test]
fn shared_sketch_with_launch_time_length_matches_the_stencil() {
    let (r, got, want) = sha(true);
    assert!(r.is_clean(), "{r:#?}");
    assert_eq!(got, want);
}

#[test]
fn sketch_without_the_second_barrier_races_on_the_next_copy() {
    let (r, got, want) = sha(false);
    // Blocks of 18 threads are a single warp, so the values still come out right...
    assert_eq!(got, want);
    // ...but the copy of step k+1 overwrites what neighbours read in step k.
    let race = r
        .races
        .iter()
        .find(|x| x.array == "sb")
        .expect("race on sb");
    assert_eq!(race.space, AddressSpace::Shared);
    let lines = [race.first.span.line, race.second.span.line];
    assert!(
        lines.contains(&line_of(SHA, "sb[csb] = in[c]")),
        "{race:#?}"
    );
}

const TB: &str = r#"
__global__ void two_steps(const float *in, float *mid, float *out, int n) {
    int inner = blockDim.x - 2;
    int i = blockIdx.x * inner + threadIdx.x - 1;
    if (i >= 0 && i < n) {
        mid[i] = 0.25f * in[i > 0 ? i - 1 : i] + 0.5f * in[i] + 0.25f * in[i < n - 1 ? i + 1 : i];
    }
    __syncthreads();
    if (threadIdx.x >= 1 && threadIdx.x <= inner && i < n) {
        out[i] = 0.25f * mid[i > 0 ? i - 1 : i] + 0.5f * mid[i] + 0.25f * mid[i < n - 1 ? i + 1 : i];
    }
}
"#;

fn step(v: &[f32]) -> Vec<f32> {
    let n = v.len();
    (0..n)
        .map(|i| {
            0.25 * v[if i > 0 { i - 1 } else { i }]
                + 0.5 * v[i]
                + 0.25 * v[if i < n - 1 { i + 1 } else { i }]
        })
        .collect()
}

fn temporal_blocking(tolerate: bool) -> (Report, Vec<f32>) {
    let m = cuda(TB);
    let n = 100;
    let input: Vec<f32> = (0..n).map(|x| ((x * 37) % 11) as f32).collect();
    let mut bufs = vec![
        Buffer::from_f32("in", &input),
        Buffer::zeros("mid", Type::FLOAT, n),
        Buffer::zeros("out", Type::FLOAT, n),
    ];
    let opts = Options {
        tolerate_same_value_races: tolerate,
        ..Options::default()
    };
    // 30 interior cells per block of 32 threads.
    let r = launch_with(
        &m,
        "two_steps",
        LaunchConfig::linear(4, 32),
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
            KernelArg::Int(n as i64),
        ],
        &mut bufs,
        &opts,
        None,
    );
    assert_eq!(bufs[2].to_f32_vec(), step(&step(&input)));
    (r, input)
}

#[test]
fn redundant_halo_writes_are_races_only_without_tolerance() {
    let (strict, _) = temporal_blocking(false);
    let race = strict
        .races
        .iter()
        .find(|x| x.array == "mid")
        .expect("halo race");
    assert_eq!(
        (race.first.kind, race.second.kind),
        (AccessKind::Store, AccessKind::Store)
    );
    assert_ne!(race.first.block, race.second.block);
    let (tolerant, _) = temporal_blocking(true);
    assert!(tolerant.is_clean(), "{:#?}", tolerant.races);
}
