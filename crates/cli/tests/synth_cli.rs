//! `hone synth` end to end: a benchmark case written out and run again with
//! `hone sim`, the JSON report, a failed verification, and a wrong annotation.

mod support;

use std::path::PathBuf;

use serde_json::Value;
use support::{hone_with, root, scratch, Outcome};

fn hone(args: &[&str]) -> Outcome {
    hone_with(args, &[])
}

fn sim_out(launch: &str) -> Value {
    let o = hone(&["sim", launch, "--json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    v["buffers"]["out"].clone()
}

#[test]
fn sleeve_kernel_is_written_and_runs_like_the_naive_one() {
    let dir = scratch("sleeve");
    let out = dir.join("diffusion_sleeve.cu");
    let o = hone(&[
        "synth",
        "examples/synth/diffusion_sleeve.cu",
        "--kernel",
        "diffusion_sleeve",
        "--launch",
        "examples/synth/diffusion_sleeve.json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stdout
            .contains("-> if (threadIdx.x == 0) { sb[csb - 1] = in[w]; }"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("ok     derived launch"), "{}", o.stdout);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("__global__ void diffusion_sleeve(")
            && text.contains("// hone: synthesized copy for")
    );

    // The emitted kernel, launched as the profile launch with its dynamic
    // shared memory ((3 + 2) * (4 + 2) floats), gives the naive kernel's output.
    let launch: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("examples/synth/diffusion_sleeve.json")).unwrap(),
    )
    .unwrap();
    let mut launch = launch.as_object().unwrap().clone();
    launch.insert("source".into(), Value::String(out.to_str().unwrap().into()));
    launch.insert("dynamic_shared_bytes".into(), Value::from(5 * 6 * 4));
    let lpath = dir.join("launch.json");
    std::fs::write(&lpath, serde_json::to_string(&launch).unwrap()).unwrap();
    assert_eq!(
        sim_out(lpath.to_str().unwrap()),
        sim_out("examples/synth/diffusion.json")
    );
}

#[test]
fn json_report_and_kernel_on_standard_output() {
    let o = hone(&[
        "synth",
        "examples/synth/diffusion_tb.cu",
        "--launch",
        "examples/synth/diffusion_tb.json",
        "--json",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["verified"], Value::Bool(true));
    assert_eq!(v["folded"][0], "mid");
    assert_eq!(v["sites"].as_array().unwrap().len(), 7);
    assert!(v["sites"][0]["seconds"].as_f64().unwrap() > 0.0);
    assert!(v["source"]
        .as_str()
        .unwrap()
        .contains("__global__ void diffusion_tb("));

    let o = hone(&[
        "synth",
        "examples/synth/diffusion_sleeve.cu",
        "--launch",
        "examples/synth/diffusion_sleeve.json",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.starts_with("// Synthesized by hone synth"),
        "{}",
        o.stdout
    );
    assert!(o.stderr.contains("verification ("), "{}", o.stderr);
}

/// The corpus's annotated SHA stencil (`tests/corpus/synth/stencil_sha.cu`).
fn sha() -> String {
    std::fs::read_to_string(root().join("tests/corpus/synth/stencil_sha.cu")).unwrap()
}

fn square_profile(dir: &std::path::Path, src: &str) -> (PathBuf, PathBuf) {
    let cu = dir.join("stencil.cu");
    std::fs::write(&cu, src).unwrap();
    let launch = dir.join("profile.json");
    std::fs::write(
        &launch,
        r#"{"source": "stencil.cu", "kernel": "stencil_kernel", "grid": [2, 2], "block": [4, 4],
            "args": {"in": {"type": "int", "len": 64}, "out": {"type": "int", "len": 64}, "nx": 8, "ny": 8}}"#,
    )
    .unwrap();
    (cu, launch)
}

#[test]
fn failed_verification_emits_nothing() {
    let dir = scratch("square");
    let (cu, launch) = square_profile(&dir, &sha());
    let out = dir.join("out.cu");
    let o = hone(&[
        "synth",
        cu.to_str().unwrap(),
        "--launch",
        launch.to_str().unwrap(),
        "--no-refine",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains("FAILED") && o.stdout.contains("no kernel emitted"),
        "{}",
        o.stdout
    );
    assert!(!out.exists());
    // --unverified writes it anyway.
    let o = hone(&[
        "synth",
        cu.to_str().unwrap(),
        "--launch",
        launch.to_str().unwrap(),
        "--unverified",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("NOT VERIFIED"));
}

#[test]
fn wrong_annotation_is_bad_input_with_its_place() {
    let dir = scratch("wrong");
    let (cu, launch) = square_profile(
        &dir,
        &sha().replace("__opt__in[(j == 0)", "__opt__out[(j == 0)"),
    );
    let o = hone(&[
        "synth",
        cu.to_str().unwrap(),
        "--launch",
        launch.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains("stencil.cu:13:22") && o.stderr.contains("never in shared memory"),
        "{}",
        o.stderr
    );
}

#[test]
fn the_template_states_the_rounding_its_check_allows() {
    let dir = scratch("rounding");
    let synth = |tdir: &std::path::Path, extra: &[&str]| {
        let mut args = vec![
            "synth",
            "examples/synth/diffusion_sleeve.cu",
            "--launch",
            "examples/synth/diffusion_sleeve.json",
            "-o",
        ];
        let out = tdir.join("k.cu");
        let (out, t) = (out.to_str().unwrap().to_string(), tdir.to_str().unwrap());
        args.push(&out);
        args.extend(["--template", t, "--naive", "examples/synth/diffusion.cu"]);
        args.extend(["--problem", "nx=N,ny=N,nz=N", "--sizes", "64"]);
        args.extend(extra);
        hone(&args)
    };
    let spec = |tdir: &std::path::Path| -> Value {
        let f = std::fs::read_dir(tdir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "json"))
            .unwrap();
        serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap()
    };
    let a = dir.join("default");
    let o = synth(&a, &[]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert_eq!(spec(&a)["rounding_ulps"], 16.0);
    // 0: the relative tolerance alone, and the field is left out.
    let b = dir.join("none");
    let o = synth(&b, &["--rounding-ulps", "0"]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert!(spec(&b).get("rounding_ulps").is_none(), "{}", spec(&b));
    let c = dir.join("negative");
    let o = synth(&c, &["--rounding-ulps=-1"]);
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("rounding ulps"), "{}", o.stderr);
}
