//! Kernels whose block size (and, for one, problem size) is fixed at compile
//! time (`tests/corpus/synth/fixed_block.cu`) synthesize and verify with no
//! launch but the profile: derived launches keep what the kernel fixes and
//! vary the rest, and the emitted kernel agrees with the annotated one on a
//! launch neither the profile nor the verification used.

use hone_emulator::{Buffer, KernelArg, LaunchConfig};
use hone_ir::Type;
use hone_synthesizer::{fill_random, load_file, synthesize, LaunchData, Options, Synthesis};

fn ints(name: &str, n: usize) -> Buffer {
    Buffer::zeros(name, Type::INT, n)
}

/// A launch of `kernel`: `buffers` of `n` ints each, then the integer `sizes`.
fn launch(grid: [u32; 3], block: [u32; 3], buffers: &[&str], n: i64, sizes: &[i64]) -> LaunchData {
    let buffers: Vec<Buffer> = buffers.iter().map(|b| ints(b, n as usize)).collect();
    let mut args: Vec<KernelArg> = (0..buffers.len()).map(KernelArg::Buffer).collect();
    args.extend(sizes.iter().map(|&s| KernelArg::Int(s)));
    LaunchData {
        name: format!("profile {sizes:?}"),
        config: LaunchConfig::new(grid, block),
        args,
        buffers,
        symbols: Vec::new(),
    }
}

fn synth(kernel: &str, profile: LaunchData) -> Synthesis {
    let path = hone_testkit::corpus("synth/fixed_block.cu");
    let ak = load_file(&path, kernel, &Default::default()).unwrap();
    let s = synthesize(&ak, &[profile], &Options::default()).unwrap();
    assert!(s.verified, "{kernel}: {:#?}", s.verification.checks);
    assert!(
        s.verification.checks.len() >= 2,
        "{kernel}: {:#?}",
        s.verification.checks
    );
    s
}

fn rules(s: &Synthesis) -> String {
    s.verification.rules.join("\n")
}

/// The emitted and the annotated kernel on `l` with random data: the last
/// buffer (the output) must be the same.
fn agrees_with_the_annotated_kernel(s: &Synthesis, l: &LaunchData) {
    let emitted = hone_frontend::parse_source("out.cu", &s.source, &Default::default())
        .unwrap()
        .module;
    // The annotated kernel with its annotations as plain reads.
    let path = hone_testkit::corpus("synth/fixed_block.cu");
    let ak = load_file(&path, &s.kernel, &Default::default()).unwrap();
    let mut original = ak.module.clone();
    let (id, _) = original.kernel(&s.kernel).unwrap();
    original.functions[id.0 as usize] = ak.kernel.clone();
    let mut mine = l.buffers.clone();
    fill_random(&mut mine, 11);
    let mut theirs = mine.clone();
    let mut cfg = l.config.clone();
    cfg.dynamic_shared_bytes = s.shared_bytes(&cfg, &l.args).unwrap();
    // Races are the synthesizer's verification's business (temporal
    // blocking has same-value ones by design); here only the values count.
    let runs = [
        (&emitted, &cfg, &mut mine),
        (&original, &l.config, &mut theirs),
    ];
    for (module, cfg, buffers) in runs {
        let opts = hone_emulator::Options::default();
        let r = hone_emulator::run(module, &s.kernel, cfg, &l.args, buffers, &opts, None).unwrap();
        assert!(
            r.completed && r.faults.is_empty(),
            "{}: {:?}",
            s.kernel,
            r.faults
        );
    }
    assert_eq!(
        mine.last().unwrap().data,
        theirs.last().unwrap().data,
        "{}",
        s.kernel
    );
}

#[test]
fn sha_with_a_fixed_block_verifies_on_other_grids() {
    let s = synth(
        "sha_fixed",
        launch([3, 2, 1], [8, 4, 1], &["in", "out"], 24 * 8, &[24, 8]),
    );
    assert!(rules(&s).contains("block 8x4x1 kept"), "{}", rules(&s));
    for c in &s.verification.checks {
        assert!(c.launch.contains("block [8, 4, 1]"), "{}", c.launch);
    }
    // The derived grids caught an answer right only for the profile's grid:
    // the synthesis ran again with another grid profiled.
    assert!(
        s.notes
            .iter()
            .any(|n| n.contains("held only for the profile's sizes")),
        "{:#?}",
        s.notes
    );
    let other = launch([5, 4, 1], [8, 4, 1], &["in", "out"], 40 * 16, &[40, 16]);
    agrees_with_the_annotated_kernel(&s, &other);
}

#[test]
fn sleeve_with_a_fixed_block_verifies() {
    let s = synth(
        "sleeve_fixed",
        launch([3, 2, 1], [8, 4, 1], &["in", "out"], 24 * 8, &[24, 8]),
    );
    assert!(rules(&s).contains("block 8x4x1 kept"), "{}", rules(&s));
    let other = launch([2, 5, 1], [8, 4, 1], &["in", "out"], 16 * 20, &[16, 20]);
    agrees_with_the_annotated_kernel(&s, &other);
}

#[test]
fn temporal_blocking_with_a_fixed_block_verifies() {
    let s = synth(
        "tb_fixed",
        launch(
            [3, 2, 1],
            [8, 6, 1],
            &["in", "mid", "out"],
            18 * 8,
            &[18, 8],
        ),
    );
    assert!(rules(&s).contains("block 8x6x1 kept"), "{}", rules(&s));
    let other = launch(
        [4, 3, 1],
        [8, 6, 1],
        &["in", "mid", "out"],
        24 * 12,
        &[24, 12],
    );
    agrees_with_the_annotated_kernel(&s, &other);
}

#[test]
fn a_3d_stencil_with_a_fixed_block_verifies() {
    let s = synth(
        "sha3d_fixed",
        launch(
            [3, 2, 3],
            [4, 4, 2],
            &["in", "out"],
            12 * 8 * 6,
            &[12, 8, 6],
        ),
    );
    assert!(rules(&s).contains("block 4x4x2 kept"), "{}", rules(&s));
    let other = launch(
        [3, 2, 2],
        [4, 4, 2],
        &["in", "out"],
        12 * 8 * 4,
        &[12, 8, 4],
    );
    agrees_with_the_annotated_kernel(&s, &other);
}

#[test]
fn a_kernel_with_fixed_sizes_is_verified_on_other_data_only() {
    let s = synth(
        "sha_fixed_rows",
        launch([4, 2, 1], [8, 4, 1], &["in", "out"], 32 * 8, &[32, 8]),
    );
    assert!(rules(&s).contains("launch and sizes kept"), "{}", rules(&s));
    for c in &s.verification.checks {
        assert!(
            c.launch.contains("grid [4, 2, 1] block [8, 4, 1]"),
            "{}",
            c.launch
        );
    }
}

#[test]
fn a_template_keeps_the_block_the_kernel_fixes() {
    let path = hone_testkit::corpus("synth/fixed_block.cu");
    let ak = load_file(&path, "sleeve_fixed", &Default::default()).unwrap();
    let profile = launch([3, 2, 1], [8, 4, 1], &["in", "out"], 24 * 8, &[24, 8]);
    let s = synthesize(&ak, std::slice::from_ref(&profile), &Options::default()).unwrap();
    let opts = hone_synthesizer::tunable::TemplateOptions {
        problem: [("nx", "N"), ("ny", "N")]
            .iter()
            .map(|(a, e)| (a.to_string(), e.to_string()))
            .collect(),
        sizes: vec![64],
        ..Default::default()
    };
    let t = hone_synthesizer::tunable::tunable(&ak, &s, None, &profile, "fixed", &opts).unwrap();
    // The block is the kernel's 8 x 4, not a parameter to tune.
    assert_eq!(t.template.params["BX"], vec![8]);
    assert_eq!(t.template.params["BY"], vec![4]);
    assert!(!t
        .template
        .constraints
        .iter()
        .any(|c| c.source().contains("1024")));
    // No walk to chunk: the kernel as written and the synthesized one race.
    assert_eq!(t.variants.len(), 2);
    let why = t.variants[0].unchunked_because.as_deref().unwrap();
    assert!(why.contains("no `for` loop"), "{why}");
}
