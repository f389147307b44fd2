//! cuBLASLt's batched INT8 GEMM with 32-bit sums (the Ozaki emulation's
//! products), with the algorithm chosen by timing the library's candidates
//! on the GPU: for the emulation's shapes its first candidate, which plain
//! cuBLAS also runs, is up to 1.4x slower than the best one.

use std::ffi::{c_int, c_void};

use cudarc::cublaslt::sys as lt;
use hone_gpu::launch::{DeviceBuffer, Event};
use hone_gpu::Gpu;

use super::cublas::{Result, VendorError};

fn check(call: &str, s: lt::cublasStatus_t) -> Result<()> {
    s.result()
        .map_err(|e| VendorError(format!("{call}: {:?}", e.0)))
}

/// The shape of a batch of C_l = op(A_l) B_l: A_l stored k x m (used
/// transposed), B_l k x n, C_l m x n, all column-major and packed with the
/// given leading dimensions and batch strides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int8Batch {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub lda: usize,
    pub ldb: usize,
    pub ldc: usize,
    pub stride_a: usize,
    pub stride_b: usize,
    pub stride_c: usize,
    pub batch: usize,
}

/// A planned batch: handle, descriptors, the timed algorithm and its
/// workspace.
pub struct Int8Gemm {
    handle: lt::cublasLtHandle_t,
    desc: lt::cublasLtMatmulDesc_t,
    layouts: [lt::cublasLtMatrixLayout_t; 3],
    algos: Vec<lt::cublasLtMatmulHeuristicResult_t>,
    chosen: usize,
    workspace: DeviceBuffer,
    stream: lt::cudaStream_t,
}

/// Workspace the candidates may use.
pub const WORKSPACE: usize = 32 << 20;
/// Candidates asked of the heuristic.
const CANDIDATES: usize = 8;

impl Int8Gemm {
    /// Plans `shape` on `gpu`'s stream; fails (never panics) when
    /// libcublasLt is missing or offers no algorithm.
    pub fn new(gpu: &Gpu, shape: Int8Batch) -> Result<Int8Gemm> {
        // SAFETY: only tries to dlopen candidate names.
        if !unsafe { lt::is_culib_present() } {
            return Err(VendorError("libcublasLt was not found".to_string()));
        }
        let mut g = Int8Gemm {
            handle: std::ptr::null_mut(),
            desc: std::ptr::null_mut(),
            layouts: [std::ptr::null_mut(); 3],
            algos: Vec::new(),
            chosen: 0,
            workspace: DeviceBuffer::alloc(gpu, WORKSPACE)?,
            stream: gpu.raw_stream() as lt::cudaStream_t,
        };
        // SAFETY: each call writes one handle or descriptor, which `Drop`
        // destroys; attributes are read from locals of the stated size.
        unsafe {
            check("cublasLtCreate", lt::cublasLtCreate(&mut g.handle))?;
            check(
                "cublasLtMatmulDescCreate",
                lt::cublasLtMatmulDescCreate(
                    &mut g.desc,
                    lt::cublasComputeType_t::CUBLAS_COMPUTE_32I,
                    lt::cudaDataType::CUDA_R_32I,
                ),
            )?;
            // cublasOperation_t: 1 is T, 0 is N.
            for (attr, op) in [
                (
                    lt::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSA,
                    1i32,
                ),
                (
                    lt::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSB,
                    0i32,
                ),
            ] {
                check(
                    "cublasLtMatmulDescSetAttribute",
                    lt::cublasLtMatmulDescSetAttribute(
                        g.desc,
                        attr,
                        &op as *const i32 as *const c_void,
                        4,
                    ),
                )?;
            }
            let specs = [
                (
                    lt::cudaDataType::CUDA_R_8I,
                    shape.k,
                    shape.m,
                    shape.lda,
                    shape.stride_a,
                ),
                (
                    lt::cudaDataType::CUDA_R_8I,
                    shape.k,
                    shape.n,
                    shape.ldb,
                    shape.stride_b,
                ),
                (
                    lt::cudaDataType::CUDA_R_32I,
                    shape.m,
                    shape.n,
                    shape.ldc,
                    shape.stride_c,
                ),
            ];
            for (layout, (ty, rows, cols, ld, stride)) in g.layouts.iter_mut().zip(specs) {
                check(
                    "cublasLtMatrixLayoutCreate",
                    lt::cublasLtMatrixLayoutCreate(layout, ty, rows as u64, cols as u64, ld as i64),
                )?;
                let count = shape.batch as i32;
                let stride = stride as i64;
                check(
                    "cublasLtMatrixLayoutSetAttribute",
                    lt::cublasLtMatrixLayoutSetAttribute(
                        *layout,
                        lt::cublasLtMatrixLayoutAttribute_t::CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                        &count as *const i32 as *const c_void,
                        4,
                    ),
                )?;
                check(
                    "cublasLtMatrixLayoutSetAttribute",
                    lt::cublasLtMatrixLayoutSetAttribute(
                        *layout,
                        lt::cublasLtMatrixLayoutAttribute_t::CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                        &stride as *const i64 as *const c_void,
                        8,
                    ),
                )?;
            }
            let mut pref: lt::cublasLtMatmulPreference_t = std::ptr::null_mut();
            check(
                "cublasLtMatmulPreferenceCreate",
                lt::cublasLtMatmulPreferenceCreate(&mut pref),
            )?;
            let bytes = WORKSPACE as u64;
            let set = check(
                "cublasLtMatmulPreferenceSetAttribute",
                lt::cublasLtMatmulPreferenceSetAttribute(
                    pref,
                    lt::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                    &bytes as *const u64 as *const c_void,
                    8,
                ),
            );
            let mut results: Vec<lt::cublasLtMatmulHeuristicResult_t> =
                vec![std::mem::zeroed(); CANDIDATES];
            let mut found: c_int = 0;
            let asked = set.and_then(|_| {
                check(
                    "cublasLtMatmulAlgoGetHeuristic",
                    lt::cublasLtMatmulAlgoGetHeuristic(
                        g.handle,
                        g.desc,
                        g.layouts[0],
                        g.layouts[1],
                        g.layouts[2],
                        g.layouts[2],
                        pref,
                        CANDIDATES as c_int,
                        results.as_mut_ptr(),
                        &mut found,
                    ),
                )
            });
            let _ = lt::cublasLtMatmulPreferenceDestroy(pref);
            asked?;
            results.truncate(found.max(0) as usize);
            g.algos = results;
        }
        if g.algos.is_empty() {
            return Err(VendorError(
                "cuBLASLt offers no INT8 algorithm for this shape".to_string(),
            ));
        }
        Ok(g)
    }

    /// How many candidates the heuristic offered.
    pub fn candidates(&self) -> usize {
        self.algos.len()
    }

    /// The candidate in use.
    pub fn chosen(&self) -> usize {
        self.chosen
    }

    /// Enqueues the batch with candidate `algo`.
    ///
    /// # Safety
    /// `a`, `b`, `c` must hold the planned shape's batches on this GPU.
    pub unsafe fn run_with(&self, algo: usize, a: u64, b: u64, c: u64) -> Result<()> {
        let (one, zero) = (1i32, 0i32);
        let r = &self.algos[algo];
        // SAFETY: the descriptors are alive and describe the buffers the
        // caller promised; the workspace is as large as the preference said.
        check("cublasLtMatmul", unsafe {
            lt::cublasLtMatmul(
                self.handle,
                self.desc,
                &one as *const i32 as *const c_void,
                a as *const c_void,
                self.layouts[0],
                b as *const c_void,
                self.layouts[1],
                &zero as *const i32 as *const c_void,
                c as *const c_void,
                self.layouts[2],
                c as *mut c_void,
                self.layouts[2],
                &r.algo,
                self.workspace.ptr() as *mut c_void,
                WORKSPACE,
                self.stream,
            )
        })
    }

    /// Enqueues the batch with the chosen candidate.
    ///
    /// # Safety
    /// As [`Int8Gemm::run_with`].
    pub unsafe fn run(&self, a: u64, b: u64, c: u64) -> Result<()> {
        // SAFETY: as the caller promised.
        unsafe { self.run_with(self.chosen, a, b, c) }
    }

    /// Times every candidate on the buffers (one warm-up, the median of
    /// three runs; the products are exact, so every candidate gives the
    /// same sums) and keeps the fastest. Candidates that fail are skipped.
    ///
    /// # Safety
    /// As [`Int8Gemm::run_with`].
    pub unsafe fn choose(&mut self, gpu: &Gpu, a: u64, b: u64, c: u64) -> Result<()> {
        let (start, end) = (Event::new(gpu)?, Event::new(gpu)?);
        let mut best: Option<(f64, usize)> = None;
        for algo in 0..self.algos.len() {
            let mut times = Vec::new();
            for rep in 0..4 {
                start.record(gpu)?;
                // SAFETY: as the caller promised.
                if unsafe { self.run_with(algo, a, b, c) }.is_err() {
                    break;
                }
                end.record(gpu)?;
                gpu.synchronize()?;
                if rep > 0 {
                    times.push(end.elapsed_since(&start)?);
                }
            }
            if times.len() < 3 {
                continue;
            }
            times.sort_by(f64::total_cmp);
            let t = times[1];
            if best.is_none_or(|(b, _)| t < b) {
                best = Some((t, algo));
            }
        }
        match best {
            Some((_, algo)) => {
                self.chosen = algo;
                Ok(())
            }
            None => Err(VendorError(
                "no cuBLASLt INT8 candidate ran for this shape".to_string(),
            )),
        }
    }
}

impl Drop for Int8Gemm {
    fn drop(&mut self) {
        // SAFETY: each was created once (or is null, which the library
        // ignores or we skip) and is destroyed once.
        unsafe {
            for l in self.layouts {
                if !l.is_null() {
                    let _ = lt::cublasLtMatrixLayoutDestroy(l);
                }
            }
            if !self.desc.is_null() {
                let _ = lt::cublasLtMatmulDescDestroy(self.desc);
            }
            if !self.handle.is_null() {
                let _ = lt::cublasLtDestroy(self.handle);
            }
        }
    }
}
