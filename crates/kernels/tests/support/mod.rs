//! What the NVRTC tests share: whether the tools are here, or why not.

/// Whether NVRTC can be loaded; without it the caller skips, unless
/// `HONE_REQUIRE_NVRTC` is set, which makes its absence a failure.
pub fn nvrtc_or_skip() -> bool {
    if hone_gpu::libs::nvrtc_library_present() {
        return true;
    }
    assert!(
        std::env::var_os("HONE_REQUIRE_NVRTC").is_none(),
        "HONE_REQUIRE_NVRTC is set but libnvrtc cannot be loaded"
    );
    eprintln!("skipping: NVRTC (libnvrtc.so) not found; .ci/run installs it from PyPI");
    false
}

/// Whether nvdisasm is found, as [`nvrtc_or_skip`] with
/// `HONE_REQUIRE_NVDISASM`.
#[allow(dead_code)] // not every test binary disassembles
pub fn nvdisasm_or_skip() -> bool {
    if hone_gpu::sass::find_nvdisasm().is_some() {
        return true;
    }
    assert!(
        std::env::var_os("HONE_REQUIRE_NVDISASM").is_none(),
        "HONE_REQUIRE_NVDISASM is set but nvdisasm is not found"
    );
    eprintln!("skipping: nvdisasm not found; .ci/run installs it from PyPI");
    false
}
