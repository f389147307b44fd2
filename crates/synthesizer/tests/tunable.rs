//! Synthesized kernels as tuning templates: z-chunking of a kernel's walk
//! (what it accepts and what it refuses, by construct) and the template of
//! the thesis's sleeve cases with the naive kernels of `examples/synth/`.

mod support;

use hone_ir::Module;
use hone_synthesizer::tunable::{tunable, TemplateOptions};
use hone_synthesizer::zchunk::{chunk, CHUNK_PARAM};
use hone_synthesizer::{synthesize, Options};
use support::{load_case, CASES};

fn parse(src: &str) -> Module {
    let p = hone_frontend::parse_source("k.cu", src, &Default::default()).unwrap();
    assert!(!p.has_errors(), "{:?}", p.diagnostics);
    p.module
}

fn chunk_of(src: &str) -> Result<hone_synthesizer::zchunk::Chunked, String> {
    let m = parse(src);
    let f = m.functions.iter().find(|f| f.name == "k").unwrap();
    chunk(&m, f)
}

#[test]
fn a_column_walk_with_an_induction_is_chunked() {
    let c = chunk_of(
        "__global__ void k(float *a, float *b, int nx, int nz) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            int c = i;
            for (int z = 1; z < nz - 1; ++z) {
                b[c] = a[c] + a[c + nx];
                c += nx;
            }
        }",
    )
    .unwrap();
    assert_eq!(c.inductions, vec!["c".to_string()]);
    let f = &c.kernel;
    assert_eq!(f.params.len(), 5);
    assert_eq!(f.var(*f.params.last().unwrap()).name, CHUNK_PARAM);
    // The walk's length from the parameters: nz - 2.
    let nz = f.params[3];
    assert_eq!(
        c.trip_count(&|v| (v == nz).then_some(10)),
        Some(8),
        "{:?}",
        c.end
    );
    let text = c
        .trip_text(&|v| (v == nz).then(|| "N".to_string()))
        .unwrap();
    assert!(text.contains('N'), "{text}");
}

#[test]
fn a_column_sum_stored_after_the_walk_is_added_up_by_the_chunks() {
    let c = chunk_of(
        "__global__ void k(float *a, float *s, int nz) {
            float g = 0.0f;
            for (int z = 0; z < nz; ++z) { g += a[z * 32 + threadIdx.x]; }
            s[threadIdx.x] = g;
        }",
    )
    .unwrap();
    assert_eq!(c.accumulated, vec!["s".to_string()]);
    let printed = hone_ir::print::print_module(&hone_ir::Module {
        functions: vec![c.kernel],
        ..Default::default()
    });
    assert!(
        printed.contains("atomicAdd(&s[threadIdx.x], g);"),
        "{printed}"
    );
}

#[test]
fn a_walk_inside_the_bounds_check_is_chunked_there() {
    let c = chunk_of(
        "__global__ void k(const float *a, float *b, float *s, int nx, int ny, int nz) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            int j = blockIdx.y * blockDim.y + threadIdx.y;
            if (i < nx && j < ny) {
                int c = i + j * nx;
                float g = 0.0f;
                for (int z = 0; z < nz; ++z) {
                    b[c] = 2.0f * a[c];
                    g += a[c];
                    c += nx * ny;
                }
                s[i + j * nx] = g;
            }
        }",
    )
    .unwrap();
    assert_eq!(c.inductions, vec!["c".to_string()]);
    assert_eq!(c.accumulated, vec!["s".to_string()]);
    let printed = hone_ir::print::print_module(&hone_ir::Module {
        functions: vec![c.kernel],
        ..Default::default()
    });
    // The chunk's start is computed inside the check, before the walk.
    let inside = printed.find("if (i < nx && j < ny) {").unwrap();
    let start = printed.find("int hone_z0 = ").unwrap();
    let walk = printed.find("for (int z = hone_z0;").unwrap();
    assert!(inside < start && start < walk, "{printed}");
    assert!(
        printed.contains("atomicAdd(&s[i + j * nx], g);"),
        "{printed}"
    );
}

#[test]
fn what_chunking_refuses_is_named() {
    let cases = [
        (
            // Anything but a stored sum after the walk would run per chunk.
            "__global__ void k(float *a, float *s, int nz) {
                float g = 0.0f;
                for (int z = 0; z < nz; ++z) { g += a[z * 32 + threadIdx.x]; }
                s[threadIdx.x] = g;
                s[32 + threadIdx.x] = 1.0f;
            }",
            "once per chunk",
        ),
        (
            // A sum that does not start at zero cannot be added up by chunks.
            "__global__ void k(float *a, float *s, int nz) {
                float g = 1.0f;
                for (int z = 0; z < nz; ++z) { g += a[z * 32 + threadIdx.x]; }
                s[threadIdx.x] = g;
            }",
            "`g` carries a value",
        ),
        (
            // A register queue: the value carried is not an induction.
            "__global__ void k(float *a, float *b, int nz) {
                float prev = 0.0f;
                for (int z = 0; z < nz; ++z) {
                    float cur = a[z * 32 + threadIdx.x];
                    b[z * 32 + threadIdx.x] = cur + prev;
                    prev = cur;
                }
            }",
            "`prev` carries a value",
        ),
        (
            "__global__ void k(float *a, int nz) {
                for (int z = 0; z < nz; ++z) {
                    if (a[z] < 0.0f) break;
                    a[z] = 1.0f;
                }
            }",
            "leaves the walk early",
        ),
        (
            "__global__ void k(float *a, int nz) {
                for (int z = blockIdx.z; z < nz; ++z) { a[z] = 1.0f; }
            }",
            "third launch dimension",
        ),
        (
            // In a device function the kernel calls, two calls deep.
            "__device__ int plane() { return (int)threadIdx.z; }
            __device__ int offset(int z) { return z + plane(); }
            __global__ void k(float *a, int nz) {
                for (int z = 0; z < nz; ++z) { a[offset(z)] = 1.0f; }
            }",
            "third launch dimension",
        ),
        (
            // The bound is read from memory: no launch can size the chunks.
            "__global__ void k(float *a, int *n) {
                for (int z = 0; z < n[0]; ++z) { a[z] = 1.0f; }
            }",
            "parameters alone",
        ),
        (
            "__global__ void k(float *a, int nz) {
                for (int z = 0; z < nz; z += 2) { a[z] = 1.0f; }
            }",
            "by one",
        ),
    ];
    for (src, want) in cases {
        let e = chunk_of(src).unwrap_err();
        assert!(e.contains(want), "{want:?} not in {e:?}");
        assert!(e.starts_with("k.cu:"), "no location in {e:?}");
    }
    // A `break` of an inner loop stays inside it.
    chunk_of(
        "__global__ void k(float *a, int nz) {
            for (int z = 0; z < nz; ++z) {
                for (int r = 0; r < 4; ++r) { if (r == z) break; a[z * 4 + r] = 1.0f; }
            }
        }",
    )
    .unwrap();
}

fn options(problem: &[(&str, &str)], sizes: &[i64]) -> TemplateOptions {
    TemplateOptions {
        problem: problem
            .iter()
            .map(|(a, e)| (a.to_string(), e.to_string()))
            .collect(),
        sizes: sizes.to_vec(),
        ..TemplateOptions::default()
    }
}

#[test]
fn the_diffusion_sleeve_template_races_the_naive_kernel_chunked() {
    let case = CASES.iter().find(|c| c.file == "diffusion_sleeve").unwrap();
    let (ak, profile) = load_case(case);
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    assert!(s.verified);
    let naive = hone_frontend::parse_file(
        &support::examples_dir().join("diffusion.cu"),
        &Default::default(),
    )
    .unwrap()
    .module;
    let opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[256, 512]);
    let t = tunable(
        &ak,
        &s,
        Some((&naive, "diffusion_kernel")),
        &profile,
        "diff",
        &opts,
    )
    .unwrap();
    // The naive and the synthesized kernel chunked, and the naive one as it is.
    assert_eq!(t.variants.len(), 3);
    for v in &t.variants[..2] {
        assert_eq!(v.chunked.as_deref(), Some(&["c".to_string()][..]), "{v:?}");
        // Two derived launches, four chunk lengths each.
        assert_eq!(v.checks.len(), 8, "{v:?}");
    }
    assert!(t.variants[2].chunked.is_none() && t.variants[2].checks.len() == 2);
    let spec = &t.template;
    assert_eq!(spec.kernel, "hone_tuned");
    assert_eq!(spec.params["HONE_VARIANT"], vec![0, 1, 2]);
    assert!(spec
        .constraints
        .iter()
        .any(|c| c.source() == "HONE_VARIANT != 2 || ZCHUNK == 0"));
    assert!(spec.params.contains_key("ZCHUNK") && spec.params.contains_key("BY"));
    // Only `out` is written: it is the output the reference kernel checks.
    let out = spec.buffers.iter().find(|b| b.name == "out").unwrap();
    assert_eq!(format!("{:?}", out.init), "Output");
    assert_eq!(spec.reference.outputs, vec!["out".to_string()]);
    // Variants that sum in another order keep f32 rounding near zero.
    assert_eq!((spec.tolerance, spec.rounding_ulps), (1e-5, 16.0));
    let template = hone_gpu::template::KernelTemplate::new(spec.clone(), t.source.clone()).unwrap();
    // At N = 256 with 64 x 2 blocks and 8 planes per thread: 4 x 128 x 32 blocks.
    let cfg: hone_gpu::template::Config = [
        ("BX".to_string(), 64),
        ("BY".to_string(), 2),
        ("HONE_VARIANT".to_string(), 0),
        ("ZCHUNK".to_string(), 8),
    ]
    .into();
    let r = template.resolve(&cfg, 256).unwrap();
    assert_eq!(
        (r.grid, r.block, r.shared_mem),
        ((4, 128, 32), (64, 2, 1), 0)
    );
    assert_eq!(r.buffers[0].len, 256 * 256 * 256);
    // The synthesized variant takes its tile and halo of shared memory; whole
    // columns are one chunk.
    let mut cfg1 = cfg.clone();
    cfg1.insert("HONE_VARIANT".into(), 1);
    cfg1.insert("ZCHUNK".into(), 0);
    let r = template.resolve(&cfg1, 256).unwrap();
    assert_eq!((r.grid.2, r.shared_mem), (1, 4 * 66 * 4));
    // Blocks that do not tile the size are refused at that size.
    let mut odd = cfg.clone();
    odd.insert("BX".into(), 128);
    assert!(template.resolve(&odd, 320).is_err());
    // So are grids past the launch limit of 65535 blocks along y or z: one
    // plane a thread of a 65536-plane walk, or 65536 rows of one-row blocks.
    let mut thin = cfg.clone();
    thin.insert("ZCHUNK".into(), 1);
    assert_eq!(template.resolve(&thin, 65472).unwrap().grid.2, 65472);
    let e = template.resolve(&thin, 65536).unwrap_err().to_string();
    assert!(e.contains("65535"), "{e}");
    let mut flat = cfg;
    flat.insert("BY".into(), 1);
    flat.insert("HONE_VARIANT".into(), 2);
    flat.insert("ZCHUNK".into(), 0);
    assert!(template.resolve(&flat, 65536).is_err());
    let reference = template.reference_launch(&cfg1, 256).unwrap().unwrap();
    assert_eq!(reference.kernel, "diffusion_sleeve_reference");
    assert_eq!(reference.grid, (4, 128, 1));
    // The source names every variant and the reference, with C linkage.
    for name in [
        "hone_variant_0",
        "hone_variant_1",
        "diffusion_sleeve_reference",
    ] {
        assert!(
            t.source
                .contains(&format!("extern \"C\" __global__ void {name}(")),
            "{name}"
        );
    }
    assert!(t.job.contains("strategy = { kind = \"exhaustive\" }"));
    assert!(
        !t.job.contains("% (BX"),
        "per-size constraints stay in the template"
    );
}

#[test]
fn himenos_chunks_add_their_part_of_each_columns_residual() {
    let case = CASES.iter().find(|c| c.file == "himeno_sleeve").unwrap();
    let (ak, profile) = load_case(case);
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let opts = options(&[("nx", "N+2"), ("ny", "N+2"), ("nz", "2*N+2")], &[128]);
    let t = tunable(&ak, &s, None, &profile, "him", &opts).unwrap();
    for v in &t.variants[..2] {
        assert_eq!(v.chunked.as_deref(), Some(&[][..]), "{v:?}");
        assert_eq!(v.accumulated, vec!["gosa".to_string()]);
        assert_eq!(v.checks.len(), 8);
    }
    assert!(t.variants[2].accumulated.is_empty());
    // The residual starts at zero; the reference kernel writes it whole.
    let gosa = t
        .template
        .buffers
        .iter()
        .find(|b| b.name == "gosa")
        .unwrap();
    assert_eq!(format!("{:?}", gosa.init), "Zero");
    // Named once, though both chunked variants add into it.
    assert!(
        t.template.description.ends_with(
            "with block shape and z-chunk length, checked against the kernel as written; chunked variants add column sums into gosa, which must be zero before a launch"
        ),
        "{}",
        t.template.description
    );
    assert!(t.source.contains("atomicAdd(&gosa["));
    // The interior follows the grid: nx = gridDim.x * blockDim.x + 2.
    assert_eq!(t.template.grid[0].source(), "((N+2) - 2) / (BX - 0)");
    // Problem sizes must be named.
    let e = tunable(&ak, &s, None, &profile, "him", &options(&[], &[128])).unwrap_err();
    assert!(e.to_string().contains("--problem nx=EXPR"), "{e}");
    // With a register queue, 10 of the 19 reads of `p` a step makes take
    // what the step before read (the centre and its four in-plane
    // neighbours from the plane above, the five below from this plane), the
    // chunks still adding into `gosa`.
    let mut opts = opts;
    opts.queue = true;
    let t = tunable(&ak, &s, None, &profile, "him", &opts).unwrap();
    let q = &t.variants[3];
    assert_eq!(q.accumulated, vec!["gosa".to_string()]);
    assert_eq!(q.checks.len(), 8);
    assert_eq!(q.queue.len(), 10, "{:?}", q.queue);
    assert!(q
        .queue
        .iter()
        .all(|(l, s)| l.starts_with("p[") && s.starts_with("p[")));
    assert!(q
        .queue
        .contains(&("p[q - xy]".to_string(), "p[q]".to_string())));
}

/// An example's annotated kernel and profile launch.
fn example(
    file: &str,
) -> (
    hone_synthesizer::AnnotatedKernel,
    hone_synthesizer::LaunchData,
) {
    let dir = support::examples_dir();
    let text = std::fs::read_to_string(dir.join(format!("{file}.json"))).unwrap();
    let kernel = serde_json::from_str::<serde_json::Value>(&text).unwrap()["kernel"]
        .as_str()
        .unwrap()
        .to_string();
    let ak = hone_synthesizer::load_file(
        &dir.join(format!("{file}.cu")),
        &kernel,
        &Default::default(),
    )
    .unwrap();
    let launch = support::launch(&dir.join(format!("{file}.json")), &ak);
    (ak, launch)
}

#[test]
fn the_two_new_stencils_synthesize_verify_and_make_templates() {
    for (file, naive, kernel, problem) in [
        ("star13_sleeve", "star13.cu", "star13", "N+4"),
        ("box27_sleeve", "box27.cu", "box27", "N+2"),
    ] {
        let (ak, profile) = example(file);
        let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
        assert!(s.verified, "{file}: {:#?}", s.verification.checks);
        let naive_module =
            hone_frontend::parse_file(&support::examples_dir().join(naive), &Default::default())
                .unwrap()
                .module;
        let opts = options(&[("nx", problem), ("ny", problem), ("nz", problem)], &[256]);
        let t = tunable(
            &ak,
            &s,
            Some((&naive_module, kernel)),
            &profile,
            file,
            &opts,
        )
        .unwrap();
        assert_eq!(t.variants.len(), 3, "{file}");
        assert!(
            t.variants[..2].iter().all(|v| v.chunked.is_some()),
            "{file}: {:?}",
            t.variants
        );
    }
}

#[test]
fn temporal_blocking_as_written_is_refused_where_its_intermediate_races() {
    // Diffusion's two-step kernel as written reads halo cells of `mid` that
    // other threads store, with no barrier between: no reference to check
    // the race against.
    let case = CASES.iter().find(|c| c.file == "diffusion_tb").unwrap();
    let (ak, profile) = load_case(case);
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[128]);
    let e = tunable(&ak, &s, None, &profile, "tb", &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("race on global `mid`"), "{e}");
    // Himeno's races only through the halo stores: its template races the
    // kernel as written against the synthesized one, in whole columns.
    let case = CASES.iter().find(|c| c.file == "himeno_tb").unwrap();
    let (ak, profile) = load_case(case);
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let opts = options(&[("nx", "N+2"), ("ny", "N+2"), ("nz", "2*N+2")], &[128]);
    let t = tunable(&ak, &s, None, &profile, "tb", &opts).unwrap();
    assert_eq!(t.variants.len(), 2);
    assert!(t.variants.iter().all(|v| v.chunked.is_none()));
    // The folded intermediate is not an output the reference checks.
    assert!(!t.template.reference.outputs.contains(&"mid".to_string()));
}

/// The profile launch a launch file's `text` describes for `ak`.
fn launch_of(text: &str, ak: &hone_synthesizer::AnnotatedKernel) -> hone_synthesizer::LaunchData {
    let dir = std::env::temp_dir().join(format!(
        "hone-tunable-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("launch.json"), text).unwrap();
    let profile = support::launch(&dir.join("launch.json"), ak);
    std::fs::remove_dir_all(&dir).ok();
    profile
}

/// A kernel whose threads walk their column for `planes` planes, copying
/// each cell into the block's tile and storing `value` to `out[c]`.
fn column_walk(planes: &str, value: &str) -> String {
    format!(
        "__global__ void k(const float *in, float *out, int nx, int ny, int nz) {{
        __shared__ float sb[blockDim.x * blockDim.y];
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        int j = blockIdx.y * blockDim.y + threadIdx.y;
        int t = threadIdx.x + threadIdx.y * blockDim.x;
        int c = i + j * nx;
        for (int z = 0; z < {planes}; ++z) {{
            sb[t] = in[c];
            out[c] = {value};
            c += nx * ny;
        }}
    }}"
    )
}

/// An annotated kernel `k(in, out, nx, ny, nz)` from `source`, with a
/// profile launch of 3 x 2 blocks of 4 x 5 threads over 12 x 10 x 20 cells.
fn inline_kernel(
    source: &str,
) -> (
    hone_synthesizer::AnnotatedKernel,
    hone_synthesizer::LaunchData,
) {
    let ak = hone_synthesizer::load_source("g.cu", source, "k", &Default::default()).unwrap();
    let profile = launch_of(
        r#"{"source": "g.cu", "kernel": "k", "grid": [3, 2], "block": [4, 5],
            "args": {"in": {"type": "float", "len": 2400, "init": {"random": 1}},
                     "out": {"type": "float", "len": 2400}, "nx": 12, "ny": 10, "nz": 20}}"#,
        &ak,
    );
    (ak, profile)
}

#[test]
fn a_kernel_that_checks_its_bounds_gets_a_grid_that_may_overshoot() {
    let source = "__global__ void k(const float *in, float *out, int nx, int ny, int nz) {
        __shared__ float sb[blockDim.x * blockDim.y];
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        int j = blockIdx.y * blockDim.y + threadIdx.y;
        int t = threadIdx.x + threadIdx.y * blockDim.x;
        if (i < nx && j < ny) {
            int c = i + j * nx;
            for (int z = 0; z < nz; ++z) {
                sb[t] = in[c];
                out[c] = 2.0f * __opt__in[c];
                c += nx * ny;
            }
        }
    }";
    let (ak, profile) = inline_kernel(source);
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    assert!(s.verified);
    let opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[100]);
    let t = tunable(&ak, &s, None, &profile, "g", &opts).unwrap();
    assert_eq!(t.template.grid[0].source(), "cdiv(((N) - 0), (BX - 0))");
    assert!(t
        .template
        .constraints
        .iter()
        .all(|c| !c.source().contains('%')));
    // N = 100 with 64-wide blocks: two blocks, the second one partly idle.
    let template = hone_gpu::template::KernelTemplate::new(t.template, t.source).unwrap();
    let cfg: hone_gpu::template::Config = [
        ("BX".to_string(), 64),
        ("BY".to_string(), 1),
        ("HONE_VARIANT".to_string(), 0),
        ("ZCHUNK".to_string(), 0),
    ]
    .into();
    assert_eq!(template.resolve(&cfg, 100).unwrap().grid.0, 2);
}

#[test]
fn sizes_that_follow_the_launch_by_coincidence_are_refused_by_name() {
    // nz = 11 lands within one of the 12 threads along x, beside nx = 16.
    let text = std::fs::read_to_string(support::examples_dir().join("star13_sleeve.json"))
        .unwrap()
        .replace("\"nz\": 20", "\"nz\": 11")
        .replace("4480", "2464");
    let (ak, _) = example("star13_sleeve");
    let profile = launch_of(&text, &ak);
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let opts = options(&[("nx", "N+4"), ("ny", "N+4"), ("nz", "N+4")], &[256]);
    let e = tunable(&ak, &s, None, &profile, "s", &opts)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("nx, nz all follow the profile launch along x"),
        "{e}"
    );
}

#[test]
fn a_64_bit_induction_is_advanced_in_64_bits() {
    let c = chunk_of(
        "__global__ void k(float *a, int nx, int ny, int nz) {
            long long c = threadIdx.x;
            int xy = nx * ny;
            for (int z = 0; z < nz; ++z) { a[c] = 1.0f; c += xy; }
        }",
    )
    .unwrap();
    let printed = hone_ir::print::print_module(&hone_ir::Module {
        functions: vec![c.kernel],
        ..Default::default()
    });
    assert!(
        printed.contains("(long long)(hone_z0 - 0) * xy"),
        "{printed}"
    );
}

#[test]
fn an_output_the_kernel_also_reads_is_refused() {
    let (ak, profile) = inline_kernel(&column_walk("nz", "out[c] + 2.0f * __opt__in[c]"));
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[64]);
    let e = tunable(&ak, &s, None, &profile, "g", &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("`out` is read as well as written"), "{e}");
}

#[test]
fn a_walk_too_short_to_check_chunks_on_stays_whole() {
    // Three planes: chunks of 1, 2 and 3 would not all split it, so the
    // chunked kernel's starts would go unchecked.
    let (ak, profile) = inline_kernel(&column_walk("3", "2.0f * __opt__in[c]"));
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[64]);
    let t = tunable(&ak, &s, None, &profile, "g", &opts).unwrap();
    let why = t.variants[0]
        .unchunked_because
        .as_deref()
        .unwrap_or_default();
    assert!(t.variants[0].chunked.is_none(), "{:?}", t.variants[0]);
    assert!(why.contains("walk at most 3 planes"), "{why}");
}

#[test]
fn constants_the_launch_sets_are_refused_by_name() {
    let source = column_walk("nz", "scale * __opt__in[c]");
    let source = format!("__constant__ float scale;\n{source}");
    let ak = hone_synthesizer::load_source("g.cu", &source, "k", &Default::default()).unwrap();
    let profile = launch_of(
        r#"{"source": "g.cu", "kernel": "k", "grid": [3, 2], "block": [4, 5],
            "args": {"in": {"type": "float", "len": 2400, "init": {"random": 1}},
                     "out": {"type": "float", "len": 2400}, "nx": 12, "ny": 10, "nz": 20},
            "symbols": {"scale": {"init": {"values": [2.0]}}}}"#,
        &ak,
    );
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    assert!(s.verified);
    let opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[64]);
    let e = tunable(&ak, &s, None, &profile, "g", &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("the launch sets `scale`"), "{e}");
    // Initialised in the source, it travels with the kernels' text.
    let source = source.replace("float scale;", "float scale = 2.0f;");
    let ak = hone_synthesizer::load_source("g.cu", &source, "k", &Default::default()).unwrap();
    let mut profile = profile;
    profile.symbols.clear();
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    assert!(s.verified);
    assert!(
        s.source.contains("__constant__ float scale = 2.0f;"),
        "{}",
        s.source
    );
    let t = tunable(&ak, &s, None, &profile, "g", &opts).unwrap();
    // The reference and the three variants, each in its namespace.
    assert_eq!(
        t.source.matches("__constant__ float scale = 2.0f;").count(),
        4
    );
}

#[test]
fn unroll_factors_unroll_the_chunked_walks() {
    let (ak, profile) = inline_kernel(&column_walk("nz", "2.0f * __opt__in[c]"));
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let mut opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[64]);
    opts.unroll = vec![1, 4];
    let t = tunable(&ak, &s, None, &profile, "g", &opts).unwrap();
    assert_eq!(t.template.params["UNROLL"], vec![1, 4]);
    // The two chunked walks, each right before its loop; not the kernel as
    // it is, nor the reference.
    let pragma = "    #pragma unroll UNROLL\n    for (int z = hone_z0;";
    assert_eq!(
        t.source.matches("#pragma unroll").count(),
        2,
        "{}",
        t.source
    );
    assert_eq!(t.source.matches(pragma).count(), 2, "{}", t.source);
    assert!(t
        .template
        .constraints
        .iter()
        .any(|c| c.source() == "HONE_VARIANT != 2 || UNROLL == 1"));
    assert!(
        t.job.contains("name = \"UNROLL\"\nvalues = [1, 4]"),
        "{}",
        t.job
    );
    // Without factors there is no parameter and no pragma.
    opts.unroll = vec![1];
    let t = tunable(&ak, &s, None, &profile, "g", &opts).unwrap();
    assert!(!t.template.params.contains_key("UNROLL"));
    assert!(!t.source.contains("#pragma"));
    opts.unroll = vec![0, 2];
    assert!(tunable(&ak, &s, None, &profile, "g", &opts).is_err());
}

#[test]
fn restrict_declares_the_chunked_kernels_pointers_restrict_by_a_parameter() {
    let (ak, profile) = inline_kernel(&column_walk("nz", "2.0f * __opt__in[c]"));
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let mut opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[64]);
    opts.restrict = true;
    let t = tunable(&ak, &s, None, &profile, "g", &opts).unwrap();
    assert_eq!(t.template.params["RESTRICT"], vec![0, 1]);
    assert!(t.source.contains(
        "#if RESTRICT\n#define HONE_RESTRICT __restrict__\n#else\n#define HONE_RESTRICT\n#endif\n"
    ));
    // `in` and `out` of the two chunked kernels; the kernel as it is and the
    // reference keep their declarations.
    let restricted = "(const float *HONE_RESTRICT in, float *HONE_RESTRICT out,";
    assert_eq!(t.source.matches(restricted).count(), 2, "{}", t.source);
    assert_eq!(t.source.matches("(const float *in, float *out,").count(), 2);
    assert!(t
        .template
        .constraints
        .iter()
        .any(|c| c.source() == "HONE_VARIANT != 2 || RESTRICT == 0"));
}

#[test]
fn a_register_queue_passes_the_planes_a_walk_reads_again_to_the_next_step() {
    let case = CASES.iter().find(|c| c.file == "diffusion_sleeve").unwrap();
    let (ak, profile) = load_case(case);
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let naive = hone_frontend::parse_file(
        &support::examples_dir().join("diffusion.cu"),
        &Default::default(),
    )
    .unwrap()
    .module;
    let mut opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[256]);
    opts.queue = true;
    let of = |opts: &TemplateOptions| {
        tunable(
            &ak,
            &s,
            Some((&naive, "diffusion_kernel")),
            &profile,
            "diff",
            opts,
        )
        .unwrap()
    };
    let t = of(&opts);
    // A fourth contender: the naive kernel chunked, with its queue.
    assert_eq!(t.variants.len(), 4);
    let q = &t.variants[3];
    assert_eq!(q.name, "naive, register queue");
    assert_eq!(q.chunked.as_deref(), Some(&["c".to_string()][..]));
    assert_eq!(q.checks.len(), 8, "{q:?}");
    let pairs: Vec<(&str, &str)> = q
        .queue
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(pairs, vec![("in[c]", "in[t]"), ("in[b]", "in[c]")]);
    assert_eq!(t.template.params["HONE_VARIANT"], vec![0, 1, 2, 3]);
    // Each reuse checks the index it keeps; the source keeps this step's
    // load for the next step.
    for part in [
        "hone_q0k && c == hone_q0i ? hone_q0v : in[c]",
        "(hone_n0i = t), ((hone_n0k = true), hone_n0v = in[t])",
        "hone_q1k && b == hone_q1i ? hone_q1v : in[b]",
        "        hone_q0v = hone_n0v;\n",
    ] {
        assert!(t.source.contains(part), "missing {part:?} in\n{}", t.source);
    }
    // Without the option, the race is as before.
    opts.queue = false;
    assert_eq!(of(&opts).variants.len(), 3);
}

#[test]
fn a_walk_that_reads_each_cell_once_gets_no_queue() {
    let (ak, profile) = inline_kernel(&column_walk("nz", "2.0f * __opt__in[c]"));
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let mut opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[64]);
    opts.queue = true;
    let t = tunable(&ak, &s, None, &profile, "g", &opts).unwrap();
    assert_eq!(t.variants.len(), 3, "{:?}", t.variants);
    assert!(t.variants.iter().all(|v| v.queue.is_empty()));
}

#[test]
fn a_queue_whose_chunks_cannot_be_checked_is_left_out_with_the_reason() {
    // Each step reads the plane above, which the next step reads again, but
    // three planes are too few to check chunks of up to three on.
    let source = column_walk("3", "2.0f * __opt__in[c] + in[c + nx * ny]");
    let (ak, profile) = inline_kernel(&source);
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let mut opts = options(&[("nx", "N"), ("ny", "N"), ("nz", "N")], &[64]);
    opts.queue = true;
    let t = tunable(&ak, &s, None, &profile, "g", &opts).unwrap();
    assert!(
        t.variants.iter().all(|v| v.queue.is_empty()),
        "{:?}",
        t.variants
    );
    assert_eq!(t.left_out.len(), 1, "{:?}", t.left_out);
    assert!(
        t.left_out[0].contains("register queue") && t.left_out[0].contains("walk at most 3 planes"),
        "{:?}",
        t.left_out
    );
}
