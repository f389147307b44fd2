//! Finding the file an `#include` names.

use std::path::{Path, PathBuf};

/// Searches `quoted_dir` (the including file's directory, for `"..."`
/// includes) and then `dirs` from index `first_dir` on. Returns the path
/// and the index of the `-I` directory it was found in.
pub(crate) fn resolve(
    spec: &str,
    quoted_dir: Option<&Path>,
    dirs: &[PathBuf],
    first_dir: usize,
) -> Option<(PathBuf, Option<usize>)> {
    let p = Path::new(spec);
    if p.is_absolute() {
        return p.is_file().then(|| (p.to_path_buf(), None));
    }
    if let Some(d) = quoted_dir {
        let c = d.join(spec);
        if c.is_file() {
            return Some((c, None));
        }
    }
    dirs.iter().enumerate().skip(first_dir).find_map(|(k, d)| {
        let c = d.join(spec);
        c.is_file().then_some((c, Some(k)))
    })
}

/// Identity of a file for `#pragma once`.
pub(crate) fn file_key(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Headers of the C and C++ libraries, CUDA and its samples. Code that
/// includes them with quotes still builds with nvcc, so when they are not
/// found they are skipped like `<...>` includes instead of being errors.
const SYSTEM_HEADERS: &[&str] = &[
    "assert.h",
    "complex.h",
    "ctype.h",
    "errno.h",
    "fcntl.h",
    "float.h",
    "inttypes.h",
    "limits.h",
    "malloc.h",
    "math.h",
    "memory.h",
    "omp.h",
    "pthread.h",
    "signal.h",
    "stdarg.h",
    "stdbool.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "strings.h",
    "time.h",
    "unistd.h",
    "algorithm",
    "array",
    "cassert",
    "cfloat",
    "chrono",
    "climits",
    "cmath",
    "cstddef",
    "cstdint",
    "cstdio",
    "cstdlib",
    "cstring",
    "ctime",
    "fstream",
    "functional",
    "iomanip",
    "iostream",
    "limits",
    "map",
    "memory",
    "numeric",
    "random",
    "sstream",
    "string",
    "type_traits",
    "utility",
    "vector",
    "cooperative_groups.h",
    "cublas.h",
    "cublas_v2.h",
    "cuda.h",
    "cuda_bf16.h",
    "cudaEGL.h",
    "cudaGL.h",
    "cuda_egl_interop.h",
    "cuda_gl_interop.h",
    "cudaProfiler.h",
    "cuda_awbarrier.h",
    "cuda_occupancy.h",
    "cuda_texture_types.h",
    "surface_functions.h",
    "nvToolsExt.h",
    "cuda_fp16.h",
    "cuda_pipeline.h",
    "cuda_profiler_api.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "cufft.h",
    "curand.h",
    "curand_kernel.h",
    "cusparse.h",
    "device_functions.h",
    "device_launch_parameters.h",
    "driver_types.h",
    "helper_cuda.h",
    "helper_functions.h",
    "helper_math.h",
    "helper_string.h",
    "helper_timer.h",
    "math_constants.h",
    "math_functions.h",
    "mma.h",
    "nvrtc.h",
    "sm_20_atomic_functions.h",
    "sm_60_atomic_functions.h",
    "texture_fetch_functions.h",
    "vector_types.h",
];

/// CUDA's device-side library headers that hone writes itself, in the CUDA
/// it reads: an `#include` of one that the user's directories do not hold
/// reads this text instead of skipping it, so code that declares `half`
/// values gets the type and its intrinsics.
const OWN_HEADERS: &[(&str, &str)] = &[
    ("cuda_fp16.h", include_str!("../headers/cuda_fp16.h")),
    ("cuda_bf16.h", include_str!("../headers/cuda_bf16.h")),
    (
        "curand_kernel.h",
        include_str!("../headers/curand_kernel.h"),
    ),
    (
        "hone_round_odd.h",
        include_str!("../headers/hone_round_odd.h"),
    ),
    ("sys/time.h", include_str!("../headers/sys_time.h")),
];

/// hone's text for the header `spec`, and the name it is reported under.
pub(crate) fn own_header(spec: &str) -> Option<(String, &'static str)> {
    OWN_HEADERS
        .iter()
        .find(|(name, _)| *name == spec)
        .map(|(name, text)| (format!("<hone>/{name}"), *text))
}

/// Directories of system and CUDA headers (`sys/time.h`, `thrust/sort.h`).
const SYSTEM_DIRS: &[&str] = &[
    "sys/",
    "bits/",
    "thrust/",
    "cub/",
    "cuda/",
    "cooperative_groups/",
    "GL/",
    "EGL/",
    "nvtx3/",
];

pub(crate) fn is_system_header(spec: &str) -> bool {
    SYSTEM_HEADERS.contains(&spec) || SYSTEM_DIRS.iter().any(|d| spec.starts_with(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_headers() {
        for h in [
            "cuda.h",
            "cuda_runtime.h",
            "stdio.h",
            "sys/time.h",
            "thrust/device_vector.h",
        ] {
            assert!(is_system_header(h), "{h}");
        }
        for h in ["polybench.h", "kernels/util.h", "mycuda.h"] {
            assert!(!is_system_header(h), "{h}");
        }
    }
}
