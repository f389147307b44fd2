//! What the NVRTC tests share: whether the tools are here, or why not.

/// Whether NVRTC can be loaded; without it the caller skips, unless
/// `HONE_REQUIRE_NVRTC` is set, which makes its absence a failure.
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
