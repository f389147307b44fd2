//! The C and C++ examples (`examples/capi/`) built against `libhone.so` and
//! `hone.h` as a user builds them: directly, and through the installed
//! pkg-config file. Without a GPU they must stop with HONE_STATUS_NO_DEVICE
//! and exit 2; with one (and `HONE_GPU_TESTS=1`, as the GPU machine's run
//! sets) they must compute the right answer. A C compiler is needed; the
//! test says so and passes where there is none.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    if built.join("examples/capi").exists() {
        built
    } else {
        // A test binary carried to another machine runs from the
        // repository's root there.
        PathBuf::from(".")
    }
}

/// The directory holding this build's libhone.so: the test binary's own.
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("deps dir").to_path_buf();
    assert!(
        deps.join("libhone.so").exists(),
        "libhone.so is not beside the test binary in {}",
        deps.display()
    );
    deps
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hone-capi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("the command starts");
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Builds `source` with `compiler` and extra flags into `out`.
fn build(compiler: &str, source: &Path, out: &Path, flags: &[String]) {
    let mut cmd = Command::new(compiler);
    cmd.arg(source).arg("-o").arg(out).args(flags);
    if compiler == "c++" {
        cmd.arg("-std=c++17");
    }
    cmd.arg("-lm");
    run(&mut cmd);
}

fn direct_flags() -> Vec<String> {
    let lib = lib_dir();
    vec![
        format!("-I{}", root().join("crates/capi/include").display()),
        format!("-L{}", lib.display()),
        "-lhone".to_string(),
        format!("-Wl,-rpath,{}", lib.display()),
        "-Wall".to_string(),
        "-Werror".to_string(),
    ]
}

fn on_gpu() -> bool {
    std::env::var("HONE_GPU_TESTS").is_ok_and(|v| v == "1")
}

/// Runs an example without a device (it must say so and exit 2), then, on
/// the GPU machine, with one (it must pass its check).
fn exercise(exe: &Path, args: &[&str]) {
    let out = Command::new(exe)
        .args(args)
        .env("CUDA_VISIBLE_DEVICES", "")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}: {stderr}", exe.display());
    assert!(
        stderr.contains("HONE_STATUS_NO_DEVICE") && stderr.contains("hone_create"),
        "{stderr}"
    );
    if on_gpu() {
        let out = run(Command::new(exe).args(args));
        println!("{}", String::from_utf8_lossy(&out.stdout));
    }
}

#[test]
fn the_c_and_cpp_examples_build_and_run() {
    if !have("cc") || !have("c++") {
        println!("skipped: no C or C++ compiler (cc, c++) on this machine");
        return;
    }
    let dir = scratch("direct");
    let examples = root().join("examples/capi");
    let c = dir.join("dsymv");
    build("cc", &examples.join("dsymv.c"), &c, &direct_flags());
    exercise(&c, &["1000", "20"]);
    let cpp = dir.join("ssymv");
    build("c++", &examples.join("ssymv.cpp"), &cpp, &direct_flags());
    exercise(&cpp, &["1500"]);
    let gemm = dir.join("gemm");
    build("cc", &examples.join("gemm.c"), &gemm, &direct_flags());
    // Odd sizes, every routine, and layouts with and without a rule of
    // their own.
    exercise(&gemm, &["sgemm", "NN", "300", "211", "97", "3"]);
    exercise(&gemm, &["sgemm", "TT", "129", "64", "513", "3"]);
    exercise(&gemm, &["sgemm_3xtf32", "TN", "257", "130", "200", "3"]);
    exercise(&gemm, &["dgemm", "NT", "190", "255", "64", "3"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_installed_pkg_config_file_builds_the_c_example() {
    if !have("cc") || !have("pkg-config") {
        println!("skipped: no cc or pkg-config on this machine");
        return;
    }
    let prefix = scratch("prefix");
    run(Command::new(root().join("crates/capi/install.sh"))
        .arg(&prefix)
        .arg("--lib")
        .arg(lib_dir().join("libhone.so")));
    for f in [
        "lib/libhone.so",
        "include/hone.h",
        "lib/pkgconfig/hone.pc",
        "lib/cmake/hone/honeConfig.cmake",
    ] {
        assert!(prefix.join(f).exists(), "{f}");
    }
    let flags = run(Command::new("pkg-config")
        .args(["--cflags", "--libs", "hone"])
        .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig")));
    let flags: Vec<String> = String::from_utf8_lossy(&flags.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert!(flags.iter().any(|f| f == "-lhone"), "{flags:?}");
    let exe = prefix.join("dsymv");
    build("cc", &root().join("examples/capi/dsymv.c"), &exe, &flags);
    exercise(&exe, &["500", "5"]);
    let _ = std::fs::remove_dir_all(&prefix);
}
