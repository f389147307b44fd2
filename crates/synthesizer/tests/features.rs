//! The thesis's 2-D stencil examples synthesized and compared with the
//! hand-written kernels of the seed file (sources 2.2, 4.4, 4.7 with their
//! typos fixed), and the features the synthesis promises: the then/else/cond
//! split, multiple answers, the missing-barrier repair, verification catching
//! a profile-only answer, and clear messages for wrong annotations.

mod support;

use hone_emulator::{Buffer, KernelArg, LaunchConfig};
use hone_ir::{Module, Type};
use hone_synthesizer::{
    fill_random, load_source, synthesize, LaunchData, Options, SynthError, Synthesis,
};

fn seeds() -> Module {
    let path = hone_testkit::corpus("seed/psysha.cu");
    let p = hone_frontend::parse_file(&path, &Default::default()).unwrap();
    p.module
}

/// The corpus's annotated SHA stencil (`tests/corpus/synth/stencil_sha.cu`).
fn sha() -> String {
    std::fs::read_to_string(hone_testkit::corpus("synth/stencil_sha.cu")).unwrap()
}

const SLEEVE: &str = r#"
__global__ void stencil_kernel(int *in, int *out, int nx, int ny){
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
    int c = i + nx * j;
    __shared__ float sb[(blockDim.x + 2) * (blockDim.y + 2)];
    int csb = (blockDim.x + 2) * (threadIdx.y + 1) + threadIdx.x + 1;
    sb[csb] = in[c];
    __insert();
    __syncthreads();
    out[c] = __opt__(sb[csb - 1], in[(i == 0) ? c : c - 1])
        + __opt__(sb[csb + 1], in[(i == nx - 1) ? c : c + 1])
        + __opt__(sb[csb - blockDim.x - 2], in[(j == 0) ? c : c - nx])
        + __opt__(sb[csb + blockDim.x + 2], in[(j == ny - 1) ? c : c + nx])
        + sb[csb];
}
"#;

/// Source 4.8 with the shared array, the copy and the annotations of the
/// thesis's temporal-blocking use; `csb2` is source 4.7's helper.
const TB: &str = r#"
__global__ void stencil_tb(int *in, int *mid, int *out, int nx, int ny){
    int i, j, i2, j2, c, c2, csb, csb2;
    i = blockIdx.x * (blockDim.x - 2) + threadIdx.x - 1;
    i = max(0, i);
    i = min(i, nx - 1);
    j = blockIdx.y * (blockDim.y - 2) + threadIdx.y - 1;
    j = max(0, j);
    j = min(j, ny - 1);
    c = nx * j + i;
    __shared__ float sb[blockDim.x * blockDim.y];
    csb = blockDim.x * threadIdx.y + threadIdx.x;
    mid[c] = in[(i == 0) ? c : c - 1]
           + in[(i == nx - 1) ? c : c + 1]
           + in[(j == 0) ? c : c - nx]
           + in[(j == ny - 1) ? c : c + nx]
           + in[c];
    sb[csb] = mid[c];
    __syncthreads();
    i2 = blockIdx.x * (blockDim.x-2) + min(threadIdx.x, blockDim.x-3);
    i2 = min(i2, nx - 1);
    j2 = blockIdx.y * (blockDim.y-2) + min(threadIdx.y, blockDim.y-3);
    j2 = min(j2, ny - 1);
    c2 = nx * j2 + i2;
    csb2 = blockDim.x * (j2 % (blockDim.y - 2) + 1) + i2 % (blockDim.x - 2) + 1;
    out[c2] = __opt__mid[(i2 == 0) ? c2 : c2 - 1]
            + __opt__mid[(i2 == nx - 1) ? c2 : c2 + 1]
            + __opt__mid[(j2 == 0) ? c2 : c2 - nx]
            + __opt__mid[(j2 == ny - 1) ? c2 : c2 + nx]
            + __opt__mid[c2];}
"#;

fn ints(name: &str, n: usize) -> Buffer {
    Buffer::zeros(name, Type::INT, n)
}

/// A profile launch of the 2-D stencils: `in`, [`mid`], `out`, nx, ny.
fn launch(grid: [u32; 3], block: [u32; 3], nx: i64, ny: i64, with_mid: bool) -> LaunchData {
    let n = (nx * ny) as usize;
    let mut buffers = vec![ints("in", n)];
    if with_mid {
        buffers.push(ints("mid", n));
    }
    buffers.push(ints("out", n));
    let mut args: Vec<KernelArg> = (0..buffers.len()).map(KernelArg::Buffer).collect();
    args.extend([KernelArg::Int(nx), KernelArg::Int(ny)]);
    LaunchData {
        name: format!("profile {nx}x{ny}"),
        config: LaunchConfig::new(grid, block),
        args,
        buffers,
        symbols: Vec::new(),
    }
}

fn synth(
    src: &str,
    kernel: &str,
    profile: LaunchData,
    opts: &Options,
) -> Result<Synthesis, SynthError> {
    let ak = load_source("stencil.cu", src, kernel, &Default::default())?;
    synthesize(&ak, &[profile], opts)
}

/// Runs the emitted kernel and a hand-written seed kernel on one launch of
/// random data and compares `out`.
fn same_as_seed(
    s: &Synthesis,
    seed_kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    nx: i64,
    ny: i64,
    with_mid: bool,
) {
    let emitted = hone_frontend::parse_source("out.cu", &s.source, &Default::default())
        .unwrap()
        .module;
    let l = launch(grid, block, nx, ny, with_mid);
    let mut mine = l.buffers.clone();
    fill_random(&mut mine, 3);
    let mut theirs: Vec<Buffer> = mine.iter().filter(|b| b.name != "mid").cloned().collect();
    let mut cfg = l.config.clone();
    cfg.dynamic_shared_bytes = s.shared_bytes(&cfg, &l.args).unwrap();
    support::run(&emitted, &s.kernel, &cfg, &l.args, &mut mine, with_mid);
    let seed_args: Vec<KernelArg> = (0..theirs.len())
        .map(KernelArg::Buffer)
        .chain([KernelArg::Int(nx), KernelArg::Int(ny)])
        .collect();
    support::run(
        &seeds(),
        seed_kernel,
        &l.config,
        &seed_args,
        &mut theirs,
        with_mid,
    );
    assert_eq!(
        mine.last().unwrap().data,
        theirs.last().unwrap().data,
        "differs from {seed_kernel}"
    );
}

fn site<'a>(s: &'a Synthesis, original: &str) -> &'a hone_synthesizer::SiteReport {
    s.sites
        .iter()
        .find(|x| x.original == original)
        .unwrap_or_else(|| panic!("no site {original}: {:#?}", s.sites))
}

#[test]
fn sha_gives_the_thesis_conditions_and_matches_source_2_2() {
    let s = synth(
        &sha(),
        "stencil_kernel",
        launch([3, 2, 1], [3, 4, 1], 9, 8, false),
        &Options::default(),
    )
    .unwrap();
    assert!(s.verified, "{:#?}", s.verification.checks);
    // Source 4.3's conditions; the west index needs the then/else/cond split.
    let west = site(&s, "in[i == 0 ? c : c - 1]");
    assert!(
        west.synthesized
            .starts_with("threadIdx.x != 0 || i == 0 ? "),
        "{}",
        west.synthesized
    );
    assert!(
        west.split && west.synthesized.contains("? csb - 1 : csb]"),
        "{}",
        west.synthesized
    );
    let east = site(&s, "in[i == nx - 1 ? c : c + 1]");
    assert!(
        east.synthesized.contains("threadIdx.x != blockDim.x - 1"),
        "{}",
        east.synthesized
    );
    assert_eq!(site(&s, "in[c]").synthesized, "(int)sb[csb]");
    assert!(
        s.source
            .contains("/* hone: synthesized for in[i == 0 ? c : c - 1] at stencil.cu:11:"),
        "{}",
        s.source
    );
    same_as_seed(&s, "stencil_shared", [2, 3, 1], [6, 5, 1], 12, 15, false);
}

#[test]
fn sleeve_copies_match_source_4_4() {
    let s = synth(
        SLEEVE,
        "stencil_kernel",
        launch([3, 2, 1], [3, 4, 1], 9, 8, false),
        &Options::default(),
    )
    .unwrap();
    assert!(s.verified, "{:#?}", s.verification.checks);
    let conds: Vec<&str> = s.sites.iter().map(|x| x.synthesized.as_str()).collect();
    assert_eq!(
        conds,
        [
            "if (threadIdx.x == 0) { sb[csb - 1] = in[i == 0 ? c : c - 1]; }",
            "if (threadIdx.x == blockDim.x - 1) { sb[csb + 1] = in[i == nx - 1 ? c : c + 1]; }",
            "if (threadIdx.y == 0) { sb[csb - blockDim.x - 2] = in[j == 0 ? c : c - nx]; }",
            "if (threadIdx.y == blockDim.y - 1) { sb[csb + blockDim.x + 2] = in[j == ny - 1 ? c : c + nx]; }",
        ]
    );
    same_as_seed(&s, "stencil_sleeve", [2, 3, 1], [6, 5, 1], 12, 15, false);
}

#[test]
fn temporal_blocking_uses_multiple_answers_and_matches_source_4_7() {
    // Blocks of 5x4 overlap by two: 3x4 of them cover 9x8.
    let s = synth(
        TB,
        "stencil_tb",
        launch([3, 4, 1], [5, 4, 1], 9, 8, true),
        &Options::default(),
    )
    .unwrap();
    assert!(s.verified, "{:#?}", s.verification.checks);
    assert_eq!(s.folded, ["mid"], "{:#?}", s.sites);
    // At i2 == 0 the clamped halo holds mid[c2] at csb2 - 1 as well as at
    // csb2: with all answers kept, one index fits every thread.
    let west = site(&s, "mid[i2 == 0 ? c2 : c2 - 1]");
    assert_eq!(west.synthesized, "(int)sb[csb2 - 1]");
    assert!(west.multiple > 0 && !west.split);
    same_as_seed(&s, "stencil_tb_shared", [3, 4, 1], [5, 4, 1], 9, 8, true);
}

#[test]
fn a_missing_barrier_is_found_and_inserted() {
    let src = sha().replace("    __syncthreads();\n", "");
    let s = synth(
        &src,
        "stencil_kernel",
        launch([3, 2, 1], [3, 4, 1], 9, 8, false),
        &Options::default(),
    )
    .unwrap();
    assert!(s.verified, "{:#?}", s.verification.checks);
    assert_eq!(s.barriers.len(), 1, "{:?}", s.barriers);
    assert!(
        s.barriers[0].contains("write at stencil.cu:9:5"),
        "{}",
        s.barriers[0]
    );
    let copy = s.source.find("sb[csb] = in[c];").unwrap();
    let barrier = s.source.find("__syncthreads();").unwrap();
    assert!(barrier > copy, "{}", s.source);
}

#[test]
fn verification_catches_an_answer_right_only_for_an_equal_dimension_profile() {
    // The thesis's table 4.1 profile: 8x8 data, 4x4 blocks, 2x2 grid.
    let square = || launch([2, 2, 1], [4, 4, 1], 8, 8, false);
    let strict = Options {
        refine: false,
        ..Options::default()
    };
    let s = synth(&sha(), "stencil_kernel", square(), &strict).unwrap();
    assert!(!s.verified);
    assert!(s.source.contains("VERIFICATION FAILED"));
    let failed: Vec<&str> = s
        .verification
        .checks
        .iter()
        .filter_map(|c| c.problem.as_deref())
        .collect();
    assert!(
        failed
            .iter()
            .any(|p| p.contains("differs") || p.contains("faults")),
        "{failed:?}"
    );
    // Profiling again with a launch of other sizes repairs it.
    let s = synth(&sha(), "stencil_kernel", square(), &Options::default()).unwrap();
    assert!(s.verified, "{:#?}", s.verification.checks);
    assert!(
        s.notes
            .iter()
            .any(|n| n.contains("held only for the profile's sizes")),
        "{:?}",
        s.notes
    );
}

fn error(src: &str, kernel: &str) -> String {
    match synth(
        src,
        kernel,
        launch([3, 2, 1], [3, 4, 1], 9, 8, false),
        &Options::default(),
    ) {
        Err(e) => e.to_string(),
        Ok(s) => panic!("expected an error, got\n{}", s.source),
    }
}

#[test]
fn a_read_never_in_shared_memory_is_reported_at_its_place() {
    let src = sha().replace("__opt__in[c];}", "__opt__out[c];}");
    let e = error(&src, "stencil_kernel");
    assert!(
        e.starts_with("stencil.cu:15:22:")
            && e.contains("`out[c]` reads is never in shared memory"),
        "{e}"
    );
}

#[test]
fn a_copy_out_of_bounds_is_reported() {
    // No room for the halo: the west copy of thread (0, 0) would write sb[-1].
    let src = SLEEVE
        .replace(
            "sb[(blockDim.x + 2) * (blockDim.y + 2)]",
            "sb[blockDim.x * blockDim.y]",
        )
        .replace(
            "(blockDim.x + 2) * (threadIdx.y + 1) + threadIdx.x + 1",
            "blockDim.x * threadIdx.y + threadIdx.x",
        );
    let e = error(&src, "stencil_kernel");
    assert!(
        e.contains("out of bounds") && e.contains("sb[csb - 1]") && e.starts_with("stencil.cu:11:"),
        "{e}"
    );
    // The user's own copy out of bounds.
    let src = sha().replace("sb[blockDim.x * blockDim.y]", "sb[blockDim.x]");
    let e = error(&src, "stencil_kernel");
    assert!(
        e.contains("stencil.cu:9:5")
            && e.contains("outside `sb`")
            && e.contains("copy into shared memory"),
        "{e}"
    );
}

#[test]
fn misplaced_annotations_are_reported() {
    let e = error(
        &sha().replace("__opt__in[c];}", "__opt__sb[csb];}"),
        "stencil_kernel",
    );
    assert!(e.contains("marks a read of shared memory"), "{e}");
    let e = error(&SLEEVE.replace("    __insert();\n", ""), "stencil_kernel");
    assert!(e.contains("needs an `__insert();`"), "{e}");
    let e = error(
        &sha().replace("out[c] = __opt__in[", "__opt__out[c] = in["),
        "stencil_kernel",
    );
    assert!(e.contains("marks a write"), "{e}");
    let e = error(&sha().replace("__opt__", ""), "stencil_kernel");
    assert!(e.contains("has no `__opt__` annotation"), "{e}");
}

#[test]
fn chosen_variables_limit_the_search() {
    let vars = Options {
        vars: Some(
            [
                "threadIdx.x",
                "threadIdx.y",
                "blockDim.x",
                "blockDim.y",
                "csb",
                "i",
                "j",
                "nx",
                "ny",
            ]
            .map(String::from)
            .to_vec(),
        ),
        ..Options::default()
    };
    let s = synth(
        &sha(),
        "stencil_kernel",
        launch([3, 2, 1], [3, 4, 1], 9, 8, false),
        &vars,
    )
    .unwrap();
    assert!(s.verified);
    assert!(s.sites.iter().all(|x| x.symbols.len() == 9));
    let bad = Options {
        vars: Some(vec!["nosuch".into()]),
        ..Options::default()
    };
    let e = synth(
        &sha(),
        "stencil_kernel",
        launch([3, 2, 1], [3, 4, 1], 9, 8, false),
        &bad,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("no integer variable `nosuch`") && e.contains("csb"),
        "{e}"
    );
}
