//! `include/hone.h` is what cbindgen makes of `src/lib.rs`: a changed
//! signature without a regenerated header fails here. `HONE_BLESS=1`
//! rewrites the header.

use std::path::PathBuf;

#[test]
fn the_committed_header_is_generated_from_the_source() {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads src/lib.rs")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8");
    let path = crate_dir.join("include/hone.h");
    if let Err(e) = hone_testkit::check(&path, &generated) {
        panic!("include/hone.h is out of date: {e}");
    }
    for name in [
        "hone_create",
        "hone_dsymv",
        "hone_ssymv",
        "hone_get_last_error",
        "HONE_STATUS_NO_DEVICE",
    ] {
        assert!(generated.contains(name), "{name}");
    }
}
