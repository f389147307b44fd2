//! `hone routines`, `hone run` and `hone bench` end to end, as far as a
//! machine without a GPU can take them: problems and options are checked
//! before any device is needed, and without one both say so and exit 2.
//! Where a GPU is present the same commands run for real (the GPU tests of
//! hone-kernels check the kernels themselves).

use std::process::Command;

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

fn hone(args: &[&str]) -> Outcome {
    let out = Command::new(env!("CARGO_BIN_EXE_hone"))
        .args(args)
        // An empty list leaves the driver no device to open.
        .env("CUDA_VISIBLE_DEVICES", "")
        .output()
        .expect("hone runs");
    Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    }
}

#[test]
fn routines_lists_each_routine_with_its_variants_and_words() {
    let o = hone(&["routines"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("symv: "), "{}", o.stdout);
    assert!(o
        .stdout
        .contains("dsymv_lower, dsymv_upper, ssymv_lower, ssymv_upper"));
    assert!(o.stdout.contains("n=...") && o.stdout.contains("uplo=..."));
}

#[test]
fn bad_problems_are_refused_before_any_device_is_opened() {
    for (args, msg) in [
        (vec!["run", "gemv", "n=10"], "unknown routine `gemv`"),
        (vec!["run", "symv"], "SYMV needs n=N"),
        (vec!["run", "symv", "n=0"], "n=0 is out of range"),
        (
            vec!["run", "symv", "n=10", "uplo=middle"],
            "unknown storage `middle`",
        ),
        (vec!["run", "symv", "n=10", "k=3"], "unknown key `k`"),
        (vec!["run", "symv", "4096"], "`4096` is not KEY=VALUE"),
        (
            vec![
                "bench",
                "symv",
                "--out",
                "/nonexistent/x",
                "--variants",
                "zsymv_lower",
            ],
            "no variant `zsymv_lower`",
        ),
        (
            vec!["bench", "symv", "--out", "/nonexistent/x", "--sizes", "0"],
            "out of range",
        ),
        (vec!["run", "fft", "n=22"], "not a product of 2, 3, 5 and 7"),
        (
            vec!["run", "fft", "n=64", "place=side"],
            "expected in or out",
        ),
        (
            vec!["plan", "gemm", "--out", "/nonexistent/x"],
            "served by interval rules",
        ),
        (
            vec!["plan", "fft", "--out", "/nonexistent/x", "n=13"],
            "not a product of 2, 3, 5 and 7",
        ),
        (
            vec![
                "ddgemm",
                "--out",
                "/nonexistent/x",
                "--variants",
                "dgemm_nn",
            ],
            "not a double-double GEMM variant",
        ),
        (
            vec!["ddgemm", "--out", "/nonexistent/x", "--kinds", "phi=-2"],
            "input kind `phi=-2`",
        ),
        (
            vec!["ddgemm", "--out", "/nonexistent/x", "--madd", "4"],
            "MADD=4",
        ),
        (
            vec!["run", "gemm", "m=64", "routine=qdgemm"],
            "ddgemm_split",
        ),
    ] {
        let o = hone(&args);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(msg), "{args:?}: {}", o.stderr);
        assert!(!o.stderr.contains("no CUDA device"), "{args:?}");
    }
}

#[test]
fn without_a_device_run_and_bench_say_so_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("hone-bench-cli-{}", std::process::id()));
    for args in [
        vec!["run", "symv", "n=4096", "precision=s"],
        vec!["run", "fft", "n=256", "precision=d"],
        vec!["run", "gemm", "m=300", "routine=ddgemm", "layout=tn"],
        vec!["run", "dgemm_int8", "m=300", "moduli=15"],
        vec!["run", "ddgemm_int8", "m=300", "moduli=auto"],
        vec!["ddgemm", "--out", dir.to_str().unwrap(), "--sizes", "256"],
        vec![
            "plan",
            "fft",
            "--out",
            dir.to_str().unwrap(),
            "nx=60",
            "ny=7",
        ],
        vec![
            "bench",
            "symv",
            "--out",
            dir.to_str().unwrap(),
            "--plot-sizes",
            "0",
        ],
    ] {
        let o = hone(&args);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains("no CUDA device"),
            "{args:?}: {}",
            o.stderr
        );
    }
    // Nothing is written before the device is there.
    assert!(!dir.exists());
}

#[test]
fn retune_names_what_it_cannot_retune_and_needs_a_gpu_for_the_rest() {
    let o = hone(&["retune", "fft"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("not retuned by `hone retune`"),
        "{}",
        o.stderr
    );
    let o = hone(&["retune", "symv", "--variants", "zsymv_lower"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("no variant `zsymv_lower`"),
        "{}",
        o.stderr
    );
    let o = hone(&["retune", "gemm", "--variants", "zgemm_nn"]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("no variant `zgemm_nn`"), "{}", o.stderr);
    let dir = std::env::temp_dir().join(format!("hone-retune-cli-{}", std::process::id()));
    for routine in ["symv", "gemm"] {
        let o = hone(&["retune", routine, "--out", dir.to_str().unwrap()]);
        assert_eq!(o.code, 2, "{}", o.stderr);
        assert!(o.stderr.contains("no CUDA device"), "{}", o.stderr);
        assert!(
            !dir.exists(),
            "nothing is written before the device is there"
        );
    }
}
