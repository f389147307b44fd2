//! What the NVRTC and GPU tests share: whether the tools and the device are
//! here, or why not.

/// Whether NVRTC can be loaded; without it the caller skips, unless
/// `HONE_REQUIRE_NVRTC` is set, which makes its absence a failure.
#[allow(unused_imports)] // the GPU tests need no NVRTC check of their own
pub use hone_gpu::libs::nvrtc_or_skip;

/// Whether nvdisasm is found, as [`nvrtc_or_skip`] with
/// `HONE_REQUIRE_NVDISASM`.
#[allow(dead_code)] // not every test binary disassembles
pub fn nvdisasm_or_skip() -> bool {
    hone_gpu::libs::tool_or_skip(
        hone_gpu::sass::find_nvdisasm().is_some(),
        "HONE_REQUIRE_NVDISASM",
        "nvdisasm",
    )
}

/// The first CUDA device, or `None` after printing why the test skips.
#[allow(dead_code)] // the NVRTC tests open no device
pub fn gpu() -> Option<hone_gpu::Gpu> {
    match hone_gpu::Gpu::open(0) {
        Ok(g) => Some(g),
        Err(e) => {
            println!("skipped: no CUDA device: {e}");
            None
        }
    }
}
