//! 3-D, layered and cubemap textures, wrapping and mirroring, and surface
//! objects from the front end's corpus, run in the emulator against values
//! worked out by hand from the texture-fetching rules.

use hone_emulator::{Buffer, KernelArg, LaunchConfig, Options, Report};
mod common;

use hone_frontend::{FrontendOptions, Parsed};

fn parsed(file: &str) -> Parsed {
    common::parse_corpus(&format!("frontend/{file}"), &FrontendOptions::default())
}

fn launch(
    p: &Parsed,
    kernel: &str,
    block: [u32; 3],
    args: &[KernelArg],
    buffers: &mut [Buffer],
) -> Report {
    let f = p.kernel(kernel, "corpus").expect("kernel exists");
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block,
        dynamic_shared_bytes: 0,
    };
    hone_emulator::run(
        &p.module,
        &f.name,
        &cfg,
        args,
        buffers,
        &Options::default(),
        None,
    )
    .expect("launch is well formed")
}

/// Runs `kernel` in one block and returns the buffers, which it must leave
/// without faults or races.
fn run(
    p: &Parsed,
    kernel: &str,
    block: [u32; 3],
    args: &[KernelArg],
    mut buffers: Vec<Buffer>,
) -> Vec<Buffer> {
    let report = launch(p, kernel, block, args, &mut buffers);
    assert!(report.completed, "{kernel}: did not complete");
    assert!(report.faults.is_empty(), "{kernel}: {:?}", report.faults);
    assert!(report.races.is_empty(), "{kernel}: {:?}", report.races);
    buffers
}

fn int(v: i64) -> KernelArg {
    KernelArg::Int(v)
}

/// Samples `texels` at `coords` (`per` floats each) with `kernel(out,
/// coords, n, t, extents...)` and checks each result.
fn sample(
    p: &Parsed,
    kernel: &str,
    texels: &[f32],
    extents: &[i64],
    per: usize,
    cases: &[(&[f32], f32)],
) {
    let coords: Vec<f32> = cases.iter().flat_map(|(c, _)| c.iter().copied()).collect();
    assert!(cases.iter().all(|(c, _)| c.len() == per));
    let n = cases.len();
    let mut args = vec![
        KernelArg::Buffer(0),
        KernelArg::Buffer(1),
        int(n as i64),
        KernelArg::Buffer(2),
    ];
    args.extend(extents.iter().map(|e| int(*e)));
    let out = run(
        p,
        kernel,
        [n as u32, 1, 1],
        &args,
        vec![
            Buffer::from_f32("out", &vec![f32::NAN; n]),
            Buffer::from_f32("coords", &coords),
            Buffer::from_f32("texels", texels),
        ],
    );
    let got = out[0].to_f32_vec();
    for ((c, want), got) in cases.iter().zip(got) {
        assert_eq!(got, *want, "{kernel} at {c:?}");
    }
}

#[test]
fn volumes_blend_eight_texels_and_wrap() {
    let p = parsed("texture_volume.cu");
    // 2 x 2 x 2 texels, texel (x, y, z) = x + 2y + 4z.
    let vol: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let cases: &[(&[f32], f32)] = &[
        // Texel centres read one texel.
        (&[0.25, 0.25, 0.25], 0.0),
        (&[0.75, 0.25, 0.25], 1.0),
        (&[0.25, 0.75, 0.75], 6.0),
        // Halfway between all eight: their mean.
        (&[0.5, 0.5, 0.5], 3.5),
        // At the origin the blend reaches back across the edge, to the
        // texels wrapped round from the far side: again the mean.
        (&[0.0, 0.0, 0.0], 3.5),
        // One period on, the same texel.
        (&[1.25, 0.25, -0.75], 0.0),
        // A quarter of the way to the next texel along x, then along y.
        (&[0.375, 0.25, 0.25], 0.25),
        (&[0.25, 0.375, 0.25], 0.5),
        // x - 0.5 = 0.6000000238 texels: the weight kept in 8 bits is
        // rint(153.6) / 256.
        (&[0.55, 0.25, 0.25], 154.0 / 256.0),
    ];
    sample(&p, "sample_volume", &vol, &[2, 2, 2], 3, cases);
}

#[test]
fn mirrored_coordinates_reflect_at_each_edge() {
    let p = parsed("texture_mirror.cu");
    // 4 x 2 texels, texel (x, y) = 10y + x.
    let img = [0.0, 1.0, 2.0, 3.0, 10.0, 11.0, 12.0, 13.0];
    let cases: &[(&[f32], f32)] = &[
        (&[0.1, 0.25], 0.0),
        // 4.4 texels: the first texel of the mirrored copy is the last one.
        (&[1.1, 0.25], 3.0),
        // Just before the start: the first texel again, then the second.
        (&[-0.1, 0.25], 0.0),
        (&[-0.3, 0.25], 1.0),
        // Two widths on, the image the right way round.
        (&[2.1, 0.25], 0.0),
        // y = 2.5 texels: row 1, mirrored back.
        (&[0.6, 1.25], 12.0),
    ];
    sample(&p, "sample_mirrored", &img, &[4, 2], 2, cases);
    // The overload that stores the texel through a pointer.
    sample(&p, "sample_mirrored_into", &img, &[4, 2], 2, cases);
}

#[test]
fn layers_are_chosen_by_index_and_clamped() {
    let p = parsed("texture_layered.cu");
    // 2 x 2 texels in 3 layers, texel (x, y, layer) = 100 layer + 10y + x.
    let texels: Vec<f32> = (0..3)
        .flat_map(|l| (0..2).flat_map(move |y| (0..2).map(move |x| (100 * l + 10 * y + x) as f32)))
        .collect();
    let cases: [([f32; 2], i32, f32); 4] = [
        ([0.5, 1.5], 2, 210.0),
        ([1.7, 0.2], 1, 101.0),
        // Coordinates and layer clamped to the last texel and layer.
        ([5.0, -3.0], 7, 201.0),
        ([0.2, 0.2], -1, 0.0),
    ];
    let uv: Vec<f32> = cases.iter().flat_map(|c| c.0).collect();
    let layers: Vec<i32> = cases.iter().map(|c| c.1).collect();
    let out = run(
        &p,
        "sample_layers2d",
        [4, 1, 1],
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
            int(4),
            KernelArg::Buffer(3),
            int(2),
            int(2),
            int(3),
        ],
        vec![
            Buffer::from_f32("out", &[f32::NAN; 4]),
            Buffer::from_f32("uv", &uv),
            Buffer::from_i32("layer", &layers),
            Buffer::from_f32("t", &texels),
        ],
    );
    let want: Vec<f32> = cases.iter().map(|c| c.2).collect();
    assert_eq!(out[0].to_f32_vec(), want);

    // 4 texels in 2 layers, texel (x, layer) = 10 layer + x.
    let rows = [0.0, 1.0, 2.0, 3.0, 10.0, 11.0, 12.0, 13.0];
    let out = run(
        &p,
        "sample_layers1d",
        [3, 1, 1],
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            KernelArg::Buffer(2),
            int(3),
            KernelArg::Buffer(3),
            int(4),
            int(1),
            int(2),
        ],
        vec![
            Buffer::from_f32("out", &[f32::NAN; 3]),
            Buffer::from_f32("x", &[2.5, -1.0, 9.0]),
            Buffer::from_i32("layer", &[1, 0, 1]),
            Buffer::from_f32("t", &rows),
        ],
    );
    assert_eq!(out[0].to_f32_vec(), [12.0, 0.0, 13.0]);
}

#[test]
fn cubemap_directions_select_faces_by_their_major_axis() {
    let p = parsed("texture_cubemap.cu");
    // Faces of 2 x 2 texels, texel (x, y) of face f = 10f + 2y + x; a
    // second layer of six faces follows the first.
    let faces: Vec<f32> = (0..12)
        .flat_map(|f| (0..4).map(move |i| (10 * f + i) as f32))
        .collect();
    let cases: &[(&[f32], f32)] = &[
        // +x: s = -z, t = -y.
        (&[1.0, 0.0, 0.0], 3.0),
        (&[1.0, 0.5, 0.5], 0.0),
        // -x: s = z, t = -y.
        (&[-1.0, 0.5, 0.5], 11.0),
        // +y: s = x, t = z.
        (&[0.2, 1.0, -0.5], 21.0),
        // -y: s = x, t = -z.
        (&[0.2, -1.0, -0.5], 33.0),
        // +z: s = x, t = -y, divided by the major component 2.
        (&[-0.5, 0.3, 2.0], 40.0),
        // -z: s = -x, t = -y.
        (&[-0.5, -0.3, -2.0], 53.0),
    ];
    sample(&p, "sample_cube", &faces, &[2, 2], 3, cases);

    let dirs = [1.0f32, 0.5, 0.5, -0.5, -0.3, -2.0];
    let out = run(
        &p,
        "sample_cube_layers",
        [2, 1, 1],
        &[
            KernelArg::Buffer(0),
            KernelArg::Buffer(1),
            int(1),
            int(2),
            KernelArg::Buffer(2),
            int(2),
            int(2),
            int(2),
        ],
        vec![
            Buffer::from_f32("out", &[f32::NAN; 2]),
            Buffer::from_f32("dir", &dirs),
            Buffer::from_f32("t", &faces),
        ],
    );
    assert_eq!(out[0].to_f32_vec(), [60.0, 113.0]);
}

#[test]
fn surfaces_take_byte_coordinates_and_honour_boundary_modes() {
    let p = parsed("surfaces.cu");
    // 4 x 2 floats, (x, y) = 10y + x.
    let src = [0.0, 1.0, 2.0, 3.0, 10.0, 11.0, 12.0, 13.0];
    let shift = |dx: i64, mode: i64| {
        let out = run(
            &p,
            "shift_rows",
            [4, 2, 1],
            &[
                KernelArg::Buffer(0),
                int(4),
                int(2),
                KernelArg::Buffer(1),
                int(4),
                int(2),
                int(4),
                int(2),
                int(dx),
                int(mode),
            ],
            vec![
                Buffer::from_f32("dst", &[f32::NAN; 8]),
                Buffer::from_f32("src", &src),
            ],
        );
        out[0].to_f32_vec()
    };
    // Zero: reads past the end give 0.
    assert_eq!(shift(1, 0), [1.0, 2.0, 3.0, 0.0, 11.0, 12.0, 13.0, 0.0]);
    // Clamp: reads before the start give the first element.
    assert_eq!(shift(-2, 1), [0.0, 0.0, 0.0, 1.0, 10.0, 10.0, 10.0, 11.0]);

    let scatter = |kernel: &str, dx: i64| {
        let out = run(
            &p,
            kernel,
            [4, 1, 1],
            &[KernelArg::Buffer(0), int(4), int(1), int(4), int(dx)],
            vec![Buffer::from_f32("dst", &[0.0; 4])],
        );
        out[0].to_f32_vec()
    };
    // Zero: writes out of range are dropped.
    assert_eq!(scatter("scatter_zero", 2), [0.0, 0.0, 1.0, 2.0]);
    // Clamp: they land on the nearest element.
    assert_eq!(scatter("scatter_clamp", -3), [-2.0, 0.0, 0.0, 0.0]);
    assert_eq!(scatter("scatter_clamp", 10), [0.0, 0.0, 0.0, 11.0]);

    let out = run(
        &p,
        "volume_index",
        [2, 2, 2],
        &[
            KernelArg::Buffer(0),
            int(2),
            int(2),
            int(2),
            int(2),
            int(2),
            int(2),
        ],
        vec![Buffer::from_f32("vol", &[f32::NAN; 8])],
    );
    assert_eq!(
        out[0].to_f32_vec(),
        [0.0, 1.0, 10.0, 11.0, 100.0, 101.0, 110.0, 111.0]
    );

    // Trap, the default: an access past the end faults.
    let mut buffers = vec![Buffer::from_f32("dst", &[0.0; 4])];
    let report = launch(
        &p,
        "out_of_range",
        [1, 1, 1],
        &[KernelArg::Buffer(0), int(4), int(1), int(4)],
        &mut buffers,
    );
    assert!(!report.faults.is_empty(), "out_of_range: no fault");
    assert_eq!(buffers[0].to_f32_vec(), [0.0; 4]);
}
