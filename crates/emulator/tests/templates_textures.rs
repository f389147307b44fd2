//! Template instances, textures and cooperative groups from the front end's corpus
//! (`tests/corpus/frontend/`), run in the emulator and compared with CPU
//! references written here.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options};
mod common;

use hone_frontend::{FrontendOptions, Parsed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn parsed(file: &str, instantiate: &[&str]) -> Parsed {
    let opts = FrontendOptions {
        instantiate: instantiate.iter().map(|s| s.to_string()).collect(),
        ..FrontendOptions::default()
    };
    common::parse_corpus(&format!("frontend/{file}"), &opts)
}

/// Runs `kernel` (a function name or a template instance's name) and
/// returns the buffers.
fn run(
    p: &Parsed,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    args: &[KernelArg],
    mut buffers: Vec<Buffer>,
) -> Vec<Buffer> {
    let f = p.kernel(kernel, "corpus").expect("kernel exists");
    let cfg = LaunchConfig {
        grid,
        block,
        dynamic_shared_bytes: 0,
    };
    let report = hone_emulator::run(
        &p.module,
        &f.name,
        &cfg,
        args,
        &mut buffers,
        &Options::default(),
        None,
    )
    .expect("launch is well formed");
    assert!(report.completed, "{kernel}: did not complete");
    assert!(report.faults.is_empty(), "{kernel}: {:?}", report.faults);
    assert!(report.races.is_empty(), "{kernel}: {:?}", report.races);
    buffers
}

fn random_f32(seed: u64, n: usize) -> Vec<f32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(-4.0..4.0)).collect()
}

fn random_i32(seed: u64, n: usize) -> Vec<i32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(-50..50)).collect()
}

fn assert_close(what: &str, got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-5 * w.abs().max(1.0),
            "{what}[{i}]: emulator {g}, reference {w}"
        );
    }
}

fn block_scan_reference(input: &[i32], n: usize, block: usize) -> Vec<i32> {
    let mut out = vec![-1; input.len()];
    for b in 0..n.div_ceil(block) {
        let mut acc = 0;
        for i in b * block..((b + 1) * block).min(n) {
            acc += input[i];
            out[i] = acc;
        }
    }
    out
}

#[test]
fn host_launched_instances_match_the_reference() {
    let p = parsed("templates.cu", &[]);
    let n = 200;
    let input = random_i32(1, n);
    let out = run(
        &p,
        "block_scan<64, int>",
        [4, 1, 1],
        [64, 1, 1],
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
        ],
        vec![
            Buffer::from_i32("in", &input),
            Buffer::from_i32("out", &vec![-1; n]),
        ],
    );
    assert_eq!(out[1].to_i32_vec(), block_scan_reference(&input, n, 64));

    // Defaults (W = 3, NEGATE = false) and a device template called with
    // deduced and explicit arguments.
    let x = random_f32(2, n);
    let out = run(
        &p,
        "window<float>",
        [2, 1, 1],
        [128, 1, 1],
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
        ],
        vec![
            Buffer::from_f32("in", &x),
            Buffer::from_f32("out", &vec![0.0; n]),
        ],
    );
    let want: Vec<f32> = (0..n)
        .map(|i| {
            if i + 3 <= n {
                2.0 * (x[i] + x[i + 1] + x[i + 2])
            } else {
                0.0
            }
        })
        .collect();
    assert_close("window<float>", &out[1].to_f32_vec(), &want);

    let out = run(
        &p,
        "window<int, 5, true>",
        [2, 1, 1],
        [128, 1, 1],
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
        ],
        vec![
            Buffer::from_i32("in", &input),
            Buffer::from_i32("out", &vec![0; n]),
        ],
    );
    let want: Vec<i32> = (0..n)
        .map(|i| {
            if i + 5 <= n {
                -2 * input[i..i + 5].iter().sum::<i32>()
            } else {
                0
            }
        })
        .collect();
    assert_eq!(out[1].to_i32_vec(), want);
}

#[test]
fn requested_instances_size_shared_arrays_and_loops() {
    // Not launched by the host code: asked for as a launch file names it.
    let p = parsed("templates.cu", &["block_scan<16,int>", "window<int, 2>"]);
    assert!(p.kernel("block_scan<16, int>", "corpus").is_ok());
    let n = 100;
    let input = random_i32(3, n);
    let out = run(
        &p,
        "block_scan<16,int>",
        [7, 1, 1],
        [16, 1, 1],
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
        ],
        vec![
            Buffer::from_i32("in", &input),
            Buffer::from_i32("out", &vec![-1; n]),
        ],
    );
    assert_eq!(out[1].to_i32_vec(), block_scan_reference(&input, n, 16));
    let f = p.kernel("block_scan<16, int>", "corpus").unwrap();
    let shared = f.vars.iter().find(|v| v.name == "s").expect("shared array");
    assert_eq!(hone_ir::print::print_type(&shared.ty), "int[16]");
}

/// The texel at (x, y) with clamping, or 0 outside in border mode.
fn texel(img: &[f32], w: usize, h: usize, x: i64, y: i64, border: bool) -> f32 {
    if border && (x < 0 || y < 0 || x >= w as i64 || y >= h as i64) {
        return 0.0;
    }
    let cx = x.clamp(0, w as i64 - 1) as usize;
    let cy = y.clamp(0, h as i64 - 1) as usize;
    img[cy * w + cx]
}

/// Bilinear filtering with 8-bit weights, clamped, as the texture unit does.
fn bilinear(img: &[f32], w: usize, h: usize, u: f32, v: f32) -> f32 {
    let (xb, yb) = (u - 0.5, v - 0.5);
    let (fx, fy) = (xb.floor(), yb.floor());
    let a = ((xb - fx) * 256.0).round() / 256.0;
    let b = ((yb - fy) * 256.0).round() / 256.0;
    let (i, j) = (fx as i64, fy as i64);
    let t = |x, y| texel(img, w, h, x, y, false);
    let lerp = |p: f32, q: f32, t: f32| p + t * (q - p);
    let top = lerp(t(i, j), t(i + 1, j), a);
    let bottom = lerp(t(i, j + 1), t(i + 1, j + 1), a);
    lerp(top, bottom, b)
}

#[test]
fn texture_reads_match_the_reference() {
    let p = parsed("textures.cu", &[]);
    let (w, h) = (20usize, 12usize);
    let img = random_f32(4, w * h);
    let int = KernelArg::Int;

    let n = 50;
    let line = random_f32(5, n);
    let out = run(
        &p,
        "fetch1d",
        [1, 1, 1],
        [64, 1, 1],
        &[KernelArg::Buffer(0), int(n as i64), KernelArg::Buffer(1)],
        vec![
            Buffer::from_f32("out", &vec![0.0; n]),
            Buffer::from_f32("line", &line),
        ],
    );
    let want: Vec<f32> = line.iter().map(|v| 2.0 * v).collect();
    assert_close("fetch1d", &out[0].to_f32_vec(), &want);

    // Parameters: outputs, w, h, then the references in name order.
    let out = run(
        &p,
        "shifted",
        [3, 2, 1],
        [8, 8, 1],
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            int(w as i64),
            int(h as i64),
            KernelArg::Buffer(2),
            int(w as i64),
            int(h as i64),
            KernelArg::Buffer(3),
            int(w as i64),
            int(h as i64),
        ],
        vec![
            Buffer::from_f32("out_clamp", &vec![0.0; w * h]),
            Buffer::from_f32("out_border", &vec![0.0; w * h]),
            Buffer::from_f32("bordered", &img),
            Buffer::from_f32("clamped", &img),
        ],
    );
    let mut clamp = Vec::new();
    let mut border = Vec::new();
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            clamp.push(texel(&img, w, h, x - 2, y + 1, false));
            border.push(texel(&img, w, h, x - 2, y + 1, true));
        }
    }
    assert_close("shifted clamp", &out[0].to_f32_vec(), &clamp);
    assert_close("shifted border", &out[1].to_f32_vec(), &border);

    let bytes: Vec<u8> = (0..w * h).map(|i| (i * 37 % 256) as u8).collect();
    let (sx, sy) = (0.73f32, 1.31f32);
    let out = run(
        &p,
        "resample",
        [3, 2, 1],
        [8, 8, 1],
        &[
            KernelArg::Buffer(0),
            int(w as i64),
            int(h as i64),
            KernelArg::Float(sx as f64),
            KernelArg::Float(sy as f64),
            KernelArg::Buffer(1),
            int(w as i64),
            int(h as i64),
            KernelArg::Buffer(2),
            int(w as i64),
            int(h as i64),
        ],
        vec![
            Buffer::from_f32("out", &vec![0.0; w * h]),
            Buffer::from_u8("bytes", &bytes),
            Buffer::from_f32("smooth", &img),
        ],
    );
    let mut want = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let lin = bilinear(&img, w, h, x as f32 * sx, y as f32 * sy);
            want.push(lin + bytes[y * w + x] as f32 / 255.0);
        }
    }
    assert_close("resample", &out[0].to_f32_vec(), &want);

    let out = run(
        &p,
        "object_fetch",
        [1, 1, 1],
        [64, 1, 1],
        &[
            KernelArg::Buffer(0),
            int(n as i64),
            int(1),
            KernelArg::Buffer(1),
            int(n as i64),
        ],
        vec![
            Buffer::from_f32("t", &line),
            Buffer::from_f32("out", &vec![0.0; n]),
        ],
    );
    let want: Vec<f32> = (0..n).map(|i| line[n - 1 - i]).collect();
    assert_close("object_fetch", &out[1].to_f32_vec(), &want);
}

#[test]
fn cooperative_groups_reduce_blocks_and_warps() {
    let p = parsed("groups.cu", &[]);
    let (blocks, threads) = (3usize, 128usize);
    let n = 300;
    let x = random_f32(6, n);
    let out_len = blocks + blocks * 4;
    let out = run(
        &p,
        "reduce",
        [blocks as u32, 1, 1],
        [threads as u32, 1, 1],
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Int(n as i64),
        ],
        vec![
            Buffer::from_f32("in", &x),
            Buffer::from_f32("out", &vec![0.0; out_len]),
        ],
    );
    let v = |i: usize| if i < n { x[i] } else { 0.0 };
    let mut want = vec![0.0f32; out_len];
    for b in 0..blocks {
        want[b] = (0..threads).map(|t| v(b * threads + t)).sum();
        for w in 0..4 {
            want[blocks + b * 4 + w] = (0..32).map(|l| v(b * threads + w * 32 + l)).sum();
        }
    }
    let got = out[1].to_f32_vec();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        // Tree and shuffle orders differ from the reference's sum.
        assert!(
            (g - w).abs() <= 1e-4 * w.abs().max(1.0),
            "out[{i}]: {g} vs {w}"
        );
    }
}

#[test]
fn rgba_bytes_read_as_normalized_floats_blend_per_channel() {
    let p = parsed("texture_rgba.cu", &[]);
    let (w, h) = (13usize, 9usize);
    let bytes: Vec<u8> = (0..w * h * 4).map(|i| (i * 53 % 251) as u8).collect();
    let (sx, sy) = (0.81f32, 1.17f32);
    let int = KernelArg::Int;
    let out = run(
        &p,
        "rgba_resample",
        [2, 2, 1],
        [8, 8, 1],
        &[
            KernelArg::Buffer(0),
            int(w as i64),
            int(h as i64),
            KernelArg::Float(sx as f64),
            KernelArg::Float(sy as f64),
            KernelArg::Buffer(1),
            int(w as i64),
            int(h as i64),
        ],
        vec![
            Buffer::from_f32("out", &vec![0.0; w * h * 4]),
            Buffer::from_u8("img", &bytes),
        ],
    );
    let mut want = Vec::new();
    for y in 0..h {
        for x in 0..w {
            for c in 0..4 {
                let channel: Vec<f32> = (0..w * h)
                    .map(|i| bytes[4 * i + c] as f32 / 255.0)
                    .collect();
                want.push(bilinear(&channel, w, h, x as f32 * sx, y as f32 * sy));
            }
        }
    }
    assert_close("rgba_resample", &out[0].to_f32_vec(), &want);
}

#[test]
fn integer_and_conversion_intrinsics_match_their_definitions() {
    let p = parsed("intrinsics_more.cu", &[]);
    let n = 48usize;
    let a: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x1234_5678)
        .collect();
    let b: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(0x85eb_ca6b).rotate_left(7))
        .collect();
    let f: Vec<f32> = (0..n)
        .map(|i| (i as f32 - 20.0) * 0.75 + 0.5 * (i % 2) as f32)
        .collect();
    let out = run(
        &p,
        "more_intrinsics",
        [1, 1, 1],
        [n as u32, 1, 1],
        &[0, 1, 2, 3].map(KernelArg::Buffer),
        vec![
            Buffer::from_u32("a", &a),
            Buffer::from_u32("b", &b),
            Buffer::from_f32("f", &f),
            Buffer::from_i32("out", &vec![-1; 16 * n]),
        ],
    );
    let o = out[3].to_i32_vec();
    let odd = a.iter().filter(|&&x| x & 1 == 1).count() as i32;
    for t in 0..n {
        let (x, y) = (a[t], b[t]);
        let r = &o[16 * t..16 * t + 16];
        let bytes = |v: u32| v.to_le_bytes();
        let v = ((y as u64) << 32) | x as u64;
        let perm: u32 = (0..4)
            .map(|k| (((v >> (8 * ((0x7531u32 >> (4 * k)) & 7))) & 255) as u32) << (8 * k))
            .sum();
        let absdiff: Vec<u32> = bytes(x)
            .iter()
            .zip(bytes(y))
            .map(|(p, q)| p.abs_diff(q) as u32)
            .collect();
        let rn = f[t].round_ties_even() as i32;
        assert_eq!(
            r[0] as u32,
            (x as i32 as i64 - y as i32 as i64).unsigned_abs() as u32 + 7,
            "sad {t}"
        );
        assert_eq!(
            r[1],
            ((x as i32 as i64 + y as i32 as i64) >> 1) as i32,
            "hadd {t}"
        );
        assert_eq!(
            r[2],
            ((x as i32 as i64 + y as i32 as i64 + 1) >> 1) as i32,
            "rhadd {t}"
        );
        assert_eq!(r[3] as u32, perm, "byte_perm {t}");
        assert_eq!(
            r[4] as u32,
            ((v << (t & 31)) >> 32) as u32,
            "funnelshift_l {t}"
        );
        assert_eq!(r[5] as u32, (v >> (t & 31)) as u32, "funnelshift_r {t}");
        assert_eq!(
            r[6] as u32,
            absdiff
                .iter()
                .enumerate()
                .map(|(k, d)| d << (8 * k))
                .sum::<u32>(),
            "vabsdiffu4 {t}"
        );
        assert_eq!(r[7] as u32, absdiff.iter().sum::<u32>(), "vsadu4 {t}");
        assert_eq!(r[8], rn, "float2int_rn {t}");
        assert_eq!(
            r[9],
            f[t].floor() as i32 + f[t].ceil() as i32,
            "rd + ru {t}"
        );
        assert_eq!(r[10], odd, "syncthreads_count {t}");
        assert_eq!(r[11], 1 + 2, "syncthreads_or/and {t}");
        let warp = t / 32;
        let lanes = (warp * 32..n.min(warp * 32 + 32)).filter(|l| l % 3 == 0);
        let mask: u32 = lanes.map(|l| 1u32 << (l % 32)).sum();
        assert_eq!(
            r[12] as u32,
            if t % 3 == 0 { mask } else { 0 },
            "activemask {t}"
        );
        assert_eq!(r[13] as u32, x.wrapping_add(1), "ldcs/stcs {t}");
        assert_eq!(
            r[14] as u32,
            ((x as u64 + y as u64) >> 1) as u32,
            "uhadd {t}"
        );
        assert_eq!(r[15] as u32, f[t].max(0.0) as u32, "float2uint_rz {t}");
    }
}
