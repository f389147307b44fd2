//! The tensor-core GEMM templates (DGEMM, 3xTF32) and the FP32 FMA one
//! (SGEMM) compile with NVRTC for sm_90 with every kernel their bundled rules
//! pick, in the rules' layouts, also with K split in 64 slices, and DGEMM's main loop for blocks inside C issues few instructions besides
//! its tensor instructions: cuBLAS's DGEMM executes 6.4 per DMMA on an H100
//! (bench/results/gemm/h100/pipeline/), hone's did 19 before its copies
//! stopped recomputing and checking every address. No GPU needed; without
//! NVRTC or nvdisasm the test says so and passes, unless `HONE_REQUIRE_NVRTC`
//! / `HONE_REQUIRE_NVDISASM` is set.

use std::collections::BTreeMap;

use hone_gpu::nvrtc::{self, ImageKind};
use hone_gpu::sass::{disassemble, find_nvdisasm, loops};
use hone_gpu::{CompileOptions, Target};
use hone_kernels::gemm::library::H200;
use hone_kernels::gemm::template::{template, GemmKernel};
use hone_kernels::gemm::{Flavor, GemmProblem, GemmRules, Layout};

mod support;

fn cubin(kernel: &GemmKernel, extra: &[(&str, i64)]) -> Vec<u8> {
    let t = template(kernel.flavor);
    let mut defines = t.defines(kernel);
    defines.extend(extra.iter().map(|(k, v)| (k.to_string(), *v)));
    let device = Target {
        arch: 90,
        kind: ImageKind::Cubin,
        arch_specific: false,
    };
    let target = t.target(kernel, &device).unwrap_or_else(|e| panic!("{e}"));
    nvrtc::compile(
        &t.source(),
        t.file,
        &CompileOptions::with_defines(defines),
        &target,
    )
    .unwrap_or_else(|e| panic!("{} {}: {e}", kernel.label(), kernel.layout))
    .image
}

#[test]
fn every_kernel_the_rules_pick_compiles_also_split() {
    if !support::nvrtc_or_skip() {
        return;
    }
    let mut kernels = BTreeMap::new();
    // the fallback rules and those of the models with rules of their own
    for rules in [GemmRules::bundled(), GemmRules::bundled_for(H200)] {
        for variant in Flavor::all_variants() {
            let (flavor, layout) = Flavor::parse_variant(&variant).unwrap();
            if !matches!(flavor, Flavor::Dgemm | Flavor::Sgemm3xTf32 | Flavor::Sgemm) {
                continue;
            }
            let Ok(selections) = rules.set().selections(&variant) else {
                continue;
            };
            for s in selections {
                let n = (s.start as usize).max(64);
                let k = rules
                    .kernel(&GemmProblem::packed(flavor, layout, n, n, n))
                    .unwrap();
                kernels.insert((k.label(), k.layout.to_string()), k);
            }
        }
    }
    assert!(kernels.len() >= 8, "{} kernels", kernels.len());
    // the smallest FMA tiles, one warp each, which the tuning jobs sieve
    let sgemm = template(Flavor::Sgemm);
    for (bm, bn, tm, tn) in [(32, 32, 4, 8), (32, 64, 4, 8), (64, 32, 8, 4)] {
        for layout in Layout::ALL {
            let config = sgemm.config(&[
                ("BM", bm),
                ("BN", bn),
                ("BK", 16),
                ("TM", tm),
                ("TN", tn),
                ("VEC", 4),
            ]);
            let k = GemmKernel {
                flavor: Flavor::Sgemm,
                layout,
                config,
            };
            kernels.insert((k.label(), k.layout.to_string()), k);
        }
    }
    for k in kernels.values() {
        assert!(!cubin(k, &[]).is_empty());
        // as the library splits it for thin panels with a long K (a
        // warp-specialized kernel by its twin without producers, `fitting`)
        let mut split = k.clone();
        split.config.insert("SPLITK".to_string(), 64);
        if split.config.get("WS") == Some(&1) {
            split.config.insert("WS".to_string(), 0);
        }
        assert!(!cubin(&split, &[]).is_empty());
    }
}

/// The warpgroup-MMA 3xTF32 kernels compile for sm_90a in every layout,
/// split or not, and their main loop is the 12 wgmmas of a k tile (three
/// products of four k steps); the warp-specialized ones (not split) keep
/// every value in registers, which the producers' share of them allows.
#[test]
fn wgmma_3xtf32_kernels_compile_with_their_warpgroup_mmas() {
    if !support::nvrtc_or_skip() {
        return;
    }
    let nvdisasm = find_nvdisasm();
    let t = template(Flavor::Sgemm3xTf32);
    for (bm, bn, stages, flush, ws) in [
        (128, 128, 3, 4, 0),
        (64, 128, 4, 2, 0),
        (192, 64, 3, 4, 0),
        (128, 128, 3, 4, 1),
    ] {
        for layout in Layout::ALL {
            for splitk in if ws == 1 { vec![1] } else { vec![1, 8] } {
                let config = t.config(&[
                    ("WGMMA", 1),
                    ("WS", ws),
                    ("BM", bm),
                    ("BN", bn),
                    ("BK", 32),
                    ("STAGES", stages),
                    ("FLUSH", flush),
                    ("SPLITK", splitk),
                ]);
                t.validate(&config).unwrap();
                let k = GemmKernel {
                    flavor: Flavor::Sgemm3xTf32,
                    layout,
                    config,
                };
                let image = cubin(&k, &[]);
                if let Some(nvdisasm) = &nvdisasm {
                    let sass = disassemble(nvdisasm, &image).unwrap();
                    let mmas = sass
                        .lines()
                        .filter(|l| l.contains(&format!("HGMMA.64x{bn}x8.F32.TF32")))
                        .count();
                    assert_eq!(mmas, 12, "{} {layout}", k.label());
                    if ws == 1 {
                        assert!(!sass.contains("STL"), "{} {layout} spills", k.label());
                    }
                }
            }
        }
    }
}

/// A kernel that packs its operands (PACK = 1) is the TN kernel whatever
/// the layout, and its module carries the packing pass, `gemm_pack`, which
/// keeps its tile in shared memory and nothing in local memory.
#[test]
fn packing_kernels_are_the_tn_kernel_with_the_packing_pass_beside_it() {
    if !support::nvrtc_or_skip() {
        return;
    }
    let nvdisasm = find_nvdisasm();
    let t = template(Flavor::Sgemm3xTf32);
    let config = |pack| {
        t.config(&[
            ("WGMMA", 1),
            ("WS", 1),
            ("PACK", pack),
            ("BM", 128),
            ("BN", 128),
            ("BK", 32),
            ("STAGES", 3),
            ("FLUSH", 4),
        ])
    };
    let tn = GemmKernel {
        flavor: Flavor::Sgemm3xTf32,
        layout: Layout::ALL[2],
        config: config(0),
    };
    let main_of = |sass: &str| -> String {
        // the entry's code, from its label to the next section, with the
        // module-wide branch labels (.L_x_N) unnumbered: the packing pass
        // takes the first numbers
        let start = sass
            .find("\ngemm_3xtf32:")
            .unwrap_or_else(|| panic!("no gemm_3xtf32 in\n{sass}"));
        let rest = &sass[start..];
        let end = rest.find("\n//----").unwrap_or(rest.len());
        let mut parts = rest[..end].split(".L_x_");
        let mut code = parts.next().unwrap_or_default().to_string();
        for p in parts {
            code.push_str(".L");
            code.push_str(p.trim_start_matches(|c: char| c.is_ascii_digit()));
        }
        assert!(code.lines().count() > 1000, "{code}");
        code
    };
    let tn_sass = nvdisasm
        .as_ref()
        .map(|d| disassemble(d, &cubin(&tn, &[])).unwrap());
    for layout in Layout::ALL {
        let k = GemmKernel {
            flavor: Flavor::Sgemm3xTf32,
            layout,
            config: config(1),
        };
        let image = cubin(&k, &[]);
        let (Some(d), Some(tn_sass)) = (&nvdisasm, &tn_sass) else {
            continue;
        };
        let sass = disassemble(d, &image).unwrap();
        assert!(
            sass.contains(".text.gemm_pack"),
            "{layout}: no packing pass"
        );
        assert_eq!(
            main_of(&sass),
            main_of(tn_sass),
            "{layout}: not the TN kernel"
        );
        let pack = &sass[sass.find(".text.gemm_pack").unwrap()..];
        assert!(
            pack.contains("STS") && pack.contains("LDS"),
            "{layout}: {pack}"
        );
        assert!(!sass.contains("STL"), "{layout}: local memory");
    }
}

#[test]
fn dgemm_main_loop_issues_few_instructions_per_tensor_instruction() {
    if !support::nvrtc_or_skip() || !support::nvdisasm_or_skip() {
        return;
    }
    let nvdisasm = find_nvdisasm().unwrap();
    let t = template(Flavor::Dgemm);
    let config = t.config(&[
        ("BM", 128),
        ("BN", 128),
        ("BK", 8),
        ("WARPS_M", 2),
        ("WARPS_N", 4),
        ("MMA_K", 8),
        ("STAGES", 4),
        ("VEC", 2),
        ("GROUP", 16),
    ]);
    t.validate(&config).expect("a valid configuration");
    // Instructions per DMMA of the loop with the fewest of them (the loop of
    // the blocks inside C; the edge blocks' loop checks every copy).
    let per_dmma = |layout: Layout, extra: &[(&str, i64)]| -> f64 {
        let kernel = GemmKernel {
            flavor: Flavor::Dgemm,
            layout,
            config: config.clone(),
        };
        let sass = disassemble(&nvdisasm, &cubin(&kernel, extra)).unwrap();
        loops(&sass)
            .iter()
            .filter(|l| l.count("DMMA") > 0)
            .map(|l| l.instructions() as f64 / l.count("DMMA") as f64)
            .fold(f64::MAX, f64::min)
    };
    for layout in Layout::ALL {
        let fast = per_dmma(layout, &[]);
        println!("{layout}: {fast:.1} instructions per DMMA");
        assert!(fast <= 8.0, "{layout}: {fast:.1} instructions per DMMA");
    }
    // The checked copies on every step, as before: the measure tells them apart.
    let checked = per_dmma(Layout::ALL[0], &[("FASTLOAD", 0), ("FRAGPIPE", 0)]);
    println!("checked copies: {checked:.1} instructions per DMMA");
    assert!(checked > 12.0, "{checked:.1}");
}
